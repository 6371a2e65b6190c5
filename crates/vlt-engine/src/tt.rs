//! The transposition table: a fixed-size, lock-free hash table shared by all search threads.
//!
//! Each slot is two `AtomicU64`: the data word and the key XOR the data. A reader accepts a slot only
//! when `key ^ data` matches, so a slot torn by two threads writing at once reads as a miss instead
//! of a wrong entry (the "lockless hashing" trick) — no locks. The slots live in an anonymous
//! memory map advised to use transparent huge pages: a probe of a large table is a cache miss
//! anyway, and with 4 KiB pages it is a TLB miss too; the search prefetches the slots of a node's
//! children (see `docs/engine.md`).
//!
//! Stored values are path-independent: the score is the future capture difference from the stored
//! position (captures so far are not part of the key, R4/R6), and the search does not store scores
//! that depend on R7 repetitions outside the subtree (see `search.rs`).

use std::sync::atomic::{AtomicU64, Ordering};

/// The size of a transparent huge page on x86-64 Linux: the slots start on such a boundary.
const HUGE_PAGE: usize = 2 << 20;

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// No score stored (only a move for ordering).
    None = 0,
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    /// The score is the value at this depth.
    Exact = 3,
}

/// One probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Score in centistones, for the player to move.
    pub score: i32,
    /// Remaining depth the score was searched to.
    pub depth: u8,
    /// How the score bounds the value.
    pub bound: Bound,
    /// Ring index (0..12) of the best move found, if any.
    pub mv: Option<u8>,
    /// True when the score involves no evaluation at the leaves (a proven value under R7 scoring).
    pub proven: bool,
}

// Data word layout: score (16 bits, i16), depth (8), bound (2), move+1 (4), proven (1), age (8).
const SCORE_SHIFT: u32 = 0;
const DEPTH_SHIFT: u32 = 16;
const BOUND_SHIFT: u32 = 24;
const MOVE_SHIFT: u32 = 26;
const PROVEN_SHIFT: u32 = 30;
const AGE_SHIFT: u32 = 31;

fn pack(e: Entry, age: u8) -> u64 {
    let mv = e.mv.map_or(0, |m| u64::from(m) + 1);
    (u64::from(e.score as i16 as u16) << SCORE_SHIFT)
        | (u64::from(e.depth) << DEPTH_SHIFT)
        | ((e.bound as u64) << BOUND_SHIFT)
        | (mv << MOVE_SHIFT)
        | (u64::from(e.proven) << PROVEN_SHIFT)
        | (u64::from(age) << AGE_SHIFT)
}

fn unpack(d: u64) -> (Entry, u8) {
    let bound = match (d >> BOUND_SHIFT) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    let mv = ((d >> MOVE_SHIFT) & 15) as u8;
    let e = Entry {
        score: i32::from((d >> SCORE_SHIFT) as u16 as i16),
        depth: (d >> DEPTH_SHIFT) as u8,
        bound,
        mv: mv.checked_sub(1),
        proven: (d >> PROVEN_SHIFT) & 1 == 1,
    };
    (e, (d >> AGE_SHIFT) as u8)
}

#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The slots in an anonymous memory map of their own, so that the kernel can back them with huge
/// pages (`madvise(MADV_HUGEPAGE)`; the global allocator gives no say in that).
struct Slots {
    /// Points into `_map`, which lives exactly as long; never handed out beyond `&self`.
    slots: &'static [Slot],
    _map: memmap2::MmapMut,
}

impl Slots {
    fn new(n: usize) -> Slots {
        let bytes = n * SLOT_BYTES;
        // One huge page more, so that the slots can start on a huge-page boundary.
        let mut map = memmap2::MmapOptions::new()
            .len(bytes + HUGE_PAGE)
            .map_anon()
            .unwrap_or_else(|e| panic!("the transposition table's {bytes} bytes: {e}"));
        // Only a hint: without huge pages the table works the same, only slower.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        let base = map.as_mut_ptr();
        // (`align_offset` may in principle decline; the map's own page alignment then suffices.)
        let offset = Some(base.align_offset(HUGE_PAGE)).filter(|&o| o < HUGE_PAGE).unwrap_or(0);
        #[allow(unsafe_code)]
        // SAFETY: the range `offset..offset + bytes` lies inside the map (it is `HUGE_PAGE` longer
        // than `bytes`) and is aligned for `Slot` (two `AtomicU64`, `repr(C)`); an anonymous map
        // is zero-filled and zero is a valid `AtomicU64`. The pointer comes from `as_mut_ptr`, and
        // the memory is only ever reached through this slice, whose atomics allow shared writes.
        // The map is kept beside the slice and unmapped only when both drop; the `'static` does
        // not leave this struct.
        let slots = unsafe { std::slice::from_raw_parts(base.add(offset).cast::<Slot>(), n) };
        Slots { slots, _map: map }
    }
}

/// The table. `Send + Sync`: threads share it through an `Arc`.
pub struct Tt {
    mem: Slots,
    age: AtomicU64,
}

impl std::fmt::Debug for Tt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tt({} slots)", self.slots().len())
    }
}

/// Bytes per slot.
const SLOT_BYTES: usize = 16;

impl Tt {
    /// A table of about `mb` MiB (at least 1024 slots).
    #[must_use]
    pub fn new(mb: usize) -> Tt {
        let n = (mb.saturating_mul(1 << 20) / SLOT_BYTES).max(1024);
        let tt = Tt { mem: Slots::new(n), age: AtomicU64::new(0) };
        // The map's pages are only allocated when first touched: touch every page now, so the
        // first search (timed, and with several threads faulting at once much slower) does not pay
        // for it.
        tt.clear();
        tt
    }

    #[inline]
    fn slots(&self) -> &[Slot] {
        self.mem.slots
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for s in self.slots() {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-high maps the key onto the table without a division.
        ((u128::from(key) * self.slots().len() as u128) >> 64) as usize
    }

    /// Starts loading the slot of `key` into the cache, so that a probe soon after finds it there.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = std::ptr::from_ref(&self.slots()[self.index(key)]).cast::<i8>();
            #[allow(unsafe_code)]
            // SAFETY: a prefetch is only a hint: it never faults and changes no memory. The
            // intrinsic is unsafe only as an SSE instruction, and SSE is part of x86-64.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = &self.slots()[self.index(key)];
        let data = s.data.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        // A zero data word is an empty slot (a real entry always has a bound or a move).
        (data != 0 && check ^ data == key).then(|| unpack(data).0)
    }

    /// Stores an entry, replacing the slot's unless it holds a deeper entry of this search for
    /// another position.
    pub fn store(&self, key: u64, e: Entry) {
        let age = self.age.load(Ordering::Relaxed) as u8;
        let s = &self.slots()[self.index(key)];
        let old = s.data.load(Ordering::Relaxed);
        if old != 0 {
            let same = s.check.load(Ordering::Relaxed) ^ old == key;
            let (oe, oage) = unpack(old);
            // Keep the better move of a same-position entry when the new one has none.
            let e = if same && e.mv.is_none() { Entry { mv: oe.mv, ..e } } else { e };
            if !same && oage == age && oe.depth > e.depth.saturating_add(2) {
                return;
            }
            let d = pack(e, age);
            s.data.store(d, Ordering::Relaxed);
            s.check.store(key ^ d, Ordering::Relaxed);
            return;
        }
        let d = pack(e, age);
        s.data.store(d, Ordering::Relaxed);
        s.check.store(key ^ d, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let tt = Tt::new(1);
        let e = Entry { score: -1234, depth: 17, bound: Bound::Lower, mv: Some(11), proven: true };
        tt.store(0xdead_beef, e);
        assert_eq!(tt.probe(0xdead_beef), Some(e));
        assert_eq!(tt.probe(0xdead_beee), None);
        let e2 = Entry { score: 5, depth: 0, bound: Bound::None, mv: None, proven: false };
        tt.store(0xdead_beef, e2);
        // The move of the earlier entry survives a move-less store for the same position.
        assert_eq!(tt.probe(0xdead_beef).unwrap().mv, Some(11));
        tt.clear();
        assert_eq!(tt.probe(0xdead_beef), None);
    }
}
