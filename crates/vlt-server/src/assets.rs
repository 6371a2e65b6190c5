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
    web!("style.css", "text/css; charset=utf-8"),
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
    use super::SOUNDS;

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
