//! Probing with `tabla` positions: the distance to mate, the best move, the value of every move.

use crate::dtm::Dtm;
use crate::material::{MAX_PIECES, Material};
use crate::probe_error::ProbeError;
use crate::table::Table;
use tabla::{Color, Move, Position, Role};

/// A legal move and the value of the position it leads to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// The value after the move, from the point of view of the side then to move (the
    /// opponent): `-3` means the opponent is mated in 3.
    pub after: Dtm,
}

impl MoveValue {
    /// The value for the side making the move: the mover's DTM if it plays this move.
    pub fn for_mover(&self) -> Dtm {
        self.after.after_move()
    }
}

/// Everything a probe tells about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The position's value for the side to move.
    pub dtm: Dtm,
    /// `true` when the side to move is stalemated (then `dtm` is [`Dtm::Draw`]); a checkmate is
    /// [`Dtm::Loss`]`(0)`.
    pub stalemate: bool,
    /// The best move: the fastest mate for the winner, the longest resistance (or a draw) for the
    /// loser; the first in `tabla`'s move order among equals. `None` when there is no legal move.
    pub best: Option<Move>,
    /// Every legal move, in `tabla`'s order, with the value after it.
    pub moves: Vec<MoveValue>,
}

/// A placement in the table's frame: the stronger side as White.
struct Placement {
    turn: Color,
    king: u8,
    pieces: [u8; MAX_PIECES],
    bare_king: u8,
}

impl Table {
    /// The distance to mate of a position, without generating moves.
    ///
    /// ```
    /// use tabla::Position;
    /// use tabla_endgame::{Dtm, Material, generate};
    /// let kbnk = generate(Material::KBNK, &mut |_| {});
    /// let mate = Position::from_fen("k7/8/NK6/3B4/8/8/8/8 b - - 0 1").unwrap();
    /// assert_eq!(kbnk.dtm(&mate), Ok(Dtm::Loss(0)));
    /// // Black's pieces work as well: the board is flipped.
    /// let mate = Position::from_fen("8/8/8/8/3b4/nk6/8/K7 w - - 0 1").unwrap();
    /// assert_eq!(kbnk.dtm(&mate), Ok(Dtm::Loss(0)));
    /// ```
    pub fn dtm(&self, pos: &Position) -> Result<Dtm, ProbeError> {
        let (material, strong) = self.quick_material(pos)?;
        let table = self.find(material).ok_or(ProbeError::WrongMaterial {
            table: self.material(),
            found: material,
        })?;
        let p = placement(pos, material, strong);
        let n = material.pieces().len();
        Ok(table.value(p.turn, p.king, &p.pieces[..n], p.bare_king))
    }

    /// Parses a FEN (strictly validated) and probes it.
    pub fn dtm_fen(&self, fen: &str) -> Result<Dtm, ProbeError> {
        self.dtm(&Position::from_fen(fen)?)
    }

    /// The value, the best move and the value after every legal move.
    ///
    /// ```
    /// use tabla::Position;
    /// use tabla_endgame::{Dtm, Material, generate};
    /// let kbnk = generate(Material::KBNK, &mut |_| {});
    /// let pos = Position::from_fen("k7/8/NK2B3/8/8/8/8/8 w - - 0 1").unwrap();
    /// let probe = kbnk.probe(&pos).unwrap();
    /// assert_eq!(probe.dtm, Dtm::Win(1));
    /// assert_eq!(pos.san(probe.best.unwrap()), "Bd5#");
    /// ```
    pub fn probe(&self, pos: &Position) -> Result<Probe, ProbeError> {
        let dtm = self.dtm(pos)?;
        let mut moves = Vec::new();
        let mut next = pos.clone();
        next.clear_history();
        for mv in pos.legal_moves() {
            next.play_unchecked(mv);
            let after = self.dtm(&next);
            next.undo();
            moves.push(MoveValue { mv, after: after? });
        }
        let best = moves
            .iter()
            .min_by_key(|m| m.for_mover().badness())
            .map(|m| m.mv);
        let stalemate = moves.is_empty() && !pos.is_check();
        Ok(Probe {
            dtm,
            stalemate,
            best,
            moves,
        })
    }

    /// The best move (see [`Probe::best`]).
    pub fn best_move(&self, pos: &Position) -> Result<Option<Move>, ProbeError> {
        Ok(self.probe(pos)?.best)
    }

    /// The optimal line from `pos` to mate: best moves for both sides until checkmate. Empty for
    /// a draw or a position already mated.
    ///
    /// ```
    /// use tabla::Position;
    /// use tabla_endgame::{Material, generate};
    /// let kqk = generate(Material::KQK, &mut |_| {});
    /// let pos = Position::from_fen("k7/8/1K6/8/8/8/7Q/8 w - - 0 1").unwrap();
    /// let line = kqk.line(&pos).unwrap();
    /// assert_eq!(line.len(), 1);
    /// let mut end = pos.clone();
    /// end.play(line[0]).unwrap();
    /// assert!(end.is_checkmate());
    /// ```
    pub fn line(&self, pos: &Position) -> Result<Vec<Move>, ProbeError> {
        let start = self.dtm(pos)?;
        let Some(plies) = start.plies() else {
            return Ok(Vec::new());
        };
        let mut line = Vec::with_capacity(plies as usize);
        let mut cur = pos.clone();
        cur.clear_history();
        for _ in 0..plies {
            let Some(mv) = self.best_move(&cur)? else {
                break;
            };
            cur.play_unchecked(mv);
            line.push(mv);
        }
        Ok(line)
    }

    /// The material of a position and its stronger side, read from the bit sets (fast), or the
    /// reason it is not a king and pieces against a bare king.
    fn quick_material(&self, pos: &Position) -> Result<(Material, Color), ProbeError> {
        let own = self.material();
        for strong in [Color::White, Color::Black] {
            if pos.by_color(!strong).count() == 1
                && pos.by_color(strong).count() as usize == own.pieces().len() + 1
                && own
                    .pieces()
                    .iter()
                    .all(|&r| pos.pieces(strong, r).count() as usize == count(own, r))
            {
                return Ok((own, strong));
            }
        }
        let (found, strong) = Material::of_position(pos)?;
        Ok((found, strong))
    }
}

fn count(material: Material, role: Role) -> usize {
    material.pieces().iter().filter(|&&r| r == role).count()
}

/// The position in the table's frame; the board is flipped (ranks and colours) when Black is the
/// stronger side.
fn placement(pos: &Position, material: Material, strong: Color) -> Placement {
    let flip = if strong == Color::Black { 56 } else { 0 };
    let mut pieces = [0u8; MAX_PIECES];
    let roles = material.pieces();
    let mut i = 0;
    while i < roles.len() {
        // Equal roles are consecutive in a material: give them the squares in ascending order.
        for s in pos.pieces(strong, roles[i]) {
            pieces[i] = s as u8 ^ flip;
            i += 1;
        }
    }
    Placement {
        turn: if flip == 0 { pos.turn() } else { !pos.turn() },
        king: pos.king(strong) as u8 ^ flip,
        pieces,
        bare_king: pos.king(!strong) as u8 ^ flip,
    }
}
