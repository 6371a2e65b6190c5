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
    web!("i18n/en.json", "application/json"),
    web!("i18n/es.json", "application/json"),
    web!("i18n/ca.json", "application/json"),
    web!("i18n/ru.json", "application/json"),
    web!("i18n/de.json", "application/json"),
];

fn serve(name: &str) -> Response {
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
