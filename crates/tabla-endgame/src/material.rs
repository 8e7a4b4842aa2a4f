//! Material descriptions: which pieces the stronger side has against a bare king.

use std::fmt;
use std::str::FromStr;
use tabla::{Color, Position, Role};

/// The most pieces besides the king the stronger side may have (four men in all): the tables
/// hold `10 * 64^n` placements a side to move, so five men would need hundreds of megabytes.
pub const MAX_PIECES: usize = 2;

/// An endgame of a king and up to [`MAX_PIECES`] pieces (queen, rook, bishop, knight) against a
/// bare king, written like `KBNK`: the stronger side's king and pieces, then the bare king.
///
/// The tables are always built with White as the stronger side; probing a position where Black
/// has the pieces flips the board (ranks and colours), so one table serves both.
///
/// ```
/// use tabla::Role;
/// use tabla_endgame::Material;
/// let m: Material = "KNBK".parse().unwrap();
/// assert_eq!(m, Material::KBNK);
/// assert_eq!(m.pieces(), &[Role::Bishop, Role::Knight]);
/// assert_eq!(m.to_string(), "KBNK");
/// assert_eq!(m.without(0).to_string(), "KNK");
/// assert!("KPK".parse::<Material>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Material {
    pieces: [Role; MAX_PIECES],
    len: u8,
}

/// Why a text or a position does not describe a supported material.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaterialError {
    /// The text does not have the shape `K<pieces>K` (an optional `v` before the last `K`).
    #[error("{text:?} is not a material like KBNK (a king, its pieces, then the bare king)")]
    Syntax {
        /// The text as given.
        text: String,
    },
    /// A piece letter other than Q, R, B, N.
    #[error("{letter:?} is not a piece the stronger side may have here (Q, R, B or N)")]
    Piece {
        /// The letter.
        letter: char,
    },
    /// More pieces than the generator supports.
    #[error("{count} pieces besides the king; at most {MAX_PIECES} are supported")]
    TooMany {
        /// How many were given.
        count: usize,
    },
    /// Both sides have pieces besides the king (or a pawn is on the board).
    #[error("only a king and pieces against a bare king are supported (found {found})")]
    NotAgainstBareKing {
        /// The material found, like `KBKN`.
        found: String,
    },
}

impl Material {
    /// King, bishop and knight against king: the endgame tabla began with.
    pub const KBNK: Material = Material {
        pieces: [Role::Bishop, Role::Knight],
        len: 2,
    };
    /// King and queen against king.
    pub const KQK: Material = Material {
        pieces: [Role::Queen, Role::King],
        len: 1,
    };
    /// King and rook against king.
    pub const KRK: Material = Material {
        pieces: [Role::Rook, Role::King],
        len: 1,
    };

    /// The material with the given pieces (any order; pawns and kings are refused).
    pub fn new(pieces: &[Role]) -> Result<Material, MaterialError> {
        if pieces.len() > MAX_PIECES {
            return Err(MaterialError::TooMany {
                count: pieces.len(),
            });
        }
        let mut out = Material {
            pieces: [Role::King; MAX_PIECES],
            len: pieces.len() as u8,
        };
        for (slot, &role) in out.pieces.iter_mut().zip(pieces) {
            if matches!(role, Role::Pawn | Role::King) {
                return Err(MaterialError::Piece {
                    letter: role.upper_char(),
                });
            }
            *slot = role;
        }
        // Strongest first, as endgames are named (KQRK, KBNK).
        out.pieces[..pieces.len()].sort_by_key(|&r| naming_order(r));
        Ok(out)
    }

    /// The stronger side's pieces besides its king, strongest first.
    pub fn pieces(&self) -> &[Role] {
        &self.pieces[..self.len as usize]
    }

    /// The material after the bare king captures piece `i` of [`pieces`](Self::pieces).
    ///
    /// # Panics
    /// When `i` is out of range.
    pub fn without(&self, i: usize) -> Material {
        let mut rest: Vec<Role> = self.pieces().to_vec();
        rest.remove(i);
        Material::new(&rest).unwrap_or(*self)
    }

    /// The material of a position and the colour of its stronger side, when one side has only
    /// its king and the other has at most [`MAX_PIECES`] queens, rooks, bishops and knights. Two
    /// bare kings give `KK`, with White as the "stronger" side.
    pub fn of_position(pos: &Position) -> Result<(Material, Color), MaterialError> {
        let found = || material_name(pos);
        let count = |c: Color| pos.by_color(c).count();
        let strong = if count(Color::Black) > 1 {
            Color::Black
        } else {
            Color::White
        };
        if count(!strong) != 1 {
            return Err(MaterialError::NotAgainstBareKing { found: found() });
        }
        let mut roles = Vec::new();
        for (_, piece) in pos.board().pieces() {
            if piece.color == strong && piece.role != Role::King {
                if piece.role == Role::Pawn {
                    return Err(MaterialError::NotAgainstBareKing { found: found() });
                }
                roles.push(piece.role);
            }
        }
        Ok((Material::new(&roles)?, strong))
    }
}

/// Queen, rook, bishop, knight: the order of the letters in endgame names.
fn naming_order(role: Role) -> u8 {
    match role {
        Role::Queen => 0,
        Role::Rook => 1,
        Role::Bishop => 2,
        Role::Knight => 3,
        Role::Pawn => 4,
        Role::King => 5,
    }
}

/// The material of any position, like `KBvKN`: White then Black, each king first, then queens,
/// rooks, bishops, knights, pawns.
fn material_name(pos: &Position) -> String {
    let mut out = String::new();
    for color in [Color::White, Color::Black] {
        if color == Color::Black {
            out.push('v');
        }
        out.push('K');
        for role in [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            for _ in 0..pos.pieces(color, role).count() {
                out.push(role.upper_char());
            }
        }
    }
    out
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("K")?;
        for role in self.pieces() {
            write!(f, "{}", role.upper_char())?;
        }
        f.write_str("K")
    }
}

impl FromStr for Material {
    type Err = MaterialError;
    fn from_str(text: &str) -> Result<Material, MaterialError> {
        let syntax = || MaterialError::Syntax {
            text: text.to_owned(),
        };
        let upper = text.trim().to_ascii_uppercase();
        let inner = upper
            .strip_prefix('K')
            .and_then(|rest| rest.strip_suffix('K'))
            .ok_or_else(syntax)?;
        let inner = inner.strip_suffix('V').unwrap_or(inner);
        let mut roles = Vec::new();
        for letter in inner.chars() {
            match Role::from_char(letter.to_ascii_lowercase()) {
                Some(role @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => {
                    roles.push(role)
                }
                _ => return Err(MaterialError::Piece { letter }),
            }
        }
        Material::new(&roles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "KK", "KQK", "KRK", "KBK", "KNK", "KBNK", "KBBK", "KNNK", "KQRK",
        ] {
            let m: Material = name.parse().expect("test value");
            assert_eq!(m.to_string(), name);
        }
        assert_eq!(
            "kbnvk".parse::<Material>().expect("test value"),
            Material::KBNK
        );
        assert_eq!(Material::KQK.to_string(), "KQK");
        assert_eq!(Material::KRK.to_string(), "KRK");
    }

    #[test]
    fn bad_names_are_refused() {
        assert!(matches!(
            "BNK".parse::<Material>(),
            Err(MaterialError::Syntax { .. })
        ));
        assert!(matches!(
            "KPK".parse::<Material>(),
            Err(MaterialError::Piece { letter: 'P' })
        ));
        assert!(matches!(
            "KQRBK".parse::<Material>(),
            Err(MaterialError::TooMany { count: 3 })
        ));
        assert!(matches!(
            "".parse::<Material>(),
            Err(MaterialError::Syntax { .. })
        ));
    }

    #[test]
    fn material_of_positions() {
        let pos = Position::from_fen("8/8/8/4k3/8/8/8/KBN5 w - - 0 1").expect("test value");
        assert_eq!(
            Material::of_position(&pos),
            Ok((Material::KBNK, Color::White))
        );
        let pos = Position::from_fen("8/8/8/4K3/8/8/8/kbn5 b - - 0 1").expect("test value");
        assert_eq!(
            Material::of_position(&pos),
            Ok((Material::KBNK, Color::Black))
        );
        let pos = Position::from_fen("8/8/8/4k3/8/8/8/KBn5 w - - 0 1").expect("test value");
        assert_eq!(
            Material::of_position(&pos),
            Err(MaterialError::NotAgainstBareKing {
                found: "KBvKN".into()
            })
        );
    }
}
