//! The store's promises on both backends: a seat is taken once, a ply is stored once (the second
//! is a conflict, not a fork), a forfeit rates once; and on PostgreSQL, between two servers' stores
//! on one database, changes are heard by the other and each clock lease is held by one at a time.

mod common;

use std::time::Duration;
use vlt_server::Store;
use vlt_server::kinds::{Forfeit, Side};
use vlt_server::store::{Change, GameRow};

/// The store's sample row, with a minute's clock (the clocked games' queries see it).
fn row(id: &str) -> GameRow {
    let tc = vlt_server::clock::TimeControl { initial_ms: 60_000, increment_ms: 0, per_move: false };
    GameRow { clock: Some(vlt_server::clock::Clock::new(tc)), ..GameRow::sample(id) }
}

fn won_by_a() -> vlt_core::GameResult {
    vlt_core::GameResult {
        winner: Some(vlt_core::Player::A),
        score: vlt_core::ByPlayer::new(0, 0),
        termination: vlt_core::Termination::Resignation(vlt_core::Player::B),
    }
}

on_both_stores! {
#[tokio::test]
async fn seats_and_plies_are_taken_once_and_games_read_back_as_written(db) {
    let s = db.open();
    s.insert_game(&row("g"), &[]).unwrap();
    assert_eq!(s.load("g").unwrap().unwrap(), (row("g"), vec![]));
    assert!(s.take_seat("g", Side::A, "t1", None, row("g").clock).unwrap());
    assert!(!s.take_seat("g", Side::A, "t2", None, None).unwrap());
    assert_eq!(s.clocked_unfinished().unwrap(), vec!["g".to_string()]);
    s.append_moves("g", 0, &["1B".into(), "2A".into()], None).unwrap();
    let twice = s.append_moves("g", 1, &["3A".into()], None).unwrap_err();
    assert!(twice.is_conflict(), "a ply stored twice is a conflict: {twice}");
    assert_eq!(s.load("g").unwrap().unwrap().1, vec!["1B", "2A"]);
    s.truncate_moves("g", 1, None).unwrap();
    assert_eq!(s.load("g").unwrap().unwrap().1, vec!["1B"]);
    s.forfeit("g", Forfeit { side: Side::B, time: false }, won_by_a(), &Default::default()).unwrap();
    let (r, _) = s.load("g").unwrap().unwrap();
    assert!(r.finished);
    assert_eq!(r.resigned, Some(Forfeit { side: Side::B, time: false }));
    assert_eq!(s.open_games().unwrap(), 0);
    assert_eq!(s.finished(10, 0).unwrap()[0].id, "g");
    assert!(s.load("nope").unwrap().is_none());
    // Reopened, it is all there.
    drop(s);
    let s = db.open();
    assert_eq!(s.load("g").unwrap().unwrap().1, vec!["1B"]);
}
}

/// Two stores on one fresh PostgreSQL database, as two servers have, or `None` when not set.
async fn two_servers() -> Option<(Store, Store)> {
    let db = common::TestDb::postgres().await?;
    Some((db.open(), db.open()))
}

#[tokio::test]
async fn a_change_on_one_server_is_heard_by_the_other_only() {
    let Some((one, two)) = two_servers().await else { return };
    assert!(one.shared() && two.shared());
    let mut heard_by_two = two.changes().unwrap();
    let mut heard_by_one = one.changes().unwrap();
    one.insert_game(&row("g"), &[]).unwrap();
    one.append_moves("g", 0, &["1B".into()], None).unwrap();
    let mut got = Vec::new();
    while !got.contains(&Change::Game("g".into())) {
        let c =
            tokio::time::timeout(Duration::from_secs(5), heard_by_two.recv()).await.expect("heard in time");
        got.push(c.unwrap());
    }
    // The writer does not hear itself (only the listener's own reconnection notices).
    tokio::time::sleep(Duration::from_millis(300)).await;
    while let Ok(c) = heard_by_one.try_recv() {
        assert_eq!(c, Change::Resync, "a server hears no change of its own");
    }
}

#[tokio::test]
async fn one_server_holds_a_clock_lease_until_it_lapses() {
    let Some((one, two)) = two_servers().await else { return };
    one.insert_game(&row("g"), &[]).unwrap();
    assert_eq!(one.lease_clocks(800).unwrap(), vec!["g".to_string()]);
    assert!(two.lease_clocks(800).unwrap().is_empty(), "held by the first");
    assert!(one.owns_clock("g").unwrap());
    assert!(!two.owns_clock("g").unwrap());
    // Renewed, it stays; not renewed, it lapses and the other server takes it.
    std::thread::sleep(Duration::from_millis(500));
    assert!(one.lease_clocks(800).unwrap().is_empty(), "a renewal takes nothing new");
    std::thread::sleep(Duration::from_millis(500));
    assert!(two.lease_clocks(800).unwrap().is_empty(), "still renewed");
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(two.lease_clocks(800).unwrap(), vec!["g".to_string()]);
    assert!(two.owns_clock("g").unwrap());
    assert!(!one.owns_clock("g").unwrap());
    // A finished game's lease is dropped.
    two.forfeit("g", Forfeit { side: Side::B, time: true }, won_by_a(), &Default::default()).unwrap();
    assert!(two.lease_clocks(800).unwrap().is_empty());
    assert!(!two.owns_clock("g").unwrap());
}
