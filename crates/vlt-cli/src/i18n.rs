//! Translated text for the terminal (`vlt play`, `vlt puzzles`, `vlt tutorial`): the web page's
//! catalogues (`web/i18n/*.json`), one per language, embedded at build time, so both front ends
//! say the same and no user-visible sentence lives in the code.
//!
//! Catalogue format: a flat JSON object of key to message; `{name}` is replaced by an argument; a
//! message that depends on a number has one key per plural form of the language, `key.one`,
//! `key.few`, `key.many`, `key.other` (CLDR's categories, as the page's `Intl.PluralRules` names
//! them). A key missing from a catalogue falls back to English, so a half-translated catalogue
//! still shows every message.

use std::collections::HashMap;

/// The languages of the five rule texts, English first (the fallback).
pub const LANGS: [(&str, &str); 5] = [
    ("en", include_str!("../../../web/i18n/en.json")),
    ("es", include_str!("../../../web/i18n/es.json")),
    ("ca", include_str!("../../../web/i18n/ca.json")),
    ("ru", include_str!("../../../web/i18n/ru.json")),
    ("de", include_str!("../../../web/i18n/de.json")),
];

/// One language's messages, with English behind it for missing keys.
#[derive(Clone, Debug)]
pub struct Catalog {
    code: &'static str,
    map: HashMap<String, String>,
    fallback: HashMap<String, String>,
}

/// Reads a catalogue text into its key/value map; an embedded catalogue that is not such an
/// object is a build mistake the tests catch, so it reads as empty here rather than failing.
fn parse(text: &str) -> HashMap<String, String> {
    serde_json::from_str(text).unwrap_or_default()
}

/// The plural category of `n` in a language: `one`, `few`, `many` or `other` (CLDR's rules for
/// integers in the five languages we have).
fn plural(code: &str, n: u64) -> &'static str {
    match code {
        "ru" => match (n % 10, n % 100) {
            (1, r) if r != 11 => "one",
            (2..=4, r) if !(12..=14).contains(&r) => "few",
            _ => "many",
        },
        _ if n == 1 => "one",
        _ => "other",
    }
}

/// The codes of the languages there are, English first.
pub fn codes() -> impl Iterator<Item = &'static str> {
    LANGS.iter().map(|(c, _)| *c)
}

impl Catalog {
    /// The catalogue a `--lang` option names, or the environment's language without one.
    ///
    /// # Errors
    /// A language we have no catalogue for (an input error: exit status 2).
    pub fn for_option(lang: Option<&str>) -> anyhow::Result<Catalog> {
        let code = match lang {
            Some(l) => codes().find(|c| *c == l).ok_or_else(|| {
                crate::error::input(format!("--lang: no language {l:?} (en, es, ca, ru, de)"))
            })?,
            None => lang_from_env(|v| std::env::var(v).ok()),
        };
        Ok(Catalog::new(code).expect("a listed language"))
    }

    /// The catalogue for a language code (`en`, `es`, `ca`, `ru`, `de`), or `None` if we have none.
    pub fn new(code: &str) -> Option<Catalog> {
        let (code, text) = LANGS.iter().find(|(c, _)| *c == code)?;
        Some(Catalog { code, map: parse(text), fallback: parse(LANGS[0].1) })
    }

    /// The language code (`en`, `es`, ...).
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The message `key` in this language or English, if either has it.
    fn raw(&self, key: &str) -> Option<&String> {
        self.map.get(key).or_else(|| self.fallback.get(key))
    }

    /// The message `key`; the key itself when no catalogue has it (a visible bug, not a crash).
    pub fn t(&self, key: &str) -> String {
        self.raw(key).cloned().unwrap_or_else(|| key.to_string())
    }

    /// The message `key` with each `{name}` replaced by its value. A key that is only there in
    /// plural forms (`key.one`, `key.other`, ...) takes the form of the argument `n`.
    pub fn f(&self, key: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
        let n = args.iter().find(|(k, _)| *k == "n").and_then(|(_, v)| v.to_string().parse::<i64>().ok());
        let msg = match (self.raw(key), n) {
            (None, Some(n)) => self.plural_form(key, n.unsigned_abs()),
            _ => self.t(key),
        };
        fill(msg, args)
    }

    /// The form of `key` for the number `n`, its `other` form when the language has no such one.
    fn plural_form(&self, key: &str, n: u64) -> String {
        let form = format!("{key}.{}", plural(self.code, n));
        let other = format!("{key}.other");
        [&self.map, &self.fallback]
            .into_iter()
            .find_map(|m| m.get(&form).or_else(|| m.get(&other)))
            .cloned()
            .unwrap_or_else(|| key.to_string())
    }

    /// The plural form of `key` for the number `n` (filled in as `{n}`), with the other arguments.
    pub fn n(&self, key: &str, n: u64, args: &[(&str, &dyn std::fmt::Display)]) -> String {
        fill(self.plural_form(key, n).replace("{n}", &n.to_string()), args)
    }
}

/// `msg` with each `{name}` of `args` replaced by its value.
fn fill(msg: String, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    args.iter().fold(msg, |s, (name, value)| s.replace(&format!("{{{name}}}"), &value.to_string()))
}

/// The language code for a locale value such as `es_ES.UTF-8`, `ru_RU` or `de`; `None` for
/// `C`, `POSIX`, empty values and languages we have no catalogue for.
pub fn lang_of_locale(value: &str) -> Option<&'static str> {
    let lang = value.split(['_', '.', '@', '-']).next()?.to_ascii_lowercase();
    codes().find(|c| *c == lang)
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

    /// The English key a key stands for: a `few`/`many` plural form is English's `other`.
    fn english_key(k: &str) -> String {
        match k.rsplit_once('.') {
            Some((base, "few" | "many")) => format!("{base}.other"),
            _ => k.to_string(),
        }
    }

    /// Every catalogue is a flat object with every English key (every plural form its language
    /// needs), so no language falls back silently; no key is unknown.
    #[test]
    fn every_catalogue_is_complete() {
        let en: HashMap<String, String> =
            serde_json::from_str(LANGS[0].1).expect("English is a flat JSON object");
        for (code, text) in LANGS {
            let m: HashMap<String, String> = serde_json::from_str(text).expect(code);
            let mut missing: Vec<_> = en.keys().filter(|k| !m.contains_key(*k)).collect();
            missing.sort();
            assert!(missing.is_empty(), "{code} lacks {missing:?}");
            let mut extra: Vec<_> = m.keys().filter(|k| !en.contains_key(&english_key(k))).collect();
            extra.sort();
            assert!(extra.is_empty(), "{code} has unknown keys {extra:?}");
            // Russian distinguishes one, few and many: each plural key has all three.
            if code == "ru" {
                for k in en.keys().filter_map(|k| k.strip_suffix(".other")) {
                    for form in ["one", "few", "many"] {
                        assert!(m.contains_key(&format!("{k}.{form}")), "ru lacks {k}.{form}");
                    }
                }
            }
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
                assert_eq!(names(&v), names(&en[&english_key(&k)]), "{code}: {k}");
            }
        }
    }

    #[test]
    fn plural_forms_follow_each_language() {
        assert_eq!(plural("en", 1), "one");
        assert_eq!(plural("en", 0), "other");
        assert_eq!(plural("de", 2), "other");
        assert_eq!(
            [1, 2, 5, 11, 21, 22, 25, 112].map(|n| plural("ru", n)),
            ["one", "few", "many", "many", "one", "few", "many", "many"]
        );
        let c = Catalog::new("en").unwrap();
        assert_eq!(c.n("word.stones", 1, &[]), "stone");
        assert_eq!(c.n("word.stones", 3, &[]), "stones");
        assert_eq!(c.f("puzzle.stones", &[("n", &1)]), "1 stone");
        assert_eq!(c.f("puzzle.stones", &[("n", &3)]), "3 stones");
        let ru = Catalog::new("ru").unwrap();
        assert_ne!(ru.n("word.stones", 2, &[]), ru.n("word.stones", 5, &[]));
        assert_ne!(ru.f("puzzle.stones", &[("n", &2)]), ru.f("puzzle.stones", &[("n", &5)]));
        // A message with a number besides its own `{n}`: the form follows `n`, the value is `{v}`.
        assert_eq!(c.n("an.value", 1, &[("p", &"B"), ("v", &"-1")]), "B to move: -1 stone from here on");
        assert_eq!(c.n("an.value", 0, &[("p", &"B"), ("v", &"0")]), "B to move: 0 stones from here on");
        assert_eq!(c.f("loaded", &[("file", &"g.vlt"), ("n", &1)]), "Loaded g.vlt: 1 move.");
    }

    /// Texts with a fixed place on the 80x24 screen fit it in every language.
    #[test]
    fn fixed_texts_fit_the_screen() {
        for (code, text) in LANGS {
            let m = parse(text);
            let len = |k: &str| m[k].chars().count();
            assert!(
                len("keys_1") <= 80 && len("keys_2") <= 80 && len("keys_over") <= 80,
                "{code}: key lines"
            );
            assert!(
                m.keys().filter(|k| k.starts_with("word.stones.")).all(|k| len(k) <= 8),
                "{code}: stones fits a store"
            );
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

    /// Every language has the puzzles' and the tutorial's keys, and every tutorial step its text.
    #[test]
    fn every_catalogue_has_every_learn_key_of_the_english_one() {
        let en = Catalog::new("en").unwrap();
        let keys: Vec<_> = en
            .map
            .keys()
            .filter(|k| k.starts_with("puzzle.") || k.starts_with("tut.") || k.starts_with("theme."))
            .collect();
        assert!(keys.len() > 40, "{} keys", keys.len());
        for code in codes() {
            let c = Catalog::new(code).unwrap();
            for k in &keys {
                assert!(c.map.contains_key(*k), "{code} lacks {k}");
            }
        }
        for step in vlt_learn::tutorial::STEPS {
            for part in ["title", "text", "task", "done"] {
                assert!(en.map.contains_key(&format!("tut.{}.{part}", step.id)), "tut.{}.{part}", step.id);
            }
        }
    }
}
