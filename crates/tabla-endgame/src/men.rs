//! The men of an endgame, on both sides: `KQvKR`, `KPPvKP`.
//!
//! [`Men`] says how many queens, rooks, bishops, knights and pawns each side has besides its
//! king, with at most [`MAX_MEN`] men on the board in all. It is written with White's men first,
//! `v` between the sides (`KQvKR`); `KQKR`, the form without `v`, is read too. One table serves an
//! endgame and its colour-swapped twin: [`Men::canonical`] says which of the two is built (the
//! side with more material as White) and whether a position's colours must be swapped to probe it.

use std::fmt;
use std::str::FromStr;
use tabla::{Color, Material, MaterialError, Position, Role};

/// The most men on the board, kings included.
pub const MAX_MEN: usize = 5;

/// The fewest men of an ending with a table: two kings alone are a draw without one.
pub const MIN_MEN: usize = 3;

/// The roles besides the king, strongest first: the order of men in names and indexes.
pub(crate) const ROLES: &[Role] = Role::KING_FIRST.split_at(1).1;

/// How many men of each role (queens, rooks, bishops, knights, pawns) each side has besides its king.
///
/// ```
/// use tabla::{Color, Role};
/// use tabla_endgame::Men;
///
/// let men: Men = "KRvKQ".parse().unwrap();
/// assert_eq!(men.count(Color::White, Role::Rook), 1);
/// assert_eq!(men.to_string(), "KRvKQ");
/// // KQvKR is the table built; a KRvKQ position is probed with its colours swapped.
/// assert_eq!(men.canonical(), ("KQvKR".parse().unwrap(), true));
/// assert_eq!("KPPKP".parse::<Men>().unwrap().to_string(), "KPPvKP");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Men {
    /// Indexed by colour (White, Black), then by role: queens, rooks, bishops, knights, pawns.
    counts: [[u8; 5]; 2],
}

/// Why a text or a position does not name an endgame of up to [`MAX_MEN`] men.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MenError {
    /// The text is not a material balance ([`tabla::Material`]'s notation: `KQvKR`, `KQKR`).
    #[error(transparent)]
    Notation(#[from] MaterialError),
    /// More men than the tables hold.
    #[error("{men} men on the board; the tables hold at most {MAX_MEN}")]
    TooMany {
        /// How many men, kings included.
        men: usize,
    },
}

impl Men {
    /// The two kings alone.
    pub const KINGS: Men = Men {
        counts: [[0; 5]; 2],
    };

    /// The men of each side besides its king (any order; kings are left out).
    pub fn new(white: &[Role], black: &[Role]) -> Result<Men, MenError> {
        let men = [white, black]
            .iter()
            .map(|side| side.iter().filter(|&&r| r != Role::King).count())
            .sum::<usize>();
        match Material::from_men(white, black) {
            Some(material) => Men::try_from(material),
            None => Err(MenError::TooMany { men: 2 + men }),
        }
    }

    /// The men standing in `pos` (any number of them: a position with more than [`MAX_MEN`]
    /// is an error).
    pub fn of(pos: &Position) -> Result<Men, MenError> {
        Men::try_from(Material::of(pos))
    }

    /// The material of these men (the notation `KQvKR` is [`Material`]'s).
    ///
    /// ```
    /// use tabla_endgame::Men;
    /// let men: Men = "KRvKQ".parse().unwrap();
    /// assert_eq!(men.material().to_string(), "KRvKQ");
    /// ```
    pub fn material(&self) -> Material {
        let side = |color| self.roles(color);
        // At most MAX_MEN men: always a possible material.
        Material::from_men(&side(Color::White), &side(Color::Black)).unwrap_or(Material::KINGS)
    }

    /// How many men of `role` `color` has (1 for the king).
    pub fn count(&self, color: Color, role: Role) -> usize {
        if role == Role::King {
            1
        } else {
            self.counts[side_slot(color)][role_slot(role)] as usize
        }
    }

    /// Men on the board, kings included.
    pub fn total(&self) -> usize {
        2 + self
            .counts
            .iter()
            .flatten()
            .map(|&c| c as usize)
            .sum::<usize>()
    }

    /// Whether either side has a pawn (the tables then keep only the left-right symmetry).
    pub fn has_pawns(&self) -> bool {
        self.counts.iter().any(|side| side[4] > 0)
    }

    /// Pawns on the board, both sides.
    pub fn pawns(&self) -> usize {
        (self.counts[0][4] + self.counts[1][4]) as usize
    }

    /// The same men with the colours swapped (`KQvKR` -> `KRvKQ`).
    pub fn swapped(&self) -> Men {
        Men {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// The endgame whose table holds this one's values, and whether the colours are swapped
    /// to get there: White is the side with more material (queens, then rooks, bishops,
    /// knights and pawns compared in turn; `KQvKQ` is its own twin).
    pub fn canonical(&self) -> (Men, bool) {
        let swapped = self.swapped();
        let weight = |m: &Men| (m.side_len(0), m.counts[0]);
        let other = |m: &Men| (m.side_len(1), m.counts[1]);
        if (weight(self), other(self)) >= (weight(&swapped), other(&swapped)) {
            (*self, false)
        } else {
            (swapped, true)
        }
    }

    fn side_len(&self, side: usize) -> usize {
        self.counts[side].iter().map(|&c| c as usize).sum()
    }

    /// The men of `color` besides its king, strongest first (`[Queen, Rook]` for `KQR`).
    pub fn roles(&self, color: Color) -> Vec<Role> {
        let side = side_slot(color);
        ROLES
            .iter()
            .enumerate()
            .flat_map(|(i, &role)| std::iter::repeat_n(role, self.counts[side][i] as usize))
            .collect()
    }

    /// Every endgame whose table is built, of `men` men exactly (kings included), in name order.
    ///
    /// ```
    /// use tabla_endgame::Men;
    /// let three: Vec<String> = Men::all(3).iter().map(|m| m.to_string()).collect();
    /// assert_eq!(three, ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"]);
    /// ```
    pub fn all(men: usize) -> Vec<Men> {
        let mut out = Vec::new();
        if !(MIN_MEN..=MAX_MEN).contains(&men) {
            return out;
        }
        // Every way to share `men - 2` men over the ten (side, role) slots.
        let mut counts = [0u8; 10];
        fill(&mut counts, 0, men - 2, &mut |c| {
            let mut m = Men::KINGS;
            for (i, &n) in c.iter().enumerate() {
                m.counts[i / 5][i % 5] = n;
            }
            if m.canonical() == (m, false) {
                out.push(m);
            }
        });
        out.sort_by_key(|m| {
            // Name order: by White's men, strongest first, then Black's.
            let key = |side: &[u8; 5]| {
                let mut k: Vec<u8> = Vec::new();
                for (i, &n) in side.iter().enumerate() {
                    k.extend(std::iter::repeat_n(i as u8, n as usize));
                }
                k.push(u8::MAX);
                k
            };
            (key(&m.counts[0]), key(&m.counts[1]))
        });
        out
    }
}

/// Calls `f` with every way to put `left` more units into `counts[at..]`.
fn fill(counts: &mut [u8; 10], at: usize, left: usize, f: &mut dyn FnMut(&[u8; 10])) {
    if at == counts.len() - 1 {
        counts[at] = left as u8;
        f(counts);
        counts[at] = 0;
        return;
    }
    for n in 0..=left {
        counts[at] = n as u8;
        fill(counts, at + 1, left - n, f);
    }
    counts[at] = 0;
}

fn side_slot(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn role_slot(role: Role) -> usize {
    match role {
        Role::Queen => 0,
        Role::Rook => 1,
        Role::Bishop => 2,
        Role::Knight => 3,
        Role::Pawn | Role::King => 4,
    }
}

impl TryFrom<Material> for Men {
    type Error = MenError;

    /// The men of `material`, if the tables hold that many.
    fn try_from(material: Material) -> Result<Men, MenError> {
        let mut men = Men::KINGS;
        if material.men() > MAX_MEN {
            return Err(MenError::TooMany {
                men: material.men(),
            });
        }
        for color in [Color::White, Color::Black] {
            for (i, &role) in ROLES.iter().enumerate() {
                men.counts[side_slot(color)][i] = material.count(color, role);
            }
        }
        Ok(men)
    }
}

impl fmt::Display for Men {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.material().fmt(f)
    }
}

impl FromStr for Men {
    type Err = MenError;

    /// Reads an ending in [`Material`]'s notation (`KQvKR`, `KQKR`).
    fn from_str(text: &str) -> Result<Men, MenError> {
        Men::try_from(text.parse::<Material>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_and_write_back() {
        for (given, written) in [
            ("KQvKR", "KQvKR"),
            ("KQKR", "KQvKR"),
            ("KRQvK", "KQRvK"),
            ("KvK", "KvK"),
            ("KPPKP", "KPPvKP"),
            ("KBNvKN", "KBNvKN"),
        ] {
            let men: Men = given.parse().expect(given);
            assert_eq!(men.to_string(), written);
        }
        for bad in ["", "K", "KQ", "QKK", "KQvR", "KKK", "KQvvKR", "KQxKR"] {
            assert!(bad.parse::<Men>().is_err(), "{bad}");
        }
        let err = "KQXvK".parse::<Men>().expect_err("X");
        assert_eq!(
            err.to_string(),
            "\"KQXvK\": 'X' at character 3 is not a man (K, Q, R, B, N or P)"
        );
        assert_eq!("KQQQvKR".parse::<Men>(), Err(MenError::TooMany { men: 6 }));
    }

    #[test]
    fn every_endgame_of_up_to_five_men_has_one_table() {
        // Syzygy's set of up to five men, which also keeps one table per pair of colour-swapped
        // endgames, has 5 tables of three men, 30 of four and 110 of five (145 in all).
        let counts: Vec<usize> = (MIN_MEN..=MAX_MEN).map(|n| Men::all(n).len()).collect();
        assert_eq!(counts, [5, 30, 110]);
        for n in 3..=5 {
            for men in Men::all(n) {
                assert_eq!(men.total(), n);
                assert_eq!(men.canonical(), (men, false), "{men}");
                let (back, swapped) = men.swapped().canonical();
                assert_eq!(back, men);
                // Only an endgame that is its own twin needs no swap.
                assert_eq!(swapped, men.swapped() != men, "{men}");
                assert_eq!(men.to_string().parse::<Men>(), Ok(men));
            }
        }
    }

    #[test]
    fn a_positions_men() {
        let pos = Position::from_fen("8/8/8/8/1p2P3/4P3/1k6/3K4 w - - 0 1").expect("fen");
        assert_eq!(Men::of(&pos).expect("men").to_string(), "KPPvKP");
        let full = Position::startpos();
        assert!(matches!(Men::of(&full), Err(MenError::TooMany { men: 32 })));
    }
}
