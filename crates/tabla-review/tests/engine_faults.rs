//! A review whose engine fails, against fake UCI engines (tabla-analysis's `tests/fake_engines/*.py`): an engine
//! that hangs stops the review within about one time limit (not two per position), and one that
//! crashes is noted and counted: the positions it evaluated after a restart as evaluated, those
//! it never did as not evaluated.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tabla_analysis::{Budget, EngineSpec, Pool, Timeouts, UciSpec};
use tabla_pgn::{Game, Reader};
use tabla_review::{EvalCache, ReviewCounts, Reviewer, Rules};
use tempfile::TempDir;

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tabla-analysis/tests/fake_engines")
        .join(name)
}

/// The time limit of a search at a depth budget: the per-position timeout of these tests.
const LIMIT: Duration = Duration::from_secs(4);

/// Timeouts short enough for a test; a handshake long enough for Python on a busy machine.
fn short() -> Timeouts {
    Timeouts {
        handshake: Duration::from_secs(10),
        movetime_margin: Duration::from_secs(1),
        min_nps: 1_000,
        depth: LIMIT,
        stop_grace: Duration::from_secs(2),
    }
}

/// A pool of `size` fakes `name`, recording their process ids in `pids`.
fn pool(name: &str, size: usize, pids: &TempDir) -> Pool {
    let spec = UciSpec::new(script(name))
        .arg("--pid-dir")
        .arg(pids.path())
        .timeouts(short());
    Pool::start(&EngineSpec::Uci(spec), size).expect("the fake starts")
}

/// A game shuffling the king's knights for eight moves (what the fakes can answer: see
/// fake_uci.py): 17 positions, 4 of them distinct.
fn shuffle_game(number: u64, white: &str) -> Game {
    let mut pgn = format!("[White \"{white}\"]\n[Black \"B\"]\n\n");
    for i in 0..4 {
        let n = 2 * i + 1;
        pgn.push_str(&format!("{n}. Nf3 Nf6 {}. Ng1 Ng8 ", n + 1));
    }
    pgn.push_str("*\n");
    game_of(&pgn, number)
}

fn game_of(pgn: &str, number: u64) -> Game {
    let mut game = Reader::new(pgn.as_bytes())
        .games()
        .next()
        .expect("a game")
        .expect("read");
    game.number = number;
    game
}

/// The distinct positions of `games`.
fn distinct(games: &[Game]) -> u64 {
    let mut keys = std::collections::HashSet::new();
    for game in games {
        keys.extend(
            game.start
                .iter()
                .chain(game.mainline().map(|n| &n.position))
                .map(|p| p.wide_key()),
        );
    }
    keys.len() as u64
}

#[test]
fn a_hung_engine_stops_the_review_within_twice_its_time_limit() {
    let pids = TempDir::new().expect("a temporary directory");
    let mut pool = pool("hang_always.py", 2, &pids);
    let mut cache = EvalCache::in_memory();
    let games = vec![shuffle_game(1, "A"), shuffle_game(2, "C")];
    let started = Instant::now();
    let mut reviewer = Reviewer::new(&mut pool, Budget::Depth(5), Rules::Lichess, &mut cache);
    let reviews = reviewer.review(&games, &mut |_| {}).expect("in memory");
    let took = started.elapsed();
    // Before: each position was tried twice at its full limit, one engine after another.
    assert!(took < 2 * LIMIT, "took {took:?}");
    assert!(took >= LIMIT, "returned before the time limit: {took:?}");
    for review in &reviews {
        let error = review.error.as_deref().expect("an unfinished review");
        assert!(
            error.contains("sent no bestmove within 4 s") || error.contains("the engine hung"),
            "{error}"
        );
    }
    let hung = reviewer
        .hung()
        .expect("the reviewer knows it hung")
        .to_owned();
    assert!(hung.contains("Fake hang always"), "{hung}");
    assert!(hung.contains("sent no bestmove within 4 s"), "{hung}");
    let notes = reviewer.take_notes();
    // Both engines timed out at about the same time: the first stopped the review, the other's
    // search was stopped (and it too was killed when deaf to `stop`).
    assert!(
        notes.iter().any(|n| n.ends_with("the review stopped")),
        "{notes:?}"
    );
    let counts = reviewer.counts;
    assert_eq!(counts.evaluated, 0, "{counts:?}");
    assert_eq!(counts.not_evaluated, distinct(&games), "{counts:?}");
    // The first hang, and each engine deaf to the `stop` that followed: the other one, and the
    // first one's successor when its worker took the next search before the review stopped.
    assert!((1..=4).contains(&counts.engine_faults), "{counts:?}");
    assert_eq!(counts.errors, 2);

    // The next batch of the run is not searched at all: answered at once.
    let started = Instant::now();
    let more = reviewer
        .review(&[shuffle_game(3, "E")], &mut |_| {})
        .expect("in memory");
    assert!(started.elapsed() < Duration::from_secs(1));
    let error = more[0].error.as_deref().expect("not reviewed");
    assert!(
        error.contains("the engine hung earlier in this run"),
        "{error}"
    );
}

#[test]
fn an_engine_that_crashes_once_is_noted_and_every_position_evaluated() {
    let pids = TempDir::new().expect("a temporary directory");
    let mut pool = pool("crash_once.py", 1, &pids);
    let mut cache = EvalCache::in_memory();
    let games = vec![shuffle_game(7, "A")];
    let mut reviewer = Reviewer::new(&mut pool, Budget::Depth(5), Rules::Lichess, &mut cache);
    let reviews = reviewer.review(&games, &mut |_| {}).expect("in memory");
    assert_eq!(reviews[0].error, None);
    let counts = reviewer.counts;
    let positions = distinct(&games);
    assert_eq!(
        counts,
        ReviewCounts {
            games: 1,
            positions: 17,
            evaluated: positions,
            engine_faults: 1,
            ..ReviewCounts::default()
        }
    );
    let notes = reviewer.take_notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    // Its third search: the position before 2. Ng1.
    assert!(
        notes[0].starts_with("game 7 (A - B), before 2. Ng1: Fake crash once ("),
        "{}",
        notes[0]
    );
    assert!(notes[0].contains("exited (exit code 5)"), "{}", notes[0]);
    assert!(
        notes[0].ends_with("started again, it evaluated the position"),
        "{}",
        notes[0]
    );
    assert!(reviewer.hung().is_none());
    assert!(reviewer.take_notes().is_empty(), "taken");
}

#[test]
fn an_engine_that_always_crashes_leaves_every_position_not_evaluated() {
    let pids = TempDir::new().expect("a temporary directory");
    let mut pool = pool("crash_always.py", 1, &pids);
    let mut cache = EvalCache::in_memory();
    // It never answers, so any game will do: one of 31 distinct positions.
    let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 \
        6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 \
        14. Bg5 b4 15. Nb1 h6 *";
    let games = vec![game_of(pgn, 1)];
    let mut reviewer = Reviewer::new(&mut pool, Budget::Depth(5), Rules::Lichess, &mut cache);
    let reviews = reviewer.review(&games, &mut |_| {}).expect("in memory");
    let error = reviews[0].error.as_deref().expect("not reviewed");
    assert!(error.contains("exited (exit code 4)"), "{error}");
    let counts = reviewer.counts;
    let positions = distinct(&games);
    // Each position tried twice, each attempt a crash; none evaluated.
    assert_eq!(
        (
            counts.evaluated,
            counts.not_evaluated,
            counts.engine_faults,
            counts.errors
        ),
        (0, positions, 2 * positions, 1),
        "{counts:?}"
    );
    assert_eq!(
        counts.to_string(),
        format!(
            "games 1, positions 31, evaluated 0, from cache 0, errors 1, not evaluated {positions}, engine faults {}",
            2 * positions
        )
    );
    // One note a position (both attempts in it), 20 of them, then how many more.
    assert_eq!(positions, 31);
    let notes = reviewer.take_notes();
    assert_eq!(notes.len(), 21, "{notes:?}");
    assert!(
        notes[..20]
            .iter()
            .all(|n| n.contains("; started again, it failed again: Fake crash always")),
        "{notes:?}"
    );
    assert!(
        notes[0].starts_with("game 1 (A - B), before 1. e4: "),
        "{}",
        notes[0]
    );
    assert_eq!(notes[20], "and 11 more notes");
    // A crash is no hang: the run goes on.
    assert!(reviewer.hung().is_none());
}
