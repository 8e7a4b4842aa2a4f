//! `Skill Level` through the engine's API: full strength plays what the unrestricted search
//! plays, level 0 often plays another move, every level plays a legal move, and one seed always
//! plays the same move.

use tabla::Position;
use tabla_engine::{Control, Engine, Limits, MAX_SKILL_LEVEL, SearchResult, Skill, bench};

/// The benchmark's positions and a few more: sharp middlegames, a check to answer, a position
/// with a single legal move.
fn positions() -> Vec<Position> {
    let more = [
        "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
        "2kr3r/ppp2ppp/2n5/2b1q3/4P3/2N2N2/PPP2PPP/R2QK2R w KQ - 0 11",
        "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
        "k7/8/1K6/8/8/8/8/7R b - - 0 1",
    ];
    bench::POSITIONS
        .iter()
        .chain(&more)
        .map(|fen| Position::from_fen(fen).expect("test data"))
        .collect()
}

fn search(pos: &Position, skill: Skill, limits: &Limits) -> SearchResult {
    let mut engine = Engine::new();
    engine.set_skill(skill);
    engine.search(pos, limits, &Control::default(), &mut |_| {})
}

/// The engine as it searched before strength settings existed: never told a skill.
fn unweakened(pos: &Position, limits: &Limits) -> SearchResult {
    Engine::new().search(pos, limits, &Control::default(), &mut |_| {})
}

#[test]
fn full_strength_plays_what_the_unrestricted_search_plays() {
    for pos in positions() {
        let unrestricted = unweakened(&pos, &Limits::depth(7));
        for seed in [0, 1, 0xdead_beef] {
            let top = search(
                &pos,
                Skill::new(MAX_SKILL_LEVEL).with_seed(seed),
                &Limits::depth(7),
            );
            assert_eq!(top.best, unrestricted.best, "{}", pos.to_fen());
            // The very same search, not merely the same move.
            assert_eq!(top.nodes, unrestricted.nodes, "{}", pos.to_fen());
        }
    }
}

#[test]
fn level_zero_often_plays_another_move_than_the_best_and_always_a_legal_one() {
    let (mut other, mut total) = (0, 0);
    for pos in positions() {
        let best = unweakened(&pos, &Limits::depth(8)).best;
        if pos.legal_moves().len() < 2 {
            continue;
        }
        for seed in 0..8 {
            let weak = search(&pos, Skill::new(0).with_seed(seed), &Limits::depth(8));
            let mv = weak.best.expect("a move");
            assert!(!mv.is_null() && pos.is_legal(mv), "{}: {mv}", pos.to_fen());
            total += 1;
            if weak.best != best {
                other += 1;
            }
        }
    }
    // Four candidates from a one-ply search, chosen with a strong random bonus: the best move
    // of a deep search is played well under half the time.
    assert!(
        other * 3 >= total,
        "{other} of {total} differ from the best move"
    );
}

#[test]
fn every_level_plays_a_legal_move_and_none_where_there_is_none() {
    for level in 0..=MAX_SKILL_LEVEL {
        for (i, pos) in positions().iter().enumerate() {
            let result = search(
                pos,
                Skill::new(level).with_seed(i as u64),
                &Limits::nodes(3_000),
            );
            let mv = result.best.expect("every test position has a legal move");
            assert!(
                !mv.is_null() && pos.is_legal(mv),
                "level {level}, {}: {mv}",
                pos.to_fen()
            );
            assert_eq!(
                result.pv.first(),
                Some(&mv),
                "the line starts with the move played"
            );
            if let Some(ponder) = result.ponder {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                assert!(after.is_legal(ponder), "level {level}, {}", pos.to_fen());
            }
        }
        // Checkmated and stalemated: no move, not a null move.
        for fen in [
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).expect("test data");
            assert_eq!(
                search(&pos, Skill::new(level), &Limits::depth(4)).best,
                None
            );
        }
    }
}

#[test]
fn one_seed_plays_one_move() {
    let mut moves_by_seed = std::collections::BTreeSet::new();
    for pos in positions() {
        for seed in [3, 4, 5] {
            let skill = Skill::new(2).with_seed(seed);
            let first = search(&pos, skill, &Limits::depth(6));
            let again = search(&pos, skill, &Limits::depth(6));
            assert_eq!(first.best, again.best, "seed {seed}, {}", pos.to_fen());
            assert_eq!(first.nodes, again.nodes);
            moves_by_seed.insert((pos.to_fen(), first.best.map(|m| m.to_string())));
        }
    }
    // ... while seeds differ somewhere: more distinct (position, move) pairs than positions.
    assert!(moves_by_seed.len() > positions().len(), "{moves_by_seed:?}");
}
