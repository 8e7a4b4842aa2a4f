//! A generated table in memory, and look-ups by squares.

use crate::dtm::Dtm;
use crate::index::config_count;
use crate::material::Material;
use crate::probe_error::{IllegalPlacement, ProbeError};
use tabla::attacks::{attacks, king_attacks};
use tabla::{Bitboard, Color, Square};

/// A solved endgame: the distance to mate of every legal placement, both sides to move.
///
/// Values are kept one byte a slot (see `index.rs` for the slots): with White (the
/// stronger side) to move, `N` = mates in `N`, `0` = no win; with Black to move, `N + 1` = mated
/// after `N` White moves (`1` = checkmated), `0` = not lost. A table also holds the tables of the
/// endgames a capture leads to (KBNK: KBK and KNK, and their own), so that the value after any
/// legal move can be given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    material: Material,
    white: Vec<u8>,
    black: Vec<u8>,
    subtables: Vec<Table>,
}

impl Table {
    /// Assembles a table from its two value arrays and the tables of `material.without(i)`.
    pub(crate) fn from_parts(
        material: Material,
        white: Vec<u8>,
        black: Vec<u8>,
        subtables: Vec<Table>,
    ) -> Table {
        let n = material.pieces().len();
        debug_assert_eq!(white.len(), config_count(n) * 64);
        debug_assert_eq!(black.len(), config_count(n) * 64);
        debug_assert_eq!(subtables.len(), n);
        Table {
            material,
            white,
            black,
            subtables,
        }
    }

    /// The endgame this table solves.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The raw White-to-move values, one byte a slot (mates in `N`, `0` no win).
    pub fn white_slots(&self) -> &[u8] {
        &self.white
    }

    /// The raw Black-to-move values, one byte a slot (`N + 1`: mated after `N` White moves).
    pub fn black_slots(&self) -> &[u8] {
        &self.black
    }

    /// The tables of the endgames one capture leads to (`material.without(i)`, in piece order).
    pub(crate) fn subtables(&self) -> &[Table] {
        &self.subtables
    }

    /// The table of `material`: this one or one reached through captures.
    pub fn find(&self, material: Material) -> Option<&Table> {
        if material == self.material {
            return Some(self);
        }
        self.subtables.iter().find_map(|t| t.find(material))
    }

    /// The moves to mate with White to move, `None` when White cannot force mate. No legality
    /// check: the placement must be legal with White to move.
    #[inline]
    pub(crate) fn white_value(&self, king: u8, pieces: &[u8], bare_king: u8) -> Option<u8> {
        match self.white[crate::index::slot(king, pieces, bare_king)] {
            0 => None,
            n => Some(n),
        }
    }

    /// The value of a placement known to be legal, in the stronger side's frame (White).
    #[inline]
    pub(crate) fn value(&self, turn: Color, king: u8, pieces: &[u8], bare_king: u8) -> Dtm {
        self.slot_value(turn, crate::index::slot(king, pieces, bare_king))
    }

    /// The value in a slot, in the stronger side's frame (White).
    #[inline]
    pub(crate) fn slot_value(&self, turn: Color, slot: usize) -> Dtm {
        match turn {
            Color::White => match self.white[slot] {
                0 => Dtm::Draw,
                n => Dtm::Win(n),
            },
            Color::Black => match self.black[slot] {
                0 => Dtm::Draw,
                n => Dtm::Loss(n - 1),
            },
        }
    }

    /// The value of a placement given by squares, White being the stronger side: its king, its
    /// pieces in the order of [`Material::pieces`], and the bare king.
    ///
    /// ```
    /// use tabla::{Color, Square};
    /// use tabla_endgame::{Dtm, Material, generate};
    /// let kqk = generate(Material::KQK, &mut |_| {});
    /// // White: Kb6, Qh2; Black: Ka8. Qh8 mates.
    /// let dtm = kqk.dtm_squares(Color::White, Square::B6, &[Square::H2], Square::A8);
    /// assert_eq!(dtm, Ok(Dtm::Win(1)));
    /// // The kings may not touch.
    /// assert!(kqk.dtm_squares(Color::White, Square::B6, &[Square::H2], Square::A7).is_err());
    /// ```
    pub fn dtm_squares(
        &self,
        turn: Color,
        king: Square,
        pieces: &[Square],
        bare_king: Square,
    ) -> Result<Dtm, ProbeError> {
        let roles = self.material.pieces();
        if pieces.len() != roles.len() {
            return Err(ProbeError::Illegal(IllegalPlacement::PieceCount {
                expected: roles.len(),
                found: pieces.len(),
            }));
        }
        let mut occupied = Bitboard::from_square(king);
        for &p in pieces.iter().chain([&bare_king]) {
            if occupied.contains(p) {
                return Err(ProbeError::Illegal(IllegalPlacement::SharedSquare(p)));
            }
            occupied = occupied.with(p);
        }
        if king_attacks(king).contains(bare_king) {
            return Err(ProbeError::Illegal(IllegalPlacement::KingsTouch));
        }
        if turn == Color::White {
            let checked = roles
                .iter()
                .zip(pieces)
                .any(|(&role, &p)| attacks(Color::White, role, p, occupied).contains(bare_king));
            if checked {
                return Err(ProbeError::Illegal(IllegalPlacement::OppositeCheck));
            }
        }
        let squares: Vec<u8> = pieces.iter().map(|&p| p as u8).collect();
        Ok(self.value(turn, king as u8, &squares, bare_king as u8))
    }
}
