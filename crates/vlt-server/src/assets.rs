//! The web page, embedded in the binary at build time (plain ES modules: no build step).

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

macro_rules! web {
    ($name:literal, $mime:literal) => {
        ($name, $mime, include_str!(concat!("../../../web/", $name)))
    };
}

/// Every file of the page: path under `web/`, content type, content.
pub const ASSETS: &[(&str, &str, &str)] = &[
    web!("index.html", "text/html; charset=utf-8"),
    web!("base.css", "text/css; charset=utf-8"),
    web!("home.css", "text/css; charset=utf-8"),
    web!("board.css", "text/css; charset=utf-8"),
    web!("game.css", "text/css; charset=utf-8"),
    web!("pages.css", "text/css; charset=utf-8"),
    web!("narrow.css", "text/css; charset=utf-8"),
    web!("study.css", "text/css; charset=utf-8"),
    web!("online.css", "text/css; charset=utf-8"),
    web!("app.js", "text/javascript; charset=utf-8"),
    web!("api.js", "text/javascript; charset=utf-8"),
    web!("board.js", "text/javascript; charset=utf-8"),
    web!("i18n.js", "text/javascript; charset=utf-8"),
    web!("dom.js", "text/javascript; charset=utf-8"),
    web!("prefs.js", "text/javascript; charset=utf-8"),
    web!("text.js", "text/javascript; charset=utf-8"),
    web!("sound.js", "text/javascript; charset=utf-8"),
    web!("views/home.js", "text/javascript; charset=utf-8"),
    web!("views/game.js", "text/javascript; charset=utf-8"),
    web!("views/movelist.js", "text/javascript; charset=utf-8"),
    web!("views/share.js", "text/javascript; charset=utf-8"),
    web!("views/replay.js", "text/javascript; charset=utf-8"),
    web!("views/archive.js", "text/javascript; charset=utf-8"),
    web!("views/rules.js", "text/javascript; charset=utf-8"),
    web!("views/position.js", "text/javascript; charset=utf-8"),
    web!("views/settings.js", "text/javascript; charset=utf-8"),
    web!("views/join.js", "text/javascript; charset=utf-8"),
    web!("views/review.js", "text/javascript; charset=utf-8"),
    web!("views/analysis.js", "text/javascript; charset=utf-8"),
    web!("views/puzzles.js", "text/javascript; charset=utf-8"),
    web!("views/tutorial.js", "text/javascript; charset=utf-8"),
    web!("me.js", "text/javascript; charset=utf-8"),
    web!("timecontrol.js", "text/javascript; charset=utf-8"),
    web!("levels.js", "text/javascript; charset=utf-8"),
    web!("views/panels.js", "text/javascript; charset=utf-8"),
    web!("views/clock.js", "text/javascript; charset=utf-8"),
    web!("views/offers.js", "text/javascript; charset=utf-8"),
    web!("views/account.js", "text/javascript; charset=utf-8"),
    web!("views/lobby.js", "text/javascript; charset=utf-8"),
    web!("views/player.js", "text/javascript; charset=utf-8"),
    web!("i18n/en.json", "application/json"),
    web!("i18n/es.json", "application/json"),
    web!("i18n/ca.json", "application/json"),
    web!("i18n/ru.json", "application/json"),
    web!("i18n/de.json", "application/json"),
];

/// The page's sound files (made by `web/sounds/make.py`): path under `web/`, content.
pub const SOUNDS: &[(&str, &[u8])] = &[
    ("sounds/sow.wav", include_bytes!("../../../web/sounds/sow.wav")),
    ("sounds/capture.wav", include_bytes!("../../../web/sounds/capture.wav")),
    ("sounds/end.wav", include_bytes!("../../../web/sounds/end.wav")),
];

fn serve(name: &str) -> Response {
    if let Some((_, body)) = SOUNDS.iter().find(|(n, _)| *n == name) {
        // The sounds never change within a build: a day's caching spares the refetches.
        return ([(header::CONTENT_TYPE, "audio/wav"), (header::CACHE_CONTROL, "max-age=86400")], *body)
            .into_response();
    }
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, mime, body)) => {
            ([(header::CONTENT_TYPE, *mime), (header::CACHE_CONTROL, "no-cache")], *body).into_response()
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

pub(crate) async fn index() -> Response {
    serve("index.html")
}

pub(crate) async fn file(Path(path): Path<String>) -> Response {
    serve(&path)
}

#[cfg(test)]
mod tests {
    use super::{ASSETS, SOUNDS};
    use std::path::Path;

    /// Every file of the page under `web/` (its tests, the sounds and the formatter's settings aside) is embedded,
    /// so a new module or stylesheet cannot be forgotten in `ASSETS`.
    #[test]
    fn every_page_file_is_served() {
        fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                if name.rsplit('/').next().is_some_and(|base| base.starts_with('.')) {
                    continue; // the formatter's settings
                }
                if path.is_dir() {
                    if name != "tests" && name != "sounds" {
                        walk(&path, root, out);
                    }
                } else if [".html", ".css", ".js", ".json"].iter().any(|ext| name.ends_with(ext)) {
                    out.push(name);
                }
            }
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut files = Vec::new();
        walk(&root, &root, &mut files);
        assert!(files.len() > 10, "{files:?}");
        for file in files {
            assert!(ASSETS.iter().any(|(n, _, _)| *n == file), "web/{file} is not in ASSETS");
        }
    }

    /// Every stylesheet and script that the page names under `/static/` is one of the assets.
    #[test]
    fn the_page_names_only_served_files() {
        let index = ASSETS[0].2;
        let names: Vec<&str> =
            index.split("\"/static/").skip(1).map(|s| &s[..s.find('"').unwrap()]).collect();
        assert!(names.iter().any(|n| n.ends_with(".css")), "{names:?}");
        for name in names {
            assert!(ASSETS.iter().any(|(n, _, _)| *n == name), "index.html names /static/{name}");
        }
    }

    /// Each sound is a short PCM WAV file: RIFF/WAVE, 16-bit mono, under a second and 64 KiB.
    #[test]
    fn sounds_are_small_wav_files() {
        for (name, body) in SOUNDS {
            assert!(body.starts_with(b"RIFF") && &body[8..16] == b"WAVEfmt ", "{name}");
            let channels = u16::from_le_bytes([body[22], body[23]]);
            let rate = u32::from_le_bytes([body[24], body[25], body[26], body[27]]);
            let bits = u16::from_le_bytes([body[34], body[35]]);
            assert_eq!((channels, bits), (1, 16), "{name}");
            let secs = (body.len() - 44) as f64 / f64::from(rate) / 2.0;
            assert!(secs > 0.02 && secs < 1.0 && body.len() < 64 * 1024, "{name}: {secs} s");
        }
    }
}
