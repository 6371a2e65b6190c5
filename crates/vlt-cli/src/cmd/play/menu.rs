//! The start menu drawn over the board: the game's setup (opponent, level, side, first move),
//! Start, and the analysis board and the puzzles, each a row; and where a click on it lands,
//! from the same layout.

use super::app::{App, MENU_ROWS, MenuRow, Opponent};
use super::board::{MIN_H, MIN_W, centered, choice_line};
use super::render::level_text;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph};
use vlt_core::Player;

/// The box's width.
const WIDTH: u16 = 66;
/// The labels' column width: every language's labels fit it, so the values' arrows stand in one
/// column, where a click finds them.
const LABEL_W: u16 = 16;
/// Where a setting row's ◀ stands inside the box: after the pointer (2), the label and a space.
const ARROW_X: u16 = 2 + LABEL_W + 1;

/// The lines a row takes: a setting row has a line under it (what the level means, or blank);
/// the buttons stand together, Start set apart from the other modes.
fn row_h(m: MenuRow) -> u16 {
    if m == MenuRow::Analysis { 1 } else { 2 }
}

/// The box's height: borders, a blank line, the rows, and the two lines of keys.
fn height() -> u16 {
    2 + 1 + MENU_ROWS.iter().map(|&m| row_h(m)).sum::<u16>() + 2
}

/// The box on a screen of size `area`.
fn menu_rect(area: Rect) -> Rect {
    centered(area, WIDTH, height())
}

/// The screen line of row `i` in the box `r`.
fn row_y(r: Rect, i: usize) -> u16 {
    r.y + 2 + MENU_ROWS[..i].iter().map(|&m| row_h(m)).sum::<u16>()
}

/// The row a click at (`col`, `row`) lands on, with the step it asks for: -1 on a setting's ◀,
/// +1 on its value or ▶, 0 on its label (a button takes any click on its line).
pub fn menu_hit(area: Rect, col: u16, row: u16) -> Option<(usize, i8)> {
    if area.width < MIN_W || area.height < MIN_H {
        return None;
    }
    let r = menu_rect(area);
    if col <= r.x || col + 1 >= r.x + r.width {
        return None;
    }
    let i = (0..MENU_ROWS.len()).find(|&i| row_y(r, i) == row)?;
    let x = col - r.x - 1;
    let step = match x {
        _ if !MENU_ROWS[i].is_setting() => 0,
        x if x < ARROW_X => 0,
        x if x < ARROW_X + 2 => -1,
        _ => 1,
    };
    Some((i, step))
}

/// `text` cut to `w` characters, an ellipsis marking the cut (the whole text is in the log).
fn fit(text: &str, w: usize) -> String {
    if text.chars().count() <= w {
        return format!("  {text}");
    }
    let cut: String = text.chars().take(w - 1).collect();
    format!("  {cut}…")
}

/// Draws the menu with row `row` selected.
pub fn draw_menu(f: &mut Frame, app: &App, row: usize, area: Rect) {
    let cat = &app.cat;
    let s = &app.setup;
    let r = menu_rect(area);
    f.render_widget(Clear, r);
    let gray = Style::new().fg(Color::Gray);
    let mut lines = vec![Line::from("")];
    for (i, &m) in MENU_ROWS.iter().enumerate() {
        let (label, value) = match m {
            MenuRow::Opponent => (
                cat.t("menu_opponent"),
                cat.t(if matches!(s.opponent, Opponent::Human) { "menu_person" } else { "menu_computer" }),
            ),
            MenuRow::Level => (
                cat.t("menu_level"),
                match s.opponent {
                    Opponent::Computer(l) => l.get().to_string(),
                    Opponent::Human => "–".to_string(),
                },
            ),
            MenuRow::Side => {
                (cat.t("menu_side"), cat.t(if s.human == Player::B { "menu_side_b" } else { "menu_side_a" }))
            }
            MenuRow::First => (cat.t("menu_first"), s.first.to_string()),
            MenuRow::Start => (cat.t("menu_start"), String::new()),
            MenuRow::Analysis => (cat.t("an.title"), String::new()),
            MenuRow::Puzzles => (cat.t("menu_puzzles"), String::new()),
        };
        let w = usize::from(LABEL_W);
        let text = match (m, s.opponent) {
            (m, _) if !m.is_setting() => format!("[ {label} ]"),
            // The level's row also gives the scale, so the number means something at once.
            (MenuRow::Level, Opponent::Computer(_)) => {
                format!("{label:<w$} ◀ {value} ▶  {}", cat.t("level_scale"))
            }
            _ => format!("{label:<w$} ◀ {value} ▶"),
        };
        lines.push(choice_line(&text, i == row));
        // What the level means, under its row; under the last row, why a mode did not open;
        // a blank line under the other rows that take two.
        let last = i + 1 == MENU_ROWS.len();
        match (m, s.opponent, &app.menu_note) {
            (MenuRow::Level, Opponent::Computer(l), _) => {
                lines.push(Line::from(Span::styled(format!("    {}", level_text(cat, l.get())), gray)))
            }
            (_, _, Some(note)) if last => lines.push(Line::from(Span::styled(
                fit(note, usize::from(WIDTH) - 4),
                Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            ))),
            _ if row_h(m) == 2 => lines.push(Line::from("")),
            _ => {}
        }
    }
    lines.push(Line::from(Span::styled(cat.t("menu_keys"), gray)));
    lines.push(Line::from(Span::styled(cat.t("menu_settings"), gray)));
    let block = Block::bordered().border_type(BorderType::Double).title(cat.t("menu_title"));
    f.render_widget(Paragraph::new(lines).block(block), r);
}
