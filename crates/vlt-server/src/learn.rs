//! The puzzles and the tutorial over HTTP (docs/api.md): the built-in puzzle set with the tables'
//! values, answers checked here, and the tutorial's steps with every move traced for the page.

use crate::error::ApiError;
use crate::view::PlyView;
use axum::Json;
use axum::body::Bytes;
use axum::extract::Path;
use axum::extract::rejection::BytesRejection;
use axum::response::IntoResponse;
use serde_json::{Value, json};
use vlt_core::{Game, Move, Player, Position};
use vlt_learn::tutorial::STEPS;
use vlt_learn::{Puzzle, shipped};

/// The most bytes of an answer's body (a move and a rating).
const MAX_ANSWER_BODY: usize = 1024;

/// A position as the page draws it.
fn board_json(p: Position) -> Value {
    json!({
        "position": p.to_string(),
        "board": p.board().to_vec(),
        "captured_b": p.captured(Player::B),
        "captured_a": p.captured(Player::A),
        "to_move": p.to_move().to_string(),
        "legal": p.legal_moves().map(|m| m.to_string()).collect::<Vec<_>>(),
    })
}

fn puzzle(n: &str) -> Result<(usize, &'static Puzzle), ApiError> {
    let set = shipped::set();
    let i: usize =
        n.parse().map_err(|_| ApiError::BadRequest(format!("puzzle number {n:?} is not a number")))?;
    match i.checked_sub(1).and_then(|i| set.puzzles.get(i)) {
        Some(p) => Ok((i, p)),
        None => Err(ApiError::NotFound(format!("no puzzle {i}: the set has 1 to {}", set.puzzles.len()))),
    }
}

fn themes(p: &Puzzle) -> Vec<&'static str> {
    p.themes.iter().map(vlt_learn::Theme::name).collect()
}

/// Every puzzle in brief (number, rating, themes), for the page to choose the next one.
pub(crate) async fn list() -> impl IntoResponse {
    let set = shipped::set();
    let items: Vec<Value> = set
        .puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| json!({ "n": i + 1, "rating": p.rating, "themes": themes(p) }))
        .collect();
    Json(json!({ "count": items.len(), "built_by": set.command, "puzzles": items }))
}

/// One puzzle: the board and the task, not the answer.
pub(crate) async fn get(Path(n): Path<String>) -> Result<impl IntoResponse, ApiError> {
    let (n, p) = puzzle(&n)?;
    let mut v = board_json(p.position);
    v["n"] = json!(n);
    v["total"] = json!(shipped::set().puzzles.len());
    v["value"] = json!(p.value());
    v["rating"] = json!(p.rating);
    v["difficulty"] = json!(p.difficulty().name());
    v["themes"] = json!(themes(p));
    v["source"] = json!(p.source.name());
    Ok(Json(v))
}

/// The solution: the best move, every move's value, and the tables' line with each ply traced.
fn solution(p: &Puzzle) -> Result<Value, ApiError> {
    let mut plies = Vec::new();
    let mut pos = p.position;
    for (k, &m) in p.line.iter().enumerate() {
        let (after, o) = pos.play_traced(m).map_err(|e| ApiError::Internal(format!("solution line: {e}")))?;
        plies.push(PlyView::new(k + 1, &o, after));
        pos = after;
    }
    let values: Vec<Value> =
        p.move_values().iter().map(|(m, v)| json!({ "move": m.to_string(), "value": v })).collect();
    Ok(json!({ "best": p.best.to_string(), "value": p.value(), "values": values, "line": plies }))
}

pub(crate) async fn get_solution(Path(n): Path<String>) -> Result<impl IntoResponse, ApiError> {
    let (_, p) = puzzle(&n)?;
    Ok(Json(solution(p)?))
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    #[serde(rename = "move")]
    mv: String,
}

/// Checks an answer: right or not, the move traced, and its value beside the best one's.
pub(crate) async fn answer(
    Path(n): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let (_, p) = puzzle(&n)?;
    let a: Answer = small_body(bytes)?;
    let mv = Move::parse_with(&a.mv, Some(p.position.to_move()))
        .map_err(|e| ApiError::BadRequest(format!("move: {e}")))?;
    let Some(value) = p.value_of(mv) else {
        return Err(ApiError::Illegal(format!("{mv} is not a legal move in this puzzle")));
    };
    let (after, o) = p.position.play_traced(mv).map_err(|e| ApiError::Illegal(e.to_string()))?;
    Ok(Json(json!({
        "correct": p.accepts(mv),
        "move": mv.to_string(),
        "value": value,
        "best_value": p.value(),
        "ply": PlyView::new(1, &o, after),
    })))
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RatingBody {
    /// Solved at the first try.
    solved: bool,
    /// The player's puzzle rating before the attempt; none for a first puzzle.
    player: Option<vlt_rating::Rating>,
}

/// The player's new puzzle rating after an attempt (Glicko-2, vlt-rating: the puzzle is the
/// opponent). The page keeps the rating; the server only computes it.
pub(crate) async fn rating(
    Path(n): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let (_, p) = puzzle(&n)?;
    let body: RatingBody = small_body(bytes)?;
    let player = body.player.unwrap_or_default();
    if !player.is_valid() {
        return Err(ApiError::BadRequest("player: not a rating (rating, deviation, volatility)".into()));
    }
    Ok(Json(json!({ "player": p.rate(player, body.solved) })))
}

/// A small JSON body, or why not.
fn small_body<T: serde::de::DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = bytes.map_err(|e| ApiError::BadRequest(format!("request body: {}", e.body_text())))?;
    if bytes.len() > MAX_ANSWER_BODY {
        return Err(ApiError::TooLarge(MAX_ANSWER_BODY));
    }
    serde_json::from_slice(&bytes).map_err(|e| ApiError::BadRequest(format!("request body: {e}")))
}

/// One stage of a tutorial step: the board, and each legal move traced.
fn stage(g: &Game) -> Value {
    let pos = g.position();
    let mut v = board_json(pos);
    let mut plies = serde_json::Map::new();
    for m in pos.legal_moves() {
        if let Ok((after, o)) = pos.play_traced(m) {
            plies.insert(m.to_string(), json!(PlyView::new(g.moves().len() + 1, &o, after)));
        }
    }
    v["plies"] = Value::Object(plies);
    v["repetitions"] = json!(g.repetitions());
    v
}

/// The tutorial: each step with its stages (one a move of the answer) and the final board.
pub(crate) async fn tutorial() -> Result<impl IntoResponse, ApiError> {
    let mut steps = Vec::new();
    for s in &STEPS {
        let mut g = s.game().map_err(|e| ApiError::Internal(e.to_string()))?;
        let answer = s.answer_moves().map_err(|e| ApiError::Internal(e.to_string()))?;
        let mut stages = Vec::new();
        for &m in &answer {
            stages.push(stage(&g));
            g.play(m).map_err(|e| ApiError::Internal(format!("tutorial {}: {e}", s.id)))?;
        }
        let mut end = board_json(g.position());
        end["result"] = json!(g.result().map(|r| r.to_string()));
        steps.push(json!({
            "id": s.id,
            "answer": s.answer,
            "stages": stages,
            "end": end,
        }));
    }
    Ok(Json(json!({ "steps": steps })))
}
