//! Playing weaker on purpose: UCI's `Skill Level`, and `UCI_LimitStrength` with `UCI_Elo`.
//!
//! At the top level ([`MAX_SKILL_LEVEL`], the default) nothing changes: the search is the one
//! `tabla bench` signs. Below it a search is cut short and its move is chosen with some chance
//! among the best few root moves instead of always the best: a small budget (a depth cap of one
//! ply more than the level, and a node cap of 100 at level 0 doubling every two levels) makes
//! the engine see less, and the choice makes it misjudge which of the moves it saw is best. The
//! choice is Stockfish's for its skill levels: the search keeps four lines (as MultiPV does,
//! reporting only the lines asked for), each candidate's deficit against the best is partly
//! forgiven and a random bonus, scaled by how far the candidates spread (at most about a pawn),
//! is added; the highest total is played. The lower the level, the more is forgiven and the
//! larger the bonus: at level 0 even a move a piece behind is played now and then, at level 10
//! only one less than about a pawn (100 of the search's units) behind, at level 15 less than a
//! third of one, and a move that gives up a mate the search found never. The random numbers
//! come from a seed and the position's Zobrist key, so one seed always plays the same move in
//! the same search.
//!
//! `UCI_Elo` picks a level through [`Skill::from_elo`], by a table of ratings measured against
//! Stockfish's own limited strength at five levels and at full strength, interpolated between
//! them (rough: 20 to 40 games a level).
//!
//! ```
//! use tabla::Position;
//! use tabla_engine::{Control, Engine, Limits, Skill};
//! let pos = Position::startpos();
//! let mut engine = Engine::new();
//! engine.set_skill(Skill::new(0).with_seed(7));
//! let result = engine.search(&pos, &Limits::depth(8), &Control::default(), &mut |_| {});
//! assert!(pos.is_legal(result.best.unwrap()));
//! assert_eq!(Skill::from_elo(Skill::MAX_ELO).level(), 20);
//! ```

use crate::limits::Limits;
use crate::score::Value;

/// The top `Skill Level`: full strength, no weakening.
pub const MAX_SKILL_LEVEL: u8 = 20;

/// How many root moves a weakened search considers (as MultiPV lines).
pub(crate) const CANDIDATES: usize = 4;

/// The most a candidates' spread counts for the random bonus, in the search's units (about a
/// pawn).
const MAX_SPREAD: Value = 100;

/// Each level's rating on the `UCI_Elo` scale, from 0 to 20: measured at the levels marked,
/// interpolated between them. Levels 0 to 15 against Stockfish 15.1's own `UCI_LimitStrength` at
/// 3 s + 0.05 s (`crates/tabla-engine/scripts/engine_match.py --option "Skill Level=N"`,
/// 2026-12-02): level 0 12.5% in 20 games against `UCI_Elo` 1350, level 2 50% in 20 against
/// 1350, level 5 75% in 20 against 1350 and 55% in 20 against 1500, level 10 53.75% in 40
/// against 1800, level 15 58.75% in 40 against 2100; full strength 54.1% in 234 games against
/// 2400 at 10 s + 0.1 s (docs/performance.md, "Strength against Stockfish"). Rough: a margin of
/// 100 to 200 Elo a level, more at level 0.
const LEVEL_ELO: [u32; 21] = [
    1010, // level 0, measured
    1180, // level 1
    1350, // level 2, measured
    1410, // level 3
    1480, // level 4
    1540, // level 5, measured
    1600, // level 6
    1660, // level 7
    1710, // level 8
    1770, // level 9
    1830, // level 10, measured
    1900, // level 11
    1960, // level 12
    2030, // level 13
    2090, // level 14
    2160, // level 15, measured
    2210, // level 16
    2270, // level 17
    2320, // level 18
    2380, // level 19
    2430, // level 20, measured
];

/// A strength setting: a level from 0 (weakest) to [`MAX_SKILL_LEVEL`] (full strength, the
/// default), and the seed of the weakened choice of move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u8,
    seed: u64,
}

impl Default for Skill {
    fn default() -> Skill {
        Skill::full()
    }
}

impl Skill {
    /// The lowest `UCI_Elo` accepted: level 0's rating.
    pub const MIN_ELO: u32 = LEVEL_ELO[0];
    /// The highest `UCI_Elo` accepted: full strength's.
    pub const MAX_ELO: u32 = LEVEL_ELO[MAX_SKILL_LEVEL as usize];

    /// Full strength.
    pub const fn full() -> Skill {
        Skill {
            level: MAX_SKILL_LEVEL,
            seed: 0,
        }
    }

    /// The given level, clamped to 0..=[`MAX_SKILL_LEVEL`], with seed 0.
    pub const fn new(level: u8) -> Skill {
        let level = if level > MAX_SKILL_LEVEL {
            MAX_SKILL_LEVEL
        } else {
            level
        };
        Skill { level, seed: 0 }
    }

    /// The highest level whose rating ([`Skill::elo`]) is at most `elo` (level 0 below
    /// [`Skill::MIN_ELO`], full strength from [`Skill::MAX_ELO`] on).
    ///
    /// ```
    /// use tabla_engine::Skill;
    /// assert_eq!(Skill::from_elo(0).level(), 0);
    /// assert_eq!(Skill::from_elo(1830).level(), 10);
    /// assert_eq!(Skill::from_elo(1899).level(), 10);
    /// assert_eq!(Skill::from_elo(9999).level(), 20);
    /// ```
    pub fn from_elo(elo: u32) -> Skill {
        let level = LEVEL_ELO.iter().rposition(|&e| e <= elo).unwrap_or(0);
        Skill::new(level as u8)
    }

    /// The same level with another seed for the choice of move.
    pub const fn with_seed(self, seed: u64) -> Skill {
        Skill { seed, ..self }
    }

    /// The level, 0..=[`MAX_SKILL_LEVEL`].
    pub const fn level(self) -> u8 {
        self.level
    }

    /// The seed of the choice of move.
    pub const fn seed(self) -> u64 {
        self.seed
    }

    /// The level's rating on the `UCI_Elo` scale (measured at some levels, interpolated between
    /// them: see the crate's documentation of `UCI_Elo`).
    pub const fn elo(self) -> u32 {
        LEVEL_ELO[self.level as usize]
    }

    /// `true` at [`MAX_SKILL_LEVEL`]: searches are not weakened.
    pub const fn is_full(self) -> bool {
        self.level >= MAX_SKILL_LEVEL
    }

    /// The deepest iteration a weakened search runs: one ply more than the level.
    pub(crate) fn depth_cap(self) -> Option<u32> {
        (!self.is_full()).then_some(self.level as u32 + 1)
    }

    /// The most nodes a weakened search spends: 100 at level 0, doubling every two levels
    /// (3,200 at level 10, about 72,000 at level 19).
    pub(crate) fn node_cap(self) -> Option<u64> {
        if self.is_full() {
            return None;
        }
        let half = self.level as u32 / 2;
        let nodes = 100u64 << half;
        // An odd level sits halfway (by ratio) between its even neighbours: times about sqrt 2.
        Some(if self.level % 2 == 1 {
            nodes * 181 / 128
        } else {
            nodes
        })
    }

    /// `limits` with the level's depth and node caps.
    pub(crate) fn limits(self, limits: &Limits) -> Limits {
        let cap = |limit: Option<u64>, cap: Option<u64>| match (limit, cap) {
            (Some(l), Some(c)) => Some(l.min(c)),
            (l, c) => l.or(c),
        };
        Limits {
            depth: cap(limits.depth.map(u64::from), self.depth_cap().map(u64::from))
                .map(|d| d as u32),
            nodes: cap(limits.nodes, self.node_cap()),
            ..limits.clone()
        }
    }

    /// Out of 128, how much of a candidate's deficit is forgiven and how large the random bonus
    /// may be relative to the spread: 120 at level 0, falling by 6 a level to 6 at level 19.
    fn weakness(self) -> Value {
        6 * (MAX_SKILL_LEVEL as Value - self.level as Value)
    }

    /// Which of the candidates, given by their values best first, to play in the position with
    /// Zobrist key `key`: always 0 at full strength or with one candidate.
    pub(crate) fn pick(self, values: &[Value], key: u64) -> usize {
        let weakness = self.weakness();
        if weakness == 0 || values.len() < 2 {
            return 0;
        }
        let best = values[0];
        let spread = (best - values[values.len() - 1]).clamp(0, MAX_SPREAD);
        let mut random = SplitMix(self.seed ^ key);
        let mut chosen = 0;
        let mut chosen_total = Value::MIN;
        for (i, &value) in values.iter().enumerate() {
            let deficit = (best - value).max(0);
            let bonus = (random.next() % weakness as u64) as Value;
            let total = value + (weakness * deficit + spread * bonus) / 128;
            if total > chosen_total {
                chosen = i;
                chosen_total = total;
            }
        }
        chosen
    }
}

/// SplitMix64: a tiny, well-mixed generator; plenty for choosing among four moves.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_elo_tables_agree() {
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Skill::full().elo(), Skill::MAX_ELO);
        for level in 0..=MAX_SKILL_LEVEL {
            let skill = Skill::new(level);
            assert_eq!(Skill::from_elo(skill.elo()).level(), level);
            assert_eq!(Skill::from_elo(skill.elo() + 49).level(), level);
        }
        assert_eq!(Skill::new(99).level(), MAX_SKILL_LEVEL);
        assert!(Skill::default().is_full());
    }

    #[test]
    fn caps_grow_with_the_level_and_vanish_at_the_top() {
        let caps: Vec<u64> = (0..MAX_SKILL_LEVEL)
            .map(|l| Skill::new(l).node_cap().expect("a cap below the top"))
            .collect();
        assert_eq!(caps[0], 100);
        assert_eq!(caps[10], 3_200);
        assert!(caps.windows(2).all(|w| w[0] < w[1]), "{caps:?}");
        assert_eq!(Skill::new(0).depth_cap(), Some(1));
        assert_eq!(Skill::full().node_cap(), None);
        assert_eq!(Skill::full().depth_cap(), None);
    }

    #[test]
    fn the_top_level_always_picks_the_best() {
        for key in 0..200 {
            assert_eq!(Skill::full().with_seed(key).pick(&[30, 29, 28, 27], key), 0);
        }
    }

    #[test]
    fn level_zero_often_picks_a_close_move_and_never_a_lost_mate() {
        let close = (0..400)
            .filter(|&key| Skill::new(0).pick(&[30, 20, 10, 0], key) != 0)
            .count();
        // Four candidates within a tenth of a pawn: nearly a fair draw among them.
        assert!((150..=390).contains(&close), "{close} of 400");
        let mate = 32_000 - 3;
        for key in 0..400 {
            assert_eq!(Skill::new(0).pick(&[mate, 50, 40, 30], key), 0);
        }
    }

    #[test]
    fn how_far_behind_a_level_may_play() {
        let keys = 0..1_000;
        // Level 0: a piece behind, now and then.
        let blunders = keys
            .clone()
            .filter(|&key| Skill::new(0).pick(&[300, 0], key) == 1)
            .count();
        assert!((20..=500).contains(&blunders), "{blunders} of 1000");
        for key in keys {
            assert_eq!(Skill::new(10).pick(&[100, 0], key), 0);
            assert_eq!(Skill::new(15).pick(&[34, 0], key), 0);
        }
    }

    #[test]
    fn one_seed_one_choice() {
        let values = [40, 35, 10, -20];
        for key in 0..50 {
            let skill = Skill::new(3).with_seed(key * 7);
            assert_eq!(skill.pick(&values, key), skill.pick(&values, key));
        }
        let choices: std::collections::BTreeSet<usize> = (0..50)
            .map(|seed| Skill::new(0).with_seed(seed).pick(&values, 1))
            .collect();
        assert!(
            choices.len() > 1,
            "the seed changes the choice: {choices:?}"
        );
    }
}
