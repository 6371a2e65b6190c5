//! The end screen, drawn over the board once a game is over: the result for the user, the score,
//! how the game ended, and what can be done next.

use super::app::App;
use super::board::Geometry;
use super::setup::Opponent;
use super::words::player_name;
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};
use vlt_core::{Player, Termination};

/// The verdict for the user: "You won", "You lost", "Draw", or (two people at one keyboard) who
/// won.
pub fn verdict(app: &App) -> Option<String> {
    let r = app.game.result()?;
    let cat = &app.cat;
    Some(match (r.winner, app.setup.opponent) {
        (None, _) => cat.t("end_draw"),
        (Some(p), Opponent::Computer(_)) if p == app.setup.human => cat.t("end_won"),
        (Some(_), Opponent::Computer(_)) => cat.t("end_lost"),
        (Some(p), Opponent::Human) => cat.f("end_wins", &[("who", &player_name(cat, &app.setup, p))]),
    })
}

/// Draws the end screen over the board's middle.
pub fn draw_end(f: &mut Frame, app: &App, g: &Geometry) {
    let (Some(r), Some(head)) = (app.game.result(), verdict(app)) else { return };
    let cat = &app.cat;
    let how = match r.termination {
        Termination::EmptyBoard => cat.t("end_empty"),
        Termination::Repetition => {
            cat.n("end_repetition", u64::from(app.game.position().stones_on_board()), &[])
        }
        Termination::Resignation(p) => cat.f("end_resigned", &[("who", &player_name(cat, &app.setup, p))]),
        Termination::TimeForfeit(p) => cat.f("end_time", &[("who", &player_name(cat, &app.setup, p))]),
        _ => String::new(),
    };
    let won =
        r.winner.is_some_and(|p| p == app.setup.human) && matches!(app.setup.opponent, Opponent::Computer(_));
    let colour = match r.winner {
        None => Color::Yellow,
        Some(_) if matches!(app.setup.opponent, Opponent::Human) => Color::Cyan,
        Some(_) if won => Color::Green,
        Some(_) => Color::Red,
    };
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let lines = vec![
        Line::from(Span::styled(head, bold.fg(colour))),
        Line::from(""),
        Line::from(Span::styled(format!("{} {} – {} {}", Player::B, r.score.b, r.score.a, Player::A), bold)),
        Line::from(how),
        Line::from(""),
        Line::from(Span::styled(cat.t("end_keys"), Style::new().fg(Color::Gray))),
    ];
    let w = g.scale.board_w().min(64);
    let board = Rect::new(g.x0, g.stores.a.y, g.scale.board_w(), g.below - g.stores.a.y);
    let h = 9.min(board.height + 4);
    let r = Rect::new(board.x + (board.width - w) / 2, board.y + board.height.saturating_sub(h) / 2, w, h);
    f.render_widget(Clear, r);
    let block = Block::bordered().border_type(BorderType::Double).border_style(Style::new().fg(colour));
    f.render_widget(
        Paragraph::new(lines).alignment(Alignment::Center).wrap(Wrap { trim: true }).block(block),
        r,
    );
}
