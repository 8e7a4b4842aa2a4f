//! Counts over every legal placement of a table (the unreduced board, not the index's slots).

use crate::dtm::Dtm;
use crate::generate::neighbours;
use crate::index::locate;
use crate::material::MAX_PIECES;
use crate::symmetry::Symmetry;
use crate::table::Table;
use tabla::attacks::{attacks, king_attacks};
use tabla::{Bitboard, Color, Square};

/// Counts for one side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Legal positions.
    pub legal: u64,
    /// Positions where the side to move is checkmated (counted among the losses).
    pub checkmates: u64,
    /// Positions where the side to move is stalemated (counted among the draws).
    pub stalemates: u64,
    /// The side to move mates.
    pub wins: u64,
    /// The side to move is mated (checkmates included).
    pub losses: u64,
    /// Neither side can force mate (stalemates included).
    pub draws: u64,
    /// `histogram[n]`: positions won (White to move) or lost (Black to move) in `n` moves.
    pub histogram: Vec<u64>,
}

impl SideStats {
    /// The longest distance to mate and how many positions have it.
    pub fn longest(&self) -> Option<(u8, u64)> {
        let (n, &count) = self
            .histogram
            .iter()
            .enumerate()
            .rev()
            .find(|&(_, &c)| c > 0)?;
        Some((n as u8, count))
    }

    fn add(&mut self, dtm: Dtm) {
        self.legal += 1;
        let moves = match dtm {
            Dtm::Win(n) => {
                self.wins += 1;
                n
            }
            Dtm::Loss(n) => {
                self.losses += 1;
                n
            }
            Dtm::Draw => {
                self.draws += 1;
                return;
            }
        };
        let i = moves as usize;
        if self.histogram.len() <= i {
            self.histogram.resize(i + 1, 0);
        }
        self.histogram[i] += 1;
    }
}

/// Counts for both sides to move, White being the stronger side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// White (the stronger side) to move.
    pub white: SideStats,
    /// Black (the bare king) to move.
    pub black: SideStats,
}

impl Stats {
    /// Counts every legal placement.
    pub fn of(table: &Table) -> Stats {
        Stats::of_filtered(table, |_, _| true)
    }

    /// Counts the legal placements whose stronger side passes `keep(king, pieces)` (squares
    /// `0..64`, pieces in the material's order). For the light-squared bishop alone:
    /// `|_, p| Square::new_masked(p[0]).is_light()`.
    pub fn of_filtered(table: &Table, keep: impl Fn(u8, &[u8]) -> bool) -> Stats {
        let material = table.material();
        let roles = material.pieces();
        let n = roles.len();
        let mut stats = Stats::default();
        let mut pieces = [0u8; MAX_PIECES];
        let placements = 64usize << (6 * n);
        'placements: for code in 0..placements {
            let king = (code >> (6 * n)) as u8;
            let mut occupied = 1u64 << king;
            for (i, p) in pieces[..n].iter_mut().enumerate() {
                *p = (code >> (6 * (n - 1 - i)) & 63) as u8;
                if occupied & 1 << *p != 0 {
                    continue 'placements;
                }
                occupied |= 1 << *p;
            }
            let pieces = &pieces[..n];
            if !keep(king, pieces) {
                continue;
            }
            let king_zone = king_attacks(sq(king)).0;
            let mut attacked = king_zone;
            for (&role, &p) in roles.iter().zip(pieces) {
                attacked |= attacks(Color::White, role, sq(p), Bitboard(occupied)).0;
            }
            let movable = neighbours(!attacked & !(1 << king));
            // The frame is the same for every bare-king square.
            let (config, _) = locate(king, pieces, 0);
            let sym = Symmetry::to_triangle(king);
            for bare in 0..64u8 {
                let bit = 1u64 << bare;
                if (occupied | king_zone) & bit != 0 {
                    continue;
                }
                let slot = config * 64 + sym.apply(bare) as usize;
                let black = table.slot_value(Color::Black, slot);
                stats.black.add(black);
                if black.is_checkmated() {
                    stats.black.checkmates += 1;
                }
                if attacked & bit == 0 {
                    if movable & bit == 0 {
                        stats.black.stalemates += 1;
                    }
                    stats.white.add(table.slot_value(Color::White, slot));
                }
            }
        }
        stats
    }
}

#[inline]
fn sq(index: u8) -> Square {
    Square::new_masked(index)
}
