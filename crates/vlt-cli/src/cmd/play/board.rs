//! The board on the screen: its geometry at each window size (R1's layout as seen from B's side:
//! A's row on top, 1A..6A left to right; B's row below, 6B..1B left to right; each store at its
//! owner's right hand, so A's store is on the left of the screen and B's on the right), the hit
//! test for mouse clicks, and drawing it from a [`BoardView`], which the game, the replay and the
//! rules' worked examples all fill in.

use super::anim::Frame as MoveFrame;
use crate::i18n::Catalog;
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};
use vlt_core::{ByPlayer, HOLES, Hole, Player};

/// The smallest screen the game is laid out for.
pub const MIN_W: u16 = 80;
/// The smallest screen height.
pub const MIN_H: u16 = 24;
/// The sizes of the board's parts on a screen: larger windows get larger holes and stores, so the
/// board grows with the window instead of floating small in the middle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    /// A hole's box width and height.
    pub hole_w: u16,
    /// A hole's box height.
    pub hole_h: u16,
    /// A store's box width; its height is both rows'.
    pub store_w: u16,
    /// The move list's width.
    pub moves_w: u16,
}

impl Scale {
    /// The scale for a screen of `area`: 80x24 and up, 116x36 and up, 150x44 and up.
    pub fn of(area: Rect) -> Scale {
        let (hole_w, hole_h, store_w, moves_w) = if area.width >= 150 && area.height >= 44 {
            (15, 9, 18, 24)
        } else if area.width >= 116 && area.height >= 36 {
            (11, 7, 14, 20)
        } else {
            (7, 5, 10, 16)
        };
        Scale { hole_w, hole_h, store_w, moves_w }
    }

    /// The board's width: two stores and six holes.
    pub fn board_w(self) -> u16 {
        2 * self.store_w + 6 * self.hole_w
    }
}

/// Where the board's parts are on a screen of `area`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Each hole's box, indexed by ring index.
    pub holes: [Rect; HOLES],
    /// Each player's store.
    pub stores: ByPlayer<Rect>,
    /// The first row below the board.
    pub below: u16,
    /// The left part's width (board and texts).
    pub left_w: u16,
    /// The board's left edge; the texts below start there too.
    pub x0: u16,
    /// The sizes used.
    pub scale: Scale,
}

/// The board's geometry on a screen (R1's layout), the move list at its right.
pub fn geometry(area: Rect) -> Geometry {
    board_geometry(area, true)
}

/// The board's geometry on a screen, beside the move list (`panel`) or in the middle of it.
pub fn board_geometry(area: Rect, panel: bool) -> Geometry {
    let sc = Scale::of(area);
    let (hole_w, hole_h, store_w) = (sc.hole_w, sc.hole_h, sc.store_w);
    let panel_w = if panel { sc.moves_w } else { 0 };
    let left_w = area.width.saturating_sub(panel_w).max(sc.board_w());
    let x0 = area.x + (left_w - sc.board_w()) / 2;
    // On a tall screen the board and its texts sit in the middle rather than at the top: the
    // texts below the board take 14 rows at any scale.
    let y0 = area.y + 2 + area.height.saturating_sub(14 + 2 * hole_h) / 2;
    let mut holes = [Rect::default(); HOLES];
    for h in Hole::ALL {
        let n = u16::from(h.number());
        let (col, row) = match h.owner() {
            Player::A => (n - 1, 0),
            Player::B => (6 - n, 1),
        };
        holes[h.index()] = Rect::new(x0 + store_w + col * hole_w, y0 + row * hole_h, hole_w, hole_h);
    }
    let stores = ByPlayer::new(
        Rect::new(x0 + store_w + 6 * hole_w, y0, store_w, 2 * hole_h),
        Rect::new(x0, y0, store_w, 2 * hole_h),
    );
    Geometry { holes, stores, below: y0 + 2 * hole_h, left_w, x0, scale: sc }
}

/// The hole under a screen cell, for mouse clicks.
pub fn hole_at(area: Rect, col: u16, row: u16) -> Option<Hole> {
    let g = geometry(area);
    Hole::ALL.into_iter().find(|h| {
        let r = g.holes[h.index()];
        col >= r.x && col < r.x + r.width && row >= r.y && row < r.y + r.height
    })
}

/// Dots for `n` stones in a box `w` wide with `rows` rows: rows of even length, a space between
/// the dots where the box is wide enough to spare one, and a `+` in the last place when they do
/// not all fit (the count above says how many).
fn dots(n: u8, w: u16, rows: u16) -> Vec<Line<'static>> {
    let spaced = w >= 9;
    let per_row = if spaced { usize::from(w).div_ceil(2) } else { usize::from(w) }.max(1);
    let cap = per_row * usize::from(rows);
    let n = usize::from(n);
    if n == 0 || cap == 0 {
        return Vec::new();
    }
    let mut glyphs = vec!["●"; if n > cap { cap - 1 } else { n }];
    if n > cap {
        glyphs.push("+");
    }
    let per = glyphs.len().div_ceil(glyphs.len().div_ceil(per_row));
    glyphs.chunks(per).map(|c| Line::from(c.join(if spaced { " " } else { "" }))).collect()
}

/// A hole's lines for `n` stones inside a box `w` by `h` (inner size): the count near the top,
/// and below it the dots, in the middle of the room left; on tall boxes a blank line above the
/// count and one between, so the count stays put while stones are sown.
fn hole_lines(count: Line<'static>, n: u8, w: u16, h: u16) -> Vec<Line<'static>> {
    let top = u16::from(h >= 7);
    let gap = u16::from(h >= 5);
    let room = h.saturating_sub(1 + top + gap);
    let d = dots(n, w, room);
    let pad = (usize::from(room) - d.len()) / 2;
    let mut lines = vec![Line::from(""); usize::from(top)];
    lines.push(count);
    lines.extend(std::iter::repeat_n(Line::from(""), usize::from(gap) + pad));
    lines.extend(d);
    lines
}

/// What the board shows, whichever screen draws it: the counts, the frame of a move being sown,
/// and the marks on holes and stores.
#[derive(Clone, Copy, Debug, Default)]
pub struct BoardView<'a> {
    /// Stones in each hole, in ring order.
    pub board: [u8; HOLES],
    /// Each player's captures.
    pub stores: ByPlayer<u8>,
    /// The frame of a move being sown: the hole just sown, the captured holes flashing.
    pub frame: Option<&'a MoveFrame>,
    /// The selected hole (double yellow border).
    pub cursor: Option<Hole>,
    /// The suggested hole (double green border).
    pub hint: Option<Hole>,
    /// The row drawn dim (the player not choosing).
    pub dim: Option<Player>,
    /// The row with the key under each hole.
    pub keys: Option<Player>,
    /// The store marked as the player to move's.
    pub mover: Option<Player>,
}

/// Draws a board as `view` says, in the boxes of `g`.
pub fn draw_board_view(f: &mut Frame, cat: &Catalog, g: &Geometry, view: &BoardView) {
    let sc = g.scale;
    for h in Hole::ALL {
        let n = view.board[h.index()];
        let mut style = Style::new();
        let mut border = BorderType::Plain;
        let mut mark = ' ';
        if let Some(fr) = view.frame {
            if fr.flash & 1 << h.index() != 0 {
                style = style.fg(Color::Red).add_modifier(Modifier::BOLD);
                border = BorderType::Thick;
                mark = '✖';
            } else if fr.focus == Some(h) {
                style = style.fg(Color::Green).add_modifier(Modifier::BOLD);
                border = BorderType::Thick;
            }
        } else if view.cursor == Some(h) {
            style = style.fg(Color::Yellow).add_modifier(Modifier::BOLD);
            border = BorderType::Double;
        } else if view.hint == Some(h) {
            style = style.fg(Color::Green);
            border = BorderType::Double;
        } else if view.dim == Some(h.owner()) {
            style = style.fg(Color::DarkGray);
        }
        let mut block = Block::bordered()
            .border_type(border)
            .border_style(style)
            .title(Line::from(format!("{h}")).alignment(Alignment::Center));
        // The key that plays it, under each hole of the player choosing (keys 1-6 run in sowing
        // order, so on B's row 1 is at the right).
        if view.keys == Some(h.owner()) {
            block = block.title_bottom(Line::from(format!("[{}]", h.number())).alignment(Alignment::Center));
        }
        let count = if mark == ' ' { n.to_string() } else { format!("{mark}{n}{mark}") };
        let count = Line::from(Span::styled(count, Style::new().add_modifier(Modifier::BOLD)));
        let lines = hole_lines(count, n, sc.hole_w - 2, sc.hole_h - 2);
        let p = Paragraph::new(lines).alignment(Alignment::Center).block(block);
        f.render_widget(p, g.holes[h.index()]);
    }
    for p in [Player::A, Player::B] {
        let mover = view.mover == Some(p);
        let style =
            if mover { Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD) } else { Style::new() };
        let title = if mover { format!("▶{p}◀") } else { format!(" {p} ") };
        let block =
            Block::bordered().border_style(style).title(Line::from(title).alignment(Alignment::Center));
        // The count a quarter of the way down (lower on tall stores), the dots below it.
        let inner = 2 * sc.hole_h - 2;
        let top = (inner / 4).saturating_sub(1);
        let mut lines = vec![Line::from(""); usize::from(top)];
        lines.extend([
            Line::from(Span::styled(view.stores[p].to_string(), Style::new().add_modifier(Modifier::BOLD))),
            Line::from(cat.n("word.stones", u64::from(view.stores[p]), &[])),
            Line::from(""),
        ]);
        lines.extend(dots(view.stores[p], sc.store_w - 4, inner - top - 3));
        f.render_widget(Paragraph::new(lines).alignment(Alignment::Center).block(block), g.stores[p]);
    }
}

/// One row of a menu-like box: the selected row pointed at and shown reversed.
pub fn choice_line(text: &str, selected: bool) -> Line<'static> {
    let (pointer, style) = if selected {
        ("▶ ", Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD))
    } else {
        ("  ", Style::new())
    };
    Line::from(Span::styled(format!("{pointer}{text}"), style))
}

/// A box `w` by `h` in the middle of `area` (smaller when `area` is).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h)
}
