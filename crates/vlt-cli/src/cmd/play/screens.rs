//! The screens drawn instead of or over the game: the rules, whose worked examples are stepped
//! through on the real board, and the settings.

use super::app::App;
use super::board::{BoardView, board_geometry, centered, choice_line, draw_board_view};
use super::prefs::{SETTING_ROWS, SettingRow};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Padding, Paragraph, Wrap};
use std::time::Instant;
use vlt_core::examples::WORKED_EXAMPLES;

/// Draws a rules page: the rule texts (page 0) or a worked example on the board.
pub fn draw_rules(f: &mut Frame, app: &App, page: usize, area: Rect, now: Instant) {
    let cat = &app.cat;
    f.render_widget(Clear, area);
    let pages = WORKED_EXAMPLES.len() + 1;
    let title = cat.f("rules_title", &[("page", &(page + 1)), ("pages", &pages)]);
    let gray = Style::new().fg(Color::Gray);
    let Some(st) = app.stepper.as_ref().filter(|_| page > 0) else {
        let mut lines: Vec<Line> = cat.t("rules_text").lines().map(|l| Line::from(l.to_string())).collect();
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(cat.t("rules_keys"), gray)));
        let block = Block::bordered().title(title).padding(Padding::horizontal(1));
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block), area);
        return;
    };
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let head = cat.f(
        "example_board_head",
        &[("i", &page), ("k", &WORKED_EXAMPLES.len()), ("move", &st.mv), ("n", &st.outcome.sowing.stones)],
    );
    let top = Line::from(vec![
        Span::styled(format!(" {title} "), bold.fg(Color::Yellow)),
        Span::styled(format!(" {head}"), bold),
    ]);
    f.render_widget(Paragraph::new(top), Rect::new(area.x, area.y, area.width, 1));
    let g = board_geometry(area, false);
    let frame = st.frame(now);
    let (board, stores) = match frame {
        Some(fr) => (fr.board, fr.stores),
        None => (st.before.board(), st.before.captures()),
    };
    let from = st.mv.hole();
    let view = BoardView {
        board,
        stores,
        frame,
        // Before the move, the hole about to be sown is the one selected.
        cursor: frame.is_none().then_some(from),
        mover: Some(st.outcome.mover),
        ..BoardView::default()
    };
    draw_board_view(f, cat, &g, &view);
    // What the step shows, in words.
    let step = st.step(now);
    let holes: Vec<String> = st.outcome.capture.holes().map(|h| h.to_string()).collect();
    let captured = cat.f("captured", &[("n", &st.outcome.capture.stones), ("holes", &holes.join(" "))]);
    let caption = match frame {
        None => cat.f("example_before", &[("hole", &from), ("n", &st.before.stones(from))]),
        Some(fr) if step == st.last() => {
            let after = cat.f("example_after", &[("b", &fr.stores.b), ("a", &fr.stores.a)]);
            if st.outcome.capture.is_empty() { after } else { format!("{captured} {after}") }
        }
        // The captured holes flash (on and off) with no hole sown into.
        Some(fr) if fr.focus.is_none() => captured,
        Some(fr) if fr.hand == 0 => cat.f("example_last", &[("hole", &fr.focus.unwrap_or(from))]),
        Some(fr) => cat.f("example_sowing", &[("hole", &from), ("n", &fr.hand)]),
    };
    let progress = format!("{}/{}  ", step, st.last());
    let text = vec![
        Line::from(vec![Span::styled(progress, gray), Span::styled(caption, bold)]),
        Line::from(""),
        Line::from(cat.t(&format!("example_{}", st.example.id))),
    ];
    // On a large screen the texts line up with the board, as wide as it; on a small one they
    // need the whole width.
    let (x, w) = if g.scale.board_w() + 30 > area.width {
        (area.x + 1, area.width - 2)
    } else {
        (g.x0 + 1, g.scale.board_w() - 2)
    };
    let y = g.below + 1;
    let h = (area.y + area.height).saturating_sub(y + 1);
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), Rect::new(x, y, w, h));
    f.render_widget(
        Paragraph::new(Span::styled(cat.t("example_keys"), gray)),
        Rect::new(x, area.y + area.height - 1, w, 1),
    );
}

/// Draws the settings over the screen it was opened from.
pub fn draw_settings(f: &mut Frame, app: &App, row: usize, area: Rect) {
    let cat = &app.cat;
    let r = centered(area, 66, 14);
    f.render_widget(Clear, r);
    let on_off = |b: bool| cat.t(if b { "settings_on" } else { "settings_off" });
    // The labels padded to the longest, so the values line up in every language.
    let labels = ["settings_lang", "settings_speed", "settings_eval"].map(|k| cat.t(k));
    let lw = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) + 2;
    let mut lines = vec![Line::from("")];
    for (i, s) in SETTING_ROWS.iter().enumerate() {
        let text = match s {
            SettingRow::Language => format!("{:<lw$}◀ {} ▶", labels[0], cat.t("lang_name")),
            SettingRow::Speed => {
                let speed = if app.pace() == 0 { super::prefs::Speed::Off } else { app.prefs.speed };
                format!("{:<lw$}◀ {} ▶", labels[1], cat.t(speed.key()))
            }
            SettingRow::Eval => format!("{:<lw$}◀ {} ▶", labels[2], on_off(app.show_eval)),
            SettingRow::Done => format!("[ {} ]", cat.t("settings_done")),
        };
        lines.push(choice_line(&text, i == row));
        lines.push(Line::from(""));
    }
    let gray = Style::new().fg(Color::Gray);
    let place = match app.prefs_path() {
        Some(p) => cat.f("settings_saved_in", &[("file", &p.display())]),
        None => cat.t("settings_nowhere"),
    };
    lines.push(Line::from(Span::styled(place, gray)));
    lines.push(Line::from(Span::styled(cat.t("settings_keys"), gray)));
    let block = Block::bordered()
        .border_type(BorderType::Double)
        .title(cat.t("settings_title"))
        .padding(Padding::horizontal(1));
    // Not trimmed: the rows keep their indent under the ▶ of the selected one.
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block), r);
}
