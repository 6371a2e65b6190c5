//! `vlt show POSITION`: the board drawn as in R1, with the two stores.

use vlt_core::{Hole, Player, Position};

/// Draw a position as in R1: A's row on top, B's row below, each player's store on its right.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  vlt show '5,5,5,5,5,5/5,5,5,5,5,5 B 0 0'")]
pub struct Args {
    /// The position string (N2).
    #[arg(default_value = "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0")]
    position: String,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let pos = super::parse_position(&a.position)?;
    std::io::Write::write_all(&mut std::io::stdout(), draw(pos).as_bytes())?;
    Ok(())
}

/// The board as text, seen from B's side (R1): A's holes 1A…6A left to right on top, B's holes
/// 6B…1B below; A's store on the left (its right hand, facing B), B's on the right.
pub fn draw(pos: Position) -> String {
    let cell = |p: Player, n: u8| format!("{:>3}", pos.stones(Hole::new(p, n).expect("1..=6")));
    let top: Vec<String> = (1..=6).map(|n| cell(Player::A, n)).collect();
    let bottom: Vec<String> = (1..=6).rev().map(|n| cell(Player::B, n)).collect();
    let label = |p: Player, order: &mut dyn Iterator<Item = u8>| {
        order.map(|n| format!("{:>3}", format!("{n}{p}"))).collect::<Vec<_>>().join(" ")
    };
    let mut s = String::new();
    s += &format!("        {}\n", label(Player::A, &mut (1..=6)));
    s += &format!("      +{}+\n", "-".repeat(25));
    s += &format!(" A {:>2} | {} |\n", pos.captured(Player::A), top.join(" "));
    s += &format!("      | {} | {:>2} B\n", bottom.join(" "), pos.captured(Player::B));
    s += &format!("      +{}+\n", "-".repeat(25));
    s += &format!("        {}\n", label(Player::B, &mut (1..=6).rev()));
    if pos.is_game_over() {
        s += "Game over: the board is empty.\n";
    } else {
        s += &format!("{} to move.\n", pos.to_move());
    }
    s
}
