//! Retrograde generation of one ending's table, 64 positions at a time.
//!
//! Positions are kept in the [`Frame`] index, whose lane is Black's king's square: a config's 64
//! positions (one per square of Black's king) are one 64-bit word of each bit set (legal,
//! undecided, won) and 64 bytes of values. Every step works a word at a time: a move of any other
//! man reaches one other config, the same lanes, minus the lanes where Black's king stands in the
//! way; a move of Black's king shifts the word.
//!
//! Set-up: which positions are legal (the side not to move not in check), the best *exit* of each
//! (a capture or a promotion, leaving the table; its value read from the smaller table, built
//! first), checkmates (decided: lost in 0 plies) and stalemates (draws). Then level by level, a
//! level a ply:
//!
//! - odd levels, wins: a position from which a move reaches a position lost at the level before
//!   (found by un-moving from those positions), or whose best exit wins in that many plies;
//! - even levels, losses: the predecessors of positions won at the level before, and positions
//!   whose best exit loses in that many plies, are checked forwards: lost when every move reaches
//!   a position already won by the other side and no exit is better.
//!
//! A double push next to an enemy pawn leads to a position with an en-passant right, which the
//! table does not hold: its value for the side to move is the better of the stored position's and
//! the en-passant capture's, and both steps read it so.

use crate::frame::{Config, Frame};
use crate::men::MAX_MEN;
use crate::placement::{Lookup, Men3};
use crate::score::{BACK, DRAW, NO_EXIT, code, plies};
use crate::symmetry::Symmetry;
use std::sync::atomic::{AtomicU64, Ordering};
use tabla::attacks::{attacks, between, king_attacks, pawn_attacks};
use tabla::{Bitboard, Color, Role, Square};

/// More levels than any ending of up to five men needs (the longest mate is 127 moves).
pub(crate) const LEVELS: usize = 256;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The eight king steps as (file, rank) deltas.
const STEPS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Moves every lane `s` of `w` to `s + (dx, dy)`, dropping lanes that leave the board.
#[inline]
fn step(w: u64, dx: i8, dy: i8) -> u64 {
    let w = match dx {
        1 => (w & !FILE_H) << 1,
        -1 => (w & !FILE_A) >> 1,
        _ => w,
    };
    match dy {
        1 => w << 8,
        -1 => w >> 8,
        _ => w,
    }
}

#[inline]
fn bit(sq: u8) -> u64 {
    1u64 << sq
}

#[inline]
fn attacks_of(color: Color, role: Role, sq: u8, occupied: u64) -> u64 {
    attacks(color, role, Square::new_masked(sq), Bitboard(occupied)).0
}

/// A config's men other than Black's king, read once.
struct ConfigMen {
    cfg: Config,
    k: usize,
    order: [(Color, Role); MAX_MEN - 2],
    /// Every man but Black's king.
    occupied: u64,
}

impl ConfigMen {
    fn new(frame: &Frame, c: usize) -> ConfigMen {
        let cfg = frame.decode(c);
        let k = frame.others();
        let mut order = [(Color::White, Role::Pawn); MAX_MEN - 2];
        order[..k].copy_from_slice(frame.order());
        let occupied = cfg.squares[..k]
            .iter()
            .fold(bit(cfg.white_king), |o, &s| o | bit(s));
        ConfigMen {
            cfg,
            k,
            order,
            occupied,
        }
    }

    /// Whether no two men share a square and no pawn stands on the first or last rank.
    fn valid(&self) -> bool {
        if self.occupied.count_ones() as usize != self.k + 1 {
            return false;
        }
        (0..self.k).all(|i| self.order[i].1 != Role::Pawn || (8..56).contains(&self.cfg.squares[i]))
    }

    /// Lanes (Black king squares) where White's men attack Black's king.
    fn white_attacks(&self) -> u64 {
        let mut a = king_attacks(Square::new_masked(self.cfg.white_king)).0;
        for i in 0..self.k {
            let (c, r) = self.order[i];
            if c == Color::White {
                a |= attacks_of(c, r, self.cfg.squares[i], self.occupied);
            }
        }
        a
    }

    /// Lanes where Black's men attack White's king (Black's king may block a line).
    fn black_checks(&self) -> u64 {
        let wk = self.cfg.white_king;
        let mut lanes = 0;
        for i in 0..self.k {
            let (c, r) = self.order[i];
            let sq = self.cfg.squares[i];
            if c == Color::Black && attacks_of(c, r, sq, self.occupied) & bit(wk) != 0 {
                lanes |= !between(Square::new_masked(sq), Square::new_masked(wk)).0;
            }
        }
        lanes
    }

    /// The placement without Black's king, as the smaller tables are asked.
    fn placement(&self) -> Men3 {
        let mut p = Men3 {
            white_king: self.cfg.white_king,
            men: [(Color::White, Role::Pawn, 0); MAX_MEN - 2],
            n: self.k,
        };
        for i in 0..self.k {
            p.men[i] = (self.order[i].0, self.order[i].1, self.cfg.squares[i]);
        }
        p
    }
}

/// Configs a thread takes at a time.
const CHUNK: usize = 512;

/// Entries of a list of decided words a thread takes at a time.
const LIST_CHUNK: usize = 2048;

/// The legal positions of a frame, both sides to move: a bit a position, a word a config.
pub(crate) fn legal_bits(frame: &Frame, threads: usize) -> [Vec<u64>; 2] {
    let configs = frame.configs();
    let mut white = vec![0u64; configs];
    let mut black = vec![0u64; configs];
    let chunks = white
        .chunks_mut(CHUNK)
        .zip(black.chunks_mut(CHUNK))
        .enumerate();
    crate::par::map(threads, chunks, |(i, (white, black))| {
        for (j, (w, b)) in white.iter_mut().zip(black.iter_mut()).enumerate() {
            let men = ConfigMen::new(frame, i * CHUNK + j);
            if !men.valid() {
                continue;
            }
            let base = !men.occupied & !king_attacks(Square::new_masked(men.cfg.white_king)).0;
            *w = base & !men.white_attacks();
            *b = base & !men.black_checks();
        }
    });
    [white, black]
}

/// A move of a man other than Black's king, as the steps need it.
enum Step {
    /// To another config of this table: `lanes` maps the successor's word to this config's lanes.
    Inside {
        config: usize,
        sym: Symmetry,
        /// Lanes where Black's king stands in the way.
        blocked: u64,
        /// A double push an enemy pawn may take en passant: (from, to).
        ep: Option<(u8, u8)>,
    },
    /// Out of the table (a capture or a promotion): the placement after it.
    Exit { after: Men3, blocked: u64 },
}

/// A chunk of configs' values, best exits, best captures and undecided words, both sides to
/// move.
struct Slices<'s> {
    values: [&'s mut [u8]; 2],
    exits: [&'s mut [u8]; 2],
    captures: [&'s mut [u8]; 2],
    undecided: [&'s mut [u64]; 2],
}

/// What set-up finds in a chunk of configs besides what it writes: checkmates, and the levels
/// at which exits win or may lose (level, side, config, lanes).
#[derive(Default)]
struct SetUp {
    fresh: [Vec<(u32, u64)>; 2],
    wins: Vec<(usize, u8, u32, u64)>,
    losses: Vec<(usize, u8, u32)>,
}

/// What a generator leaves, both sides to move.
pub(crate) struct Parts {
    pub(crate) frame: Frame,
    pub(crate) values: [Vec<u8>; 2],
    pub(crate) legal: [Vec<u64>; 2],
    /// The best capture of each position (an order, or [`NO_EXIT`]).
    pub(crate) captures: [Vec<u8>; 2],
}

/// The generator's state for one table.
pub(crate) struct Generator<'a> {
    frame: Frame,
    smaller: &'a (dyn Lookup + Sync),
    threads: usize,
    legal: [Vec<u64>; 2],
    values: [Vec<u8>; 2],
    exits: [Vec<u8>; 2],
    /// The best capture of each position (an order, or [`NO_EXIT`]): the exits that leave
    /// fewer men, which a table file may leave to the prober.
    captures: [Vec<u8>; 2],
    undecided: [Vec<u64>; 2],
    won: [Vec<u64>; 2],
    /// Configs to check for a loss at a level (an exit or an en-passant capture loses then).
    loss_at: Vec<Vec<(u8, u32)>>,
    /// Lanes that win at a level through an exit or an en-passant line.
    win_at: Vec<Vec<(u8, u32, u64)>>,
    fresh: [Vec<(u32, u64)>; 2],
    /// Lanes to check for a loss at the level being worked, by config (zero between levels).
    pending: Vec<AtomicU64>,
    /// The last level anything is scheduled at.
    horizon: usize,
}

impl<'a> Generator<'a> {
    /// A generator for `frame`'s ending on `threads` threads, the endings it leads to in
    /// `smaller`.
    pub(crate) fn new(
        frame: Frame,
        smaller: &'a (dyn Lookup + Sync),
        threads: usize,
    ) -> Generator<'a> {
        let configs = frame.configs();
        let n = configs * 64;
        Generator {
            frame,
            smaller,
            threads: threads.max(1),
            legal: [vec![0; configs], vec![0; configs]],
            values: [vec![0; n], vec![0; n]],
            exits: [vec![NO_EXIT; n], vec![NO_EXIT; n]],
            captures: [vec![NO_EXIT; n], vec![NO_EXIT; n]],
            undecided: [vec![0; configs], vec![0; configs]],
            won: [vec![0; configs], vec![0; configs]],
            loss_at: vec![Vec::new(); LEVELS + 2],
            win_at: vec![Vec::new(); LEVELS + 2],
            fresh: [Vec::new(), Vec::new()],
            pending: (0..configs).map(|_| AtomicU64::new(0)).collect(),
            horizon: 0,
        }
    }

    /// The index, the values, the legal positions and the best captures.
    pub(crate) fn into_parts(self) -> Parts {
        Parts {
            frame: self.frame,
            values: self.values,
            legal: self.legal,
            captures: self.captures,
        }
    }

    /// Solves the table: set-up, then every level until nothing is left to decide.
    pub(crate) fn run(&mut self) {
        self.set_up_legal();
        self.set_up_moves();
        for level in 1..=LEVELS {
            if self.fresh.iter().all(Vec::is_empty) && level > self.horizon {
                break;
            }
            let fresh = std::mem::take(&mut self.fresh);
            for side in [Color::White, Color::Black] {
                let other = &fresh[(!side).index()];
                if level % 2 == 1 {
                    self.wins(side, level, other);
                } else {
                    self.losses(side, level, other);
                }
            }
        }
    }

    /// Solves the other side to move when `given_side`'s values are known (`values`, a code
    /// a position of the frame, as [`Generator::run`] leaves them): set-up, then every level,
    /// the given side's positions of that level decided as given and the other side's by the
    /// usual step. A table file that stores one side needs no more to give both.
    pub(crate) fn run_given(&mut self, given_side: Color, values: &[u8]) {
        self.set_up_legal();
        self.set_up_moves();
        let (given, side) = (given_side.index(), !given_side);
        // The given side's positions by level, past set-up's (checkmates, at level 0).
        let mut by_level: Vec<Vec<(u32, u64)>> = vec![Vec::new(); LEVELS + 1];
        for (c, &undecided) in self.undecided[given].iter().enumerate() {
            for lane in Bitboard(undecided) {
                let v = values[c * 64 + lane.index()] as usize;
                if (1..=LEVELS).contains(&(v.wrapping_sub(1))) {
                    let level = v - 1;
                    match by_level[level].last_mut() {
                        Some((last, lanes)) if *last == c as u32 => {
                            *lanes |= bit(lane.index() as u8)
                        }
                        _ => by_level[level].push((c as u32, bit(lane.index() as u8))),
                    }
                }
            }
        }
        let last_given = by_level.iter().rposition(|l| !l.is_empty()).unwrap_or(0);
        for (level, given_here) in by_level.iter().enumerate().skip(1) {
            if self.fresh.iter().all(Vec::is_empty) && level > self.horizon.max(last_given) {
                break;
            }
            let fresh = std::mem::take(&mut self.fresh);
            for &(c, lanes) in given_here {
                let c = c as usize;
                let lanes = lanes & self.undecided[given][c];
                if lanes != 0 {
                    self.decide(given_side, c, lanes, level);
                }
            }
            if level % 2 == 1 {
                self.wins(side, level, &fresh[given]);
            } else {
                self.losses(side, level, &fresh[given]);
            }
        }
    }

    /// Which positions are legal, both sides to move.
    fn set_up_legal(&mut self) {
        self.legal = legal_bits(&self.frame, self.threads);
    }

    /// Every move of `side`'s men other than Black's king in config `men`.
    fn steps(&self, side: Color, c: usize, men: &ConfigMen, f: &mut dyn FnMut(Step)) {
        let mover = side;
        let k = men.k;
        let own = (0..k).filter(|&i| men.order[i].0 == mover).fold(
            if side == Color::White {
                bit(men.cfg.white_king)
            } else {
                0
            },
            |o, i| o | bit(men.cfg.squares[i]),
        );
        let enemy = men.occupied & !own & !bit(men.cfg.white_king);
        let shift = |i: usize| 6 * (k - 1 - i);
        // White's king.
        if side == Color::White {
            let from = men.cfg.white_king;
            let targets = king_attacks(Square::new_masked(from)).0 & !own;
            for to in Bitboard(targets) {
                let to = to.index() as u8;
                if bit(to) & enemy != 0 {
                    let mut after = men.placement().without(to);
                    after.white_king = to;
                    f(Step::Exit { after, blocked: 0 });
                } else {
                    let (config, sym) = self.frame.locate(to, &men.cfg.squares[..k]);
                    f(Step::Inside {
                        config,
                        sym,
                        blocked: bit(to),
                        ep: None,
                    });
                }
            }
        }
        for i in 0..k {
            let (color, role) = men.order[i];
            if color != mover {
                continue;
            }
            let from = men.cfg.squares[i];
            let moved = |to: u8| c ^ (((from ^ to) as usize) << shift(i));
            if role == Role::Pawn {
                let forward: i8 = if side == Color::White { 8 } else { -8 };
                let last = |sq: u8| {
                    if side == Color::White {
                        sq >= 56
                    } else {
                        sq < 8
                    }
                };
                let to = (from as i8 + forward) as u8;
                if men.occupied & bit(to) == 0 {
                    if last(to) {
                        for promoted in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                            let mut after = men.placement();
                            after.men[i] = (color, promoted, to);
                            f(Step::Exit {
                                after,
                                blocked: bit(to),
                            });
                        }
                    } else {
                        f(Step::Inside {
                            config: moved(to),
                            sym: Symmetry::IDENTITY,
                            blocked: bit(to),
                            ep: None,
                        });
                        let start = if side == Color::White {
                            from >> 3 == 1
                        } else {
                            from >> 3 == 6
                        };
                        let two = (to as i8 + forward) as u8;
                        if start && men.occupied & bit(two) == 0 {
                            let takers = pawn_attacks(mover, Square::new_masked(to)).0;
                            let enemy_pawn = (0..k).any(|j| {
                                men.order[j] == (!mover, Role::Pawn)
                                    && takers & bit(men.cfg.squares[j]) != 0
                            });
                            f(Step::Inside {
                                config: moved(two),
                                sym: Symmetry::IDENTITY,
                                blocked: bit(to) | bit(two),
                                ep: enemy_pawn.then_some((from, two)),
                            });
                        }
                    }
                }
                let captures = pawn_attacks(mover, Square::new_masked(from)).0 & enemy;
                for to in Bitboard(captures) {
                    let to = to.index() as u8;
                    let base = men.placement().without(to);
                    let at = base.find(color, role, from);
                    if last(to) {
                        for promoted in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                            let mut after = base;
                            after.men[at] = (color, promoted, to);
                            f(Step::Exit { after, blocked: 0 });
                        }
                    } else {
                        let mut after = base;
                        after.men[at] = (color, role, to);
                        f(Step::Exit { after, blocked: 0 });
                    }
                }
                continue;
            }
            let targets = attacks_of(color, role, from, men.occupied) & !own;
            for to in Bitboard(targets) {
                let to = to.index() as u8;
                let path = between(Square::new_masked(from), Square::new_masked(to)).0;
                if bit(to) & enemy != 0 {
                    let mut after = men.placement().without(to);
                    let at = after.find(color, role, from);
                    after.men[at].2 = to;
                    f(Step::Exit {
                        after,
                        blocked: path,
                    });
                } else {
                    f(Step::Inside {
                        config: moved(to),
                        sym: Symmetry::IDENTITY,
                        blocked: path | bit(to),
                        ep: None,
                    });
                }
            }
        }
    }

    /// The other side's order, per lane, of taking en passant after `side`'s double push
    /// `from`-`to` in config `men` (`NO_EXIT` where no capture is legal).
    fn en_passant(&self, side: Color, men: &ConfigMen, from: u8, to: u8) -> [u8; 64] {
        let mut out = [NO_EXIT; 64];
        let mover = side;
        let passed = (from + to) / 2;
        let takers = pawn_attacks(mover, Square::new_masked(passed)).0;
        let mut before = men.placement();
        let at = before.find(mover, Role::Pawn, from);
        before.men[at].2 = to;
        let without = before.without(to);
        for j in 0..without.n {
            let (c, r, sq) = without.men[j];
            if c == mover || r != Role::Pawn || takers & bit(sq) == 0 {
                continue;
            }
            let mut after = without;
            after.men[j].2 = passed;
            let mut codes = [0u8; 64];
            // After the capture, `side` is to move again.
            let legal = self.smaller.row(&after, mover, &mut codes);
            for lane in Bitboard(legal) {
                let l = lane.index();
                out[l] = out[l].max(BACK[codes[l] as usize]);
            }
        }
        out
    }

    /// Set-up of moves: exits, checkmates, stalemates, and what is scheduled.
    fn set_up_moves(&mut self) {
        let mut values = std::mem::take(&mut self.values);
        let mut exits = std::mem::take(&mut self.exits);
        let mut captures = std::mem::take(&mut self.captures);
        let mut undecided = std::mem::take(&mut self.undecided);
        let [v0, v1] = &mut values;
        let [e0, e1] = &mut exits;
        let [c0, c1] = &mut captures;
        let [u0, u1] = &mut undecided;
        let bytes = 64 * CHUNK;
        let chunks = v0
            .chunks_mut(bytes)
            .zip(v1.chunks_mut(bytes))
            .zip(e0.chunks_mut(bytes).zip(e1.chunks_mut(bytes)))
            .zip(c0.chunks_mut(bytes).zip(c1.chunks_mut(bytes)))
            .zip(u0.chunks_mut(CHUNK).zip(u1.chunks_mut(CHUNK)))
            .map(|((((v0, v1), (e0, e1)), (c0, c1)), (u0, u1))| Slices {
                values: [v0, v1],
                exits: [e0, e1],
                captures: [c0, c1],
                undecided: [u0, u1],
            })
            .enumerate();
        let parts = crate::par::map(self.threads, chunks, |(i, out)| {
            self.set_up_chunk(i * CHUNK, out)
        });
        self.values = values;
        self.exits = exits;
        self.captures = captures;
        self.undecided = undecided;
        for part in parts {
            for x in 0..2 {
                self.fresh[x].extend_from_slice(&part.fresh[x]);
            }
            for (level, x, c, m) in part.wins {
                self.horizon = self.horizon.max(level);
                self.win_at[level].push((x, c, m));
            }
            for (level, x, c) in part.losses {
                self.horizon = self.horizon.max(level);
                self.loss_at[level].push((x, c));
            }
        }
    }

    /// Set-up of the configs from `first` on whose values, exits and undecided words `out`
    /// holds.
    fn set_up_chunk(&self, first: usize, out: Slices) -> SetUp {
        let mut done = SetUp::default();
        let mut codes = [0u8; 64];
        for j in 0..out.undecided[0].len() {
            let c = first + j;
            if self.legal[0][c] == 0 && self.legal[1][c] == 0 {
                continue;
            }
            let men = ConfigMen::new(&self.frame, c);
            for side in [Color::White, Color::Black] {
                let x = side.index();
                let lanes = self.legal[x][c];
                if lanes == 0 {
                    continue;
                }
                let mut has = 0u64;
                let mut exits = [NO_EXIT; 64];
                let mut captures = [NO_EXIT; 64];
                let mut ep_lines: Vec<[u8; 64]> = Vec::new();
                self.steps(side, c, &men, &mut |s| match s {
                    Step::Inside {
                        config,
                        sym,
                        blocked,
                        ep,
                    } => {
                        has |= sym.invert_bb(self.legal[1 - x][config]) & !blocked;
                        if let Some((from, to)) = ep {
                            ep_lines.push(self.en_passant(side, &men, from, to));
                        }
                    }
                    Step::Exit { after, blocked } => {
                        let legal = self.smaller.row(&after, !side, &mut codes) & !blocked;
                        has |= legal;
                        let capture = after.n < men.k;
                        for lane in Bitboard(legal & lanes) {
                            let l = lane.index();
                            let e = BACK[codes[l] as usize];
                            exits[l] = exits[l].max(e);
                            if capture {
                                captures[l] = captures[l].max(e);
                            }
                        }
                    }
                });
                if side == Color::Black {
                    // Black's king: to empty squares inside, onto White's men out.
                    for (dx, dy) in STEPS {
                        has |= step(self.legal[0][c], -dx, -dy);
                    }
                    for i in 0..men.k {
                        let (col, _) = men.order[i];
                        let sq = men.cfg.squares[i];
                        if col != Color::White {
                            continue;
                        }
                        let from = king_attacks(Square::new_masked(sq)).0 & lanes;
                        if from == 0 {
                            continue;
                        }
                        let after = men.placement().without(sq);
                        if let Some(code) = self.smaller.one(&after, sq, Color::White) {
                            has |= from;
                            for lane in Bitboard(from) {
                                let l = lane.index();
                                exits[l] = exits[l].max(BACK[code as usize]);
                                captures[l] = captures[l].max(BACK[code as usize]);
                            }
                        }
                    }
                }
                let in_check = if side == Color::White {
                    men.black_checks()
                } else {
                    men.white_attacks()
                };
                let stuck = lanes & !has;
                let mated = stuck & in_check;
                out.undecided[x][j] = lanes & !stuck;
                for lane in Bitboard(mated) {
                    out.values[x][j * 64 + lane.index()] = code(0);
                }
                if mated != 0 {
                    done.fresh[x].push((c as u32, mated));
                }
                // Schedule exits: wins at their level, losses checked at theirs.
                let mut win_levels: Vec<(usize, u64)> = Vec::new();
                let mut loss_levels: Vec<usize> = Vec::new();
                for lane in Bitboard(out.undecided[x][j]) {
                    let l = lane.index();
                    let e = exits[l];
                    out.exits[x][j * 64 + l] = e;
                    out.captures[x][j * 64 + l] = captures[l];
                    if e == NO_EXIT || e == DRAW {
                        continue;
                    }
                    let level = plies(e);
                    if e > DRAW {
                        match win_levels.iter_mut().find(|(lv, _)| *lv == level) {
                            Some((_, m)) => *m |= bit(l as u8),
                            None => win_levels.push((level, bit(l as u8))),
                        }
                    } else if !loss_levels.contains(&level) {
                        loss_levels.push(level);
                    }
                }
                for line in &ep_lines {
                    for lane in Bitboard(out.undecided[x][j]) {
                        let e = line[lane.index()];
                        // The other side wins by taking: a loss here one ply later at the most.
                        if e > DRAW {
                            let level = plies(e) + 1;
                            if !loss_levels.contains(&level) {
                                loss_levels.push(level);
                            }
                        }
                    }
                }
                for (level, m) in win_levels {
                    done.wins.push((level, x as u8, c as u32, m));
                }
                for level in loss_levels {
                    done.losses.push((level, x as u8, c as u32));
                }
            }
        }
        done
    }

    /// Calls `f(config, lanes)` for each position of `side` to move from which a move of `side`
    /// reaches a position of `fresh_word` in config `c2` (the other side to move there).
    /// A double push an enemy pawn may take en passant comes with its squares.
    fn unmoves(
        &self,
        side: Color,
        c2: usize,
        word: u64,
        f: &mut dyn FnMut(usize, u64, Option<(u8, u8)>),
    ) {
        let men = ConfigMen::new(&self.frame, c2);
        let mover = side;
        let k = men.k;
        if side == Color::White {
            let to = men.cfg.white_king;
            let from = king_attacks(Square::new_masked(to)).0 & !men.occupied;
            for a in Bitboard(from) {
                let a = a.index() as u8;
                let lanes = word & !bit(a);
                if lanes == 0 {
                    continue;
                }
                let (config, sym) = self.frame.locate(a, &men.cfg.squares[..k]);
                let lanes = sym.apply_bb(lanes);
                f(config, lanes, None);
                // On the diagonal both images are positions of the frame; the normalised
                // successor reaches one of them only.
                if let Some(twin) = self.frame.twin(config) {
                    f(twin, Symmetry::TRANSPOSE.apply_bb(lanes), None);
                }
            }
        } else {
            let empty = !men.occupied;
            for (dx, dy) in STEPS {
                let lanes = step(word, -dx, -dy) & empty;
                if lanes != 0 {
                    f(c2, lanes, None);
                }
            }
        }
        for i in 0..k {
            let (col, role) = men.order[i];
            if col != mover {
                continue;
            }
            let to = men.cfg.squares[i];
            let shift = 6 * (k - 1 - i);
            let moved = |from: u8| c2 ^ (((from ^ to) as usize) << shift);
            if role == Role::Pawn {
                let back: i8 = if side == Color::White { -8 } else { 8 };
                let from = (to as i8 + back) as u8;
                let first = |sq: u8| {
                    if side == Color::White {
                        sq < 8
                    } else {
                        sq >= 56
                    }
                };
                if first(from) || men.occupied & bit(from) != 0 {
                    continue;
                }
                let lanes = word & !bit(from);
                if lanes != 0 {
                    f(moved(from), lanes, None);
                }
                let fourth = if side == Color::White {
                    to >> 3 == 3
                } else {
                    to >> 3 == 4
                };
                let two = (from as i8 + back) as u8;
                if fourth && men.occupied & bit(two) == 0 {
                    let lanes = word & !bit(from) & !bit(two);
                    if lanes == 0 {
                        continue;
                    }
                    let takers = pawn_attacks(mover, Square::new_masked(from)).0;
                    let enemy_pawn = (0..k).any(|j| {
                        men.order[j] == (!mover, Role::Pawn)
                            && takers & bit(men.cfg.squares[j]) != 0
                    });
                    f(moved(two), lanes, enemy_pawn.then_some((two, to)));
                }
                continue;
            }
            let from = attacks_of(col, role, to, men.occupied) & !men.occupied;
            for a in Bitboard(from) {
                let a = a.index() as u8;
                let path = between(Square::new_masked(a), Square::new_masked(to)).0;
                let lanes = word & !bit(a) & !path;
                if lanes != 0 {
                    f(moved(a), lanes, None);
                }
            }
        }
    }

    fn decide(&mut self, side: Color, c: usize, lanes: u64, level: usize) {
        let x = side.index();
        let code = code(level);
        for lane in Bitboard(lanes) {
            self.values[x][c * 64 + lane.index()] = code;
        }
        self.undecided[x][c] &= !lanes;
        if level % 2 == 1 {
            self.won[x][c] |= lanes;
        }
        self.fresh[x].push((c as u32, lanes));
    }

    /// Odd levels: `side` wins where a move reaches a position lost at the level before, or
    /// where an exit wins now.
    fn wins(&mut self, side: Color, level: usize, lost: &[(u32, u64)]) {
        let x = side.index();
        // Wins gather in `pending` (lanes a config), each config listed once.
        let pending = &self.pending;
        let parts = crate::par::map(self.threads, lost.chunks(LIST_CHUNK), |lost| {
            let mut touched: Vec<u32> = Vec::new();
            let mut later: Vec<(usize, usize, u64)> = Vec::new();
            let mut found = |c: usize, lanes: u64| {
                if pending[c].fetch_or(lanes, Ordering::Relaxed) == 0 {
                    touched.push(c as u32);
                }
            };
            for &(c2, word) in lost {
                self.unmoves(side, c2 as usize, word, &mut |c, lanes, ep| {
                    let lanes = lanes & self.undecided[x][c];
                    if lanes == 0 {
                        return;
                    }
                    let Some((from, to)) = ep else {
                        found(c, lanes);
                        return;
                    };
                    let men = ConfigMen::new(&self.frame, c);
                    let line = self.en_passant(side, &men, from, to);
                    for lane in Bitboard(lanes) {
                        let l = lane.index();
                        let e = line[l];
                        if e == NO_EXIT || (e < DRAW && plies(e) < level) {
                            found(c, bit(l as u8));
                        } else if e < DRAW {
                            // Taking loses later for the other side: the win comes then.
                            later.push((plies(e) + 1, c, bit(l as u8)));
                        }
                    }
                });
            }
            (touched, later)
        });
        for (touched, later) in parts {
            for c in touched {
                let c = c as usize;
                let lanes = self.pending[c].swap(0, Ordering::Relaxed) & self.undecided[x][c];
                if lanes != 0 {
                    self.decide(side, c, lanes, level);
                }
            }
            for (lv, c, lanes) in later {
                self.horizon = self.horizon.max(lv);
                self.win_at[lv].push((x as u8, c as u32, lanes));
            }
        }
        let scheduled = std::mem::take(&mut self.win_at[level]);
        for &(s, c, lanes) in &scheduled {
            if s as usize != x {
                continue;
            }
            let c = c as usize;
            let lanes = lanes & self.undecided[x][c];
            if lanes != 0 {
                self.decide(side, c, lanes, level);
            }
        }
        self.win_at[level] = scheduled;
    }

    /// Even levels: `side` loses where every move reaches a position the other side has won
    /// (by the level before) and no exit is better.
    fn losses(&mut self, side: Color, level: usize, won: &[(u32, u64)]) {
        let x = side.index();
        // Candidates gather in `pending` (lanes a config), each config listed once, by the
        // thread that found it first.
        let pending = &self.pending;
        let mark = |c: usize, lanes: u64, touched: &mut Vec<u32>| {
            if pending[c].fetch_or(lanes, Ordering::Relaxed) == 0 {
                touched.push(c as u32);
            }
        };
        let parts = crate::par::map(self.threads, won.chunks(LIST_CHUNK), |won| {
            let mut touched = Vec::new();
            for &(c2, word) in won {
                self.unmoves(side, c2 as usize, word, &mut |c, lanes, _| {
                    let lanes = lanes & self.undecided[x][c];
                    if lanes != 0 {
                        mark(c, lanes, &mut touched);
                    }
                });
            }
            touched
        });
        let mut touched: Vec<u32> = parts.concat();
        for &(s, c) in &self.loss_at[level] {
            if s as usize == x {
                mark(c as usize, !0, &mut touched);
            }
        }
        let parts = crate::par::map(self.threads, touched.chunks(LIST_CHUNK / 8), |chunk| {
            let mut lost_here: Vec<(usize, u64)> = Vec::new();
            for &c in chunk {
                let c = c as usize;
                let lanes = pending[c].swap(0, Ordering::Relaxed) & self.undecided[x][c];
                if lanes == 0 {
                    continue;
                }
                let lanes = lanes & self.all_won(side, c, level);
                let mut lost = 0;
                for lane in Bitboard(lanes) {
                    let e = self.exits[x][c * 64 + lane.index()];
                    if e == NO_EXIT || (e < DRAW && plies(e) <= level) {
                        lost |= bit(lane.index() as u8);
                    }
                }
                if lost != 0 {
                    lost_here.push((c, lost));
                }
            }
            lost_here
        });
        for (c, lost) in parts.into_iter().flatten() {
            self.decide(side, c, lost, level);
        }
    }

    /// Lanes of config `c` (`side` to move) where every move inside the table reaches a
    /// position the other side has won by `level - 1` plies (or is no move).
    fn all_won(&self, side: Color, c: usize, level: usize) -> u64 {
        let men = ConfigMen::new(&self.frame, c);
        let o = (!side).index();
        let mut acc = !0u64;
        self.steps(side, c, &men, &mut |s| {
            if let Step::Inside {
                config,
                sym,
                blocked,
                ep,
            } = s
            {
                let done = self.won[o][config] | !self.legal[o][config];
                let mut term = sym.invert_bb(done) | blocked;
                if let Some((from, to)) = ep {
                    let line = self.en_passant(side, &men, from, to);
                    for (l, &e) in line.iter().enumerate() {
                        if e > DRAW && plies(e) < level {
                            term |= bit(l as u8);
                        }
                    }
                }
                acc &= term;
            }
        });
        if side == Color::Black {
            let done = self.won[0][c] | !self.legal[0][c];
            for (dx, dy) in STEPS {
                let off = !step(!0, -dx, -dy);
                acc &= step(done, -dx, -dy) | off;
            }
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::men::Men;
    use crate::solve::Solved;

    /// Either side's values, derived from the other side's by `run_given`, are the values the
    /// full solve gives, position by position: endings with captures, promotions and en passant.
    #[test]
    fn a_side_derived_from_the_other_is_the_solved_side() {
        for name in [
            "KQvK", "KRvK", "KPvK", "KBNvK", "KNvKP", "KPvKP", "KRvKN", "KQvKR",
        ] {
            let men: Men = name.parse().expect("men");
            let mut solved = Solved::new();
            solved.set_threads(2);
            solved.solve(men).expect("solved");
            let solution = solved.get(men).expect("the solution");
            let values = solution.frame_values();
            for given in [Color::White, Color::Black] {
                let mut generator = Generator::new(Frame::new(solution.men()), &solved, 2);
                generator.run_given(given, &values[given.index()]);
                let parts = generator.into_parts();
                let x = (!given).index();
                let mut checked = 0usize;
                for (c, &legal) in parts.legal[x].iter().enumerate() {
                    for lane in Bitboard(legal) {
                        let i = c * 64 + lane.index();
                        assert_eq!(
                            parts.values[x][i],
                            values[x][i],
                            "{name}, side {x} from side {given}: config {c}, lane {}",
                            lane.index()
                        );
                        checked += 1;
                    }
                }
                assert!(checked > 1000, "{name}: {checked} positions");
            }
        }
    }
}
