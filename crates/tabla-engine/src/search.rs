//! The search: iterative deepening with aspiration windows over a principal variation search
//! (null-move pruning, ProbCut, late-move reductions and pruning, futility pruning, check and
//! singular extensions, transposition table) and a quiescence search over captures and
//! promotions. Several workers may search one position at once, sharing only the transposition
//! table (lazy SMP, see [`crate::Engine::set_threads`]).

use crate::check::CheckInfo;
use crate::correction::Correction;
use crate::evaluate::Evaluator;
use crate::info::{Info, ScoreBound, SearchResult};
use crate::limits::{Budget, Limits};
use crate::nnue::Pieces;
use crate::oracle::EndgameOracle;
use crate::ordering::{Context, History, Picker, Scoring, is_quiet};
use crate::score::{
    DRAW, INFINITE, MATE_BOUND, MAX_PLY, Score, Value, from_table, is_mate, mate_in, mated_in,
    to_table,
};
use crate::see::{SEE_VALUE, see};
use crate::skill::Skill;
use crate::tt::{Bound, Entry, TranspositionTable};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tabla::{Bitboard, Color, Move, MoveList, Position, Rank, Role};

/// Flags another thread may change while a search runs.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// Set while pondering; clearing it (`ponderhit`) switches the clock on.
    pub pondering: AtomicBool,
}

/// Late-move reductions by depth and move number.
pub(crate) struct Reductions([[u8; 64]; 64]);

impl Reductions {
    pub(crate) fn new() -> Reductions {
        let mut table = [[0u8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (count, r) in row.iter_mut().enumerate().skip(1) {
                let v = 0.75 + (depth as f64).ln() * (count as f64).ln() / 2.25;
                *r = v.max(0.0) as u8;
            }
        }
        Reductions(table)
    }

    #[inline]
    fn get(&self, depth: i32, count: usize) -> i32 {
        self.0[(depth as usize).min(63)][count.min(63)] as i32
    }
}

#[derive(Copy, Clone)]
struct Frame {
    /// The move made from this ply (NULL for a null move or none yet).
    mv: Move,
    /// The static evaluation, `None` when in check.
    eval: Option<Value>,
    /// A move the search of this ply must leave out (singular-extension test), or NULL.
    excluded: Move,
}

/// One line of a (multi-)PV result.
#[derive(Clone, Debug)]
struct Line {
    value: Value,
    pv: Vec<Move>,
    bound: ScoreBound,
}

/// What the search borrows from the engine.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub history: &'a mut History,
    pub correction: &'a mut Correction,
    pub evaluator: &'a mut Evaluator,
    pub reductions: &'a Reductions,
    pub oracle: Option<&'a dyn EndgameOracle>,
    pub multipv: usize,
    pub overhead: Duration,
    /// How the move is chosen among the lines found ([`Skill::full`]: the best).
    pub skill: Skill,
}

/// The state of one search.
pub(crate) struct Worker<'a, 'c> {
    pos: Position,
    tt: &'a TranspositionTable,
    history: &'a mut History,
    correction: &'a mut Correction,
    evaluator: &'a mut Evaluator,
    reductions: &'a Reductions,
    oracle: Option<&'a dyn EndgameOracle>,
    control: &'c Control,
    on_info: &'c mut (dyn FnMut(&Info) + Send),
    /// Zobrist keys of the game's positions since the last irreversible move, then of the
    /// positions on the current search path; the last is the current position's.
    keys: Vec<u64>,
    frames: [Frame; MAX_PLY + 2],
    pv: Box<[[Move; MAX_PLY + 2]; MAX_PLY + 2]>,
    pv_len: [usize; MAX_PLY + 2],
    nodes: u64,
    /// Every search thread's node count, published every 1024 nodes; this thread's at `thread`.
    counters: &'c [AtomicU64],
    thread: usize,
    /// The other threads' nodes when this one last looked.
    others: u64,
    /// Added to every iteration's depth, so that helper threads do not all search alike.
    depth_offset: u32,
    seldepth: usize,
    start: Instant,
    budget: Budget,
    node_limit: Option<u64>,
    aborted: bool,
    can_abort: bool,
    root_excluded: Vec<Move>,
    root_allowed: Vec<Move>,
    /// The best root move of the running iteration, once one has been fully searched.
    iteration_best: Option<Line>,
    multipv: usize,
    skill: Skill,
}

/// The keys of `pos`'s earlier positions back to the last capture or pawn move, oldest first,
/// then its own.
fn game_keys(pos: &Position) -> Vec<u64> {
    let mut p = pos.clone();
    let mut keys = Vec::new();
    for _ in 0..pos.halfmoves() {
        if p.undo().is_none() {
            break;
        }
        keys.push(p.zobrist());
    }
    keys.reverse();
    keys.push(pos.zobrist());
    keys
}

/// The legal captures and queen promotions of `pos`, into `moves`.
fn tactical_moves(pos: &Position, moves: &mut MoveList) {
    let them = pos.by_color(!pos.turn());
    let promotion_rank = Bitboard::rank(if pos.turn() == Color::White {
        Rank::Eighth
    } else {
        Rank::First
    });
    pos.legal_moves_to(moves, them | promotion_rank);
    moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
}

/// `true` when `color` has a piece other than pawns and king (null moves are unsafe without:
/// zugzwang).
#[inline]
fn has_pieces(pos: &Position, color: Color) -> bool {
    (pos.by_color(color) & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King)).any()
}

/// `static_eval`, or the hash table's value for the position when its bound says that is the
/// better estimate (a lower bound above it, an upper bound below it, an exact value); never a
/// mate score.
#[inline]
fn sharpened(static_eval: Value, entry: Option<Entry>, ply: usize) -> Value {
    let Some(e) = entry else {
        return static_eval;
    };
    let v = from_table(e.value, ply);
    let usable = match e.bound {
        Bound::Exact => true,
        Bound::Lower => v > static_eval,
        Bound::Upper => v < static_eval,
    };
    if usable && !is_mate(v) {
        v
    } else {
        static_eval
    }
}

impl<'a, 'c> Worker<'a, 'c> {
    pub(crate) fn new(
        pos: &Position,
        limits: &Limits,
        shared: Shared<'a>,
        control: &'c Control,
        on_info: &'c mut (dyn FnMut(&Info) + Send),
        counters: &'c [AtomicU64],
        thread: usize,
    ) -> Worker<'a, 'c> {
        let clock_limits = Limits {
            ponder: false,
            ..limits.clone()
        };
        let legal = pos.legal_moves();
        let root_allowed = limits
            .search_moves
            .iter()
            .filter_map(|text| pos.parse_uci(text).ok())
            .filter(|mv| legal.contains(mv))
            .collect();
        shared.evaluator.start(pos);
        Worker {
            pos: pos.clone_without_history(),
            tt: shared.tt,
            history: shared.history,
            correction: shared.correction,
            evaluator: shared.evaluator,
            reductions: shared.reductions,
            oracle: shared.oracle,
            control,
            on_info,
            keys: game_keys(pos),
            frames: [Frame {
                mv: Move::NULL,
                eval: None,
                excluded: Move::NULL,
            }; MAX_PLY + 2],
            pv: Box::new([[Move::NULL; MAX_PLY + 2]; MAX_PLY + 2]),
            pv_len: [0; MAX_PLY + 2],
            nodes: 0,
            counters,
            thread,
            others: 0,
            depth_offset: 0,
            seldepth: 0,
            start: Instant::now(),
            budget: Budget::new(&clock_limits, pos.turn(), shared.overhead),
            node_limit: limits.nodes,
            aborted: false,
            can_abort: false,
            root_excluded: Vec::new(),
            root_allowed,
            iteration_best: None,
            multipv: shared.multipv.max(1),
            skill: shared.skill,
        }
    }

    /// Makes this worker a helper thread: stoppable from its first node (only `control.stop` ends
    /// it), every other one searching a ply deeper.
    pub(crate) fn helper(mut self) -> Self {
        self.can_abort = true;
        self.depth_offset = (self.thread % 2) as u32;
        self
    }

    /// The nodes of all threads: this one's exactly, the others' as last published.
    fn total_nodes(&self) -> u64 {
        let others: u64 = self
            .counters
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != self.thread)
            .map(|(_, c)| c.load(Ordering::Relaxed))
            .sum();
        self.nodes + others
    }

    /// Checks the node limit, the clock and the stop flag.
    #[inline]
    fn check_limits(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if !self.can_abort {
            return false;
        }
        if let Some(limit) = self.node_limit
            && self.nodes + self.others >= limit
        {
            self.aborted = true;
        }
        if self.nodes & 1023 == 0 {
            if self.counters.len() > 1 {
                if let Some(c) = self.counters.get(self.thread) {
                    c.store(self.nodes, Ordering::Relaxed);
                }
                self.others = self.total_nodes() - self.nodes;
            }
            if self.control.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            } else if let Some(hard) = self.budget.hard
                && !self.control.pondering.load(Ordering::Relaxed)
                && self.start.elapsed() >= hard
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// `true` when the current position occurred before, on the search path or in the game,
    /// since the last irreversible move.
    #[inline]
    fn is_repetition(&self) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let reach = (self.pos.halfmoves() as usize).min(n - 1);
        let mut back = 4;
        while back <= reach {
            if self.keys[n - 1 - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    #[inline]
    fn make(&mut self, ply: usize, mv: Move) -> tabla::Undo {
        self.frames[ply].mv = mv;
        let before = Pieces::of(&self.pos);
        let undo = self.pos.make(mv);
        let key = self.pos.zobrist();
        self.tt.prefetch(key);
        self.keys.push(key);
        self.evaluator.push_move(&before, &self.pos);
        undo
    }

    #[inline]
    fn unmake(&mut self, undo: tabla::Undo) {
        self.pos.unmake(undo);
        self.keys.pop();
        self.evaluator.pop();
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// The endgame oracle's exact value, when it knows the position and the fifty-move rule
    /// lets the result stand ([`OracleValue::in_time`]).
    #[inline]
    fn probe_oracle(&self, ply: usize) -> Option<Value> {
        let oracle = self.oracle?;
        if ply == 0 || self.pos.occupied().count() > oracle.max_men() {
            return None;
        }
        oracle
            .probe(&self.pos, ply)
            .and_then(|v| v.in_time(self.pos.halfmoves()))
            .map(|v| v.value(ply))
    }

    /// `raw`, the current position's static evaluation, with the correction history's
    /// adjustment (kept clear of mate values).
    #[inline]
    fn corrected(&self, raw: Value) -> Value {
        if is_mate(raw) {
            return raw;
        }
        (raw + self.correction.get(&self.pos)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Alpha-beta search of the current position to `depth` plies.
    fn search(
        &mut self,
        mut depth: i32,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        pv_node: bool,
    ) -> Value {
        // Step 1. At the horizon, the quiescence search; otherwise count the node and check the
        // limits.
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply, pv_node);
        }
        self.nodes += 1;
        if self.check_limits() {
            return 0;
        }
        // Step 2. Positions decided without search: repetitions, the fifty-move rule, dead
        // material, the endgame oracle, mates nearer the root, the ply limit.
        let root = ply == 0;
        let in_check = self.pos.is_check();
        if !root {
            if self.is_repetition() {
                return DRAW;
            }
            if self.pos.halfmoves() >= 100 && (!in_check || self.pos.count_legal_moves() > 0) {
                return DRAW;
            }
            let men = self.pos.occupied().count();
            if men <= 4 && self.pos.is_insufficient_material() {
                return DRAW;
            }
            if let Some(v) = self.probe_oracle(ply) {
                return v;
            }
            // Mate distance pruning: no line from here beats a mate already found nearer the root.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check {
                    DRAW
                } else {
                    self.evaluator.evaluate(&self.pos)
                };
            }
        }
        self.seldepth = self.seldepth.max(ply);

        // Step 3. The transposition table: its move to try first, and a cut-off when a deep enough
        // entry settles this window (never at PV nodes nor under a singular-extension test).
        let key = self.pos.zobrist();
        let excluded = self.frames[ply].excluded;
        let entry = self.tt.probe(key);
        let mut hash_move = Move::NULL;
        if let Some(e) = entry {
            hash_move = e.mv;
            let v = from_table(e.value, ply);
            if !pv_node
                && excluded.is_null()
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                }
            {
                return v;
            }
        }

        // Step 4. The static evaluation (none in check), with the correction history's adjustment,
        // and whether it improved on the one two plies before.
        let raw_eval = if in_check {
            None
        } else {
            Some(match entry {
                Some(e) => e.eval,
                None => self.evaluator.evaluate(&self.pos),
            })
        };
        let static_eval = raw_eval.map(|v| self.corrected(v));
        self.frames[ply].eval = static_eval;
        let eval = static_eval.map_or(-INFINITE, |se| sharpened(se, entry, ply));
        let improving = match (static_eval, ply >= 2) {
            (Some(se), true) => self.frames[ply - 2].eval.is_none_or(|old| se > old),
            _ => false,
        };
        let previous = if ply > 0 {
            self.frames[ply - 1].mv
        } else {
            Move::NULL
        };
        let us = self.pos.turn();

        // Step 5. Pruning before any move: reverse futility, razoring, the null move.
        if !pv_node && !in_check && excluded.is_null() {
            // Step 5a. Reverse futility: far above beta with little depth left, the opponent will
            // not catch up.
            if depth <= 7 && !is_mate(beta) && eval - 80 * (depth - i32::from(improving)) >= beta {
                return eval;
            }
            // Step 5b. Razoring: hopeless at low depth unless a capture saves it.
            if depth <= 2 && eval + 240 * depth < alpha {
                let v = self.quiesce(alpha, alpha + 1, ply, false);
                if v <= alpha {
                    return v;
                }
            }
            // Step 5c. Null move: if passing still fails high, a real move will too.
            if depth >= 3
                && eval >= beta
                && !previous.is_null()
                && !is_mate(beta)
                && has_pieces(&self.pos, us)
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.frames[ply].mv = Move::NULL;
                self.pos.play_null();
                self.keys.push(self.pos.zobrist());
                self.evaluator.push_null(&self.pos);
                let v = -self.search(depth - r, -beta, -beta + 1, ply + 1, false);
                self.evaluator.pop();
                self.keys.pop();
                self.pos.undo();
                if self.aborted {
                    return 0;
                }
                if v >= beta {
                    return if is_mate(v) { beta } else { v };
                }
            }
        }

        // Step 6. ProbCut: a capture whose search 4 plies shallower beats beta by a wide margin
        // (200 cp, 140 when improving) makes the full search very likely to fail high as well.
        let probcut_beta = beta + 200 - 60 * i32::from(improving);
        if !pv_node
            && !in_check
            && excluded.is_null()
            && depth >= 5
            && !is_mate(beta)
            && !entry
                .is_some_and(|e| e.depth >= depth - 3 && from_table(e.value, ply) < probcut_beta)
            && let Some(se) = static_eval
        {
            let mut captures = MoveList::new();
            tactical_moves(&self.pos, &mut captures);
            let mut picker = Picker::new(hash_move, Scoring::Captures);
            while let Some((mv, _)) = picker.next(&mut captures, &self.pos, self.history) {
                if see(&self.pos, mv) < probcut_beta - se {
                    continue;
                }
                let undo = self.make(ply, mv);
                let mut v = -self.quiesce(-probcut_beta, -probcut_beta + 1, ply + 1, false);
                if v >= probcut_beta {
                    v = -self.search(depth - 4, -probcut_beta, -probcut_beta + 1, ply + 1, false);
                }
                self.unmake(undo);
                if self.aborted {
                    return 0;
                }
                if v >= probcut_beta {
                    self.tt.store(
                        key,
                        Entry {
                            mv,
                            value: to_table(v, ply),
                            eval: raw_eval.unwrap_or(0),
                            depth: depth - 3,
                            bound: Bound::Lower,
                        },
                    );
                    return v;
                }
            }
        }

        // Step 7. Internal iterative reduction: without a hash move the ordering is poor, so
        // search shallower to find one cheaply.
        if depth >= 4 && hash_move.is_null() && (pv_node || !in_check) {
            depth -= 1;
        }

        // Step 8. Singular extension: when the hash move is the only good one (every other move
        // fails well below its value), it deserves a deeper look; when others are good too and all
        // beat beta, the node is cut at once; when others are good too and the hash move's value
        // beats beta anyway, the hash move is searched a ply shallower ("doubtful").
        let mut singular = false;
        let mut doubtful = false;
        if let Some(e) = entry
            && !root
            && depth >= 7
            && excluded.is_null()
            && !hash_move.is_null()
            && e.bound != Bound::Upper
            && e.depth >= depth - 3
            && !is_mate(from_table(e.value, ply))
        {
            let singular_beta = from_table(e.value, ply) - 2 * depth;
            self.frames[ply].excluded = hash_move;
            let v = self.search(
                (depth - 1) / 2,
                singular_beta - 1,
                singular_beta,
                ply,
                false,
            );
            self.frames[ply].excluded = Move::NULL;
            if self.aborted {
                return 0;
            }
            if v < singular_beta {
                singular = true;
            } else if singular_beta >= beta {
                return singular_beta;
            } else if from_table(e.value, ply) >= beta {
                doubtful = true;
            }
        }

        // Step 9. The moves, none meaning mate or stalemate, and the move picker.
        let mut moves = MoveList::new();
        self.pos.legal_moves_to(&mut moves, Bitboard::FULL);
        if moves.is_empty() {
            return if in_check { mated_in(ply) } else { DRAW };
        }
        let context = Context {
            before: [
                previous,
                if ply >= 2 {
                    self.frames[ply - 2].mv
                } else {
                    Move::NULL
                },
            ],
        };
        let mut picker = Picker::new(hash_move, Scoring::Main { ply, context });

        let original_alpha = alpha;
        let mut best_value = -INFINITE;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let mut quiets_seen = 0;
        let pieces = has_pieces(&self.pos, us);
        let lmp_limit = (3 + depth * depth) / if improving { 1 } else { 2 };
        let mut check_info: Option<CheckInfo> = None;

        // Step 10. The move loop, in the picker's order, less the moves excluded here.
        while let Some((mv, order)) = picker.next(&mut moves, &self.pos, self.history) {
            if mv == excluded {
                continue;
            }
            if root
                && (self.root_excluded.contains(&mv)
                    || (!self.root_allowed.is_empty() && !self.root_allowed.contains(&mv)))
            {
                continue;
            }
            let quiet = is_quiet(mv);
            if quiet {
                quiets_seen += 1;
            }
            let checks = check_info
                .get_or_insert_with(|| CheckInfo::new(&self.pos))
                .gives_check(&self.pos, mv);
            // Step 11. Shallow pruning (late quiet moves, futile ones, losing exchanges), never
            // before one move has given a real score, never into mate, never a check.
            if !root && best_value > -MATE_BOUND && pieces && !checks {
                if quiet {
                    if depth <= 8 && quiets_seen > lmp_limit {
                        picker.stop_sorting();
                        continue;
                    }
                    let lmr_depth = depth - 1 - self.reductions.get(depth, searched + 1);
                    if !in_check
                        && lmr_depth <= 7
                        && eval + 100 + 90 * lmr_depth.max(0) <= alpha
                        && !Picker::is_killer(order)
                    {
                        continue;
                    }
                    if lmr_depth <= 7
                        && see(&self.pos, mv) < -25 * lmr_depth.max(1) * lmr_depth.max(1)
                    {
                        continue;
                    }
                } else if depth <= 6
                    && Picker::is_bad_capture(order)
                    && see(&self.pos, mv) < -90 * depth
                {
                    continue;
                }
            }

            // Step 12. Make the move; extend checks and a singular hash move, reduce a doubtful
            // one.
            let undo = self.make(ply, mv);
            let extension = if checks || (singular && mv == hash_move) {
                1
            } else if doubtful && mv == hash_move {
                -1
            } else {
                0
            };
            let new_depth = depth - 1 + extension;
            let mut v;
            // Step 13. Principal variation search: the first move with the full window, the others
            // reduced (late-move reductions) with a null window, searched again when they beat
            // alpha.
            if searched == 0 {
                v = -self.search(new_depth, -beta, -alpha, ply + 1, pv_node);
            } else {
                let mut r = 0;
                if depth >= 3
                    && searched > usize::from(pv_node)
                    && (quiet || Picker::is_bad_capture(order))
                {
                    r = self.reductions.get(depth, searched + 1);
                    if !pv_node {
                        r += 1;
                    }
                    if improving {
                        r -= 1;
                    }
                    if Picker::is_killer(order) {
                        r -= 1;
                    }
                    // A capture as the table's best move makes the quiet alternatives less likely.
                    if quiet && !hash_move.is_null() && !is_quiet(hash_move) {
                        r += 1;
                    }
                    if checks || in_check {
                        r -= 1;
                    }
                    if quiet {
                        r -= self.history.quiet_score(us, mv, &context) / 8000;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.search(new_depth - r, -alpha - 1, -alpha, ply + 1, false);
                if v > alpha && r > 0 {
                    v = -self.search(new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if pv_node && v > alpha && v < beta {
                    v = -self.search(new_depth, -beta, -alpha, ply + 1, true);
                }
            }
            // Step 14. Take the move back; a new best move raises alpha, updates the PV and, on a
            // fail high, the history.
            self.unmake(undo);
            if self.aborted {
                return 0;
            }
            searched += 1;

            if v > best_value {
                best_value = v;
                if v > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if root {
                        self.iteration_best = Some(Line {
                            value: v,
                            pv: self.pv[0][..self.pv_len[0]].to_vec(),
                            bound: if v >= beta {
                                ScoreBound::Lower
                            } else {
                                ScoreBound::Exact
                            },
                        });
                    }
                    if v >= beta {
                        if quiet {
                            self.history
                                .reward(us, ply, depth, mv, &quiets_tried, &context);
                        }
                        break;
                    }
                    alpha = v;
                }
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push(mv);
            }
        }

        // Step 15. No move searched.
        if searched == 0 {
            // Every root move was excluded or filtered: report the window's lower end.
            return alpha;
        }

        // Step 16. Store the result in the transposition table and teach the correction history.
        if (!root || self.root_excluded.is_empty()) && excluded.is_null() {
            let bound = if best_value >= beta {
                Bound::Lower
            } else if best_value > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                Entry {
                    mv: best_move,
                    value: to_table(best_value, ply),
                    eval: raw_eval.unwrap_or(0),
                    depth,
                    bound,
                },
            );
            // Teach the correction history how far the static evaluation missed, when the
            // result is a real value (not a bound on the wrong side of it) of a quiet line.
            if let Some(se) = static_eval
                && (best_move.is_null() || is_quiet(best_move))
                && !is_mate(best_value)
                && !(bound == Bound::Lower && best_value <= se)
                && !(bound == Bound::Upper && best_value >= se)
            {
                self.correction.update(&self.pos, depth, best_value - se);
            }
        }
        best_value
    }

    /// The quiescence search: captures and queen promotions only (all moves when in check),
    /// with the static evaluation (sharpened by the hash table's bound) as a floor.
    fn quiesce(&mut self, mut alpha: Value, beta: Value, ply: usize, pv_node: bool) -> Value {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.check_limits() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_repetition() || self.pos.halfmoves() >= 100 {
            return DRAW;
        }
        if let Some(v) = self.probe_oracle(ply) {
            return v;
        }
        let in_check = self.pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                self.evaluator.evaluate(&self.pos)
            };
        }
        let key = self.pos.zobrist();
        let entry = self.tt.probe(key);
        if let Some(e) = entry
            && !pv_node
        {
            let v = from_table(e.value, ply);
            if match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            } {
                return v;
            }
        }
        let hash_move = entry.map_or(Move::NULL, |e| e.mv);

        let mut best_value;
        let stand_pat;
        let mut raw_eval = 0;
        if in_check {
            best_value = -INFINITE;
            stand_pat = -INFINITE;
        } else {
            raw_eval = match entry {
                Some(e) => e.eval,
                None => self.evaluator.evaluate(&self.pos),
            };
            stand_pat = sharpened(self.corrected(raw_eval), entry, ply);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_value = stand_pat;
        }

        let mut moves = MoveList::new();
        if in_check {
            self.pos.legal_moves_to(&mut moves, Bitboard::FULL);
            if moves.is_empty() {
                return mated_in(ply);
            }
        } else {
            tactical_moves(&self.pos, &mut moves);
        }
        let mut picker = Picker::new(hash_move, Scoring::Captures);
        let mut best_move = Move::NULL;
        while let Some((mv, _)) = picker.next(&mut moves, &self.pos, self.history) {
            if !in_check {
                let gain = mv.capture().map_or(0, |r| SEE_VALUE[r.index()]);
                // Delta pruning: even winning this piece leaves us far below alpha.
                if mv.promotion().is_none() && stand_pat + gain + 180 <= alpha {
                    continue;
                }
                // Taking a piece at least as valuable as the taker cannot lose material.
                if gain < SEE_VALUE[mv.role().index()] && see(&self.pos, mv) < 0 {
                    continue;
                }
            }
            let undo = self.make(ply, mv);
            let v = -self.quiesce(-beta, -alpha, ply + 1, pv_node);
            self.unmake(undo);
            if self.aborted {
                return 0;
            }
            if v > best_value {
                best_value = v;
                if v > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            Entry {
                mv: best_move,
                value: to_table(best_value, ply),
                eval: raw_eval,
                depth: 0,
                bound,
            },
        );
        best_value
    }

    fn info(&self, depth: u32, index: usize, line: &Line) -> Info {
        Info {
            depth,
            seldepth: self.seldepth as u32,
            multipv: index + 1,
            score: Score::from_value(line.value),
            bound: line.bound,
            nodes: self.total_nodes(),
            time: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: line.pv.clone(),
        }
    }

    /// One iteration's search of PV number `index`, with an aspiration window around `guess`.
    fn aspiration(&mut self, depth: i32, guess: Option<Value>) -> Option<Line> {
        let mut delta = 16;
        let (mut alpha, mut beta) = match guess {
            Some(g) if depth >= 5 && !is_mate(g) => {
                ((g - delta).max(-INFINITE), (g + delta).min(INFINITE))
            }
            _ => (-INFINITE, INFINITE),
        };
        loop {
            self.iteration_best = None;
            let v = self.search(depth, alpha, beta, 0, true);
            if self.aborted {
                return None;
            }
            if v <= alpha && alpha > -INFINITE {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITE);
            } else if v >= beta && beta < INFINITE {
                beta = (v + delta).min(INFINITE);
            } else {
                return Some(Line {
                    value: v,
                    pv: self.pv[0][..self.pv_len[0]].to_vec(),
                    bound: ScoreBound::Exact,
                });
            }
            delta += delta / 2 + 8;
            if delta > 900 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Iterative deepening until a limit, returning the best line found. The caller starts the
    /// table's new generation ([`TranspositionTable::new_search`]) once for all threads.
    pub(crate) fn run(&mut self, limits: &Limits) -> SearchResult {
        self.history.clear_killers();
        let mut root_moves = self.pos.legal_moves();
        if !self.root_allowed.is_empty() {
            root_moves.retain(|m| self.root_allowed.contains(m));
        }
        if root_moves.is_empty() {
            let value = if self.pos.is_check() {
                mated_in(0)
            } else {
                DRAW
            };
            self.wait_for_stop(limits);
            return self.result(0, None, value, Vec::new());
        }
        let oracle_knows_root = self.oracle.is_some_and(|o| {
            self.pos.occupied().count() <= o.max_men()
                && o.probe(&self.pos, 0)
                    .and_then(|v| v.in_time(self.pos.halfmoves()))
                    .is_some()
        });
        let max_depth = if oracle_knows_root {
            1
        } else {
            limits
                .depth
                .unwrap_or(MAX_PLY as u32 - 8)
                .clamp(1, MAX_PLY as u32 - 8)
        };
        let lines_wanted = self.multipv.min(root_moves.len());
        let mut completed: Vec<Line> = Vec::new();
        let mut completed_depth = 0;
        let mut stable_iterations = 0;
        let mut previous_value: Option<Value> = None;

        for depth in 1..=max_depth {
            self.seldepth = 0;
            let mut lines: Vec<Line> = Vec::new();
            self.root_excluded.clear();
            for index in 0..lines_wanted {
                let guess = completed.get(index).map(|l| l.value);
                let searched = (depth + self.depth_offset).min(max_depth);
                match self.aspiration(searched as i32, guess) {
                    Some(line) => {
                        if line.pv.is_empty() {
                            break;
                        }
                        self.root_excluded.push(line.pv[0]);
                        lines.push(line);
                        lines.sort_by_key(|l| std::cmp::Reverse(l.value));
                    }
                    None => break,
                }
            }
            if self.aborted {
                // What the unfinished iteration settled is deeper than the last full one: its
                // finished lines, or else a root move that beat the window.
                if !lines.is_empty() {
                    completed = lines;
                } else if let Some(partial) = self.iteration_best.take()
                    && !partial.pv.is_empty()
                {
                    completed = vec![partial];
                }
                break;
            }
            let previous_best = completed.first().and_then(|l| l.pv.first().copied());
            completed = lines;
            completed_depth = depth;
            self.can_abort = true;
            if completed.first().and_then(|l| l.pv.first().copied()) == previous_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            for (i, line) in completed.iter().enumerate() {
                let info = self.info(depth, i, line);
                (self.on_info)(&info);
            }
            let best_value = completed[0].value;
            if let Some(mate) = limits.mate
                && best_value >= MATE_BOUND
                && (crate::score::MATE - best_value + 1) / 2 <= mate as i32
            {
                break;
            }
            let falling = previous_value.is_some_and(|v| best_value < v - 30);
            previous_value = Some(best_value);
            if self.out_of_time(stable_iterations, falling) {
                break;
            }
            if root_moves.len() == 1 && self.budget.soft.is_some() && depth >= 4 {
                break;
            }
        }
        self.wait_for_stop(limits);
        // A weakened engine (`Skill Level`) may play one of the other lines; at full strength
        // this is the first.
        let values: Vec<Value> = completed.iter().map(|l| l.value).collect();
        let chosen = self.skill.pick(&values, self.pos.zobrist());
        let best = completed.get(chosen).cloned();
        match best {
            Some(line) => {
                let value = line.value;
                let first = line.pv.first().copied();
                self.result(completed_depth, first, value, line.pv)
            }
            None => {
                // Stopped before the first iteration ended: any legal move beats none.
                let mv = root_moves[0];
                self.result(0, Some(mv), DRAW, vec![mv])
            }
        }
    }

    /// `true` when the soft budget says not to start another iteration.
    fn out_of_time(&self, stable_iterations: u32, falling: bool) -> bool {
        if self.control.stop.load(Ordering::Relaxed) {
            return true;
        }
        if self.control.pondering.load(Ordering::Relaxed) {
            return false;
        }
        let Some(soft) = self.budget.soft else {
            return false;
        };
        if Some(soft) == self.budget.hard {
            // Fixed move time: use it all; the hard limit ends the last iteration.
            return false;
        }
        // The next iteration takes about as long as all before it, so stopping at a fraction of
        // the budget spends about the budget on average. A best move that keeps changing gets
        // more; one that has stood for several iterations less.
        let mut scale = match stable_iterations {
            0 => 1.2,
            1..=3 => 0.8,
            _ => 0.5,
        };
        // A score that just dropped deserves a second look before committing to the move.
        if falling {
            scale *= 1.5;
        }
        self.start.elapsed().as_secs_f64() >= soft.as_secs_f64() * scale
    }

    /// An infinite or pondering search may not answer before `stop` (or `ponderhit`).
    fn wait_for_stop(&self, limits: &Limits) {
        while (limits.infinite || self.control.pondering.load(Ordering::Relaxed))
            && !self.control.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    fn result(
        &mut self,
        depth: u32,
        best: Option<Move>,
        value: Value,
        mut pv: Vec<Move>,
    ) -> SearchResult {
        if pv.len() < 2
            && let Some(mv) = best
        {
            // Complete the line with the reply the table knows, for `ponder`.
            let undo = self.pos.make(mv);
            let reply = self.tt.probe(self.pos.zobrist()).map(|e| e.mv);
            if let Some(reply) = reply
                && !reply.is_null()
                && self.pos.is_legal(reply)
            {
                pv.truncate(1);
                pv.push(reply);
            }
            self.pos.unmake(undo);
        }
        SearchResult {
            best,
            ponder: pv.get(1).copied(),
            value,
            score: Score::from_value(value),
            depth,
            seldepth: self.seldepth as u32,
            nodes: self.total_nodes(),
            time: self.start.elapsed(),
            pv,
        }
    }
}
