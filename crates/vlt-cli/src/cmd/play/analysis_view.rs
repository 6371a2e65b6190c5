//! Drawing the analysis mode: the board (as the game draws it, with the best move marked), and
//! beside or below it the value, every move's value, the best line, the tables' line to the end
//! and the keys.

use super::analysis::{Analysis, Tool};
use super::board::{BoardView, board_geometry, draw_board_view};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use vlt_core::Player;
use vlt_engine::LineEnd;

fn signed(n: i32) -> String {
    if n > 0 { format!("+{n}") } else { n.to_string() }
}

/// Draws the analysis board on the whole frame.
pub fn draw(f: &mut Frame, a: &Analysis) {
    let area = f.area();
    let pos = a.position();
    let g = board_geometry(area, true);
    let setup = a.tool == Tool::Setup;
    let best = a.shown.as_ref().and_then(|s| s.moves.first()).map(|m| m.0.hole());
    let view = BoardView {
        board: pos.board(),
        stores: pos.captures(),
        cursor: Some(a.cursor),
        hint: if setup { None } else { best },
        keys: if setup { None } else { Some(pos.to_move()) },
        mover: Some(pos.to_move()),
        ..BoardView::default()
    };
    let title =
        format!("{} — {}", a.cat.t("an.title"), if setup { a.cat.t("an.setup") } else { a.cat.t("an.play") });
    f.render_widget(
        Paragraph::new(Line::from(Span::styled(title, Style::new().add_modifier(Modifier::BOLD)))),
        Rect::new(g.x0, area.y, g.left_w.min(area.width), 1),
    );
    draw_board_view(f, &a.cat, &g, &view);
    // Below the board: the position, the value, the line, messages and keys.
    let mut below = vec![Line::from(pos.to_string())];
    match (&a.shown, a.game.is_over() || pos.legal_moves().is_empty()) {
        (_, true) => below.push(Line::from(a.cat.t("an.over"))),
        (None, false) => below.push(Line::from(a.cat.t("an.thinking"))),
        (Some(s), false) => {
            let how = if s.exact { a.cat.t("review.exact") } else { a.cat.f("an.depth", &[("n", &s.depth)]) };
            let value = a.cat.n(
                "an.value",
                u64::from(s.score.unsigned_abs()),
                &[("p", &pos.to_move()), ("v", &signed(s.score))],
            );
            below.push(Line::from(Span::styled(
                format!("{value} · {how}"),
                Style::new().add_modifier(Modifier::BOLD),
            )));
            let pv: Vec<String> = s.pv.iter().map(ToString::to_string).collect();
            below.push(Line::from(format!("{}: {}", a.cat.t("an.pv"), pv.join(" "))));
            if let Some(t) = &s.tables {
                let mut text = a.cat.f("an.tables", &[("v", &signed(t.value)), ("n", &t.moves.len())]);
                if t.end == LineEnd::Repetition {
                    text = format!("{text} {}", a.cat.t("an.tables.rep"));
                }
                below.push(Line::from(text));
            }
        }
    }
    if let Tool::Paste(text) = &a.tool {
        below.push(Line::from(format!("{}: {text}▏", a.cat.t("an.paste"))));
    }
    if !a.message.is_empty() {
        below.push(Line::from(Span::styled(a.message.clone(), Style::new().add_modifier(Modifier::BOLD))));
    }
    below.push(Line::from(a.cat.t(if setup { "an.keys.setup" } else { "an.keys" })));
    let h = area.height.saturating_sub(g.below + 1);
    f.render_widget(
        Paragraph::new(below).wrap(Wrap { trim: false }),
        Rect::new(g.x0, g.below + 1, g.left_w.min(area.width.saturating_sub(g.x0)), h),
    );
    // At the right: every move's value, best first, and how far each falls short.
    let x = area.x + g.left_w;
    if x < area.x + area.width {
        let mut lines =
            vec![Line::from(Span::styled(a.cat.t("an.moves"), Style::new().add_modifier(Modifier::BOLD)))];
        if let Some(s) = &a.shown {
            for (i, (m, v)) in s.moves.iter().enumerate() {
                let text = format!("{m:<4}{:>4} {:>4}", signed(*v), signed(v - s.score));
                let style = if i == 0 { Style::new().add_modifier(Modifier::BOLD) } else { Style::new() };
                lines.push(Line::from(Span::styled(text, style)));
            }
        }
        let who = pos.to_move();
        lines.push(Line::from(""));
        lines.push(Line::from(format!("B {}  A {}", pos.captured(Player::B), pos.captured(Player::A))));
        lines.push(Line::from(format!("{}: {who}", a.cat.t("an.tomove"))));
        f.render_widget(
            Paragraph::new(lines),
            Rect::new(
                x + 1,
                g.holes[0].y.saturating_sub(2).max(area.y + 1),
                area.x + area.width - x - 1,
                area.height.saturating_sub(3),
            ),
        );
    }
}
