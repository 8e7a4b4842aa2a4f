//! The distance-to-mate convention used everywhere in tabla.

use std::fmt;

/// Distance to mate in full moves, from the point of view of the side to move.
///
/// As a signed number ([`signed`](Dtm::signed)): `+N` the side to move mates in `N` moves;
/// `-N` the side to move is mated in `N` moves (with Black to move in KBNvK: White mates after `N`
/// White moves); `0` a draw, or the side to move is already checkmated ([`Dtm::Loss`]`(0)`, kept
/// apart by the variant) or stalemated (a draw; the probe flags it).
///
/// ```
/// use tabla_endgame::Dtm;
/// assert_eq!(Dtm::Win(3).signed(), 3);
/// assert_eq!(Dtm::Win(3).plies(), Some(5)); // mover, reply, mover, reply, mate
/// assert_eq!(Dtm::Loss(3).signed(), -3);
/// assert_eq!(Dtm::Loss(3).plies(), Some(6));
/// assert_eq!(Dtm::Loss(0).signed(), 0); // checkmated now
/// assert_eq!(Dtm::Draw.plies(), None);
/// assert_eq!(Dtm::Loss(2).to_string(), "-2");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dtm {
    /// The side to move mates in this many moves (at least 1).
    Win(u8),
    /// The side to move is mated after this many moves of the opponent (0: checkmated now).
    Loss(u8),
    /// Neither side can force mate.
    Draw,
}

impl Dtm {
    /// The signed number of the convention: `+N`, `-N` or `0`.
    pub const fn signed(self) -> i16 {
        match self {
            Dtm::Win(n) => n as i16,
            Dtm::Loss(n) => -(n as i16),
            Dtm::Draw => 0,
        }
    }

    /// Half-moves until mate with best play: `2N - 1` for a win in `N`, `2N` for a loss in `N`;
    /// `None` for a draw.
    pub const fn plies(self) -> Option<u16> {
        match self {
            Dtm::Win(n) => Some(2 * n as u16 - 1),
            Dtm::Loss(n) => Some(2 * n as u16),
            Dtm::Draw => None,
        }
    }

    /// [`Dtm::plies`] signed as [`Dtm::signed`] is: positive when the side to move wins,
    /// negative when it loses, `0` for a draw or a checkmate.
    ///
    /// ```
    /// use tabla_endgame::Dtm;
    ///
    /// assert_eq!(Dtm::Win(3).signed_plies(), 5);
    /// assert_eq!(Dtm::Loss(3).signed_plies(), -6);
    /// assert_eq!(Dtm::Loss(0).signed_plies(), 0);
    /// assert_eq!(Dtm::Draw.signed_plies(), 0);
    /// ```
    pub const fn signed_plies(self) -> i32 {
        match self {
            Dtm::Win(n) => 2 * n as i32 - 1,
            Dtm::Loss(n) => -2 * n as i32,
            Dtm::Draw => 0,
        }
    }

    /// The value after a move, seen from the side that made it: the opponent's loss in `N` is
    /// the mover's win in `N`; the opponent's win in `N` is the mover's loss in `N`.
    pub const fn after_move(self) -> Dtm {
        match self {
            Dtm::Win(n) => Dtm::Loss(n),
            Dtm::Loss(n) => Dtm::Win(n + 1),
            Dtm::Draw => Dtm::Draw,
        }
    }

    /// `true` for [`Dtm::Loss`]`(0)`: the side to move is checkmated.
    pub const fn is_checkmated(self) -> bool {
        matches!(self, Dtm::Loss(0))
    }

    /// Orders values by how good they are for the side to move: a faster win first, then slower
    /// wins, draws, slower losses, and faster losses last. Sorting by this key puts the best
    /// choice first.
    pub const fn badness(self) -> i32 {
        match self {
            Dtm::Win(n) => n as i32,
            Dtm::Draw => 1000,
            Dtm::Loss(n) => 2000 - n as i32,
        }
    }
}

impl fmt::Display for Dtm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dtm::Win(n) => write!(f, "+{n}"),
            other => write!(f, "{}", other.signed()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_move_turns_the_point_of_view() {
        // Black to move, mated in 2 -> White's move before it mated in 3.
        assert_eq!(Dtm::Loss(2).after_move(), Dtm::Win(3));
        // A checkmate on the board: the move that gave it mates in 1.
        assert_eq!(Dtm::Loss(0).after_move(), Dtm::Win(1));
        assert_eq!(Dtm::Win(4).after_move(), Dtm::Loss(4));
        assert_eq!(Dtm::Draw.after_move(), Dtm::Draw);
    }

    #[test]
    fn badness_orders_best_first() {
        let mut v = [
            Dtm::Loss(1),
            Dtm::Draw,
            Dtm::Win(5),
            Dtm::Loss(7),
            Dtm::Win(2),
        ];
        v.sort_by_key(|d| d.badness());
        assert_eq!(
            v,
            [
                Dtm::Win(2),
                Dtm::Win(5),
                Dtm::Draw,
                Dtm::Loss(7),
                Dtm::Loss(1)
            ]
        );
    }
}
