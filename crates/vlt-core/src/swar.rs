//! Byte-parallel tests on a row of the board held in one `u64` (SIMD within a register): which
//! holes hold a stone, which hold exactly one. Plain integer operations, the same on every target.
//!
//! A row word has the row's six holes in its low six bytes, in ring order; the two bytes above are
//! ignored. Every hole holds at most 60 stones (R1), below `0x80`, so adding `0x7f` to a byte sets
//! its top bit exactly when the byte is non-zero and never carries into the next byte.

/// `0x7f` in each of the six hole bytes.
const LOW7: u64 = 0x7f7f_7f7f_7f7f;
/// `0x80` in each of the six hole bytes.
const HIGH: u64 = 0x8080_8080_8080;
/// `0x01` in each of the six hole bytes.
const ONES: u64 = 0x0101_0101_0101;
/// Multiplying a word whose only bits are the top bits of bytes 0–5 by this moves the top bit of
/// byte `i` to bit `56 + i` (the product's partial terms land on distinct bits, so none carries).
const GATHER: u64 = 0x0002_0408_1020_4081;

/// The top bit of each hole byte of `row` that is non-zero; every other bit clear.
#[inline(always)]
pub(crate) const fn nonempty(row: u64) -> u64 {
    row.wrapping_add(LOW7) & HIGH
}

/// The top bit of each hole byte of `row` that holds exactly 1; every other bit clear.
#[inline(always)]
pub(crate) const fn single(row: u64) -> u64 {
    !nonempty(row ^ ONES) & HIGH
}

/// A word from [`nonempty`] or [`single`] as a 6-bit mask: bit `i` for hole byte `i`.
#[inline(always)]
pub(crate) const fn gather(spread: u64) -> u8 {
    (spread.wrapping_mul(GATHER) >> 56) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row word from six hole counts, with noise in the two ignored bytes.
    fn row(holes: [u8; 6], noise: u16) -> u64 {
        let mut b = [0u8; 8];
        b[..6].copy_from_slice(&holes);
        b[6..].copy_from_slice(&noise.to_le_bytes());
        u64::from_le_bytes(b)
    }

    fn expected(holes: [u8; 6], f: impl Fn(u8) -> bool) -> u8 {
        holes.iter().enumerate().filter(|&(_, &c)| f(c)).map(|(i, _)| 1u8 << i).sum()
    }

    /// Every pattern of empty / single / larger holes, at the count limits, agrees with a byte loop.
    #[test]
    fn masks_agree_with_a_byte_loop() {
        let values = [0u8, 1, 2, 59, 60];
        let mut checked = 0;
        for code in 0..values.len().pow(6) {
            let mut holes = [0u8; 6];
            let mut c = code;
            for h in &mut holes {
                *h = values[c % values.len()];
                c /= values.len();
            }
            for noise in [0u16, 0x0101, 0x3c3c, 0xffff] {
                let w = row(holes, noise);
                assert_eq!(gather(nonempty(w)), expected(holes, |c| c != 0), "{holes:?} {noise:#x}");
                assert_eq!(gather(single(w)), expected(holes, |c| c == 1), "{holes:?} {noise:#x}");
                checked += 1;
            }
        }
        assert_eq!(checked, 5usize.pow(6) * 4);
    }
}
