//! The counts of one ending's table: positions, wins, draws and losses for each side to move,
//! and the longest mate with a position that has it. Counted when the table is built (over the
//! layout's slots: each position once up to symmetry) and kept beside its file (`KQvKR.stats`).

use crate::layout::Layout;
use crate::men::Men;
use crate::solve::Solution;
use std::fmt::Write as _;
use tabla::Color;

/// The counts of one side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideCounts {
    /// Legal positions (up to symmetry).
    pub positions: u64,
    /// The side to move mates.
    pub wins: u64,
    /// Neither side can force mate.
    pub draws: u64,
    /// The side to move is mated (checkmated now included).
    pub losses: u64,
    /// The longest win in plies, and a position (FEN) that has it.
    pub longest: Option<(u16, String)>,
}

impl SideCounts {
    /// The longest win as a distance to mate (a win in `N` moves is `2N - 1` plies), with a
    /// position that has it.
    ///
    /// ```
    /// use tabla_endgame::{Dtm, SideCounts};
    /// let side = SideCounts {
    ///     longest: Some((65, "8/8/8/8/8/8/8/8 w - - 0 1".into())),
    ///     ..SideCounts::default()
    /// };
    /// assert_eq!(side.longest_mate().map(|(dtm, _)| dtm), Some(Dtm::Win(33)));
    /// ```
    pub fn longest_mate(&self) -> Option<(crate::Dtm, &str)> {
        let (plies, fen) = self.longest.as_ref()?;
        let moves = u8::try_from(plies.div_ceil(2)).unwrap_or(u8::MAX);
        Some((crate::Dtm::Win(moves), fen))
    }
}

/// The counts of an ending's table, White to move then Black to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndingStats {
    /// The ending.
    pub men: Men,
    /// White to move, Black to move.
    pub sides: [SideCounts; 2],
}

impl EndingStats {
    /// Counts the values of a table's slots (as [`crate::Solution::layout_values`] gives them).
    pub(crate) fn count(men: Men, values: &[Vec<u8>; 2]) -> EndingStats {
        let layout = Layout::new(men);
        let mut sides: [SideCounts; 2] = Default::default();
        for (t, side) in sides.iter_mut().enumerate() {
            let mut longest: Option<(u8, u64)> = None;
            for (slot, &code) in values[t].iter().enumerate() {
                if code == Solution::NO_POSITION {
                    continue;
                }
                side.positions += 1;
                if code == 0 {
                    side.draws += 1;
                } else if (code - 1) % 2 == 1 {
                    side.wins += 1;
                    if longest.is_none_or(|(c, _)| code > c) {
                        longest = Some((code, slot as u64));
                    }
                } else {
                    side.losses += 1;
                }
            }
            let turn = if t == 0 { Color::White } else { Color::Black };
            // A slot counted holds a legal position.
            side.longest = longest.and_then(|(code, slot)| {
                let pos = layout.position(slot, turn)?;
                Some((u16::from(code) - 1, pos.to_fen()))
            });
        }
        EndingStats { men, sides }
    }

    /// The text kept beside the table file.
    pub(crate) fn to_text(&self) -> String {
        let mut out = format!("ending {}\n", self.men);
        for (name, s) in ["white", "black"].iter().zip(&self.sides) {
            let _ = write!(
                out,
                "{name} positions {} wins {} draws {} losses {}",
                s.positions, s.wins, s.draws, s.losses
            );
            if let Some((plies, fen)) = &s.longest {
                let _ = write!(out, " longest {plies} {fen}");
            }
            out.push('\n');
        }
        out
    }

    /// Reads [`EndingStats::to_text`]'s text; `None` when it is not such a text.
    pub(crate) fn from_text(text: &str) -> Option<EndingStats> {
        let mut lines = text.lines();
        let men: Men = lines.next()?.strip_prefix("ending ")?.parse().ok()?;
        let mut sides: [SideCounts; 2] = Default::default();
        for (name, side) in ["white", "black"].iter().zip(sides.iter_mut()) {
            let line = lines.next()?;
            let words: Vec<&str> = line.split(' ').collect();
            if words.len() < 9 || words[0] != *name {
                return None;
            }
            let number = |key: &str, at: usize| -> Option<u64> {
                (words[at] == key).then(|| words[at + 1].parse().ok())?
            };
            side.positions = number("positions", 1)?;
            side.wins = number("wins", 3)?;
            side.draws = number("draws", 5)?;
            side.losses = number("losses", 7)?;
            if words.len() > 9 {
                if words[9] != "longest" || words.len() < 12 {
                    return None;
                }
                side.longest = Some((words[10].parse().ok()?, words[11..].join(" ")));
            }
        }
        Some(EndingStats { men, sides })
    }
}
