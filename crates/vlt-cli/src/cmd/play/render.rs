//! Drawing the game with ratatui: the title, the board as the game shows it (the board module
//! draws it), the move list, the status, the evaluation bar, the messages and the keys; the start
//! menu (the menu module), the rules and settings screens and the end screen are drawn over it.
//! It fits 80x24.

use super::app::{App, Mode, Opponent, PromptKind};
use super::board::{BoardView, Geometry, MIN_H, MIN_W, Scale, draw_board_view, geometry};
use crate::i18n::Catalog;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use std::time::Instant;
use vlt_core::{Hole, Player, Position};
use vlt_engine::Level;

/// The thinking indicator's frames.
const SPINNER: [char; 8] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧'];

/// Draws the whole screen.
pub fn draw(f: &mut Frame, app: &App, now: Instant) {
    let area = f.area();
    let cat = &app.cat;
    if area.width < MIN_W || area.height < MIN_H {
        let text = cat.f("too_small", &[("w", &area.width), ("h", &area.height)]);
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let g = geometry(area);
    draw_title(f, app, area);
    draw_board(f, app, &g, now);
    draw_moves(f, app, area, g.scale, now);
    draw_texts(f, app, &g, area, now);
    match app.mode {
        Mode::Menu(row) => super::menu::draw_menu(f, app, row, area),
        Mode::Rules(page) => super::screens::draw_rules(f, app, page, area, now),
        Mode::Settings(row) => super::screens::draw_settings(f, app, row, area),
        Mode::Play if app.game.is_over() && app.frame(now).is_none() => super::overlay::draw_end(f, app, &g),
        _ => {}
    }
}

fn draw_title(f: &mut Frame, app: &App, area: Rect) {
    let cat = &app.cat;
    let a = app.name(Player::A);
    let b = app.name(Player::B);
    let level = match app.setup.opponent {
        Opponent::Computer(l) => format!(" · {}", cat.f("level_n", &[("n", &l.get())])),
        Opponent::Human => String::new(),
    };
    let line = Line::from(vec![
        Span::styled(
            format!(" {} ", cat.t("title")),
            Style::new().add_modifier(Modifier::BOLD).fg(Color::Yellow),
        ),
        Span::raw(format!(" ▲ {a}  ▼ {b}{level}")),
    ]);
    f.render_widget(Paragraph::new(line), Rect::new(area.x, area.y, area.width, 1));
}

fn draw_board(f: &mut Frame, app: &App, g: &Geometry, now: Instant) {
    let ((board, stores), frame) = app.shown(now);
    // Whose turn the board shows: the replayed position's, the sowing player's while stones are
    // still being sown, the game's otherwise.
    let pos = app.shown_position();
    let sowing = frame.map(|_| app.anim.as_ref().map_or(pos.to_move(), |a| a.mover));
    let to_move = sowing.unwrap_or(pos.to_move());
    let over = app.game.is_over() && frame.is_none() && app.mode == Mode::Play;
    let replay = matches!(app.mode, Mode::Replay(_));
    let live = app.mode == Mode::Play && frame.is_none();
    let choosing = live && app.awaiting_human();
    let view = BoardView {
        board,
        stores,
        frame,
        cursor: choosing.then_some(app.cursor),
        hint: app.hint.filter(|_| live).map(|m| m.hole()),
        dim: live.then(|| pos.to_move().other()),
        keys: choosing.then(|| pos.to_move()),
        mover: if replay { Some(pos.to_move()) } else { (!over).then_some(to_move) },
    };
    draw_board_view(f, &app.cat, g, &view);
}

fn draw_moves(f: &mut Frame, app: &App, area: Rect, sc: Scale, now: Instant) {
    let r =
        Rect::new(area.x + area.width - sc.moves_w, area.y + 1, sc.moves_w, area.height.saturating_sub(3));
    let inner_h = usize::from(r.height.saturating_sub(2));
    let current = match app.mode {
        Mode::Replay(ply) => Some(ply),
        _ => None,
    };
    // While a move is being sown, the list does not show it yet.
    let shown = app.game.moves().len() - usize::from(app.frame(now).is_some());
    let moves = &app.game.moves()[..shown];
    let outs = &app.game.outcomes()[..shown];
    let mut lines: Vec<Line> = moves
        .iter()
        .zip(outs)
        .enumerate()
        .map(|(i, (m, o))| {
            let mut s = format!("{:>3}. {m}", i + 1);
            if !o.capture.is_empty() {
                s.push_str(&format!(" ×{}", o.capture.stones));
            }
            if o.opponent_passes && !o.game_over {
                s.push_str(" »");
            }
            let style = if current == Some(i + 1) {
                Style::new().add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            Line::from(Span::styled(s, style))
        })
        .collect();
    // Keep the current move (or the last one) in view.
    let focus = current.unwrap_or(lines.len());
    let skip = focus.saturating_sub(inner_h);
    lines.drain(..skip.min(lines.len()));
    let block = Block::bordered().title(app.cat.t("moves"));
    f.render_widget(Paragraph::new(lines).block(block), r);
}

fn draw_texts(f: &mut Frame, app: &App, g: &Geometry, area: Rect, now: Instant) {
    let cat = &app.cat;
    let w = g.scale.board_w() + 2;
    let x = g.x0;
    let mut y = g.below + 1;
    // The status: whose turn, or what is going on.
    let pos = app.game.position();
    let spin = SPINNER[(app.ticks / 2) as usize % SPINNER.len()];
    let status = match &app.mode {
        Mode::Prompt(kind, text) => {
            let key = if *kind == PromptKind::Save { "prompt_save" } else { "prompt_load" };
            let default =
                if text.is_empty() { cat.f("prompt_default", &[("file", &app.file)]) } else { String::new() };
            format!("{} {text}█ {default}", cat.t(key))
        }
        Mode::ConfirmResign => cat.t("resign_confirm"),
        Mode::Replay(_) => cat.t("status_replay"),
        _ if app.frame(now).is_some() => {
            let fr = app.frame(now).expect("checked");
            let who = app.anim.as_ref().map_or(pos.to_move(), |a| a.mover);
            cat.f("status_sowing", &[("who", &app.name(who)), ("n", &fr.hand)])
        }
        _ if app.game.is_over() => cat.t("status_over"),
        _ if app.thinking() => {
            format!("{} {spin}", cat.f("status_thinking", &[("who", &app.name(pos.to_move()))]))
        }
        _ => cat.f("status_turn", &[("who", &app.name(pos.to_move()))]),
    };
    let bold = Style::new().add_modifier(Modifier::BOLD);
    // The status may run to the window's edge (a typed file name must stay visible).
    let status_w = area.width.saturating_sub(x - area.x);
    f.render_widget(
        Paragraph::new(Span::styled(status, bold)).wrap(Wrap { trim: false }),
        Rect::new(x, y, status_w, 1),
    );
    y += 1;
    if app.show_eval && !matches!(app.mode, Mode::Replay(_)) && !app.game.is_over() {
        f.render_widget(Paragraph::new(eval_line(app, spin, w - 1)), Rect::new(x, y, w - 1, 1));
    }
    y += 1;
    // The last few messages, the newest at the bottom and brightest, so the user's move and the
    // computer's reply can both be read; a tall window shows more of them.
    let room = (area.height - 2).saturating_sub(y + 1);
    let (msg_h, keep) = if room >= 12 { (room.min(10), 8) } else { (room.min(6), 3) };
    let replay = [app.message.clone()];
    let log: &[String] = if matches!(app.mode, Mode::Replay(_)) { &replay } else { &app.log };
    let n = log.len();
    let lines: Vec<Line> = log[n.saturating_sub(keep)..]
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let newest = i + 1 == n.min(keep);
            let style = if newest { Style::new() } else { Style::new().fg(Color::DarkGray) };
            Line::from(Span::styled(m.clone(), style))
        })
        .collect();
    // Roughly the wrapped height (words wrap a little earlier than characters would).
    let width = usize::from(w - 2);
    let text_h: usize =
        log[n.saturating_sub(keep)..].iter().map(|m| m.chars().count() * 11 / 10 / width + 1).sum();
    let text_h = text_h as u16;
    let scroll = text_h.saturating_sub(msg_h);
    f.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }).scroll((scroll, 0)),
        Rect::new(x, y, w - 2, msg_h),
    );
    let keys = if app.game.is_over() && app.mode == Mode::Play {
        vec![Line::from(cat.t("keys_over")), Line::from("")]
    } else {
        vec![Line::from(cat.t("keys_1")), Line::from(cat.t("keys_2"))]
    };
    let dim = Style::new().fg(Color::Gray);
    f.render_widget(
        Paragraph::new(keys).style(dim),
        Rect::new(area.x, area.y + area.height - 2, area.width, 2),
    );
}

/// The evaluation bar: the final score the engine predicts, B's part growing from the right
/// (B's store side); ten stones of margin fill one side, so small leads show.
fn eval_line(app: &App, spin: char, width: u16) -> Line<'static> {
    let cat = &app.cat;
    let Some(e) = app.eval else {
        return Line::from(format!("{}: {} {spin}", cat.t("eval"), cat.t("eval_wait")));
    };
    let head = format!("{}: A ", cat.t("eval"));
    let tail = format!(" B  {}", cat.f("eval_score", &[("b", &e.b), ("a", &e.a), ("n", &e.depth)]));
    // The bar takes what the words leave, between 8 and 30 cells (an even number: two halves).
    let used = (head.chars().count() + tail.chars().count()) as i32;
    let bar = ((i32::from(width) - used).clamp(8, 30)) / 2 * 2;
    let margin = i32::from(e.b) - i32::from(e.a);
    let b_cells = (bar / 2 + margin.clamp(-10, 10) * bar / 20).clamp(0, bar) as usize;
    Line::from(vec![
        Span::raw(head),
        // Different glyphs as well as colours, so the split shows on a monochrome terminal.
        Span::styled("░".repeat(bar as usize - b_cells), Style::new().fg(Color::Magenta)),
        Span::styled("█".repeat(b_cells), Style::new().fg(Color::Cyan)),
        Span::raw(tail),
    ])
}

/// What a level means, in a line: how far it looks (the engine's own settings) and whether chance
/// plays a part.
pub fn level_text(cat: &Catalog, level: u8) -> String {
    let settings = Level::new(level.clamp(Level::MIN.get(), Level::MAX.get())).expect("a level").settings();
    match settings.limits.depth {
        None => cat.t("level_max"),
        Some(d) if settings.temperature > 0 => cat.n("level_chance", u64::from(d), &[]),
        Some(d) => cat.n("level_exact", u64::from(d), &[]),
    }
}

/// A worked example of the rule texts (RULES.md) as text: the board before and after the move, and what it shows.
pub fn example_lines(cat: &Catalog, ex: vlt_core::examples::WorkedExample) -> Vec<String> {
    let mut out = Vec::new();
    let (Ok(before), Ok(mv)) = (ex.position.parse::<Position>(), ex.mv.parse::<vlt_core::Move>()) else {
        return out;
    };
    let Ok((after, outcome)) = before.play_traced(mv) else { return out };
    out.push(cat.f("example_head", &[("move", &mv), ("n", &outcome.sowing.stones)]));
    out.push(String::new());
    out.push(cat.t("before"));
    out.extend(text_board(before, &[(mv.hole(), '>')]));
    out.push(cat.t("after"));
    let caps: Vec<(Hole, char)> = outcome.capture.holes().map(|h| (h, '*')).collect();
    out.extend(text_board(after, &caps));
    out.push(String::new());
    out.push(cat.t(&format!("example_{}", ex.id)));
    out
}

/// The board as four lines of text (R1 layout; each store at its owner's right hand), with a mark
/// character before the counts of some holes.
pub fn text_board(pos: Position, marks: &[(Hole, char)]) -> Vec<String> {
    let cell = |h: Hole| {
        let n = pos.stones(h);
        match marks.iter().find(|(x, _)| *x == h) {
            Some((_, m)) => format!("{:>4}", format!("{m}{n}")),
            None => format!("{n:>4}"),
        }
    };
    let a: String = (1..=6).filter_map(|n| Hole::new(Player::A, n)).map(cell).collect();
    let b: String = (1..=6).rev().filter_map(|n| Hole::new(Player::B, n)).map(cell).collect();
    let la: String = (1..=6).map(|n| format!("  {n}A")).collect();
    let lb: String = (1..=6).rev().map(|n| format!("  {n}B")).collect();
    vec![
        format!("        {la}"),
        format!("  A {:>2} |{a} |", pos.captured(Player::A)),
        format!("       |{b} | {:>2} B", pos.captured(Player::B)),
        format!("        {lb}"),
    ]
}
