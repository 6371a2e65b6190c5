//! Alpha-beta search: iterative deepening, negamax with principal-variation search, a shared
//! transposition table, move ordering (table move, captures, history) and aspiration windows.
//!
//! Scores are centistones of *future* capture difference for the player to move: a move's value is
//! the stones it captures plus (or minus, when the turn changes) the value of the position after it.
//! A finished game is worth 0 from there on (R6), so the value at the root of a finished search is
//! the exact capture difference still to come. R5: when the opponent must pass, the mover moves again
//! and the child's value is added rather than negated.
//!
//! R7: a position that already occurred since the last capture — in the game or on the search path —
//! scores 0 (no further captures), since either side may repeat it until its third occurrence ends
//! the game. Such a score depends on the path, so a node whose value used a repetition of a position
//! *above* it stores only its move in the table, never its score (the graph-history interaction).

use crate::eval::{EvalKind, STONE, Weights, evaluate_with};
use crate::tt::{Bound, Entry, Tt};
use crate::{Stop, TimeBudget};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;
use vlt_core::{HOLES, Hole, Move, Player, Position};

/// The deepest the search goes, in plies.
pub const MAX_PLY: usize = 120;
/// Larger than any score.
pub const INF: i32 = 30_000;
/// Half-width of the first aspiration window, in centistones.
const ASPIRATION: i32 = 40;
/// Iterations shallower than this use a full window.
const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Nodes between checks of the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// Late move reductions apply from this remaining depth on.
const LMR_MIN_DEPTH: i32 = 3;
/// ... and to moves from this position in the order on (0 is the first).
const LMR_MIN_INDEX: usize = 2;
/// Most captures a quiescence line follows.
const QS_DEPTH: usize = 4;
/// Largest history score before the table is halved.
const HISTORY_MAX: i32 = 1 << 20;

/// Everything the threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a Tt,
    pub weights: Weights,
    pub eval: EvalKind,
    pub stop: &'a Stop,
    /// Set when the main thread is done (helpers stop) or a limit is hit.
    pub abort: AtomicBool,
    pub start: Instant,
    pub budget: TimeBudget,
    pub node_limit: Option<u64>,
    /// Nodes of all threads, updated every [`CHECK_EVERY`] nodes.
    pub nodes: AtomicU64,
    /// The depth the main thread is searching (Lazy SMP helpers keep ahead of it).
    pub main_depth: AtomicU32,
    /// Iterations up to this depth ignore the time limits (`Limits::min_depth`).
    pub min_depth: u32,
    /// One thread: node limits are exact and the search deterministic.
    pub single: bool,
    /// Late move reductions on.
    pub lmr: bool,
    /// Quiescence search of captures at the horizon.
    pub quiescence: bool,
    /// Endgame tables, probed when the board holds at most `tb_max` stones.
    pub tb: Option<&'a vlt_tablebase::Tablebase>,
    /// The most stones the tables cover (0 without tables: an empty board needs no probe).
    pub tb_max: u32,
}

/// A root move and what the last iteration found for it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootMove {
    pub hole: u8,
    pub child: Position,
    pub captured: u8,
    /// Score of the last completed iteration: exact for the best move (and for all in analysis
    /// mode), else an upper bound.
    pub score: i32,
    /// Score found in the current iteration.
    pub current: i32,
}

/// One search thread's state.
pub(crate) struct Thread<'a> {
    sh: &'a Shared<'a>,
    pub nodes: u64,
    flushed: u64,
    pub aborted: bool,
    /// Abort checks are off while the first iteration runs, so a search always has a move.
    can_abort: bool,
    /// The time limits apply to this iteration (it is deeper than `Shared::min_depth`).
    timed: bool,
    /// Repetition keys (R7): the game's positions since the last capture, then the search path.
    keys: Vec<u128>,
    history: [i32; HOLES],
    pv: Vec<[u8; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    /// Smallest `keys` index of a repetition used in the current subtree (`usize::MAX`: none).
    rep_min: usize,
    /// True when the current subtree used the evaluation (its value is not proven).
    heuristic: bool,
    pub root: Vec<RootMove>,
    pub seldepth: usize,
    /// Late move reductions on (off only for measurements).
    pub lmr: bool,
    /// Positions whose value came from the endgame tables.
    pub tb_hits: u64,
    /// The root move (index in `root`) of the current iteration that scored above every move
    /// before it, the first one included, and above the window's floor: a proven improvement at
    /// the new depth, usable if the iteration is cut off.
    improver: Option<usize>,
}

fn mv(hole: u8) -> Move {
    Move(Hole::from_index(hole as usize).expect("hole index < 12"))
}

impl<'a> Thread<'a> {
    /// A thread searching the last position of `history` (the game since its last capture).
    pub fn new(sh: &'a Shared<'a>, history: &[Position]) -> Thread<'a> {
        let root_pos = *history.last().expect("at least the root");
        let mut keys: Vec<u128> = history[..history.len() - 1].iter().map(|p| p.repetition_key()).collect();
        keys.reserve(MAX_PLY + 4);
        let root = root_pos
            .legal_moves()
            .map(|m| {
                let (child, captured) = root_pos.play_counting(m);
                RootMove { hole: m.hole().index() as u8, child, captured, score: -INF, current: -INF }
            })
            .collect();
        keys.shrink_to_fit();
        Thread {
            sh,
            nodes: 0,
            flushed: 0,
            aborted: false,
            can_abort: false,
            timed: true,
            keys,
            history: [0; HOLES],
            pv: vec![[0; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            rep_min: usize::MAX,
            heuristic: false,
            root,
            seldepth: 0,
            lmr: sh.lmr,
            tb_hits: 0,
            improver: None,
        }
    }

    /// The principal variation of the last root search.
    pub fn pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].iter().map(|&h| mv(h)).collect()
    }

    /// The root move that proved better than the first one in the iteration under way, if any.
    pub fn improver(&self) -> Option<usize> {
        self.improver
    }

    /// Puts the root moves in the order of the last iteration's scores, best first (stable).
    pub fn sort_root(&mut self) {
        self.root.sort_by_key(|r| -r.score);
    }

    /// True when the last root search used no evaluation: its value is proven (R6, R7 scoring).
    pub fn proven(&self) -> bool {
        !self.heuristic
    }

    fn check_limits(&mut self) {
        if !self.can_abort {
            return;
        }
        let sh = self.sh;
        if let Some(limit) = sh.node_limit {
            let total = if sh.single {
                self.nodes
            } else {
                sh.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed
            };
            if total >= limit {
                self.aborted = true;
                sh.abort.store(true, Ordering::Relaxed);
                return;
            }
        }
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            sh.nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
            if sh.abort.load(Ordering::Relaxed) || sh.stop.is_stopped() {
                self.aborted = true;
            } else if let Some(hard) = sh.budget.hard.filter(|_| self.timed) {
                if sh.start.elapsed() >= hard {
                    self.aborted = true;
                    sh.abort.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    /// Adds this thread's uncounted nodes to the shared count.
    pub fn flush_nodes(&mut self) {
        self.sh.nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Searches the root to `depth` within `(alpha, beta)`. With `all`, every move gets an exact
    /// score (analysis); otherwise moves after the first get null-window bounds (PVS).
    pub fn search_root(
        &mut self,
        root_pos: Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        all: bool,
    ) -> i32 {
        self.can_abort = depth > 1 || !self.sh.single;
        self.timed = depth > self.sh.min_depth;
        self.rep_min = usize::MAX;
        self.heuristic = false;
        self.pv_len[0] = 0;
        self.improver = None;
        for r in &mut self.root {
            r.current = -INF;
        }
        let me = root_pos.to_move();
        self.keys.push(root_pos.repetition_key());
        let root_index = self.keys.len() - 1;
        let mut best = -INF;
        for i in 0..self.root.len() {
            let r = self.root[i];
            let floor = if r.captured > 0 { root_index + 1 } else { 0 };
            let cap = i32::from(r.captured) * STONE;
            let d = depth as i32 - 1;
            let v = if i == 0 || all {
                let a = if all { -INF } else { alpha };
                self.child(me, r.child, cap, d, a, beta, 1, floor)
            } else {
                let v = self.child(me, r.child, cap, d, alpha, alpha + 1, 1, floor);
                if v > alpha && v < beta && !self.aborted {
                    self.child(me, r.child, cap, d, alpha, beta, 1, floor)
                } else {
                    v
                }
            };
            if self.aborted {
                break;
            }
            self.root[i].current = v;
            if v > best {
                best = v;
                self.update_pv(0, r.hole);
                if v > alpha {
                    alpha = v;
                    if i > 0 {
                        self.improver = Some(i);
                    }
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.keys.pop();
        best
    }

    /// Copies `current` into `score` for every root move searched this iteration.
    pub fn commit_root_scores(&mut self, searched_all: bool) {
        for r in &mut self.root {
            if searched_all || r.current > -INF {
                r.score = r.current;
            }
            r.current = -INF;
        }
    }

    fn update_pv(&mut self, ply: usize, hole: u8) {
        let len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = hole;
        for i in ply + 1..len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = len;
    }

    /// The value of playing into `child` (which captured `cap` centistones) for the mover `me`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child(
        &mut self,
        me: Player,
        child: Position,
        cap: i32,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        floor: usize,
    ) -> i32 {
        if child.to_move() == me && !child.is_game_over() {
            // R5: the opponent passes; the mover moves again, so no negation.
            cap + self.negamax(child, depth, alpha - cap, beta - cap, ply, floor)
        } else {
            cap - self.negamax(child, depth, cap - beta, cap - alpha, ply, floor)
        }
    }

    fn negamax(
        &mut self,
        pos: Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        floor: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if pos.is_game_over() {
            return 0; // R6: nothing more to capture.
        }
        // R7: a repeated position scores as no further captures.
        let key = pos.repetition_key();
        let index = self.keys.len();
        if let Some(j) = self.keys[floor..].iter().rposition(|&k| k == key) {
            self.rep_min = self.rep_min.min(floor + j);
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        self.nodes += 1;
        // Endgame tables: an exact value under R7, a proof (no evaluation involved).
        if let Some(tb) = self.sh.tb {
            if pos.stones_on_board() <= self.sh.tb_max {
                if let Some(v) = tb.probe(pos) {
                    self.tb_hits += 1;
                    return v * STONE;
                }
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            self.heuristic = true;
            if self.sh.quiescence && ply + QS_DEPTH < MAX_PLY {
                return self.qsearch(pos, alpha, beta, QS_DEPTH);
            }
            return evaluate_with(self.sh.eval, pos, &self.sh.weights);
        }
        self.check_limits();
        if self.aborted {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let zkey = pos.zobrist();
        let mut tt_move = None;
        if let Some(e) = self.sh.tt.probe(zkey) {
            tt_move = e.mv;
            // A proven score holds at any depth; others only when searched deep enough.
            if e.bound != Bound::None && (e.proven || i32::from(e.depth) >= depth) && !pv_node {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                    Bound::None => false,
                };
                if cut {
                    self.heuristic |= !e.proven;
                    return e.score;
                }
            }
        }

        // Generate and order: table move, then bigger captures, then history.
        let mut list = [(0u8, Position::START, 0u8, 0i32); 6];
        let mut n = 0;
        for m in pos.legal_moves() {
            let h = m.hole().index() as u8;
            let (c, k) = pos.play_counting(m);
            let order = if tt_move == Some(h) {
                i32::MAX
            } else {
                i32::from(k) * (4 * HISTORY_MAX) + self.history[h as usize]
            };
            list[n] = (h, c, k, order);
            n += 1;
        }
        let list = &mut list[..n];
        list.sort_unstable_by_key(|x| -x.3);
        // Each child probes its table slot first thing, a cache miss in a large table: start all
        // of them loading now, so that their misses overlap instead of coming one after another.
        for x in list.iter() {
            self.sh.tt.prefetch(x.1.zobrist());
        }

        let me = pos.to_move();
        self.keys.push(key);
        let (saved_rep, saved_heur) = (self.rep_min, self.heuristic);
        self.rep_min = usize::MAX;
        self.heuristic = false;
        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = list[0].0;
        for (i, &(h, c, k, _)) in list.iter().enumerate() {
            let cap = i32::from(k) * STONE;
            // After a capture nothing earlier can repeat (R7): the window starts at the child.
            let child_floor = if k > 0 { index + 1 } else { floor };
            let v = if i == 0 {
                self.child(me, c, cap, depth - 1, alpha, beta, ply + 1, child_floor)
            } else {
                // Late move reduction: quiet moves late in the order are searched a ply shallower
                // first, and again at full depth only if they look better than the best so far.
                let r =
                    if self.lmr && depth >= LMR_MIN_DEPTH && i >= LMR_MIN_INDEX && k == 0 { 1 } else { 0 };
                let mut v = self.child(me, c, cap, depth - 1 - r, alpha, alpha + 1, ply + 1, child_floor);
                if r > 0 && v > alpha && !self.aborted {
                    v = self.child(me, c, cap, depth - 1, alpha, alpha + 1, ply + 1, child_floor);
                }
                if v > alpha && v < beta && !self.aborted {
                    self.child(me, c, cap, depth - 1, alpha, beta, ply + 1, child_floor)
                } else {
                    v
                }
            };
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = h;
                if v > alpha {
                    alpha = v;
                    if pv_node {
                        self.update_pv(ply, h);
                    }
                    if v >= beta {
                        if k == 0 {
                            self.reward(h, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.keys.pop();
        let (node_rep, node_heur) = (self.rep_min, self.heuristic);
        self.rep_min = saved_rep.min(node_rep);
        self.heuristic = saved_heur || node_heur;
        if self.aborted {
            return 0;
        }
        let path_dependent = node_rep < index;
        let bound = if path_dependent {
            Bound::None
        } else if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.sh.tt.store(
            zkey,
            Entry {
                score: best,
                depth: depth.min(255) as u8,
                bound,
                mv: Some(best_move),
                proven: !node_heur,
            },
        );
        best
    }

    /// Quiescence (optional, off by default): at the horizon, the mover may stand on the
    /// evaluation or play a capture (R4), recursively for at most `q` captures. No repetition can
    /// occur on such a line: every move captures (R7).
    fn qsearch(&mut self, pos: Position, mut alpha: i32, beta: i32, q: usize) -> i32 {
        let stand = evaluate_with(self.sh.eval, pos, &self.sh.weights);
        if q == 0 || stand >= beta {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        let board = pos.board();
        let me = pos.to_move();
        for m in pos.legal_moves() {
            if crate::eval::capture_of(&board, m.hole().index()) == 0 {
                continue;
            }
            self.nodes += 1;
            let (c, k) = pos.play_counting(m);
            let cap = i32::from(k) * STONE;
            let v = if c.is_game_over() {
                cap
            } else if c.to_move() == me {
                cap + self.qsearch(c, alpha - cap, beta - cap, q - 1)
            } else {
                cap - self.qsearch(c, cap - beta, cap - alpha, q - 1)
            };
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    fn reward(&mut self, h: u8, depth: i32) {
        let e = &mut self.history[h as usize];
        *e += depth * depth;
        if *e > HISTORY_MAX {
            for x in &mut self.history {
                *x /= 2;
            }
        }
    }
}

/// The aspiration window for an iteration after one that scored `prev`.
pub(crate) fn aspiration(depth: u32, prev: i32) -> (i32, i32, i32) {
    if depth < ASPIRATION_MIN_DEPTH || prev.abs() >= INF {
        (-INF, INF, INF)
    } else {
        (prev - ASPIRATION, prev + ASPIRATION, ASPIRATION)
    }
}
