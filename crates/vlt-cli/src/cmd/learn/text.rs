//! The puzzles' and the tutorial's text in the terminal: the web page's catalogues
//! (`web/i18n/*.json`, keys `puzzle.*`, `tut.*`, `theme.*`), so both front ends say the same.

use crate::cmd::play::i18n::{parse, plural};
use crate::error::input;
use std::collections::HashMap;

/// The five catalogues, English first (the fallback).
const LANGS: [(&str, &str); 5] = [
    ("en", include_str!("../../../../../web/i18n/en.json")),
    ("es", include_str!("../../../../../web/i18n/es.json")),
    ("ca", include_str!("../../../../../web/i18n/ca.json")),
    ("ru", include_str!("../../../../../web/i18n/ru.json")),
    ("de", include_str!("../../../../../web/i18n/de.json")),
];

/// One language's messages, English behind it.
pub struct Text {
    code: &'static str,
    map: HashMap<String, String>,
    fallback: HashMap<String, String>,
}

/// The codes of the languages there are.
pub fn codes() -> impl Iterator<Item = &'static str> {
    LANGS.iter().map(|(c, _)| *c)
}

impl Text {
    /// The catalogue a `--lang` option names, or the environment's language without one.
    pub fn for_option(lang: Option<&str>) -> anyhow::Result<Text> {
        let code = match lang {
            Some(l) => codes()
                .find(|c| *c == l)
                .ok_or_else(|| input(format!("--lang: no language {l:?} (en, es, ca, ru, de)")))?,
            None => crate::cmd::play::i18n::lang_from_env(|v| std::env::var(v).ok()),
        };
        Ok(Text::new(code).expect("a listed language"))
    }

    /// The catalogue of `code`, or `None` when there is none.
    pub fn new(code: &str) -> Option<Text> {
        let (code, text) = LANGS.iter().find(|(c, _)| *c == code)?;
        Some(Text { code, map: parse(text), fallback: parse(LANGS[0].1) })
    }

    fn raw(&self, key: &str) -> Option<&String> {
        self.map.get(key).or_else(|| self.fallback.get(key))
    }

    /// `key` with each `{name}` replaced; a message that has plural forms (`key.one`,
    /// `key.other`, ...) takes the form of the argument `n`.
    pub fn f(&self, key: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
        let n = args.iter().find(|(k, _)| *k == "n").and_then(|(_, v)| v.to_string().parse::<i64>().ok());
        let msg = match (self.raw(key), n) {
            (Some(m), _) => m.clone(),
            (None, Some(n)) => {
                let form = format!("{key}.{}", plural(self.code, n.unsigned_abs()));
                self.raw(&form)
                    .or_else(|| self.raw(&format!("{key}.other")))
                    .cloned()
                    .unwrap_or_else(|| key.into())
            }
            (None, None) => key.to_string(),
        };
        args.iter().fold(msg, |s, (name, v)| s.replace(&format!("{{{name}}}"), &v.to_string()))
    }

    /// `key` without arguments.
    pub fn t(&self, key: &str) -> String {
        self.f(key, &[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalogue_has_every_learn_key_of_the_english_one() {
        let en = Text::new("en").unwrap();
        let keys: Vec<_> = en
            .map
            .keys()
            .filter(|k| k.starts_with("puzzle.") || k.starts_with("tut.") || k.starts_with("theme."))
            .collect();
        assert!(keys.len() > 40, "{} keys", keys.len());
        for code in codes() {
            let t = Text::new(code).unwrap();
            for k in &keys {
                assert!(t.map.contains_key(*k), "{code} lacks {k}");
            }
        }
        for step in vlt_learn::tutorial::STEPS {
            for part in ["title", "text", "task", "done"] {
                assert!(en.map.contains_key(&format!("tut.{}.{part}", step.id)), "tut.{}.{part}", step.id);
            }
        }
    }

    #[test]
    fn plural_forms_follow_the_number() {
        let en = Text::new("en").unwrap();
        assert_eq!(en.f("puzzle.stones", &[("n", &1)]), "1 stone");
        assert_eq!(en.f("puzzle.stones", &[("n", &3)]), "3 stones");
        let ru = Text::new("ru").unwrap();
        assert_ne!(ru.f("puzzle.stones", &[("n", &2)]), ru.f("puzzle.stones", &[("n", &5)]));
    }
}
