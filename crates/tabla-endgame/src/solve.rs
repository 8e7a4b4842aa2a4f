//! Retrograde solving of any pawnless ending of up to five men, both sides to move, to the exact
//! distance to mate (the fifty-move rule ignored).
//!
//! A table's values are found level by level, a level a ply of distance: a position whose every
//! move is known is decided at the level its value says, and each decided position tells its
//! predecessors (found by un-moving the side that moved last) what it is worth to them: a loss
//! makes each predecessor a win one ply longer; a win takes one of the predecessor's moves away,
//! and a predecessor left with no move that escapes is lost, one ply longer than its longest
//! defence. Captures leave the table: their values come from the smaller tables (solved first)
//! and are counted when the table is set up, each at its own level. Symmetric placements share a
//! slot, so moves are counted by the distinct slots they reach, both forwards and backwards.
//!
//! Values are kept a byte a slot: 0 for a draw (or no position), else `plies + 1`, a win for
//! the side to move when `plies` is odd and a loss when it is even (0 plies: checkmated).

use crate::layout::Layout;
use crate::men::{MAX_MEN, Men};
use std::collections::HashMap;
use tabla::attacks::{attacks, king_attacks};
use tabla::{Bitboard, Color, Role, Square};

/// A man on a square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Man {
    pub color: Color,
    pub role: Role,
    pub square: u8,
}

/// The solved tables of some endings, by their canonical [`Men`].
#[derive(Default)]
pub struct Solved {
    tables: HashMap<Men, Solution>,
}

/// One ending's values, both sides to move.
pub struct Solution {
    layout: Layout,
    /// The men after the kings, in slot order.
    order: Vec<(Color, Role)>,
    /// `values[0]`: White to move; `values[1]`: Black to move.
    values: [Vec<u8>; 2],
}

/// Why an ending cannot be solved here (yet).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// Pawns are not solved yet.
    #[error("{0}: endings with pawns are not solved yet")]
    Pawns(Men),
    /// More men than the tables hold.
    #[error("{0}: more than {MAX_MEN} men")]
    TooMany(Men),
}

/// A score from the side to move's view, ordered: better is larger. Win in `p` plies: `1000 - p`;
/// loss in `p` plies: `p - 1000`; draw: 0.
type Score = i16;

const WIN: Score = 1000;

fn score_of(code: u8) -> Score {
    match code {
        0 => 0,
        c => {
            let plies = Score::from(c) - 1;
            if plies % 2 == 1 {
                WIN - plies
            } else {
                plies - WIN
            }
        }
    }
}

fn code_of(score: Score) -> u8 {
    match score {
        0 => 0,
        s if s > 0 => (WIN - s + 1) as u8,
        s => (s + WIN + 1) as u8,
    }
}

/// The score of the position before a move, for the side that made it, from the score of the
/// position after it (for the other side).
fn back(score: Score) -> Score {
    match score {
        0 => 0,
        s if s > 0 => -s + 1,
        s => -s - 1,
    }
}

fn plies_of(score: Score) -> usize {
    (WIN - score.abs()) as usize
}

fn bb(sq: u8) -> u64 {
    1 << sq
}

fn square(sq: u8) -> Square {
    Square::new_masked(sq)
}

fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Solved {
    /// No tables.
    pub fn new() -> Solved {
        Solved::default()
    }

    /// Solves `men` and every ending a capture leads to from it, smaller ones first (those
    /// already solved are kept).
    pub fn solve(&mut self, men: Men) -> Result<(), SolveError> {
        let (men, _) = men.canonical();
        if self.tables.contains_key(&men) || men.total() <= 2 {
            return Ok(());
        }
        if men.has_pawns() {
            return Err(SolveError::Pawns(men));
        }
        if men.total() > MAX_MEN {
            return Err(SolveError::TooMany(men));
        }
        for color in [Color::White, Color::Black] {
            for role in men.roles(color) {
                let mut smaller_white = men.roles(Color::White);
                let mut smaller_black = men.roles(Color::Black);
                let list = if color == Color::White {
                    &mut smaller_white
                } else {
                    &mut smaller_black
                };
                if let Some(i) = list.iter().position(|&r| r == role) {
                    list.remove(i);
                }
                let smaller = Men::new(&smaller_white, &smaller_black)
                    .map_err(|_| SolveError::TooMany(men))?;
                self.solve(smaller)?;
            }
        }
        let solution = Solver::new(men, self).run();
        self.tables.insert(men, solution);
        Ok(())
    }

    /// The distance to mate of a position whose ending is solved (or of two kings: a draw);
    /// `None` otherwise.
    ///
    /// ```
    /// use tabla::Position;
    /// use tabla_endgame::{Dtm, Solved};
    ///
    /// let mut solved = Solved::new();
    /// solved.solve("KRvK".parse().unwrap()).unwrap();
    /// let pos = Position::from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1").unwrap();
    /// assert_eq!(solved.dtm(&pos), Some(Dtm::Win(1)));
    /// // The same ending with the colours swapped is read from the same table.
    /// let pos = Position::from_fen("7r/8/8/8/8/1k6/8/K7 b - - 0 1").unwrap();
    /// assert_eq!(solved.dtm(&pos), Some(Dtm::Win(1)));
    /// ```
    pub fn dtm(&self, pos: &tabla::Position) -> Option<crate::Dtm> {
        let men: Vec<Man> = pos
            .board()
            .pieces()
            .map(|(sq, piece)| Man {
                color: piece.color,
                role: piece.role,
                square: sq.index() as u8,
            })
            .collect();
        if men.len() > MAX_MEN || men.iter().any(|m| m.role == Role::Pawn) {
            return None;
        }
        let score = self.score(&men, pos.turn())?;
        let plies = plies_of(score);
        Some(match score {
            0 => crate::Dtm::Draw,
            s if s > 0 => crate::Dtm::Win(plies.div_ceil(2) as u8),
            _ => crate::Dtm::Loss((plies / 2) as u8),
        })
    }

    /// The solution of `men` (canonical), if solved.
    pub fn get(&self, men: Men) -> Option<&Solution> {
        self.tables.get(&men)
    }

    /// The score of a placement of any solved ending (or of two kings: a draw) with `turn` to
    /// move; `None` when its ending is not solved or the placement is no slot's.
    pub(crate) fn score(&self, men: &[Man], turn: Color) -> Option<Score> {
        let white: Vec<Role> = men
            .iter()
            .filter(|m| m.color == Color::White && m.role != Role::King)
            .map(|m| m.role)
            .collect();
        let black: Vec<Role> = men
            .iter()
            .filter(|m| m.color == Color::Black && m.role != Role::King)
            .map(|m| m.role)
            .collect();
        let ending = Men::new(&white, &black).ok()?;
        if ending.total() == 2 {
            return Some(0);
        }
        let (canonical, swapped) = ending.canonical();
        let table = self.tables.get(&canonical)?;
        // The men in the table's colours and order.
        let flip = |m: &Man| Man {
            color: if swapped { !m.color } else { m.color },
            role: m.role,
            square: if swapped { m.square ^ 56 } else { m.square },
        };
        let turn = if swapped { !turn } else { turn };
        let mapped: Vec<Man> = men.iter().map(flip).collect();
        let slot = slot_of(&table.layout, &table.order, &mapped)?;
        Some(score_of(table.values[side(turn)][slot as usize]))
    }
}

impl Solution {
    /// The ending's layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The value code of a slot (`0` draw or no position, else plies + 1).
    pub fn code(&self, turn: Color, slot: u64) -> u8 {
        self.values[side(turn)][slot as usize]
    }

    /// The longest win with `turn` to move, in plies, and a slot that has it.
    pub fn longest_win(&self, turn: Color) -> Option<(usize, u64)> {
        self.values[side(turn)]
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != 0 && score_of(**c) > 0)
            .map(|(slot, &c)| (c as usize - 1, slot as u64))
            .max_by_key(|&(plies, slot)| (plies, std::cmp::Reverse(slot)))
    }
}

/// The state of one table being solved.
struct Solver<'a> {
    men: Men,
    layout: Layout,
    /// The men after the kings, in slot order.
    order: Vec<(Color, Role)>,
    smaller: &'a Solved,
    values: [Vec<u8>; 2],
    /// Undecided positions: how many distinct slots their in-table moves reach that are not yet
    /// known wins for the other side.
    moves_left: [Vec<u8>; 2],
    /// The best capture's score (`i16::MIN`: none).
    capture: [Vec<Score>; 2],
    /// Whether the slot is a legal, canonical position.
    legal: [Vec<bool>; 2],
    /// Positions decided at each level, still to tell their predecessors.
    levels: Vec<Vec<(usize, u64)>>,
}

const NO_CAPTURE: Score = i16::MIN;
/// More levels than any ending of up to five men needs (the longest mate is 127 moves).
const LEVELS: usize = 256;

impl<'a> Solver<'a> {
    fn new(men: Men, smaller: &'a Solved) -> Solver<'a> {
        let layout = Layout::new(men);
        let n = layout.size() as usize;
        Solver {
            men,
            order: layout.men_order(),
            layout,
            smaller,
            values: [vec![0; n], vec![0; n]],
            moves_left: [vec![0; n], vec![0; n]],
            capture: [vec![NO_CAPTURE; n], vec![NO_CAPTURE; n]],
            legal: [vec![false; n], vec![false; n]],
            levels: vec![Vec::new(); LEVELS + 2],
        }
    }

    /// The men of a slot (kings first), if it is a legal canonical placement for either side.
    fn men_of(&self, slot: u64, out: &mut [Man; MAX_MEN]) -> Option<usize> {
        let n = self.men.total();
        let mut squares = [0u8; MAX_MEN];
        if !self.layout.placement(slot, &mut squares[..n])
            || self.layout.slot(&squares[..n]) != Some(slot)
        {
            return None;
        }
        out[0] = Man {
            color: Color::White,
            role: Role::King,
            square: squares[0],
        };
        out[1] = Man {
            color: Color::Black,
            role: Role::King,
            square: squares[1],
        };
        for (i, &(color, role)) in self.order.iter().enumerate() {
            out[2 + i] = Man {
                color,
                role,
                square: squares[2 + i],
            };
        }
        Some(n)
    }

    fn run(mut self) -> Solution {
        self.set_up();
        for level in 0..=LEVELS {
            self.settle(level);
            let decided = std::mem::take(&mut self.levels[level]);
            for (turn, slot) in decided {
                self.tell_predecessors(turn, slot, level);
            }
        }
        Solution {
            layout: self.layout,
            order: self.order,
            values: self.values,
        }
    }

    /// Every slot: legal or not, checkmate, stalemate, its in-table moves counted, its best
    /// capture scored, and captures that win scheduled at their level.
    fn set_up(&mut self) {
        let mut men = [Man {
            color: Color::White,
            role: Role::King,
            square: 0,
        }; MAX_MEN];
        for slot in 0..self.layout.size() {
            let Some(n) = self.men_of(slot, &mut men) else {
                continue;
            };
            for turn in [Color::White, Color::Black] {
                let t = side(turn);
                if attacked(&men[..n], king_of(&men[..n], !turn), turn) {
                    continue;
                }
                self.legal[t][slot as usize] = true;
                let mut reached = Vec::new();
                let mut best = NO_CAPTURE;
                let mut any = false;
                for_each_move(&men[..n], turn, &mut |after, captured| {
                    any = true;
                    if captured {
                        let score = back(self.smaller.score(after, !turn).unwrap_or(0));
                        best = best.max(score);
                    } else if let Some(s) = self.slot_of(after) {
                        reached.push(s);
                    }
                });
                reached.sort_unstable();
                reached.dedup();
                self.moves_left[t][slot as usize] = reached.len() as u8;
                self.capture[t][slot as usize] = best;
                if !any {
                    if attacked(&men[..n], king_of(&men[..n], turn), !turn) {
                        // Checkmated: lost in 0 plies.
                        self.values[t][slot as usize] = 1;
                        self.levels[0].push((t, slot));
                    } else {
                        // Stalemate: a draw, and nothing more to decide.
                        self.legal[t][slot as usize] = false;
                    }
                    continue;
                }
                if best > 0 {
                    self.levels[plies_of(best)].push((t, slot));
                } else if best < 0 && reached.is_empty() {
                    // Every move is a capture that loses.
                    self.levels[plies_of(best)].push((t, slot));
                }
            }
        }
    }

    /// Decides the positions scheduled at `level` that are still undecided, and drops the
    /// ones already decided.
    fn settle(&mut self, level: usize) {
        let scheduled = std::mem::take(&mut self.levels[level]);
        let mut kept = Vec::with_capacity(scheduled.len());
        for (t, slot) in scheduled {
            let i = slot as usize;
            if level == 0 {
                kept.push((t, slot));
                continue;
            }
            let score = if level % 2 == 1 {
                WIN - level as Score
            } else {
                level as Score - WIN
            };
            if self.values[t][i] == code_of(score) {
                // Decided at this level by a successor (a win through a lost position).
                kept.push((t, slot));
                continue;
            }
            if self.values[t][i] != 0 || !self.legal[t][i] {
                continue;
            }
            // A loss needs every move answered: in-table moves all lost and no capture better.
            if score < 0 && (self.moves_left[t][i] != 0 || self.capture[t][i] > score) {
                continue;
            }
            self.values[t][i] = code_of(score);
            kept.push((t, slot));
        }
        // A position may be scheduled twice (a capture that wins, and a successor lost at the
        // level before): it tells its predecessors once.
        kept.sort_unstable();
        kept.dedup();
        self.levels[level] = kept;
    }

    /// Tells the predecessors of a position decided at `level` what it is worth to them.
    fn tell_predecessors(&mut self, t: usize, slot: u64, level: usize) {
        let mut men = [Man {
            color: Color::White,
            role: Role::King,
            square: 0,
        }; MAX_MEN];
        let Some(n) = self.men_of(slot, &mut men) else {
            return;
        };
        let turn = if t == 0 { Color::White } else { Color::Black };
        let mover = !turn;
        let mut before = Vec::new();
        for_each_unmove(&men[..n], mover, &mut |placement| {
            // The side to move in the position after the move must not have been in check
            // before it: `turn`'s king not attacked with `mover` to move.
            if attacked(placement, king_of(placement, turn), mover) {
                return;
            }
            if let Some(s) = self.slot_of(placement) {
                before.push(s);
            }
        });
        before.sort_unstable();
        before.dedup();
        let p = side(mover);
        let lost = level.is_multiple_of(2);
        for q in before {
            let i = q as usize;
            if !self.legal[p][i] || self.values[p][i] != 0 {
                continue;
            }
            if lost {
                // A move to a lost position: a win one ply longer (no shorter win is left).
                self.values[p][i] = code_of(WIN - (level as Score + 1));
                self.levels[level + 1].push((p, q));
            } else {
                self.moves_left[p][i] -= 1;
                if self.moves_left[p][i] == 0 {
                    let capture = self.capture[p][i];
                    if capture >= 0 {
                        // A capture that draws (or wins: decided at its level) saves it.
                        continue;
                    }
                    let plies = if capture == NO_CAPTURE {
                        level + 1
                    } else {
                        (level + 1).max(plies_of(capture))
                    };
                    self.levels[plies].push((p, q));
                }
            }
        }
    }

    fn slot_of(&self, men: &[Man]) -> Option<u64> {
        slot_of(&self.layout, &self.order, men)
    }
}

/// The slot of some men (any order) in a layout whose men after the kings come in `order`.
fn slot_of(layout: &Layout, order: &[(Color, Role)], men: &[Man]) -> Option<u64> {
    let mut squares = [0u8; MAX_MEN];
    for m in men {
        if m.role == Role::King {
            squares[side(m.color)] = m.square;
        }
    }
    let mut at = 2;
    let mut used = [false; MAX_MEN];
    for &(color, role) in order {
        let i = men
            .iter()
            .enumerate()
            .position(|(i, m)| !used[i] && m.color == color && m.role == role)?;
        used[i] = true;
        squares[at] = men[i].square;
        at += 1;
    }
    layout.slot(&squares[..at])
}

fn king_of(men: &[Man], color: Color) -> u8 {
    men.iter()
        .find(|m| m.color == color && m.role == Role::King)
        .map_or(0, |m| m.square)
}

fn occupancy(men: &[Man]) -> u64 {
    men.iter().fold(0, |o, m| o | bb(m.square))
}

/// Whether `by`'s men attack square `target`.
fn attacked(men: &[Man], target: u8, by: Color) -> bool {
    let occupied = Bitboard(occupancy(men));
    men.iter().any(|m| {
        m.color == by && attacks(m.color, m.role, square(m.square), occupied).0 & bb(target) != 0
    })
}

/// Every legal move of `turn` (no pawns): the men after it, and whether it captured (the
/// captured man left out).
fn for_each_move(men: &[Man], turn: Color, f: &mut dyn FnMut(&[Man], bool)) {
    let occupied = occupancy(men);
    let own = men
        .iter()
        .filter(|m| m.color == turn)
        .fold(0, |o, m| o | bb(m.square));
    let mut after = [men[0]; MAX_MEN];
    for (i, m) in men.iter().enumerate() {
        if m.color != turn {
            continue;
        }
        let mut targets = attacks(m.color, m.role, square(m.square), Bitboard(occupied)).0 & !own;
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let mut n = 0;
            let mut captured = false;
            for (j, other) in men.iter().enumerate() {
                if j == i {
                    after[n] = Man { square: to, ..*m };
                } else if other.square == to {
                    captured = true;
                    continue;
                } else {
                    after[n] = *other;
                }
                n += 1;
            }
            if captured && men.iter().any(|o| o.square == to && o.role == Role::King) {
                continue;
            }
            if !attacked(&after[..n], king_of(&after[..n], turn), !turn) {
                f(&after[..n], captured);
            }
        }
    }
}

/// Every placement from which a non-capturing move of `mover` (no pawns) leads to `men`.
fn for_each_unmove(men: &[Man], mover: Color, f: &mut dyn FnMut(&[Man])) {
    let occupied = occupancy(men);
    let mut before = [men[0]; MAX_MEN];
    before[..men.len()].copy_from_slice(men);
    for (i, m) in men.iter().enumerate() {
        if m.color != mover {
            continue;
        }
        let reach = if m.role == Role::King {
            king_attacks(square(m.square)).0
        } else {
            attacks(m.color, m.role, square(m.square), Bitboard(occupied)).0
        };
        let mut from = reach & !occupied;
        while from != 0 {
            let s = from.trailing_zeros() as u8;
            from &= from - 1;
            before[i].square = s;
            f(&before[..men.len()]);
        }
        before[i].square = m.square;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_round_trip_and_step_back() {
        for code in 0..=255u8 {
            assert_eq!(code_of(score_of(code)), code);
        }
        // Mated now (code 1) makes the mover's previous move a mate in one ply.
        assert_eq!(back(score_of(1)), WIN - 1);
        assert_eq!(back(WIN - 1), -WIN + 2);
    }
}
