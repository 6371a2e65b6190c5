//! Translated text for `vlt play`: one catalogue per language in `crates/vlt-cli/i18n/*.txt`,
//! embedded at build time, so no user-visible sentence lives in the code.
//!
//! Catalogue format: `key = value` lines; `#` starts a comment line; `\n` in a value is a line
//! break; `{name}` is replaced by an argument. A key missing from a catalogue falls back to
//! English, so a half-translated catalogue still shows every message.

use std::collections::HashMap;

/// The languages of the five rule texts (RULES.md), English first (the fallback).
pub const LANGS: [(&str, &str); 5] = [
    ("en", include_str!("../../../i18n/en.txt")),
    ("es", include_str!("../../../i18n/es.txt")),
    ("ca", include_str!("../../../i18n/ca.txt")),
    ("ru", include_str!("../../../i18n/ru.txt")),
    ("de", include_str!("../../../i18n/de.txt")),
];

/// One language's messages, with English behind it for missing keys.
#[derive(Clone, Debug)]
pub struct Catalog {
    map: HashMap<&'static str, String>,
    fallback: HashMap<&'static str, String>,
}

/// Reads a catalogue text into its key/value map.
pub fn parse(text: &'static str) -> HashMap<&'static str, String> {
    let mut map = HashMap::new();
    for line in text.lines() {
        let line = line.trim_start();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((k, v)) = line.split_once('=') {
            map.insert(k.trim(), v.trim().replace("\\n", "\n"));
        }
    }
    map
}

impl Catalog {
    /// The catalogue for a language code (`en`, `es`, `ca`, `ru`, `de`), or `None` if we have none.
    pub fn new(code: &str) -> Option<Catalog> {
        let (_, text) = LANGS.iter().find(|(c, _)| *c == code)?;
        Some(Catalog { map: parse(text), fallback: parse(LANGS[0].1) })
    }

    /// The message `key`; the key itself when no catalogue has it (a visible bug, not a crash).
    pub fn t(&self, key: &str) -> String {
        self.map.get(key).or_else(|| self.fallback.get(key)).cloned().unwrap_or_else(|| key.to_string())
    }

    /// The message `key` with each `{name}` replaced by its value.
    pub fn f(&self, key: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
        let mut s = self.t(key);
        for (name, value) in args {
            s = s.replace(&format!("{{{name}}}"), &value.to_string());
        }
        s
    }
}

/// The language code for a locale value such as `es_ES.UTF-8`, `ru_RU` or `de`; `None` for
/// `C`, `POSIX`, empty values and languages we have no catalogue for.
pub fn lang_of_locale(value: &str) -> Option<&'static str> {
    let lang = value.split(['_', '.', '@', '-']).next()?.to_ascii_lowercase();
    LANGS.iter().map(|(c, _)| *c).find(|c| *c == lang)
}

/// The language from the environment, as POSIX orders it: `LC_ALL`, then `LC_MESSAGES`, then
/// `LANG`; the first variable that is set and not empty decides. English otherwise.
pub fn lang_from_env(get: impl Fn(&str) -> Option<String>) -> &'static str {
    for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
        if let Some(v) = get(var).filter(|v| !v.is_empty()) {
            return lang_of_locale(&v).unwrap_or("en");
        }
    }
    "en"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_values_map_to_catalogues() {
        assert_eq!(lang_of_locale("es_ES.UTF-8"), Some("es"));
        assert_eq!(lang_of_locale("ca_ES@valencia"), Some("ca"));
        assert_eq!(lang_of_locale("ru"), Some("ru"));
        assert_eq!(lang_of_locale("C"), None);
        assert_eq!(lang_of_locale("fr_FR.UTF-8"), None);
    }

    #[test]
    fn lc_all_wins_over_lang() {
        let env = |v: &str| match v {
            "LC_ALL" => Some("de_DE.UTF-8".to_string()),
            "LANG" => Some("es_ES.UTF-8".to_string()),
            _ => None,
        };
        assert_eq!(lang_from_env(env), "de");
        let env = |v: &str| (v == "LANG").then(|| "ca_ES.UTF-8".to_string());
        assert_eq!(lang_from_env(env), "ca");
        assert_eq!(lang_from_env(|_| None), "en");
    }

    /// Every catalogue has every English key, so no language falls back silently.
    #[test]
    fn every_catalogue_is_complete() {
        let en = parse(LANGS[0].1);
        for (code, text) in LANGS {
            let m = parse(text);
            let mut missing: Vec<_> = en.keys().filter(|k| !m.contains_key(*k)).collect();
            missing.sort();
            assert!(missing.is_empty(), "{code} lacks {missing:?}");
            let mut extra: Vec<_> = m.keys().filter(|k| !en.contains_key(*k)).collect();
            extra.sort();
            assert!(extra.is_empty(), "{code} has unknown keys {extra:?}");
        }
    }

    /// Placeholders survive translation: a value uses the same `{names}` as the English one.
    #[test]
    fn placeholders_match_english() {
        let names = |s: &str| {
            let mut v: Vec<String> =
                s.split('{').skip(1).filter_map(|p| p.split_once('}')).map(|(n, _)| n.to_string()).collect();
            v.sort();
            v
        };
        let en = parse(LANGS[0].1);
        for (code, text) in LANGS {
            for (k, v) in parse(text) {
                assert_eq!(names(&v), names(&en[k]), "{code}: {k}");
            }
        }
    }

    /// Texts with a fixed place on the 80x24 screen fit it in every language.
    #[test]
    fn fixed_texts_fit_the_screen() {
        for (code, text) in LANGS {
            let m = parse(text);
            let len = |k: &str| m[k].chars().count();
            assert!(len("keys_1") <= 80 && len("keys_2") <= 80, "{code}: key lines");
            assert!(len("stones") <= 8, "{code}: stones fits a store");
            assert!(len("menu_keys") <= 62, "{code}: menu keys");
            // The status line is 63 wide; a name is at most 16 characters.
            assert!(len("status_turn") - "{who}".len() + 16 <= 63, "{code}: status_turn");
        }
    }

    #[test]
    fn arguments_are_substituted() {
        let c = Catalog::new("en").unwrap();
        assert_eq!(c.f("illegal_empty", &[("hole", &"3B")]), c.t("illegal_empty").replace("{hole}", "3B"));
        assert!(Catalog::new("xx").is_none());
    }
}
