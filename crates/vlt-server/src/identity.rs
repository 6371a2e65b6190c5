//! Who a visitor is, without sign-up: a player with a name, known by a secret token kept in a
//! cookie (stored only as its SHA-256), and optionally an account with a password (argon2id) to
//! take the same player to another device. Names are checked here once, for every way of setting
//! one.

use crate::error::ApiError;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use axum::http::HeaderMap;
use sha2::{Digest, Sha256};

/// The cookie holding the player's token.
pub const COOKIE: &str = "vlt_player";
/// The longest name, in characters.
pub const MAX_NAME: usize = 24;
/// The shortest and longest password, in bytes.
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=256;
/// How long the cookie lasts in the browser, in seconds (a year; it is renewed on each visit).
const COOKIE_MAX_AGE: u64 = 365 * 24 * 3600;

/// The SHA-256 of a token, in hex: what the database keeps instead of the token. Tokens are 128
/// random bits, so a fast hash is enough (nothing to guess from); passwords get argon2.
#[must_use]
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Characters that would let a name pretend to be something else: bidirectional overrides and
/// isolates, zero-width characters, the byte-order mark.
fn deceptive(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// A player's name as given, trimmed; refused when empty, longer than [`MAX_NAME`] characters, or
/// holding control or deceptive characters. (It is still escaped wherever it is shown.)
///
/// # Errors
/// [`ApiError::BadRequest`] saying which.
pub fn check_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::BadRequest("a name cannot be empty".into()));
    }
    if name.chars().count() > MAX_NAME {
        return Err(ApiError::BadRequest(format!("a name has at most {MAX_NAME} characters")));
    }
    if name.chars().any(|c| c.is_control() || deceptive(c)) {
        return Err(ApiError::BadRequest("a name cannot hold control characters".into()));
    }
    Ok(name.to_string())
}

/// The key an account's name is found by: the same name in any case.
#[must_use]
pub fn login_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The argon2id hash of `password` (PHC string, with its own random salt).
///
/// # Errors
/// [`ApiError::BadRequest`] for a password too short or long, [`ApiError::Internal`] if hashing
/// fails.
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    if !PASSWORD_LEN.contains(&password.len()) {
        return Err(ApiError::BadRequest(format!(
            "a password has {} to {} bytes",
            PASSWORD_LEN.start(),
            PASSWORD_LEN.end()
        )));
    }
    let mut salt = [0u8; 16];
    getrandom::getrandom(&mut salt).map_err(|e| ApiError::Internal(format!("random: {e}")))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| ApiError::Internal(format!("salt: {e}")))?;
    argon2::Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("password hash: {e}")))
}

/// Whether `password` matches the stored argon2 `hash`.
#[must_use]
pub fn password_matches(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .is_ok_and(|h| argon2::Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

/// The player token the request's cookie carries, if any.
#[must_use]
pub fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_string())
        .filter(|v| v.len() <= 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The `Set-Cookie` value giving the browser `token`: not readable by scripts, not sent by other
/// sites' requests, and over HTTPS only when `secure`.
#[must_use]
pub fn set_cookie(token: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE}={token}; Path=/; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax{secure}")
}

/// The `Set-Cookie` value that forgets the player (log out).
#[must_use]
pub fn clear_cookie() -> String {
    format!("{COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_refused_when_empty_overlong_or_with_control_characters() {
        assert_eq!(check_name("  Lalnunmawia ").unwrap(), "Lalnunmawia");
        assert_eq!(check_name("<b>Zo</b> & \"co\"").unwrap(), "<b>Zo</b> & \"co\"", "escaped when shown");
        assert_eq!(check_name(&"é".repeat(MAX_NAME)).unwrap().chars().count(), MAX_NAME);
        for bad in
            ["", "   ", &"x".repeat(MAX_NAME + 1), "a\nb", "a\u{7}", "evil\u{202E}gnp", "a\u{200B}b", "\u{0}"]
        {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn tokens_are_hashed_and_passwords_verify_only_themselves() {
        let h = token_hash("00ff");
        assert_eq!(h.len(), 64);
        assert_ne!(h, token_hash("00fe"));
        let p = hash_password("correct horse").unwrap();
        assert!(p.starts_with("$argon2id$"), "{p}");
        assert!(!p.contains("correct horse"));
        assert!(password_matches("correct horse", &p));
        assert!(!password_matches("correct horsf", &p));
        assert!(!password_matches("correct horse", "not a hash"));
        assert!(hash_password("short").is_err());
    }

    #[test]
    fn the_cookie_is_read_among_others_and_odd_values_are_ignored() {
        let mut h = HeaderMap::new();
        h.insert("cookie", "a=1; vlt_player=abc123; b=2".parse().unwrap());
        assert_eq!(cookie_token(&h).as_deref(), Some("abc123"));
        h.insert("cookie", "vlt_player=<script>".parse().unwrap());
        assert_eq!(cookie_token(&h), None);
        assert!(set_cookie("ab", true).contains("HttpOnly") && set_cookie("ab", true).contains("Secure"));
    }
}
