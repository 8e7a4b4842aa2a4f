//! The layout of the evaluation's tunable weights: one flat array of (middlegame, endgame) pairs
//! ([`crate::tuned::WEIGHTS`]), and the names of its entries.
//!
//! The evaluation reads the weights as constants; a [`Trace`] passed through it records how often
//! each weight counted for White and for Black, which is what a tuner needs to fit them
//! (`examples/tune.rs`).

use tabla::Color;

/// Material of pawn, knight, bishop, rook and queen.
pub const MATERIAL: usize = 0;
/// Piece-square tables by role (pawn .. king), 32 squares each: the board's queen-side half,
/// files a to d (the king-side half mirrors it), index `rank * 4 + file`.
pub const PSQT: usize = MATERIAL + 5;
/// Mobility by the count of safe squares reached: knight (9 counts), bishop (14), rook (15),
/// queen (28).
pub const MOBILITY: usize = PSQT + 6 * 32;
/// The first mobility entry of knight, bishop, rook and queen.
pub const MOBILITY_START: [usize; 4] = [MOBILITY, MOBILITY + 9, MOBILITY + 23, MOBILITY + 38];
/// A minor piece with no safe square at all.
pub const TRAPPED_MINOR: usize = MOBILITY + 66;
/// Two bishops.
pub const BISHOP_PAIR: usize = TRAPPED_MINOR + 1;
/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
/// A rook on a file without own pawns.
pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
/// A knight on the fifth to seventh rank, guarded by a pawn, that no enemy pawn can chase away.
pub const KNIGHT_OUTPOST: usize = ROOK_SEMI_OPEN_FILE + 1;
/// A pawn of ours attacks an enemy piece (not a pawn).
pub const PAWN_THREAT: usize = KNIGHT_OUTPOST + 1;
/// A minor piece of ours attacks an enemy rook or queen.
pub const MINOR_THREAT_ON_MAJOR: usize = PAWN_THREAT + 1;
/// An enemy piece that we attack and it does not defend.
pub const HANGING: usize = MINOR_THREAT_ON_MAJOR + 1;
/// A pawn with an own pawn ahead on its file.
pub const DOUBLED: usize = HANGING + 1;
/// A pawn with no own pawn on a neighbouring file.
pub const ISOLATED: usize = DOUBLED + 1;
/// A pawn that no own pawn can support any more and whose advance an enemy pawn stops.
pub const BACKWARD: usize = ISOLATED + 1;
/// A pawn guarded by a pawn or standing beside one, by relative rank.
pub const CONNECTED: usize = BACKWARD + 1;
/// A passed pawn, by relative rank.
pub const PASSED: usize = CONNECTED + 8;
/// A passed pawn whose stopping square is occupied, by relative rank.
pub const PASSED_BLOCKED: usize = PASSED + 8;
/// Per rank above the third, the enemy king's distance to a passed pawn's stopping square.
pub const PASSED_THEIR_KING: usize = PASSED_BLOCKED + 8;
/// Per rank above the third, our king's distance to a passed pawn's stopping square.
pub const PASSED_OUR_KING: usize = PASSED_THEIR_KING + 1;
/// The side to move's bonus for having the move.
pub const TEMPO: usize = PASSED_OUR_KING + 1;
/// Pawn shield in front of the king, by file: pawn one rank ahead, two ranks ahead, missing.
pub const SHIELD: usize = TEMPO + 1;
/// A file at the king with no pawn at all.
pub const KING_OPEN_FILE: usize = SHIELD + 3;
/// A file at the king with enemy pawns only.
pub const KING_HALF_OPEN_FILE: usize = KING_OPEN_FILE + 1;
/// A minor piece of ours attacks an enemy pawn (one no pawn defends), knight or bishop.
pub const THREAT_BY_MINOR: usize = KING_HALF_OPEN_FILE + 1;
/// A rook of ours attacks an enemy pawn (one no pawn defends), knight, bishop or queen.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 3;
/// A passed pawn whose stopping square is empty and not attacked, by relative rank.
pub const PASSED_FREE: usize = THREAT_BY_ROOK + 4;
/// The number of weights.
pub const COUNT: usize = PASSED_FREE + 8;

/// The name of weight `i`, for tuned-weight files and reports.
pub fn name(i: usize) -> String {
    const ROLES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    const FILES: [&str; 4] = ["a", "b", "c", "d"];
    let singles = [
        (TRAPPED_MINOR, "trapped minor"),
        (BISHOP_PAIR, "bishop pair"),
        (ROOK_OPEN_FILE, "rook on open file"),
        (ROOK_SEMI_OPEN_FILE, "rook on semi-open file"),
        (KNIGHT_OUTPOST, "knight outpost"),
        (PAWN_THREAT, "pawn threat"),
        (MINOR_THREAT_ON_MAJOR, "minor threat on major"),
        (HANGING, "hanging"),
        (DOUBLED, "doubled pawn"),
        (ISOLATED, "isolated pawn"),
        (BACKWARD, "backward pawn"),
        (PASSED_THEIR_KING, "passed: their king distance"),
        (PASSED_OUR_KING, "passed: our king distance"),
        (TEMPO, "tempo"),
        (KING_OPEN_FILE, "king open file"),
        (KING_HALF_OPEN_FILE, "king half-open file"),
    ];
    if let Some((_, n)) = singles.iter().find(|(j, _)| *j == i) {
        return (*n).to_string();
    }
    match i {
        _ if i < PSQT => format!("material {}", ROLES[i - MATERIAL]),
        _ if i < MOBILITY => {
            let k = i - PSQT;
            let sq = k % 32;
            format!(
                "psqt {} {}{}/mirror",
                ROLES[k / 32],
                FILES[sq % 4],
                sq / 4 + 1
            )
        }
        _ if i < TRAPPED_MINOR => {
            let role = MOBILITY_START.iter().rposition(|&s| s <= i).unwrap_or(0);
            format!("mobility {} {}", ROLES[role + 1], i - MOBILITY_START[role])
        }
        _ if (CONNECTED..PASSED).contains(&i) => format!("connected rank {}", i - CONNECTED + 1),
        _ if (PASSED..PASSED_BLOCKED).contains(&i) => format!("passed rank {}", i - PASSED + 1),
        _ if (PASSED_BLOCKED..PASSED_THEIR_KING).contains(&i) => {
            format!("passed blocked rank {}", i - PASSED_BLOCKED + 1)
        }
        _ if (THREAT_BY_MINOR..THREAT_BY_ROOK).contains(&i) => {
            format!("threat by minor on {}", ROLES[i - THREAT_BY_MINOR])
        }
        _ if (THREAT_BY_ROOK..PASSED_FREE).contains(&i) => {
            format!(
                "threat by rook on {}",
                ["pawn", "knight", "bishop", "queen"][i - THREAT_BY_ROOK]
            )
        }
        _ if (PASSED_FREE..COUNT).contains(&i) => {
            format!("passed free rank {}", i - PASSED_FREE + 1)
        }
        _ if (SHIELD..KING_OPEN_FILE).contains(&i) => [
            "shield pawn one ahead",
            "shield pawn two ahead",
            "shield pawn missing",
        ][i - SHIELD]
            .to_string(),
        _ => format!("weight {i}"),
    }
}

/// The piece-square entry of a White piece of role index `role` on square index `sq`.
#[inline]
pub const fn psqt_index(role: usize, sq: usize) -> usize {
    let file = sq % 8;
    let half = if file < 4 { file } else { 7 - file };
    PSQT + role * 32 + (sq / 8) * 4 + half
}

/// The king danger weights ([`crate::tuned::KING_DANGER`]): an attacker of the king zone by role
/// (knight, bishop, rook, queen), an attacked square next to the king that it cannot defend, a
/// safe square to check from.
pub const KING_DANGER_COUNT: usize = 6;

/// Receives the uses of each weight during one evaluation.
pub trait Trace {
    /// Weight `index` counted `count` times for `color`.
    fn add(&mut self, color: Color, index: usize, count: i32);

    /// The danger to `color`'s king: how often each king danger weight counted in its units,
    /// after the scaling by attacker count and by the queen's absence. The penalty is
    /// `units + units * units / 400` in the middlegame and `units / 6` in the endgame.
    fn king_danger(&mut self, _color: Color, _uses: [f64; KING_DANGER_COUNT]) {}
}

/// The evaluation's usual case: nothing recorded.
impl Trace for () {
    #[inline(always)]
    fn add(&mut self, _: Color, _: usize, _: i32) {}
}

/// How often each weight counted.
#[derive(Clone, Debug)]
pub struct Coefficients {
    /// Linear weights, White's uses minus Black's.
    pub counts: Vec<i32>,
    /// The king danger weights' uses against each king, by colour index (all zero when no
    /// piece attacks that king's zone).
    pub king_danger: [[f64; KING_DANGER_COUNT]; 2],
}

impl Default for Coefficients {
    fn default() -> Coefficients {
        Coefficients {
            counts: vec![0; COUNT],
            king_danger: [[0.0; KING_DANGER_COUNT]; 2],
        }
    }
}

impl Trace for Coefficients {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.counts[index] += if color == Color::White { count } else { -count };
    }

    fn king_danger(&mut self, color: Color, uses: [f64; KING_DANGER_COUNT]) {
        self.king_danger[color.index()] = uses;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_contiguous_and_named() {
        assert_eq!(MOBILITY_START[3] + 28, TRAPPED_MINOR);
        assert_eq!(psqt_index(0, 0), PSQT);
        assert_eq!(psqt_index(5, 63), PSQT + 5 * 32 + 28);
        // Mirror images share an entry.
        assert_eq!(psqt_index(1, 1), psqt_index(1, 6));
        assert_eq!(name(PSQT + 32 + 4 * 3 + 2), "psqt knight c4/mirror");
        assert_eq!(name(MOBILITY_START[2] + 3), "mobility rook 3");
        assert_eq!(name(PASSED + 5), "passed rank 6");
        assert_eq!(name(KING_HALF_OPEN_FILE), "king half-open file");
        assert_eq!(name(THREAT_BY_ROOK + 3), "threat by rook on queen");
        assert_eq!(name(COUNT - 1), "passed free rank 8");
    }
}
