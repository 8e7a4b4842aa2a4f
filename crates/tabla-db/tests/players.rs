//! The player lookups: `Database::players` (the names containing a text, any case, with their
//! games), the `player_match` filter, and `Database::review_plan` (the games and positions a
//! review under some filters would take up), against the tags and moves of testdata/'s PGN
//! files as the reader gives them, counted here game by game.

mod common;

use std::collections::BTreeMap;
use tabla_db::{Filters, Side};
use tabla_pgn::Reader;

/// Every game of testdata/pgn: White, Black, Event, Site and the mainline's plies.
fn games() -> Vec<(String, String, String, String, u64)> {
    let dir = tabla_testdata::testdata().dir;
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("testdata")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let bytes = std::fs::read(&path).expect("read");
        for game in Reader::new(&bytes[..]).games() {
            let game = game.expect("game");
            let tag = |n: &str| game.tag(n).unwrap_or("").to_owned();
            let plies = game.mainline().count() as u64;
            out.push((tag("White"), tag("Black"), tag("Event"), tag("Site"), plies));
        }
    }
    out
}

fn database(name: &str) -> (tempfile::TempDir, tabla_db::Database) {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir_path = dir.path().join(name);
    let dir_pgn = tabla_testdata::testdata().dir;
    let mut inputs: Vec<_> = std::fs::read_dir(&dir_pgn)
        .expect("testdata")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    inputs.sort();
    let db = common::import_all(&dir_path, inputs);
    (dir, db)
}

#[test]
fn names_in_any_case_with_their_games() {
    let games = games();
    let (_dir, db) = database("players");
    // The name in most games, and a part of it in another case.
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for (white, black, ..) in &games {
        // A game counts once for a name, also when it is both White's and Black's.
        let names: std::collections::BTreeSet<&str> = [white.as_str(), black.as_str()]
            .into_iter()
            .filter(|n| !n.is_empty() && *n != "?")
            .collect();
        for name in names {
            *counts.entry(name).or_default() += 1;
        }
    }
    // (A real person's name: `First Last` or `Last, First`.)
    let (busiest, _) = counts
        .iter()
        .filter(|(name, _)| name.contains(' '))
        .max_by_key(|(name, n)| (**n, std::cmp::Reverse(**name)))
        .expect("a player");
    let part: String = busiest
        .chars()
        .filter(|c| c.is_alphabetic())
        .take(4)
        .collect::<String>()
        .to_uppercase();
    let expected: BTreeMap<String, u64> = counts
        .iter()
        .filter(|(name, _)| name.to_lowercase().contains(&part.to_lowercase()))
        .map(|(name, n)| (name.to_string(), *n))
        .collect();
    assert!(!expected.is_empty());
    let found = db.players(&part, 10_000).expect("players");
    let found_map: BTreeMap<String, u64> =
        found.iter().map(|p| (p.name.clone(), p.games)).collect();
    assert_eq!(found_map, expected, "players containing {part:?}");
    // Most games first.
    assert!(found.windows(2).all(|w| w[0].games >= w[1].games));
    assert_eq!(db.players(&part, 1).expect("players").len(), 1);

    // The filter on a part of the name, in any case, with and without a colour.
    for color in [None, Some(Side::White), Some(Side::Black)] {
        let filters = Filters {
            player_match: Some(part.to_lowercase()),
            color,
            ..Filters::default()
        };
        let has = |name: &str| name.to_lowercase().contains(&part.to_lowercase());
        let want = games
            .iter()
            .filter(|(w, b, ..)| match color {
                None => has(w) || has(b),
                Some(Side::White) => has(w),
                Some(Side::Black) => has(b),
            })
            .count() as u64;
        let page = db.games(&filters, None, 1, 0).expect("games");
        assert_eq!(page.total, want, "player_match {part:?} {color:?}");
    }
    // The exact filter stays exact: the name in another case finds nothing.
    let exact = |name: &str| Filters {
        player: Some(name.to_owned()),
        ..Filters::default()
    };
    let page = db.games(&exact(busiest), None, 1, 0).expect("games");
    assert_eq!(page.total, counts[busiest]);
    let page = db
        .games(&exact(&busiest.to_uppercase()), None, 1, 0)
        .expect("games");
    if busiest.to_uppercase() != *busiest {
        assert_eq!(page.total, 0);
    }
}

#[test]
fn a_review_plan_counts_the_games_and_positions_the_filters_select() {
    let games = games();
    let (_dir, db) = database("plan");
    let all = db.review_plan(&Filters::default()).expect("plan");
    assert_eq!(all.games, games.len() as u64);
    // Every position of the mainline: the start, and one after each move.
    let positions: u64 = games.iter().map(|g| g.4 + 1).sum();
    assert_eq!(all.positions, positions);
    // The games page's text search: players, event or site, any case.
    let (_, _, event, ..) = games
        .iter()
        .find(|g| g.2.len() > 3 && g.2 != "?")
        .expect("an event");
    let text: String = event.chars().take(6).collect::<String>().to_lowercase();
    let has = |s: &str| s.to_lowercase().contains(&text);
    let chosen: Vec<_> = games
        .iter()
        .filter(|(w, b, e, s, _)| has(w) || has(b) || has(e) || has(s))
        .collect();
    let filters = Filters {
        text: Some(text.clone()),
        ..Filters::default()
    };
    let plan = db.review_plan(&filters).expect("plan");
    assert_eq!(plan.games, chosen.len() as u64, "{text:?}");
    assert_eq!(plan.positions, chosen.iter().map(|g| g.4 + 1).sum::<u64>());
    assert!(
        plan.games < all.games,
        "{text:?} selects some games, not all"
    );
    // The same text as the games page's search: the same games.
    assert_eq!(
        db.games(&Filters::default(), Some(&text), 1, 0)
            .expect("games")
            .total,
        plan.games
    );
}
