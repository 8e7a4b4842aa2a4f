//! Retrograde generation over a material description.
//!
//! Each configuration of the stronger side's men (see `index.rs`) carries two 64-bit
//! sets of bare-king squares: `won` (White to move, mates within the current ply count) and `lost`
//! (Black to move, is mated within it). Generation alternates two passes, one ply each, until
//! nothing changes:
//!
//! - **Black to move, even ply `d`.** The bare king's escapes are its safe non-capturing steps to
//!   squares not yet in `won`, plus captures of an undefended piece unless the smaller endgame left
//!   after the capture is won within `d - 1` plies (KBNK: never, KBK and KNK are draws). A position
//!   is lost when no neighbouring square is an escape and the king is in check or has a move, so
//!   stalemates stay draws. With sets this is `valid & !neighbours(escapes) & (check | movable)`:
//!   the counting method of retrograde analysis done for 64 king squares at once.
//! - **White to move, odd ply.** A position is won when some White move reaches a lost position:
//!   the union, over the configuration's moves, of the successor's `lost` set, mapped back
//!   through the symmetry that brought the successor's king into the triangle and masked by the
//!   squares where the bare king would block a slider's path.
//!
//! The first ply that adds a position to a set is its distance to mate. Each pass reads only the
//! sets the other pass writes, so configurations are independent inside a pass; the work is a few
//! million 64-bit operations a ply, well under a second for KBNK on one core, so no thread pool is
//! used (a pool's start-up and per-pass synchronisation would cost about what it saves here).

use crate::index::{config_count, config_of, squares_of};
use crate::material::{MAX_PIECES, Material};
use crate::symmetry::Symmetry;
use crate::table::Table;
use tabla::attacks::{attacks, between, king_attacks};
use tabla::{Bitboard, Color, Square};

/// How far a generation has come, reported after each ply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The ply just finished (0: the checkmates).
    pub ply: u16,
    /// Slots (of the symmetry-reduced index) resolved as won or lost so far.
    pub resolved: u64,
    /// Slots resolved by this ply.
    pub new: u64,
}

/// What the generator (and the file decoder) knows about one configuration before any value.
#[derive(Copy, Clone, Default)]
pub(crate) struct Config {
    /// Bare-king squares legal with White to move (not attacked, not occupied).
    pub valid_white: u64,
    /// Bare-king squares legal with Black to move (not occupied, not next to the king).
    pub valid_black: u64,
    /// Bare-king squares in check.
    pub check: u64,
    /// Bare-king squares with at least one legal move.
    pub movable: u64,
    /// Safe empty squares: non-capturing destinations of the bare king.
    pub free: u64,
    /// Bare-king squares (Black to move) from which a capture reaches a drawn smaller endgame:
    /// those positions are draws whatever else Black could do.
    pub capture_draw: u64,
    /// Per piece: its square's bit when the bare king may capture it (else 0), and the plies in
    /// which the stronger side then mates (`u16::MAX`: a draw).
    pub captures: [(u64, u16); MAX_PIECES],
}

/// A White move from a configuration.
#[derive(Copy, Clone)]
pub(crate) struct Successor {
    pub config: u32,
    /// The symmetry that brought the successor's king into the triangle.
    pub sym: Symmetry,
    /// Bare-king squares from which the move is possible (not on a slider's path).
    pub mask: u64,
}

/// Builds the table of a material, reporting progress after every ply.
///
/// ```
/// use tabla_endgame::{Dtm, Material, generate};
/// let table = generate(Material::KQK, &mut |_| {});
/// // Qh8 mates.
/// let pos = tabla::Position::from_fen("k7/8/1K6/8/8/8/7Q/8 w - - 0 1").unwrap();
/// assert_eq!(table.dtm(&pos).unwrap(), Dtm::Win(1));
/// ```
pub fn generate(material: Material, progress: &mut dyn FnMut(&Progress)) -> Table {
    let n = material.pieces().len();
    let subtables: Vec<Table> = (0..n)
        .map(|i| generate(material.without(i), &mut |_| {}))
        .collect();
    let configs = config_count(n);
    let mut info = Vec::with_capacity(configs);
    let mut first_successor = Vec::with_capacity(configs + 1);
    let mut successors = Vec::with_capacity(configs * 24);
    for c in 0..configs {
        first_successor.push(successors.len() as u32);
        info.push(Config::new(material, &subtables, c));
        push_successors(material, c, &mut successors);
    }
    first_successor.push(successors.len() as u32);
    let last_capture_ply = info
        .iter()
        .flat_map(|cf| cf.captures.iter())
        .filter(|&&(bit, plies)| bit != 0 && plies != u16::MAX)
        .map(|&(_, plies)| plies)
        .max()
        .unwrap_or(0);

    let mut won = vec![0u64; configs];
    let mut lost = vec![0u64; configs];
    let mut white = vec![0u8; configs * 64];
    let mut black = vec![0u8; configs * 64];
    let mut resolved = 0u64;
    let mut ply = 0u16;
    loop {
        let mut new = 0u64;
        if ply.is_multiple_of(2) {
            let value = (ply / 2 + 1) as u8;
            for c in 0..configs {
                let cf = &info[c];
                let mut escapes = cf.free & !won[c];
                for &(bit, plies) in &cf.captures {
                    if plies >= ply {
                        escapes |= bit;
                    }
                }
                let now = cf.valid_black & !neighbours(escapes) & (cf.check | cf.movable);
                let fresh = now & !lost[c];
                if fresh != 0 {
                    lost[c] = now;
                    new += u64::from(fresh.count_ones());
                    mark(&mut black[c * 64..c * 64 + 64], fresh, value);
                }
            }
        } else {
            let value = ply.div_ceil(2) as u8;
            for c in 0..configs {
                let mut reach = 0u64;
                let range = first_successor[c] as usize..first_successor[c + 1] as usize;
                for s in &successors[range] {
                    reach |= s.sym.invert_bb(lost[s.config as usize]) & s.mask;
                }
                let now = reach & info[c].valid_white;
                let fresh = now & !won[c];
                if fresh != 0 {
                    won[c] = now;
                    new += u64::from(fresh.count_ones());
                    mark(&mut white[c * 64..c * 64 + 64], fresh, value);
                }
            }
        }
        resolved += new;
        progress(&Progress { ply, resolved, new });
        if new == 0 && ply > last_capture_ply {
            break;
        }
        ply += 1;
    }
    Table::from_parts(material, white, black, subtables)
}

/// Writes `value` into the slots of the squares in `set`.
#[inline]
fn mark(slots: &mut [u8], mut set: u64, value: u8) {
    while set != 0 {
        slots[set.trailing_zeros() as usize] = value;
        set &= set - 1;
    }
}

/// The squares next to some square of `set` (a king's step away), not counting `set` itself.
#[inline]
pub(crate) const fn neighbours(set: u64) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let east = (set << 1) & NOT_A;
    let west = (set >> 1) & NOT_H;
    let row = set | east | west;
    east | west | (row << 8) | (row >> 8)
}

impl Config {
    /// The sets of configuration `c`; all empty when two men share a square. `subtables[i]` is
    /// the table of the material without piece `i`.
    pub(crate) fn new(material: Material, subtables: &[Table], c: usize) -> Config {
        let roles = material.pieces();
        let n = roles.len();
        let mut pieces = [0u8; MAX_PIECES];
        let king = squares_of(c, n, &mut pieces);
        let pieces = &pieces[..n];
        let Some(occupied) = occupancy(king, pieces) else {
            return Config::default();
        };
        let king_zone = king_attacks(sq(king)).0;
        let mut attacked = king_zone;
        for (&role, &p) in roles.iter().zip(pieces) {
            attacked |= attacks(Color::White, role, sq(p), Bitboard(occupied)).0;
        }
        let safe = !attacked & !(1u64 << king);
        let valid_black = !occupied & !king_zone;
        let mut captures = [(0u64, u16::MAX); MAX_PIECES];
        let mut capture_draw = 0;
        for i in 0..n {
            let bit = 1u64 << pieces[i];
            if safe & bit == 0 {
                continue;
            }
            let mut rest = [0u8; MAX_PIECES];
            for (j, slot) in (0..n).filter(|&j| j != i).zip(rest.iter_mut()) {
                *slot = pieces[j];
            }
            let plies = subtables[i]
                .white_value(king, &rest[..n - 1], pieces[i])
                .map_or(u16::MAX, |moves| 2 * u16::from(moves) - 1);
            captures[i] = (bit, plies);
            if plies == u16::MAX {
                capture_draw |= neighbours(bit) & valid_black;
            }
        }
        Config {
            valid_white: !occupied & !attacked,
            valid_black,
            check: attacked & valid_black,
            movable: neighbours(safe),
            free: safe & !occupied,
            capture_draw,
            captures,
        }
    }
}

/// The squares of the men of a placement, `None` when two share a square.
#[inline]
fn occupancy(king: u8, pieces: &[u8]) -> Option<u64> {
    let mut occupied = 1u64 << king;
    for &p in pieces {
        if occupied & 1 << p != 0 {
            return None;
        }
        occupied |= 1 << p;
    }
    Some(occupied)
}

/// Appends the White moves of configuration `c` (none when two men share a square).
pub(crate) fn push_successors(material: Material, c: usize, successors: &mut Vec<Successor>) {
    let roles = material.pieces();
    let n = roles.len();
    let mut pieces = [0u8; MAX_PIECES];
    let king = squares_of(c, n, &mut pieces);
    let pieces = &pieces[..n];
    let Some(occupied) = occupancy(king, pieces) else {
        return;
    };
    // King moves may leave the triangle: the successor is then found through a symmetry.
    for to in Bitboard(king_attacks(sq(king)).0 & !occupied) {
        let to = to as u8;
        let sym = Symmetry::to_triangle(to);
        let mut moved = [0u8; MAX_PIECES];
        for (m, &p) in moved.iter_mut().zip(pieces) {
            *m = sym.apply(p);
        }
        successors.push(Successor {
            config: config_of(sym.apply(to), &moved[..n]) as u32,
            sym,
            mask: !0,
        });
    }
    for i in 0..n {
        let from = pieces[i];
        let reach = attacks(Color::White, roles[i], sq(from), Bitboard(occupied)).0 & !occupied;
        for to in Bitboard(reach) {
            let mut moved = [0u8; MAX_PIECES];
            moved[..n].copy_from_slice(pieces);
            moved[i] = to as u8;
            successors.push(Successor {
                config: config_of(king, &moved[..n]) as u32,
                sym: Symmetry::IDENTITY,
                mask: !between(sq(from), to).0,
            });
        }
    }
}

#[inline]
fn sq(index: u8) -> Square {
    Square::new_masked(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_king_steps() {
        for s in 0..64u8 {
            let expected = king_attacks(sq(s)).0;
            assert_eq!(neighbours(1 << s), expected, "square {s}");
        }
    }
}
