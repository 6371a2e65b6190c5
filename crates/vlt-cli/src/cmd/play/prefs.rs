//! The settings the terminal game remembers between runs: the language, the animation speed and
//! whether the evaluation bar shows. They live in one small JSON file in the user's configuration
//! folder (`$XDG_CONFIG_HOME/vlt/play.json`, else `~/.config/vlt/play.json`); the settings screen
//! changes them and writes the file at once. Flags given on the command line win for that run.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How fast moves are sown on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// Moves show at once.
    Off,
    /// Slower than normal, to follow each stone.
    Slow,
    /// The usual pace.
    #[default]
    Normal,
    /// Quicker than normal.
    Fast,
}

impl Speed {
    /// Every speed, in the order the settings screen steps through them.
    pub const ALL: [Speed; 4] = [Speed::Off, Speed::Slow, Speed::Normal, Speed::Fast];

    /// How long each animation frame lasts, in percent of the normal time.
    pub fn percent(self) -> u32 {
        match self {
            Speed::Off => 0,
            Speed::Slow => 180,
            Speed::Normal => 100,
            Speed::Fast => 45,
        }
    }

    /// The catalogue key of the speed's name.
    pub fn key(self) -> &'static str {
        match self {
            Speed::Off => "speed_off",
            Speed::Slow => "speed_slow",
            Speed::Normal => "speed_normal",
            Speed::Fast => "speed_fast",
        }
    }

    /// The speed `delta` steps on from this one, stopping at the ends.
    pub fn step(self, delta: i32) -> Speed {
        let i = Speed::ALL.iter().position(|s| *s == self).unwrap_or(2) as i32;
        Speed::ALL[(i + delta).clamp(0, Speed::ALL.len() as i32 - 1) as usize]
    }
}

/// The remembered settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    /// The language code chosen in the settings (`None`: from the environment).
    pub lang: Option<String>,
    /// The animation speed.
    pub speed: Speed,
    /// Whether the evaluation bar shows.
    pub eval: bool,
}

/// The rows of the settings screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingRow {
    /// The language of every message.
    Language,
    /// The animation speed.
    Speed,
    /// The evaluation bar.
    Eval,
    /// Back to where the screen was opened from.
    Done,
}

/// The settings screen's rows, top to bottom.
pub const SETTING_ROWS: [SettingRow; 4] =
    [SettingRow::Language, SettingRow::Speed, SettingRow::Eval, SettingRow::Done];

/// Why the settings file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum PrefsError {
    /// Reading or writing the file failed.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// The file is not the settings' JSON.
    #[error("{0}: {1}")]
    Format(String, serde_json::Error),
}

/// Where the settings live, from the environment: `$XDG_CONFIG_HOME/vlt/play.json`, else
/// `$HOME/.config/vlt/play.json`; `None` when neither variable is set.
pub fn path_from_env(get: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let base = get("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| get("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("vlt").join("play.json"))
}

impl Prefs {
    /// Reads the settings file; a file not there yet gives the defaults.
    ///
    /// # Errors
    /// When the file exists but cannot be read or is not the settings' JSON.
    pub fn load(path: &Path) -> Result<Prefs, PrefsError> {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                serde_json::from_str(&text).map_err(|e| PrefsError::Format(path.display().to_string(), e))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Prefs::default()),
            Err(e) => Err(PrefsError::Io(path.display().to_string(), e)),
        }
    }

    /// Writes the settings file, making its folder if needed.
    ///
    /// # Errors
    /// When the folder or the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), PrefsError> {
        let io = |e| PrefsError::Io(path.display().to_string(), e);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let text = serde_json::to_string_pretty(self).expect("plain fields serialise");
        std::fs::write(path, text + "\n").map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_follows_xdg_then_home() {
        let env = |v: &str| match v {
            "XDG_CONFIG_HOME" => Some("/x/cfg".into()),
            "HOME" => Some("/home/u".into()),
            _ => None,
        };
        assert_eq!(path_from_env(env), Some(PathBuf::from("/x/cfg/vlt/play.json")));
        let env = |v: &str| (v == "HOME").then(|| "/home/u".into());
        assert_eq!(path_from_env(env), Some(PathBuf::from("/home/u/.config/vlt/play.json")));
        assert_eq!(path_from_env(|_| None), None);
    }

    #[test]
    fn settings_round_trip_and_bad_files_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("play.json");
        assert_eq!(Prefs::load(&path).unwrap(), Prefs::default(), "no file yet: the defaults");
        let p = Prefs { lang: Some("ru".into()), speed: Speed::Fast, eval: true };
        p.save(&path).unwrap();
        assert_eq!(Prefs::load(&path).unwrap(), p);
        assert!(std::fs::read_to_string(&path).unwrap().contains("\"speed\": \"fast\""));
        // A file with only some settings keeps the defaults for the others.
        std::fs::write(&path, r#"{"eval": true}"#).unwrap();
        assert_eq!(Prefs::load(&path).unwrap(), Prefs { eval: true, ..Prefs::default() });
        std::fs::write(&path, "{not json").unwrap();
        let e = Prefs::load(&path).unwrap_err().to_string();
        assert!(e.contains("play.json"), "{e}");
    }

    #[test]
    fn speeds_step_and_stop_at_the_ends() {
        assert_eq!(Speed::Normal.step(1), Speed::Fast);
        assert_eq!(Speed::Fast.step(1), Speed::Fast);
        assert_eq!(Speed::Slow.step(-1), Speed::Off);
        assert_eq!(Speed::Off.step(-1), Speed::Off);
        assert!(Speed::Slow.percent() > Speed::Normal.percent());
        assert!(Speed::Fast.percent() < Speed::Normal.percent());
    }
}
