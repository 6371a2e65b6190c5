//! API errors: each maps to one HTTP status and a JSON body `{"error": "<message>"}`, in one place.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Why a request was refused. Messages are lowercase, one line, and safe to show to the player.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ApiError {
    /// The request is malformed (bad JSON, a bad field, an unparsable move or position).
    #[error("{0}")]
    BadRequest(String),
    /// The token does not hold a seat that may do this.
    #[error("{0}")]
    Forbidden(String),
    /// No game of this id.
    #[error("no game {0:?}")]
    NoGame(String),
    /// Nothing else of this name (a player, a puzzle, a seek, a route): the message says what.
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with the game's state: out of turn, game over, seat taken.
    #[error("{0}")]
    Conflict(String),
    /// The move is not legal here (R3, R5).
    #[error("{0}")]
    Illegal(String),
    /// The body is larger than the server accepts.
    #[error("the request body is larger than {0} bytes")]
    TooLarge(usize),
    /// A bound was reached (open games, engine busy); try again later.
    #[error("{0}")]
    Busy(String),
    /// The body is not `application/json`.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// Too many requests of this kind from one address; try again later.
    #[error("{0}")]
    TooMany(String),
    /// The request (its body) did not arrive in time.
    #[error("{0}")]
    TimedOut(String),
    /// The request names a host this server does not answer for.
    #[error("{0}")]
    WrongHost(String),
    /// Something failed inside the server (the database); nothing was changed.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status for this error.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NoGame(_) | ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::TimedOut(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::WrongHost(_) => StatusCode::MISDIRECTED_REQUEST,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        if e.is_conflict() {
            return ApiError::Conflict("the game changed meanwhile; read it again".into());
        }
        ApiError::Internal(e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status(), axum::Json(serde_json::json!({ "error": self.to_string() }))).into_response()
    }
}
