//! `POST /api/analyse`: the analysis board. Any position (N2), optionally with the moves played
//! from it (their history counts for R7), analysed: every legal move's value, the best line, and
//! inside the endgame tables the exact value with the tables' line to the end and its length.

use crate::error::ApiError;
use crate::routes::{Body, Hs, body};
use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use vlt_core::{Game, Move, Position};
use vlt_engine::{LineEnd, perfect_line};

/// The most moves a board request may carry.
pub const MAX_BOARD_MOVES: usize = 1000;
/// The default search time, milliseconds (the server's engine bound caps it).
const DEFAULT_MS: u64 = 500;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardRequest {
    position: String,
    #[serde(default)]
    moves: Vec<String>,
    ms: Option<u64>,
}

/// The tables' word on the position.
#[derive(Serialize)]
pub(crate) struct TablesView {
    /// The exact value for the player to move.
    value: i32,
    /// Moves to the end along the tables' perfect line.
    moves_to_end: usize,
    /// How that line ends: `empty_board` (R6), `repetition` (R7) or `cut`.
    end: LineEnd,
    /// The line (at most its first 60 moves).
    line: Vec<String>,
}

#[derive(Serialize)]
pub(crate) struct BoardView {
    /// The position analysed (after the moves).
    position: String,
    /// The board, 1B..6B then 1A..6A.
    board: Vec<u8>,
    captured_b: u8,
    captured_a: u8,
    to_move: String,
    /// True when the game is over there (R6 empty board, R7 third occurrence).
    over: bool,
    /// The analysis; absent when the game is over.
    analysis: Option<crate::engine::Advice>,
    /// Present when the position is inside the endgame tables.
    tables: Option<TablesView>,
}

pub(crate) async fn analyse(State(hub): Hs, bytes: Body) -> Result<Json<BoardView>, ApiError> {
    let req: BoardRequest = body(&hub, &bytes)?;
    if req.moves.len() > MAX_BOARD_MOVES {
        return Err(ApiError::BadRequest(format!("at most {MAX_BOARD_MOVES} moves")));
    }
    let start = req.position.parse::<Position>().map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let mut game = Game::new(start);
    for (i, m) in req.moves.iter().enumerate() {
        let mv = Move::parse_with(m, Some(game.position().to_move()))
            .map_err(|e| ApiError::BadRequest(format!("move {}: {e}", i + 1)))?;
        game.play(mv).map_err(|e| ApiError::Illegal(format!("move {} ({m}): {e}", i + 1)))?;
    }
    let pos = game.position();
    let over = game.is_over();
    let analysis = if over || pos.legal_moves().is_empty() {
        None
    } else {
        Some(hub.engines().advise(game.clone(), req.ms.unwrap_or(DEFAULT_MS)).await?)
    };
    let tables = match hub.tablebase() {
        Some(tb) if !over => {
            let tb = std::sync::Arc::clone(tb);
            let history = game.since_last_capture().to_vec();
            tokio::task::spawn_blocking(move || perfect_line(&tb, &history))
                .await
                .map_err(|e| ApiError::Internal(format!("tables task: {e}")))?
                .map(|l| TablesView {
                    value: l.value,
                    moves_to_end: l.moves.len(),
                    end: l.end,
                    line: l.moves.iter().take(60).map(ToString::to_string).collect(),
                })
        }
        _ => None,
    };
    Ok(Json(BoardView {
        position: pos.to_string(),
        board: pos.board().to_vec(),
        captured_b: pos.captured(vlt_core::Player::B),
        captured_a: pos.captured(vlt_core::Player::A),
        to_move: pos.to_move().to_string(),
        over,
        analysis,
        tables,
    }))
}
