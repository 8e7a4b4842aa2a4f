//! The engine layer against Debian's Stockfish (`apt-get install stockfish`, at
//! /usr/games/stockfish; `scripts/test.sh --install` installs it), and tabla's engine in process
//! beside it. Without Stockfish these tests say they are skipped, unless `TABLA_REQUIRE_CORPUS=1`
//! (CI).

use std::path::Path;
use std::time::Duration;
use tabla::Position;
use tabla_analysis::{
    Analyser, Analysis, Budget, EngineError, EngineSpec, Pool, Request, StopSignal, TablaAnalyser,
    UciEngine, UciSpec,
};
use tabla_engine::Score;

const STOCKFISH: &str = "/usr/games/stockfish";

/// Stockfish's spec, or `None` (the test is skipped) when it is not installed.
fn stockfish() -> Option<UciSpec> {
    if Path::new(STOCKFISH).is_file() {
        return Some(UciSpec::new(STOCKFISH));
    }
    let test = std::thread::current().name().unwrap_or("test").to_owned();
    assert!(
        std::env::var("TABLA_REQUIRE_CORPUS").as_deref() != Ok("1"),
        "{test}: Stockfish not found at {STOCKFISH} and TABLA_REQUIRE_CORPUS=1: apt-get install stockfish"
    );
    eprintln!("{test}: skipped: Stockfish not found at {STOCKFISH} (apt-get install stockfish)");
    None
}

fn analyse(engine: &mut dyn Analyser, request: &Request) -> Analysis {
    match engine.analyse(request, &StopSignal::new(), &mut |_| {}) {
        Ok(analysis) => analysis,
        Err(error) => panic!("{error}"),
    }
}

fn position(fen: &str) -> Position {
    Position::from_fen(fen).expect("a valid FEN")
}

/// Back-rank mate: Ra8#.
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

#[test]
fn stockfish_finds_a_mate_in_one_and_so_does_tabla() {
    let Some(spec) = stockfish() else { return };
    let mut stockfish = UciEngine::start(spec).expect("Stockfish starts");
    assert!(
        stockfish.id().to_string().starts_with("Stockfish "),
        "{}",
        stockfish.id()
    );
    let mut tabla = TablaAnalyser::new();
    let request = Request::new(position(MATE_IN_ONE), Budget::Depth(8));
    for engine in [&mut stockfish as &mut dyn Analyser, &mut tabla] {
        let analysis = analyse(engine, &request);
        let best = analysis.best().expect("a line");
        assert_eq!(best.score, Score::Mate(1), "{}", engine.id());
        assert_eq!(
            best.pv.first().map(|m| m.to_string()).as_deref(),
            Some("a1a8")
        );
        assert_eq!(
            analysis.best_move.map(|m| m.to_string()).as_deref(),
            Some("a1a8")
        );
    }
}

#[test]
fn stockfish_and_tabla_agree_on_who_is_winning() {
    let Some(spec) = stockfish() else { return };
    let mut stockfish = UciEngine::start(spec).expect("Stockfish starts");
    let mut tabla = TablaAnalyser::new();
    let sign = |score: Score| match score {
        Score::Cp(cp) => cp.signum(),
        Score::Mate(moves) => moves.signum(),
    };
    // A queen up: good for White to move, bad for Black to move (scores are the mover's view).
    for (fen, expected) in [
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 1),
        ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", -1),
        (
            "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
            1,
        ),
    ] {
        let request = Request::new(position(fen), Budget::Nodes(20_000));
        for engine in [&mut stockfish as &mut dyn Analyser, &mut tabla] {
            let score = analyse(engine, &request).best().expect("a line").score;
            assert_eq!(sign(score), expected, "{} on {fen}: {score}", engine.id());
        }
    }
}

#[test]
fn stockfish_gives_three_distinct_lines_with_multipv_3() {
    let Some(spec) = stockfish() else { return };
    let mut stockfish = UciEngine::start(spec).expect("Stockfish starts");
    let request = Request::new(Position::startpos(), Budget::Depth(10)).with_multipv(3);
    let analysis = analyse(&mut stockfish, &request);
    assert_eq!(analysis.lines.len(), 3);
    let ranks: Vec<usize> = analysis.lines.iter().map(|l| l.multipv).collect();
    assert_eq!(ranks, [1, 2, 3]);
    let mut firsts: Vec<String> = analysis
        .lines
        .iter()
        .map(|l| l.pv.first().expect("a move").to_string())
        .collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{firsts:?}");
    // Back to one line: the option is set again.
    let one = analyse(
        &mut stockfish,
        &Request::new(Position::startpos(), Budget::Depth(6)),
    );
    assert_eq!(one.lines.len(), 1);
}

#[test]
fn stockfish_keeps_to_a_node_budget() {
    let Some(spec) = stockfish() else { return };
    let mut stockfish = UciEngine::start(spec).expect("Stockfish starts");
    for budget in [20_000, 200_000] {
        let request = Request::new(Position::startpos(), Budget::Nodes(budget)).with_new_game();
        let analysis = analyse(&mut stockfish, &request);
        let nodes = analysis.nodes.expect("a node count");
        assert!(
            nodes >= budget / 2 && nodes <= budget + budget / 2,
            "{nodes} nodes for a budget of {budget}"
        );
        assert!(!analysis.stopped);
    }
}

/// Resident memory of a process, in MiB.
fn resident_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in kB");
    kib / 1024
}

#[test]
fn stockfish_options_are_applied_and_unknown_ones_refused() {
    let Some(spec) = stockfish() else { return };
    // Stockfish clears its hash table when it is resized, which makes the memory resident: the
    // option took effect if the process grew by about its size.
    let small = UciEngine::start(spec.clone().option("Hash", "1")).expect("starts");
    let large = UciEngine::start(spec.clone().option_text("Hash=256").expect("Name=Value"))
        .expect("starts");
    let (small_mib, large_mib) = (
        resident_mib(small.pid().expect("running")),
        resident_mib(large.pid().expect("running")),
    );
    assert!(
        large_mib >= small_mib + 200,
        "Hash=1: {small_mib} MiB, Hash=256: {large_mib} MiB"
    );

    let unknown = UciEngine::start(spec.clone().option("Hahs", "64"));
    let message = unknown.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.starts_with("Stockfish "), "{message}");
    assert!(
        message.contains(STOCKFISH) && message.contains("no option \"Hahs\""),
        "{message}"
    );
    assert!(
        message.contains("Hash"),
        "the list names the real one: {message}"
    );
    let threads = UciEngine::start(spec.option("Threads", "0"));
    assert!(
        matches!(threads, Err(EngineError::BadOptionValue { .. })),
        "{:?}",
        threads.err()
    );
}

#[test]
fn stockfish_stops_an_infinite_search_when_told() {
    let Some(spec) = stockfish() else { return };
    let mut stockfish = UciEngine::start(spec).expect("Stockfish starts");
    let stop = StopSignal::new();
    let stopper = stop.clone();
    let timer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        stopper.stop();
    });
    let mut updates = 0;
    let request = Request::new(Position::startpos(), Budget::Infinite).with_multipv(2);
    let analysis = stockfish
        .analyse(&request, &stop, &mut |_| updates += 1)
        .expect("an analysis");
    timer.join().expect("the timer");
    assert!(analysis.stopped && updates > 4);
    assert_eq!(analysis.lines.len(), 2);
    assert!(
        analysis.lines.iter().all(|l| l.depth >= 5),
        "{:?}",
        analysis.lines
    );
}

#[test]
fn a_pool_of_stockfish_reviews_a_short_game() {
    let Some(spec) = stockfish() else { return };
    let mut pool = Pool::start(&EngineSpec::Uci(spec), 2).expect("Stockfish starts");
    let mut pos = Position::startpos();
    let mut requests = Vec::new();
    for san in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"] {
        requests.push(Request::new(pos.clone(), Budget::Nodes(30_000)).with_new_game());
        pos.push_san(san).expect("legal");
    }
    requests.push(Request::new(pos, Budget::Nodes(30_000)));
    let analyses: Vec<Analysis> = pool
        .analyse_all(requests)
        .into_iter()
        .map(|outcome| outcome.unwrap_or_else(|error| panic!("{error}")))
        .collect();
    let score = |i: usize| analyses[i].best().expect("a line").score;
    // Before 4. Qxf7#, White mates in one; after it, Black is mated.
    assert_eq!(score(6), Score::Mate(1));
    assert_eq!(score(7), Score::Mate(0));
    // Before the blunder 3... Nf6??, Black stood about level.
    assert!(
        matches!(score(5), Score::Cp(cp) if cp.abs() < 300),
        "{}",
        score(5)
    );
}

#[test]
fn stockfish_analyses_chess960_positions_in_its_notation() {
    let Some(spec) = stockfish() else { return };
    let mut stockfish = UciEngine::start(spec).expect("Stockfish starts");
    // White's king on b1 castles with the rook on a1 (to c1 and d1): "b1a1", king takes rook,
    // in Chess960's notation.
    let mut pos = position("1rk5/pppppppp/8/8/8/8/PPPPPPPP/RK6 w Qq - 0 1");
    let castle = pos.parse_uci("b1a1").expect("castling is legal");
    pos.play(castle).expect("legal");
    let analysis = analyse(&mut stockfish, &Request::new(pos, Budget::Depth(8)));
    assert!(analysis.best().is_some_and(|l| l.pv.len() >= 2));
    // And a standard position afterwards, with the option switched back.
    let standard = analyse(
        &mut stockfish,
        &Request::new(Position::startpos(), Budget::Depth(5)),
    );
    assert!(standard.best_move.is_some());
}
