//! Drawing the puzzle mode: the puzzle's heading, the board as the game draws it (the right move
//! marked once answered), the task, the verdict with the solution, the rating, the filters and
//! the keys; at the right, once answered, every move's value.

use super::board::{BoardView, MIN_H, MIN_W, board_geometry, draw_board_view};
use super::puzzle::{Answer, Puzzles};
use crate::cmd::puzzles::solve::{solution, task};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

fn signed(n: i32) -> String {
    if n > 0 { format!("+{n}") } else { n.to_string() }
}

/// The line above the board: number, rating, difficulty, themes.
pub fn heading(z: &Puzzles) -> String {
    let p = z.puzzle();
    let mut parts = vec![
        z.cat.f("puzzle.number", &[("n", &(z.current + 1)), ("total", &z.set.puzzles.len())]),
        z.cat.f("puzzle.rated", &[("r", &p.rating)]),
        z.cat.t(&format!("puzzle.difficulty.{}", p.difficulty().name())),
    ];
    // The themes tell what to look for, so they show only once the puzzle is answered.
    if z.done() {
        parts.extend(p.themes.iter().map(|t| z.cat.t(&format!("theme.{}", t.name()))));
    }
    parts.join(" · ")
}

/// What the answer was, in words: the verdict and, once answered, the solution.
pub fn verdict(z: &Puzzles) -> Vec<String> {
    let p = z.puzzle();
    match z.answer {
        Answer::Open => Vec::new(),
        Answer::Right(mv) => {
            vec![z.cat.f("puzzle.right", &[("move", &mv), ("n", &p.value())]), solution(&z.cat, p)]
        }
        Answer::Wrong { mv, value } => vec![
            z.cat.f("puzzle.wrong", &[("move", &mv), ("v", &signed(value)), ("n", &(p.value() - value))]),
            solution(&z.cat, p),
        ],
        Answer::Shown => vec![solution(&z.cat, p)],
    }
}

/// The filters in words.
fn filters(z: &Puzzles) -> String {
    let theme =
        z.theme.map_or_else(|| z.cat.t("puzzle.theme.any"), |t| z.cat.t(&format!("theme.{}", t.name())));
    let difficulty = z.difficulty.map_or_else(
        || z.cat.t("pz.difficulty.any"),
        |d| z.cat.t(&format!("puzzle.difficulty.{}", d.name())),
    );
    z.cat.f("pz.filters", &[("theme", &theme), ("difficulty", &difficulty), ("n", &z.picked.len())])
}

/// Draws the puzzle mode on the whole frame.
pub fn draw(f: &mut Frame, z: &Puzzles) {
    let area = f.area();
    if area.width < MIN_W || area.height < MIN_H {
        let text = z.cat.f("too_small", &[("w", &area.width), ("h", &area.height)]);
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let p = z.puzzle();
    let pos = p.position;
    let g = board_geometry(area, true);
    let view = BoardView {
        board: pos.board(),
        stores: pos.captures(),
        cursor: Some(z.cursor),
        hint: z.done().then_some(p.best.hole()),
        keys: (!z.done()).then_some(pos.to_move()),
        mover: Some(pos.to_move()),
        ..BoardView::default()
    };
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let title = format!("{} — {}", z.cat.t("puzzle.title"), heading(z));
    f.render_widget(
        Paragraph::new(Line::from(Span::styled(title, bold))),
        Rect::new(area.x, area.y, area.width, 1),
    );
    draw_board_view(f, &z.cat, &g, &view);
    let mut below = vec![Line::from(Span::styled(task(&z.cat, p), bold))];
    let colour = match z.answer {
        Answer::Right(_) => Color::Green,
        Answer::Wrong { .. } => Color::Red,
        _ => Color::Reset,
    };
    for (i, v) in verdict(z).into_iter().enumerate() {
        let style = if i == 0 { bold.fg(colour) } else { Style::new() };
        below.push(Line::from(Span::styled(v, style)));
    }
    if !z.message.is_empty() {
        below.push(Line::from(Span::styled(z.message.clone(), bold)));
    }
    let (r, rd) = z.rating.shown();
    below.push(Line::from(z.cat.f("puzzle.yourrating", &[("r", &r), ("rd", &rd)])));
    let gray = Style::new().fg(Color::Gray);
    below.push(Line::from(Span::styled(filters(z), gray)));
    below.push(Line::from(Span::styled(z.cat.t(if z.done() { "pz.keys.done" } else { "pz.keys" }), gray)));
    let w = g.left_w.min(area.width.saturating_sub(g.x0)).min(g.scale.board_w().max(area.width / 2));
    let h = area.height.saturating_sub(g.below + 1);
    f.render_widget(Paragraph::new(below).wrap(Wrap { trim: true }), Rect::new(g.x0, g.below + 1, w, h));
    // At the right, once answered: every move's value, the right one first.
    let x = area.x + g.left_w;
    if z.done() && x + 2 < area.x + area.width {
        let mut moves = p.move_values();
        moves.sort_by_key(|m| -m.1);
        let mut lines = vec![Line::from(Span::styled(z.cat.t("an.moves"), bold))];
        for (m, v) in moves {
            let style = if m == p.best { bold.fg(Color::Green) } else { Style::new() };
            lines.push(Line::from(Span::styled(format!("{m:<4}{:>4}", signed(v)), style)));
        }
        f.render_widget(
            Paragraph::new(lines),
            Rect::new(
                x + 1,
                g.holes[0].y.max(area.y + 1),
                area.x + area.width - x - 1,
                area.height.saturating_sub(3),
            ),
        );
    }
}
