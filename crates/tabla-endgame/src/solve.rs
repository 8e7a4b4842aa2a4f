//! Solved endings of up to five men, in memory: solving in dependency order, and probing.
//!
//! [`Solved::solve`] builds an ending's table with the generator (`retro.rs`) after every table a
//! capture or a promotion leads to, and keeps them all; [`Solved::dtm`] answers any position of a
//! solved ending (either colours), en-passant rights included.
//!
//! Values are kept a byte a position: 0 for a draw, else `plies + 1`, a win for the side to move
//! when `plies` is odd and a loss when it is even (0 plies: checkmated).

use crate::frame::Frame;
use crate::layout::Layout;
use crate::men::{MAX_MEN, Men};
use crate::placement::{Lookup, Men3};
use crate::retro::Generator;
use crate::score::{BACK, NO_EXIT, ORD, plies};
use crate::symmetry::Symmetry;
use crate::tb_file::{TbFile, TbFileError};
use std::collections::HashMap;
use std::sync::Arc;
use tabla::attacks::king_attacks;
use tabla::{Color, Role, Square};

/// The solved tables of some endings, by their canonical [`Men`] (a clone shares them).
#[derive(Clone, Default)]
pub struct Solved {
    tables: HashMap<Men, Arc<Solution>>,
    /// Threads a table is generated on (0: every core).
    threads: usize,
}

/// One ending's values, both sides to move, in the generator's index.
pub struct Solution {
    frame: Frame,
    /// `values[0]`: White to move; `values[1]`: Black to move.
    values: [Vec<u8>; 2],
    /// Legal positions, a bit each, by config.
    legal: [Vec<u64>; 2],
    /// The best capture of each position (as an order; `NO_EXIT` for none), when the solution
    /// was generated here (empty when read back from its values).
    captures: [Vec<u8>; 2],
}

/// Why an ending cannot be solved here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// More men than the tables hold.
    #[error("{0}: more than {MAX_MEN} men")]
    TooMany(Men),
}

/// The endings small enough to solve in memory when they are needed (with the endings they lead
/// to, KBvK and KNvK), about a quarter of a second in all: tabla's engine plays them exactly
/// (`tabla_engine::EndgameTables::standard`), and `tabla serve` and `tabla tb` answer them
/// without a table file ([`Tablebase::with_solved_if_missing`](crate::Tablebase::with_solved_if_missing)).
pub const SOLVED_IN_MEMORY: [&str; 3] = ["KBNvK", "KQvK", "KRvK"];

impl Solved {
    /// No tables; tables are generated on every core.
    pub fn new() -> Solved {
        Solved::default()
    }

    /// Generates each table on `threads` threads (0: every core). The values do not depend on
    /// it.
    ///
    /// ```
    /// use tabla_endgame::{Dtm, Solved};
    /// use tabla::Position;
    ///
    /// let mut solved = Solved::new();
    /// solved.set_threads(1);
    /// solved.solve("KQvK".parse().unwrap()).unwrap();
    /// let pos = Position::from_fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1").unwrap();
    /// assert_eq!(solved.dtm(&pos), Some(Dtm::Win(1)));
    /// ```
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    /// The threads a table is generated on.
    fn threads(&self) -> usize {
        if self.threads == 0 {
            crate::par::available()
        } else {
            self.threads
        }
    }

    /// The endings a capture or a promotion leads to from `men` (canonical, not the two kings).
    pub(crate) fn next_endings(men: Men) -> Vec<Men> {
        Solved::next_endings_sides(men)
            .into_iter()
            .map(|(m, _)| m)
            .collect()
    }

    /// [`Solved::next_endings`], each with the sides to move (White, Black) of its table that
    /// captures and promotions from `men` reach.
    pub(crate) fn next_endings_sides(men: Men) -> Vec<(Men, [bool; 2])> {
        let mut out: Vec<(Men, [bool; 2])> = Vec::new();
        let mut add = |m: Men, turn: Color| {
            if m.total() <= 2 {
                return;
            }
            let (canonical, swapped) = m.canonical();
            let turn = if swapped { !turn } else { turn };
            let t = turn.index();
            match out.iter_mut().find(|(e, _)| *e == canonical) {
                Some((_, sides)) => sides[t] = true,
                None => {
                    let mut sides = [false; 2];
                    sides[t] = true;
                    out.push((canonical, sides));
                }
            }
        };
        for color in [Color::White, Color::Black] {
            let white = men.roles(Color::White);
            let black = men.roles(Color::Black);
            let own = if color == Color::White {
                &white
            } else {
                &black
            };
            for (i, &role) in own.iter().enumerate() {
                let (mut w, mut b) = (white.clone(), black.clone());
                let list = if color == Color::White {
                    &mut w
                } else {
                    &mut b
                };
                list.remove(i);
                // Captured by the other side: `color` to move after it.
                if let Ok(m) = Men::new(&w, &b) {
                    add(m, color);
                }
                if role == Role::Pawn {
                    let theirs = if color == Color::White {
                        &black
                    } else {
                        &white
                    };
                    for promoted in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        let (mut w, mut b) = (white.clone(), black.clone());
                        let list = if color == Color::White {
                            &mut w
                        } else {
                            &mut b
                        };
                        list[i] = promoted;
                        // Promoted by `color`: the other side to move after it.
                        if let Ok(m) = Men::new(&w, &b) {
                            add(m, !color);
                        }
                        // Promoted by taking a piece on the last rank.
                        for (j, &taken) in theirs.iter().enumerate() {
                            if taken == Role::Pawn {
                                continue;
                            }
                            let (mut w2, mut b2) = (w.clone(), b.clone());
                            let list = if color == Color::White {
                                &mut b2
                            } else {
                                &mut w2
                            };
                            list.remove(j);
                            if let Ok(m) = Men::new(&w2, &b2) {
                                add(m, !color);
                            }
                        }
                    }
                }
            }
        }
        out.sort_by_key(|(m, _)| *m);
        out
    }

    /// Solves `men` and every ending a capture or a promotion leads to from it, those first
    /// (endings already solved are kept).
    ///
    /// ```
    /// use tabla::Position;
    /// use tabla_endgame::{Dtm, Solved};
    ///
    /// let mut solved = Solved::new();
    /// solved.solve("KPvK".parse().unwrap()).unwrap();
    /// // Promotion leads to KQvK, KRvK, KBvK and KNvK, solved first.
    /// assert!(solved.get("KQvK".parse().unwrap()).is_some());
    /// // A rook's pawn with the defending king in its corner: a draw.
    /// let pos = Position::from_fen("k7/8/1K6/P7/8/8/8/8 w - - 0 1").unwrap();
    /// assert_eq!(solved.dtm(&pos), Some(Dtm::Draw));
    /// ```
    pub fn solve(&mut self, men: Men) -> Result<(), SolveError> {
        self.solve_with(men, &mut |_, _| {})
    }

    /// [`Solved::solve`], calling `done(men, seconds)` after each table it builds.
    pub fn solve_with(
        &mut self,
        men: Men,
        done: &mut dyn FnMut(Men, f64),
    ) -> Result<(), SolveError> {
        let (men, _) = men.canonical();
        if self.tables.contains_key(&men) || men.total() <= 2 {
            return Ok(());
        }
        if men.total() > MAX_MEN {
            return Err(SolveError::TooMany(men));
        }
        for next in Solved::next_endings(men) {
            self.solve_with(next, done)?;
        }
        let started = std::time::Instant::now();
        let solution = self.generate(men);
        self.tables.insert(men, Arc::new(solution));
        done(men, started.elapsed().as_secs_f64());
        Ok(())
    }

    /// The endings solved (canonical).
    pub fn endings(&self) -> Vec<Men> {
        let mut out: Vec<Men> = self.tables.keys().copied().collect();
        out.sort();
        out
    }

    /// The solution of `men` (canonical), if solved.
    pub fn get(&self, men: Men) -> Option<&Solution> {
        self.tables.get(&men).map(|s| &**s)
    }

    /// Shares every ending `other` has solved.
    pub(crate) fn extend(&mut self, other: &Solved) {
        for (men, solution) in &other.tables {
            self.tables.insert(*men, Arc::clone(solution));
        }
    }

    /// Keeps a solution (of the canonical `men`).
    pub(crate) fn insert(&mut self, men: Men, solution: Arc<Solution>) {
        self.tables.insert(men, solution);
    }

    /// Generates `men`'s table (canonical), the endings it leads to being solved.
    pub(crate) fn generate(&self, men: Men) -> Solution {
        let mut generator = Generator::new(Frame::new(men), self, self.threads());
        generator.run();
        let parts = generator.into_parts();
        Solution {
            frame: parts.frame,
            values: parts.values,
            legal: parts.legal,
            captures: parts.captures,
        }
    }

    /// The ending of a derived table file ([`TbFile::derived`]), both sides to move: the stored
    /// side read, the endings it leads to solved here, the other side solved from the stored one
    /// (KBNvK: its Black side read, KBvK and KNvK solved, White's side derived).
    pub(crate) fn derive(file: &TbFile) -> Result<Solved, TbFileError> {
        let men = file.men();
        let (given, values) = file.derived_values()?;
        let mut solved = Solved::new();
        for next in Solved::next_endings(men) {
            // A file's ending has at most five men, and so has every ending it leads to.
            if let Err(e) = solved.solve(next) {
                return Err(TbFileError::Damaged {
                    path: file.path().to_path_buf(),
                    reason: e.to_string(),
                });
            }
        }
        let g = given.index();
        let frame = Frame::new(men);
        let values = frame_of_layout(&frame, &values);
        let mut generator = Generator::new(frame, &solved, solved.threads());
        generator.run_given(given, &values);
        let mut parts = generator.into_parts();
        parts.values[g] = values;
        let solution = Solution {
            frame: parts.frame,
            values: parts.values,
            legal: parts.legal,
            captures: parts.captures,
        };
        solved.insert(men, Arc::new(solution));
        Ok(solved)
    }

    /// The distance to mate of a position whose ending is solved (or of two kings: a draw);
    /// `None` otherwise, and for a position with castling rights (the tables hold none). An
    /// en-passant right is honoured: the capture is one of the moves.
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
        if pos.castling_rights() != tabla::CastlingRights::NONE {
            return None;
        }
        let code = if pos.legal_ep_square().is_some() {
            // Not stored: one ply, the capture among the moves.
            let mut best = 0u8;
            for mv in pos.legal_moves() {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                let code = self.code(&after)?;
                best = best.max(BACK[code as usize]);
            }
            crate::score::code_of_ord(best)
        } else {
            self.code(pos)?
        };
        Some(dtm_of(code))
    }

    /// The value code of a position as stored (en-passant rights ignored).
    pub(crate) fn code(&self, pos: &tabla::Position) -> Option<u8> {
        let board = pos.board();
        let mut p = Men3 {
            white_king: 0,
            men: [(Color::White, Role::Pawn, 0); MAX_MEN - 2],
            n: 0,
        };
        let mut black_king = 0;
        for (sq, piece) in board.pieces() {
            let s = sq.index() as u8;
            match (piece.color, piece.role) {
                (Color::White, Role::King) => p.white_king = s,
                (Color::Black, Role::King) => black_king = s,
                (c, r) => {
                    if p.n == MAX_MEN - 2 {
                        return None;
                    }
                    p.men[p.n] = (c, r, s);
                    p.n += 1;
                }
            }
        }
        let (legal, code) = self.locate_one(&p, black_king, pos.turn())?;
        legal.then_some(code)
    }

    fn locate_one(&self, p: &Men3, black_king: u8, turn: Color) -> Option<(bool, u8)> {
        let ending = p.ending()?;
        if ending.total() == 2 {
            let apart = king_attacks(Square::new_masked(p.white_king)).0 & (1 << black_king) == 0
                && p.white_king != black_king;
            return Some((apart, 0));
        }
        let (canonical, swapped) = ending.canonical();
        let table = self.tables.get(&canonical)?;
        let (wk, bk, turn, men) = if swapped {
            let mut men = [(Color::White, Role::Pawn, 0); MAX_MEN - 2];
            for (m, &(c, r, s)) in men.iter_mut().zip(&p.men[..p.n]) {
                *m = (!c, r, s ^ 56);
            }
            (black_king ^ 56, p.white_king ^ 56, !turn, men)
        } else {
            (p.white_king, black_king, turn, p.men)
        };
        let squares = table.squares(&men[..p.n])?;
        let (config, sym) = table.frame.locate(wk, &squares[..p.n]);
        let lane = sym.apply(bk) as usize;
        let t = turn.index();
        let legal = table.legal[t][config] >> lane & 1 == 1;
        Some((legal, table.values[t][config * 64 + lane]))
    }
}

/// One side to move's values in the frame's index, from its values a slot of the ending's
/// [`Layout`]: each position of the frame read at its placement's slot (0 where it is no
/// placement). Illegal positions get whatever their slot holds: the generator reads the given
/// side's legal positions only, and a [`Solution`] answers those only.
fn frame_of_layout(frame: &Frame, by_slot: &[u8]) -> Vec<u8> {
    let men = frame.men();
    let layout = Layout::new(men);
    // Where each man of the layout's order is in the frame's (identical men in any order).
    let mut used = [false; MAX_MEN];
    let from: Vec<usize> = layout
        .men_order()
        .into_iter()
        .map(|man| {
            let i = (0..frame.others())
                .find(|&i| !used[i] && frame.order()[i] == man)
                .unwrap_or(0);
            used[i] = true;
            i
        })
        .collect();
    let total = men.total();
    let mut values = vec![0u8; frame.configs() * 64];
    for (c, row) in values.chunks_exact_mut(64).enumerate() {
        let cfg = frame.decode(c);
        let mut squares = [0u8; MAX_MEN];
        squares[0] = cfg.white_king;
        for (j, &i) in from.iter().enumerate() {
            squares[2 + j] = cfg.squares[i];
        }
        for (lane, value) in row.iter_mut().enumerate() {
            squares[1] = lane as u8;
            if let Some(v) = layout
                .slot(&squares[..total])
                .and_then(|slot| by_slot.get(slot as usize))
            {
                *value = *v;
            }
        }
    }
    values
}

impl Lookup for Solved {
    /// The code of a placement with Black's king on `black_king` and `turn` to move; `None` when
    /// the position is illegal or its ending not solved.
    fn one(&self, p: &Men3, black_king: u8, turn: Color) -> Option<u8> {
        let found = self.locate_one(p, black_king, turn);
        debug_assert!(found.is_some(), "{:?} is not solved", p.ending());
        let (legal, code) = found?;
        legal.then_some(code)
    }

    /// The codes of a placement for every square of Black's king (`codes[lane]`), `turn` to
    /// move; returns the lanes where the position is legal (none if its ending is not solved).
    fn row(&self, p: &Men3, turn: Color, codes: &mut [u8; 64]) -> u64 {
        let Some(ending) = p.ending() else {
            return 0;
        };
        if ending.total() == 2 {
            codes.fill(0);
            let wk = p.white_king;
            return !(king_attacks(Square::new_masked(wk)).0 | 1 << wk);
        }
        let (canonical, swapped) = ending.canonical();
        let Some(table) = self.tables.get(&canonical) else {
            debug_assert!(false, "{canonical} is not solved");
            return 0;
        };
        let t = turn.index();
        if !swapped {
            let Some(squares) = table.squares(&p.men[..p.n]) else {
                return 0;
            };
            let (config, sym) = table.frame.locate(p.white_king, &squares[..p.n]);
            let base = config * 64;
            for (lane, code) in codes.iter_mut().enumerate() {
                *code = table.values[t][base + sym.apply(lane as u8) as usize];
            }
            return sym.invert_bb(table.legal[t][config]);
        }
        let mut legal = 0;
        for lane in 0..64u8 {
            match self.locate_one(p, lane, turn) {
                Some((true, code)) => {
                    codes[lane as usize] = code;
                    legal |= 1 << lane;
                }
                _ => codes[lane as usize] = 0,
            }
        }
        legal
    }
}

/// The [`crate::Dtm`] of a code.
pub(crate) fn dtm_of(code: u8) -> crate::Dtm {
    match code {
        0 => crate::Dtm::Draw,
        c => {
            let plies = c as usize - 1;
            if plies % 2 == 1 {
                crate::Dtm::Win(plies.div_ceil(2) as u8)
            } else {
                crate::Dtm::Loss((plies / 2) as u8)
            }
        }
    }
}

impl Solution {
    /// The value [`Solution::layout_values`] gives a slot that holds no legal position.
    pub const NO_POSITION: u8 = 255;

    /// A solution from its values in the generator's index (legal positions found again).
    pub(crate) fn from_values(frame: Frame, values: [Vec<u8>; 2], threads: usize) -> Solution {
        let legal = crate::retro::legal_bits(&frame, threads);
        Solution {
            frame,
            values,
            legal,
            captures: [Vec::new(), Vec::new()],
        }
    }

    /// The values in the generator's index, White to move and Black to move.
    pub(crate) fn frame_values(&self) -> &[Vec<u8>; 2] {
        &self.values
    }

    /// The ending.
    pub fn men(&self) -> Men {
        self.frame.men()
    }

    /// The ending's layout (its slots up to symmetry, as the table files will hold them).
    pub fn layout(&self) -> Layout {
        Layout::new(self.frame.men())
    }

    /// The values of every slot of the ending's [`Layout`], White to move and Black to move:
    /// the code of the slot's position (`0` a draw, else plies + 1), or [`Solution::NO_POSITION`] where the
    /// slot holds no legal position (two men on a square, the side not to move in check, or a
    /// placement whose own slot is another).
    pub fn layout_values(&self) -> [Vec<u8>; 2] {
        let layout = self.layout();
        let size = layout.size() as usize;
        let mut out = [vec![Self::NO_POSITION; size], vec![Self::NO_POSITION; size]];
        layout.for_each_placement(&mut |slot, squares| {
            let (config, sym) = self.frame.locate(squares[0], &squares[2..]);
            let lane = sym.apply(squares[1]) as usize;
            for (t, side) in out.iter_mut().enumerate() {
                if self.legal[t][config] >> lane & 1 == 1 {
                    side[slot as usize] = self.values[t][config * 64 + lane];
                }
            }
        });
        out
    }

    /// The values a table file stores for `turn` to move, slot by slot of the [`Layout`]: the
    /// code where it must be exact, a *don't-care* elsewhere, filled with the value before it so
    /// that the values repeat. A slot is a don't-care where it holds no legal position, and
    /// (`captures_free`) where the position's value is that of its best capture: any value no
    /// better than the capture's reads back right, since a probe takes the better of the stored
    /// value and the best capture.
    pub(crate) fn stored_values(&self, turn: Color, captures_free: bool) -> Vec<u8> {
        let t = turn.index();
        let layout = self.layout();
        let size = layout.size() as usize;
        let with_captures = captures_free && self.captures[t].len() == self.values[t].len();
        // The exact values (NO_POSITION: free), and the best capture's order where it is the
        // value (else NO_EXIT).
        let mut code = vec![Self::NO_POSITION; size];
        let mut capture = vec![NO_EXIT; if with_captures { size } else { 0 }];
        layout.for_each_placement(&mut |slot, squares| {
            let (config, sym) = self.frame.locate(squares[0], &squares[2..]);
            let lane = sym.apply(squares[1]) as usize;
            if self.legal[t][config] >> lane & 1 == 1 {
                let i = config * 64 + lane;
                let c = self.values[t][i];
                code[slot as usize] = c;
                if with_captures && self.captures[t][i] == ORD[c as usize] {
                    capture[slot as usize] = ORD[c as usize];
                }
            }
        });
        let mut last = 0u8;
        for (slot, c) in code.iter_mut().enumerate() {
            let free = *c == Self::NO_POSITION
                || capture
                    .get(slot)
                    .is_some_and(|&e| e != NO_EXIT && ORD[last as usize] <= e);
            if free {
                *c = last;
            } else {
                last = *c;
            }
        }
        code
    }

    /// The squares of `men` (any order) in the frame's order of men; `None` when they are not
    /// this ending's.
    fn squares(&self, men: &[(Color, Role, u8)]) -> Option<[u8; MAX_MEN - 2]> {
        let mut out = [0u8; MAX_MEN - 2];
        let mut used = [false; MAX_MEN - 2];
        for (at, &(color, role)) in self.frame.order().iter().enumerate() {
            let i = (0..men.len()).find(|&i| !used[i] && men[i].0 == color && men[i].1 == role)?;
            used[i] = true;
            out[at] = men[i].2;
        }
        Some(out)
    }

    /// The longest win with `turn` to move, in plies ([`EndingStats`](crate::EndingStats) has a
    /// position that has it).
    pub fn longest_win(&self, turn: Color) -> Option<usize> {
        let t = turn.index();
        self.values[t]
            .iter()
            .filter(|&&c| c != 0 && ORD[c as usize] > crate::score::DRAW)
            .map(|&c| plies(ORD[c as usize]))
            .max()
    }

    /// The config of a placement (`squares`: the men besides the kings in the frame's order,
    /// White's king anywhere) and the symmetry that brings Black's king to its lane.
    pub(crate) fn locate(&self, white_king: u8, squares: &[u8]) -> (usize, Symmetry) {
        self.frame.locate(white_king, squares)
    }

    /// The code of the position at `config`, Black's king on `lane`, `turn` to move; `None`
    /// where it is not legal.
    #[inline]
    pub(crate) fn value(&self, turn: Color, config: usize, lane: u8) -> Option<u8> {
        let t = turn.index();
        (self.legal[t][config] >> lane & 1 == 1)
            .then(|| self.values[t][config * 64 + lane as usize])
    }
}
