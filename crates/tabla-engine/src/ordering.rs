//! Move ordering: the hash move, then winning and equal captures by victim and attacker, killer
//! moves and the counter-move, quiet moves by history (a threatened piece's escape first), and
//! losing captures last.

use crate::pawns::pawn_attack_set;
use crate::score::MAX_PLY;
use crate::see::{SEE_VALUE, see};
use arrayvec::ArrayVec;
use tabla::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use tabla::movegen::MAX_MOVES;
use tabla::{Bitboard, Color, Move, MoveList, Position, Role};

/// The largest magnitude a history score reaches.
pub const HISTORY_MAX: i32 = 16_384;

/// What the search learns about quiet moves across the tree and across searches.
pub struct History {
    /// Butterfly history: how often a quiet move from-to caused a cutoff, by side to move.
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// Two quiet moves that caused a cutoff at each ply.
    pub killers: [[Move; 2]; MAX_PLY + 2],
    /// The quiet move that last refuted a move, by that move's from and to squares.
    countermoves: Box<[[Move; 64]; 64]>,
    /// Continuation history: how often a quiet move (by piece and target) caused a cutoff after a
    /// given move one ply earlier (index 0) and two plies earlier (index 1), by side to move.
    continuation: [Box<[i16]>; 2],
}

/// Entries of one continuation table: side to move, earlier piece and target, piece and target.
const CONTINUATION_SIZE: usize = 2 * 6 * 64 * 6 * 64;

/// The moves one and two plies before a node, which continuation history is keyed by.
#[derive(Copy, Clone, Debug)]
pub struct Context {
    /// The moves made one and two plies earlier ([`Move::NULL`] when none or a null move).
    pub before: [Move; 2],
}

impl Default for Context {
    fn default() -> Context {
        Context {
            before: [Move::NULL; 2],
        }
    }
}

#[inline]
fn continuation_index(color: Color, before: Move, mv: Move) -> usize {
    (((color.index() * 6 + before.role().index()) * 64 + before.to().index()) * 6
        + mv.role().index())
        * 64
        + mv.to().index()
}

impl Default for History {
    fn default() -> History {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            countermoves: Box::new([[Move::NULL; 64]; 64]),
            continuation: [
                vec![0; CONTINUATION_SIZE].into_boxed_slice(),
                vec![0; CONTINUATION_SIZE].into_boxed_slice(),
            ],
        }
    }
}

impl History {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Forgets the killers (a new search: they belonged to other plies of another tree).
    pub fn clear_killers(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
    }

    /// The butterfly score of a quiet move.
    #[inline]
    pub fn score(&self, color: Color, mv: Move) -> i32 {
        self.butterfly[color.index()][mv.from().index()][mv.to().index()]
    }

    /// The butterfly score plus the continuation scores of a quiet move after the moves of
    /// `context`.
    #[inline]
    pub fn quiet_score(&self, color: Color, mv: Move, context: &Context) -> i32 {
        let mut score = self.score(color, mv);
        for (table, &before) in self.continuation.iter().zip(&context.before) {
            if !before.is_null() {
                score += table[continuation_index(color, before, mv)] as i32;
            }
        }
        score
    }

    /// The counter-move stored for `previous`.
    #[inline]
    pub fn countermove(&self, previous: Move) -> Move {
        if previous.is_null() {
            Move::NULL
        } else {
            self.countermoves[previous.from().index()][previous.to().index()]
        }
    }

    #[inline]
    fn nudge(entry: &mut i32, bonus: i32) {
        // Pulls towards ±HISTORY_MAX without reaching it, so old knowledge fades.
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Rewards the quiet move `best` that caused a cutoff at `depth` and penalises the quiet moves
    /// tried before it.
    pub fn reward(
        &mut self,
        color: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
        context: &Context,
    ) {
        let bonus = (depth * depth + depth).min(1200);
        let side = &mut self.butterfly[color.index()];
        History::nudge(&mut side[best.from().index()][best.to().index()], bonus);
        for &mv in tried {
            if mv != best {
                History::nudge(&mut side[mv.from().index()][mv.to().index()], -bonus);
            }
        }
        for (table, &before) in self.continuation.iter_mut().zip(&context.before) {
            if before.is_null() {
                continue;
            }
            let mut nudge = |mv: Move, bonus: i32| {
                let entry = &mut table[continuation_index(color, before, mv)];
                let mut v = *entry as i32;
                History::nudge(&mut v, bonus);
                *entry = v as i16;
            };
            nudge(best, bonus);
            for &mv in tried {
                if mv != best {
                    nudge(mv, -bonus);
                }
            }
        }
        let previous = context.before[0];
        let killers = &mut self.killers[ply];
        if killers[0] != best {
            killers[1] = killers[0];
            killers[0] = best;
        }
        if !previous.is_null() {
            self.countermoves[previous.from().index()][previous.to().index()] = best;
        }
    }

    /// Halves every history score: called between searches so the newest results weigh most.
    pub fn age(&mut self) {
        for side in self.butterfly.iter_mut() {
            for row in side.iter_mut() {
                for v in row.iter_mut() {
                    *v /= 2;
                }
            }
        }
        for table in self.continuation.iter_mut() {
            for v in table.iter_mut() {
                *v /= 2;
            }
        }
    }
}

const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
const COUNTER: i32 = KILLER - 2;
const BAD_CAPTURE: i32 = -(1 << 28);
const UNDER_PROMOTION: i32 = -(1 << 29);

/// `true` for a move that is neither a capture nor a promotion.
#[inline]
pub fn is_quiet(mv: Move) -> bool {
    !mv.is_capture() && mv.promotion().is_none()
}

/// Most valuable victim first, least valuable attacker next.
#[inline]
pub fn mvv_lva(mv: Move) -> i32 {
    let victim = mv.capture().map_or(0, |r| SEE_VALUE[r.index()]);
    let promotion = mv.promotion().map_or(0, |r| SEE_VALUE[r.index()]);
    (victim + promotion) * 8 - mv.role().index() as i32
}

/// The squares the side not to move attacks with pawns, with pawns or minor pieces, and with
/// pawns, minor pieces or rooks: a piece standing on one is threatened by something cheaper.
struct Threats {
    by_pawn: Bitboard,
    by_minor: Bitboard,
    by_rook: Bitboard,
}

impl Threats {
    fn new(pos: &Position) -> Threats {
        let them = !pos.turn();
        let occupied = pos.occupied();
        let by_pawn = pawn_attack_set(them, pos.pieces(them, Role::Pawn));
        let mut by_minor = by_pawn;
        for sq in pos.pieces(them, Role::Knight) {
            by_minor |= knight_attacks(sq);
        }
        for sq in pos.pieces(them, Role::Bishop) {
            by_minor |= bishop_attacks(sq, occupied);
        }
        let mut by_rook = by_minor;
        for sq in pos.pieces(them, Role::Rook) {
            by_rook |= rook_attacks(sq, occupied);
        }
        Threats {
            by_pawn,
            by_minor,
            by_rook,
        }
    }

    /// A bonus for a quiet move that takes a threatened piece to a square where nothing cheaper
    /// attacks it.
    #[inline]
    fn escape_bonus(&self, mv: Move) -> i32 {
        let (from, to) = (mv.from(), mv.to());
        match mv.role() {
            Role::Queen if self.by_rook.contains(from) && !self.by_rook.contains(to) => 50_000,
            Role::Rook if self.by_minor.contains(from) && !self.by_minor.contains(to) => 25_000,
            Role::Knight | Role::Bishop
                if self.by_pawn.contains(from) && !self.by_pawn.contains(to) =>
            {
                15_000
            }
            _ => 0,
        }
    }
}

/// How a [`Picker`] scores the moves after the hash move.
#[derive(Copy, Clone, Debug)]
pub enum Scoring {
    /// The main search: captures by exchange, killers, the counter-move, quiet moves by history.
    Main {
        /// The node's distance from the root (for its killers).
        ply: usize,
        /// The moves before the node (for the counter-move and continuation history).
        context: Context,
    },
    /// The quiescence search: captures and promotions by victim and attacker.
    Captures,
}

/// Moves with ordering scores, handed out best first.
///
/// The hash move goes first without scoring anything: when it causes a cutoff, as it mostly
/// does, the other moves are never scored.
pub struct Picker {
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
    sorting: bool,
    hash_move: Move,
    scoring: Scoring,
}

impl Picker {
    /// A picker that hands out `hash_move` first (if it is among the moves), then the rest
    /// scored as `scoring` says.
    #[inline]
    pub fn new(hash_move: Move, scoring: Scoring) -> Picker {
        Picker {
            scores: ArrayVec::new(),
            next: 0,
            sorting: true,
            hash_move,
            scoring,
        }
    }

    /// Scores the moves from `self.next` on.
    fn score_rest(&mut self, pos: &Position, moves: &MoveList, history: &History) {
        match self.scoring {
            Scoring::Main { ply, context } => {
                let killers = history.killers[ply];
                let counter = history.countermove(context.before[0]);
                let color = pos.turn();
                let threats = Threats::new(pos);
                for &mv in &moves[self.next..] {
                    let score = if let Some(p) = mv.promotion()
                        && p != Role::Queen
                    {
                        UNDER_PROMOTION + mvv_lva(mv)
                    } else if !is_quiet(mv) {
                        let attacker = SEE_VALUE[mv.role().index()];
                        let victim = mv.capture().map_or(0, |r| SEE_VALUE[r.index()]);
                        if victim >= attacker || mv.promotion().is_some() || see(pos, mv) >= 0 {
                            GOOD_CAPTURE + mvv_lva(mv)
                        } else {
                            BAD_CAPTURE + mvv_lva(mv)
                        }
                    } else if mv == killers[0] {
                        KILLER
                    } else if mv == killers[1] {
                        KILLER - 1
                    } else if mv == counter {
                        COUNTER
                    } else {
                        history.quiet_score(color, mv, &context) + threats.escape_bonus(mv)
                    };
                    self.scores.push(score);
                }
            }
            Scoring::Captures => {
                for &mv in &moves[self.next..] {
                    let score = if is_quiet(mv) {
                        0
                    } else {
                        GOOD_CAPTURE + mvv_lva(mv)
                    };
                    self.scores.push(score);
                }
            }
        }
    }

    /// The next best move and its ordering score, or `None` when all were handed out. `pos` and
    /// `history` must be those the moves belong to, the same at every call.
    #[inline]
    pub fn next(
        &mut self,
        moves: &mut MoveList,
        pos: &Position,
        history: &History,
    ) -> Option<(Move, i32)> {
        let n = moves.len();
        if self.next >= n {
            return None;
        }
        if self.next == self.scores.len() {
            if self.next == 0 && !self.hash_move.is_null() {
                let hash_move = std::mem::replace(&mut self.hash_move, Move::NULL);
                if let Some(i) = moves.iter().position(|&m| m == hash_move) {
                    moves.swap(0, i);
                    self.scores.push(HASH_MOVE);
                    self.next = 1;
                    return Some((hash_move, HASH_MOVE));
                }
            }
            self.score_rest(pos, moves, history);
        }
        let mut best = self.next;
        if self.sorting {
            for i in self.next + 1..n {
                if self.scores[i] > self.scores[best] {
                    best = i;
                }
            }
        }
        moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let picked = (moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(picked)
    }

    /// Hands out the remaining moves as they come: once late-move pruning has set in, their order
    /// hardly matters and the selection would cost more than it saves.
    pub fn stop_sorting(&mut self) {
        self.sorting = false;
    }

    /// `true` when an ordering score marks a capture that loses material by exchange.
    #[inline]
    pub fn is_bad_capture(score: i32) -> bool {
        (BAD_CAPTURE - (1 << 20)..BAD_CAPTURE + (1 << 20)).contains(&score)
    }

    /// `true` when an ordering score marks a killer or counter-move.
    #[inline]
    pub fn is_killer(score: i32) -> bool {
        (COUNTER..=KILLER).contains(&score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_move_first_then_captures_then_quiets_then_losing_captures() {
        // exd5 wins a pawn; Qxd5 loses the queen to cxd5.
        let pos = Position::from_fen("4k3/8/2p5/3p4/4P3/8/3Q4/4K3 w - - 0 1").expect("test data");
        let mut moves = pos.legal_moves();
        let hash = pos.parse_san("Kf1").expect("test data");
        let history = History::default();
        let scoring = Scoring::Main {
            ply: 0,
            context: Context::default(),
        };
        let mut picker = Picker::new(hash, scoring);
        let order: Vec<String> = std::iter::from_fn(|| picker.next(&mut moves, &pos, &history))
            .map(|(m, _)| pos.san(m))
            .collect();
        assert_eq!(order[0], "Kf1");
        assert_eq!(order[1], "exd5");
        assert_eq!(order.last().map(String::as_str), Some("Qxd5"));
        assert_eq!(order.len(), pos.legal_moves().len());
    }

    #[test]
    fn threatened_pieces_escape_first() {
        // The pawn on e5 attacks the knight on f6: knight moves to squares the pawn does not
        // reach come before the other quiet moves, whose history is all zero.
        let pos = Position::from_fen("4k3/8/5n2/4P3/8/8/8/4K2R b - - 0 1").expect("test data");
        let mut moves = pos.legal_moves();
        let history = History::default();
        let scoring = Scoring::Main {
            ply: 0,
            context: Context::default(),
        };
        let mut picker = Picker::new(Move::NULL, scoring);
        let first = picker
            .next(&mut moves, &pos, &history)
            .map(|(m, _)| pos.san(m));
        let knight_moves = ["Ng8", "Nh7", "Nh5", "Ng4", "Ne4", "Nd5", "Nd7"];
        assert!(
            first.as_deref().is_some_and(|m| knight_moves.contains(&m)),
            "{first:?}"
        );
        let threats = Threats::new(&pos);
        let stay = pos.parse_san("Kd7").expect("test data");
        assert_eq!(threats.escape_bonus(stay), 0);
    }

    #[test]
    fn history_rewards_and_fades() {
        let pos = Position::startpos();
        let e4 = pos.parse_san("e4").expect("test data");
        let d4 = pos.parse_san("d4").expect("test data");
        let mut h = History::default();
        h.reward(Color::White, 3, 8, e4, &[d4, e4], &Context::default());
        assert!(h.score(Color::White, e4) > 0);
        assert!(h.score(Color::White, d4) < 0);
        assert_eq!(h.killers[3][0], e4);
        for _ in 0..1000 {
            h.reward(Color::White, 3, 20, e4, &[], &Context::default());
        }
        assert!(h.score(Color::White, e4) <= HISTORY_MAX);
    }
}
