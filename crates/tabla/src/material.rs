//! Material: how many men of each role each side has, written `KRPvKR`.

use crate::{Color, Position, Role};
use std::fmt;
use std::str::FromStr;

/// A material balance: how many men of each role each side has, one king each.
///
/// Written with White's men first and `v` between the sides, each side's king first and then
/// its men strongest first (`KRPvKR`). Read from that form in any order of letters, either case,
/// and without the `v` (`KRPKR`: Black's men begin at the second king). A side has at most 8
/// pawns and 16 men. The one reading of this notation: the database's material search and the
/// endgame tables' names both use it.
///
/// ```
/// use tabla::{Color, Material, Position, Role};
///
/// let m: Material = "KPRvKR".parse().unwrap();
/// assert_eq!(m.to_string(), "KRPvKR");
/// assert_eq!(m.count(Color::White, Role::Pawn), 1);
/// assert_eq!(m.men(), 5);
/// assert_eq!(m.swapped().to_string(), "KRvKRP");
/// assert_eq!("krpkr".parse::<Material>().unwrap(), m);
/// assert_eq!(Material::of(&Position::startpos()).to_string(), "KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP");
/// assert!("KRPvR".parse::<Material>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Indexed by [`Color::index`], then by [`Role::index`].
    counts: [[u8; 6]; 2],
}

/// Why a text is not a material balance.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaterialError {
    /// Not two kings each followed by its men (`KRPvKR`, `KRPKR`).
    #[error("{text:?} is not a material balance like KRPvKR (each side's king and its men)")]
    Syntax {
        /// The text as given.
        text: String,
    },
    /// A letter that is not a man's.
    #[error("{text:?}: {letter:?} at character {at} is not a man (K, Q, R, B, N or P)")]
    Letter {
        /// The text as given.
        text: String,
        /// The letter.
        letter: char,
        /// Its position in the text, from 1.
        at: usize,
    },
    /// A side with more than 8 pawns or 16 men.
    #[error("{text:?}: {color} has more men than a side can have (16, of them 8 pawns)", color = .color.name())]
    TooMany {
        /// The text as given.
        text: String,
        /// The side.
        color: Color,
    },
}

impl Material {
    /// The two kings alone, `KvK`.
    pub const KINGS: Material = Material {
        counts: [[0, 0, 0, 0, 0, 1]; 2],
    };

    /// The material on the board of `pos`.
    pub fn of(pos: &Position) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for color in Color::ALL {
            for role in Role::ALL {
                // At most 64 men on a board.
                counts[color.index()][role.index()] = pos.pieces(color, role).count() as u8;
            }
        }
        Material { counts }
    }

    /// A material of the given men (kings implied) on each side; `None` past 8 pawns or 16 men
    /// a side.
    ///
    /// ```
    /// use tabla::{Material, Role};
    /// let m = Material::from_men(&[Role::Bishop, Role::Knight], &[]).unwrap();
    /// assert_eq!(m.to_string(), "KBNvK");
    /// ```
    pub fn from_men(white: &[Role], black: &[Role]) -> Option<Material> {
        let mut counts = [[0u8; 6]; 2];
        for (side, men) in [white, black].into_iter().enumerate() {
            counts[side][Role::King.index()] = 1;
            for role in men.iter().filter(|&&r| r != Role::King) {
                let n = &mut counts[side][role.index()];
                *n = n.saturating_add(1);
            }
            if !possible(&counts[side]) {
                return None;
            }
        }
        Some(Material { counts })
    }

    /// How many men of `role` `color` has.
    pub fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[color.index()][role.index()]
    }

    /// The men on the board, kings included.
    pub fn men(&self) -> usize {
        self.counts.iter().flatten().map(|&n| usize::from(n)).sum()
    }

    /// The same men with the colours swapped.
    pub fn swapped(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }
}

/// Whether one side's counts can stand on a board: 8 pawns and 16 men at most.
fn possible(side: &[u8; 6]) -> bool {
    let men: u32 = side.iter().map(|&n| u32::from(n)).sum();
    side[Role::Pawn.index()] <= 8 && men <= 16
}

impl FromStr for Material {
    type Err = MaterialError;

    fn from_str(text: &str) -> Result<Material, MaterialError> {
        let syntax = || MaterialError::Syntax {
            text: text.to_owned(),
        };
        let trimmed = text.trim();
        let mut counts = [[0u8; 6]; 2];
        let mut kings = 0;
        let mut after_v = false;
        for (i, c) in trimmed.chars().enumerate() {
            if c == 'v' || c == 'V' {
                // Between White's men and Black's king, once.
                if kings != 1 || after_v {
                    return Err(syntax());
                }
                after_v = true;
                continue;
            }
            let role = Role::from_char(c.to_ascii_lowercase()).ok_or(MaterialError::Letter {
                text: text.to_owned(),
                letter: c,
                at: i + 1,
            })?;
            if role == Role::King {
                kings += 1;
                if kings > 2 || (kings == 2 && after_v != trimmed.contains(['v', 'V'])) {
                    return Err(syntax());
                }
            } else if kings == 0 || (after_v && kings == 1) {
                // Men before White's king, or between `v` and Black's king.
                return Err(syntax());
            }
            let n = &mut counts[kings - 1][role.index()];
            *n = n.saturating_add(1);
        }
        if kings != 2 {
            return Err(syntax());
        }
        for color in Color::ALL {
            if !possible(&counts[color.index()]) {
                return Err(MaterialError::TooMany {
                    text: text.to_owned(),
                    color,
                });
            }
        }
        Ok(Material { counts })
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for color in Color::ALL {
            if color == Color::Black {
                f.write_str("v")?;
            }
            for role in Role::KING_FIRST {
                for _ in 0..self.count(color, role) {
                    write!(f, "{}", role.upper_char())?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_forms_read_back() {
        for (given, written) in [
            ("KQvKR", "KQvKR"),
            ("KQKR", "KQvKR"),
            ("KRQvK", "KQRvK"),
            ("KvK", "KvK"),
            ("KK", "KvK"),
            ("KPPKP", "KPPvKP"),
            (" kbnVk ", "KBNvK"),
            ("KQQQQQQQQQQQQQQQvK", "KQQQQQQQQQQQQQQQvK"),
        ] {
            let m: Material = given.parse().expect(given);
            assert_eq!(m.to_string(), written, "{given}");
            assert_eq!(written.parse::<Material>(), Ok(m));
        }
    }

    #[test]
    fn malformed_texts_say_why() {
        for bad in [
            "",
            "K",
            "KRPKRK",
            "RvK",
            "KRvR",
            "KvvK",
            "KRvRK",
            "KvKvK",
            "KRPvKR v",
            "KPPPPPPPPPvK",
        ] {
            assert!(bad.parse::<Material>().is_err(), "{bad:?}");
        }
        assert_eq!(
            "KXvK".parse::<Material>(),
            Err(MaterialError::Letter {
                text: "KXvK".into(),
                letter: 'X',
                at: 2
            })
        );
        let many = format!("K{}vK", "Q".repeat(300));
        assert!(matches!(
            many.parse::<Material>(),
            Err(MaterialError::TooMany {
                color: Color::White,
                ..
            })
        ));
        let e = "KPPPPPPPPPvK".parse::<Material>().expect_err("9 pawns");
        assert!(e.to_string().contains("8 pawns"), "{e}");
    }

    /// The material of a position counted from its FEN by hand.
    #[test]
    fn of_a_position() {
        let pos = Position::from_fen("8/5k2/2PK4/5r2/8/8/8/8 w - - 0 1").expect("legal");
        assert_eq!(Material::of(&pos).to_string(), "KPvKR");
        assert_eq!(Material::of(&pos).men(), 4);
    }
}
