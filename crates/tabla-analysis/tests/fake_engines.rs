//! The engine layer against fake UCI engines (`tests/fake_engines/*.py`) that misbehave on
//! purpose: each job is still answered (the broken ones with an error naming the engine and
//! quoting it), and no engine process is left once the pool or engine is dropped.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tabla::Position;
use tabla_analysis::{
    Analyser, Budget, EngineError, EngineSpec, Pool, Request, StopSignal, Timeouts, UciEngine,
    UciSpec,
};
use tabla_engine::Score;
use tempfile::TempDir;

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_engines")
        .join(name)
}

/// Timeouts short enough for a test, long enough for Python to start and answer on a machine
/// busy with other builds (where a start took over 3 s).
fn short() -> Timeouts {
    Timeouts {
        handshake: Duration::from_secs(10),
        movetime_margin: Duration::from_secs(1),
        min_nps: 1_000,
        depth: Duration::from_secs(3),
        stop_grace: Duration::from_secs(2),
    }
}

/// The fake `name`, recording its process ids in `pids`.
fn fake(name: &str, pids: &TempDir) -> UciSpec {
    UciSpec::new(script(name))
        .arg("--pid-dir")
        .arg(pids.path())
        .timeouts(short())
}

/// The position `plies` moves from the start, shuffling the king's knights (what the fakes
/// expect: see fake_uci.py).
fn shuffled(plies: usize) -> Position {
    let mut pos = Position::startpos();
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"].iter().cycle().take(plies) {
        let mv = pos.parse_uci(uci).expect("a knight move of the shuffle");
        pos.play(mv).expect("legal");
    }
    pos
}

fn requests(count: usize) -> Vec<Request> {
    (0..count)
        .map(|plies| Request::new(shuffled(plies), Budget::Depth(5)))
        .collect()
}

/// What a fake answers for the position `plies` moves from the start.
fn assert_fake_answer(plies: usize, outcome: &Result<tabla_analysis::Analysis, EngineError>) {
    let analysis = match outcome {
        Ok(analysis) => analysis,
        Err(error) => panic!("position {plies}: {error}"),
    };
    let expected = if plies.is_multiple_of(2) {
        "b1c3"
    } else {
        "b8c6"
    };
    let line = analysis.best().expect("a line");
    assert_eq!(line.score, Score::Cp(10 * plies as i32), "position {plies}");
    assert_eq!(
        (line.depth, line.seldepth, line.nodes),
        (2, Some(3), Some(200))
    );
    let pv: Vec<String> = line.pv.iter().map(|m| m.to_string()).collect();
    assert_eq!(pv, [expected], "position {plies}");
    assert_eq!(
        analysis.best_move.map(|m| m.to_string()).as_deref(),
        Some(expected)
    );
}

/// The process ids the fakes recorded, once each is gone (reaped, or a zombie waiting for its
/// new parent); fails naming any still running after a few seconds.
fn assert_all_gone(pids: &TempDir) -> usize {
    let ids: Vec<u32> = std::fs::read_dir(pids.path())
        .expect("the pid directory")
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut alive: Vec<u32> = ids.clone();
    while !alive.is_empty() && Instant::now() < deadline {
        alive.retain(|&pid| is_running(pid));
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(alive.is_empty(), "engine processes left behind: {alive:?}");
    eprintln!("{} engine processes, all gone", ids.len());
    ids.len()
}

/// `true` while `/proc` shows the process, other than as a zombie.
fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

#[test]
fn a_well_behaved_engine_answers_every_job_under_its_id() {
    let pids = TempDir::new().expect("a temporary directory");
    let pool = Pool::start(&EngineSpec::Uci(fake("fake_uci.py", &pids)), 2).expect("starts");
    assert_eq!(pool.size(), 2);
    assert_eq!(pool.engine().name.as_deref(), Some("Fake"));
    let mut plies_of = std::collections::HashMap::new();
    for request in requests(9) {
        let plies = request.position.moves_played().count();
        plies_of.insert(pool.submit(request), plies);
    }
    let mut answered = 0;
    while let Some(result) = pool.recv() {
        assert_fake_answer(plies_of[&result.id], &result.outcome);
        answered += 1;
    }
    assert_eq!(answered, 9);
    drop(pool);
    assert_eq!(assert_all_gone(&pids), 2);
}

#[test]
fn an_engine_that_crashes_mid_search_is_restarted_and_the_job_fails_alone() {
    let pids = TempDir::new().expect("a temporary directory");
    let mut pool = Pool::start(&EngineSpec::Uci(fake("crash.py", &pids)), 2).expect("starts");
    let outcomes = pool.analyse_all(requests(8));
    for (plies, outcome) in outcomes.iter().enumerate() {
        if plies != 3 {
            assert_fake_answer(plies, outcome);
            continue;
        }
        match outcome {
            Err(
                error @ EngineError::Crashed {
                    status,
                    doing,
                    said,
                    ..
                },
            ) => {
                assert_eq!((status.as_str(), *doing), ("exit code 3", "searching"));
                assert!(said.as_str().contains("crashing on purpose"), "{said}");
                let message = error.to_string();
                assert!(message.starts_with("Fake crash ("), "{message}");
                assert!(message.contains("crash.py"), "{message}");
            }
            other => panic!("position 3: {other:?}"),
        }
    }
    drop(pool);
    // Two engines at the start, and the fresh one that retried position 3 (a worker whose
    // engine died starts the next only when it takes the next job).
    assert!(assert_all_gone(&pids) >= 3);
}

#[test]
fn a_single_engine_starts_again_after_a_fault() {
    let pids = TempDir::new().expect("a temporary directory");
    let mut engine = UciEngine::start(fake("crash.py", &pids)).expect("starts");
    let first = engine.pid();
    let stop = StopSignal::new();
    let crashed = engine.analyse(
        &Request::new(shuffled(3), Budget::Depth(3)),
        &stop,
        &mut |_| {},
    );
    assert!(
        matches!(crashed, Err(EngineError::Crashed { .. })),
        "{crashed:?}"
    );
    assert_eq!(engine.pid(), None);
    let next = engine.analyse(
        &Request::new(shuffled(4), Budget::Depth(3)),
        &stop,
        &mut |_| {},
    );
    assert_fake_answer(4, &next);
    assert!(engine.pid().is_some() && engine.pid() != first);
    drop(engine);
    assert_eq!(assert_all_gone(&pids), 2);
}

#[test]
fn an_engine_that_hangs_is_killed_after_its_time_limit() {
    let pids = TempDir::new().expect("a temporary directory");
    let mut pool = Pool::start(&EngineSpec::Uci(fake("hang.py", &pids)), 2).expect("starts");
    let started = Instant::now();
    let outcomes = pool.analyse_all(requests(6));
    for (plies, outcome) in outcomes.iter().enumerate() {
        if plies != 2 {
            assert_fake_answer(plies, outcome);
            continue;
        }
        match outcome {
            Err(EngineError::Timeout {
                engine,
                awaited,
                waited,
                ..
            }) => {
                assert_eq!(engine.name.as_deref(), Some("Fake hang"));
                assert_eq!((*awaited, *waited), ("bestmove", short().depth));
            }
            other => panic!("position 2: {other:?}"),
        }
    }
    // One attempt of its time limit (a hang is not retried), not forever.
    assert!(started.elapsed() < 2 * short().depth + Duration::from_secs(10));
    // It ignores SIGINT and SIGTERM: only SIGKILL ends it. Two at the start, and one more
    // when the killed one's worker takes another job.
    drop(pool);
    assert!(assert_all_gone(&pids) >= 2);
}

#[test]
fn an_engine_that_reports_without_end_is_killed_at_its_time_limit() {
    let pids = TempDir::new().expect("a temporary directory");
    let mut engine = UciEngine::start(fake("chatter.py", &pids)).expect("starts");
    let started = Instant::now();
    let request = Request::new(shuffled(1), Budget::MoveTime(Duration::from_millis(100)));
    let outcome = engine.analyse(&request, &StopSignal::new(), &mut |_| {});
    match outcome {
        Err(EngineError::Timeout { awaited, said, .. }) => {
            assert_eq!(awaited, "bestmove");
            assert!(said.as_str().ends_with("pv b8c6"), "{said}");
        }
        other => panic!("{other:?}"),
    }
    // The move time and the margin: 0.6 s, and not much more.
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    drop(engine);
    assert_eq!(assert_all_gone(&pids), 1);
}

#[test]
fn an_engine_that_prints_garbage_is_killed_and_quoted() {
    let pids = TempDir::new().expect("a temporary directory");
    let mut pool = Pool::start(&EngineSpec::Uci(fake("garbage.py", &pids)), 2).expect("starts");
    let outcomes = pool.analyse_all(requests(6));
    for (plies, outcome) in outcomes.iter().enumerate() {
        match (plies, outcome) {
            (1, Err(EngineError::NotUci { problem, said, .. })) => {
                assert_eq!(problem, "bytes that are not UTF-8 text");
                assert!(said.as_str().contains("garbage"), "{said}");
            }
            (4, Err(error @ EngineError::NotUci { said, .. })) => {
                assert_eq!(
                    said.as_str(),
                    "Illegal instruction: the search went sideways"
                );
                assert!(
                    error
                        .to_string()
                        .contains("\"Illegal\" is no UCI engine command")
                );
            }
            (1 | 4, other) => panic!("position {plies}: {other:?}"),
            _ => assert_fake_answer(plies, outcome),
        }
    }
    // Two at the start, one retry for each of the two faulty positions.
    drop(pool);
    assert!(assert_all_gone(&pids) >= 4);
}

#[test]
fn an_illegal_move_in_a_principal_variation_is_the_engines_fault() {
    let pids = TempDir::new().expect("a temporary directory");
    let mut pool = Pool::start(&EngineSpec::Uci(fake("illegal_pv.py", &pids)), 1).expect("starts");
    let outcomes = pool.analyse_all(requests(4));
    for (plies, outcome) in outcomes.iter().enumerate() {
        if plies != 2 {
            assert_fake_answer(plies, outcome);
            continue;
        }
        match outcome {
            Err(EngineError::IllegalMove(illegal)) => {
                assert_eq!(illegal.text, "e2e4");
                assert_eq!(illegal.place, "move 2 of the principal variation");
                // Black to move after the shuffle's two moves and b1c3.
                assert_eq!(
                    illegal.fen,
                    "rnbqkb1r/pppppppp/5n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R b KQkq - 3 2"
                );
                assert!(illegal.said.as_str().ends_with("pv b1c3 e2e4"));
            }
            other => panic!("position 2: {other:?}"),
        }
    }
    drop(pool);
    assert_eq!(assert_all_gone(&pids), 3);
}

#[test]
fn an_engine_that_never_sends_uciok_fails_the_pool_start_once() {
    let pids = TempDir::new().expect("a temporary directory");
    let spec = fake("no_uciok.py", &pids);
    let error = match Pool::start(&EngineSpec::Uci(spec), 2) {
        Err(error) => error,
        Ok(_) => panic!("a pool of engines without uciok"),
    };
    match &error {
        EngineError::Timeout { awaited, said, .. } => {
            assert_eq!(*awaited, "uciok");
            assert!(
                said.as_str()
                    .ends_with("still thinking about the handshake"),
                "{said}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(error.to_string().starts_with("Fake no uciok ("), "{error}");
    assert_eq!(assert_all_gone(&pids), 2);
}

#[test]
fn an_engine_that_hangs_when_restarted_fails_that_job_and_the_rest_are_cancelled() {
    let pids = TempDir::new().expect("a temporary directory");
    let spec = fake("crash.py", &pids).arg("--no-uciok-on-second-start");
    let mut pool = Pool::start(&EngineSpec::Uci(spec), 1).expect("the first start works");
    // Position 3 crashes the engine; the fresh one started for the retry never answers its
    // handshake: a hang, which cancels the jobs queued (an engine that hangs once hangs again).
    let outcomes = pool.analyse_all(requests(6));
    for (plies, outcome) in outcomes.iter().enumerate() {
        match plies {
            0..3 => assert_fake_answer(plies, outcome),
            3 => assert!(
                matches!(
                    outcome,
                    Err(EngineError::Timeout {
                        awaited: "uciok",
                        ..
                    })
                ),
                "position 3: {outcome:?}"
            ),
            _ => assert!(
                matches!(outcome, Err(EngineError::Cancelled { .. })),
                "position {plies}: {outcome:?}"
            ),
        }
    }
    // The pool takes jobs again: a fresh engine, which works.
    let more = pool.analyse_all(requests(2));
    assert_fake_answer(1, &more[1]);
    drop(pool);
    assert_eq!(assert_all_gone(&pids), 3);
}

#[test]
fn stop_ends_an_infinite_search_and_an_engine_deaf_to_it_is_killed() {
    let pids = TempDir::new().expect("a temporary directory");
    let mut engine = UciEngine::start(fake("hang.py", &pids)).expect("starts");
    let mut updates = Vec::new();
    let stop = StopSignal::new();
    let stopper = stop.clone();
    let timer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        stopper.stop();
    });
    let request = Request::new(shuffled(1), Budget::Infinite);
    let analysis = engine
        .analyse(&request, &stop, &mut |line| updates.push(line.clone()))
        .expect("an analysis");
    timer.join().expect("the timer thread");
    assert!(analysis.stopped);
    // The line before `stop` (depth 1), then the answer's two.
    assert_eq!(
        updates.iter().map(|l| l.depth).collect::<Vec<_>>(),
        [1, 1, 2]
    );
    assert_fake_answer(1, &Ok(analysis));

    // In the position 2 moves from the start it neither answers nor stops.
    let stop = StopSignal::new();
    stop.stop();
    let request = Request::new(shuffled(2), Budget::Infinite);
    let outcome = engine.analyse(&request, &stop, &mut |_| {});
    match outcome {
        Err(EngineError::Timeout {
            awaited, waited, ..
        }) => {
            assert_eq!((awaited, waited), ("bestmove", short().stop_grace));
        }
        other => panic!("{other:?}"),
    }
    drop(engine);
    assert_eq!(assert_all_gone(&pids), 1);
}

#[test]
fn options_are_checked_against_the_engines_list() {
    let pids = TempDir::new().expect("a temporary directory");
    let unknown = UciEngine::start(fake("fake_uci.py", &pids).option("Hahs", "16"));
    let message = unknown.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.starts_with("Fake ("), "{message}");
    assert!(
        message.contains("has no option \"Hahs\"; it lists: Hash, Threads, MultiPV, Clear Hash")
    );
    let out_of_range = UciEngine::start(fake("fake_uci.py", &pids).option("hash", "0"));
    match out_of_range {
        Err(EngineError::BadOptionValue { name, expected, .. }) => {
            assert_eq!(
                (name.as_str(), expected.as_str()),
                ("Hash", "a whole number from 1 to 1024")
            );
        }
        other => panic!("{:?}", other.err()),
    }
    let fine = UciEngine::start(
        fake("fake_uci.py", &pids)
            .option_text("Hash=64")
            .and_then(|s| s.option_text("Clear Hash="))
            .expect("well written"),
    );
    assert!(fine.is_ok(), "{:?}", fine.err());
    drop(fine);
    let missing = UciEngine::start(UciSpec::new(script("no_such_engine")));
    match missing {
        Err(error @ EngineError::Spawn { .. }) => {
            assert!(error.to_string().contains("no_such_engine"), "{error}");
        }
        other => panic!("{:?}", other.err()),
    }
    assert_eq!(assert_all_gone(&pids), 3);
}

#[test]
fn positions_without_moves_and_bad_requests_need_no_engine() {
    let pids = TempDir::new().expect("a temporary directory");
    let mut engine = UciEngine::start(fake("fake_uci.py", &pids)).expect("starts");
    let pid = engine.pid();
    let stop = StopSignal::new();
    let mated = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1").expect("valid FEN");
    let analysis = engine
        .analyse(&Request::new(mated, Budget::Depth(3)), &stop, &mut |_| {})
        .expect("an answer");
    assert_eq!(analysis.best().map(|l| l.score), Some(Score::Mate(0)));
    assert_eq!(analysis.best_move, None);
    let none = Request::new(Position::startpos(), Budget::Depth(3)).with_multipv(0);
    let refused = engine.analyse(&none, &stop, &mut |_| {});
    assert!(
        matches!(refused, Err(EngineError::BadRequest { .. })),
        "{refused:?}"
    );
    // Neither was the engine's fault: it is the same process.
    assert_eq!(engine.pid(), pid);
    drop(engine);
    assert_eq!(assert_all_gone(&pids), 1);
}

/// The child side of the tests below: starts an engine that ignores SIGINT and SIGTERM, says
/// its pid, and waits to be killed.
#[test]
fn engine_holder_for_the_death_tests() {
    if std::env::var_os("TABLA_REVIEW_HOLD_ENGINE").is_none() {
        return;
    }
    let spec = UciSpec::new(script("hang.py"));
    let engine = UciEngine::start(spec).expect("starts");
    println!("engine pid {}", engine.pid().unwrap_or(0));
    std::thread::sleep(Duration::from_secs(60));
    drop(engine);
}

/// Runs [`engine_holder_for_the_death_tests`] in a process of its own (and its own process
/// group), sends it `signal` (to the whole group when `group`), and checks that its engine
/// dies with it.
#[cfg(target_os = "linux")]
fn engine_dies_with_its_holder(signal: i32, group: bool) {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let mut command = Command::new(std::env::current_exe().expect("the test binary"));
    command
        .args([
            "--exact",
            "engine_holder_for_the_death_tests",
            "--nocapture",
        ])
        .env("TABLA_REVIEW_HOLD_ENGINE", "1")
        .stdout(Stdio::piped())
        .process_group(0);
    // Ctrl-C's own effect on tabla, whatever this test inherited: a shell's background job
    // starts with SIGINT ignored, and the holder would then outlive the signal and end well.
    // SAFETY: the closure runs in the child between fork and exec and only calls signal(2),
    // sigemptyset(3), sigaddset(3) and sigprocmask(2), which are async-signal-safe, on a set
    // of its own.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            Ok(())
        });
    }
    let mut holder = command.spawn().expect("the holder starts");
    let stdout = holder.stdout.take().expect("piped");
    // Kept open until the holder has ended: what it prints as it dies (its test's result) must
    // find a reader, not a broken pipe.
    let mut lines = BufReader::new(stdout).lines();
    let engine: u32 = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| line.strip_prefix("engine pid ")?.parse().ok())
        .expect("the holder says its engine's pid");
    assert!(is_running(engine));
    let holder_pid = i32::try_from(holder.id()).expect("a pid");
    let target = if group { -holder_pid } else { holder_pid };
    // SAFETY: kill takes two integers and touches no memory.
    assert_eq!(unsafe { libc::kill(target, signal) }, 0);
    let status = holder.wait().expect("the holder ends");
    drop(lines);
    assert!(!status.success());
    let deadline = Instant::now() + Duration::from_secs(5);
    while is_running(engine) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!is_running(engine), "engine {engine} outlived its holder");
}

#[cfg(target_os = "linux")]
#[test]
fn an_engine_dies_when_tabla_is_killed() {
    engine_dies_with_its_holder(libc::SIGKILL, false);
}

#[cfg(target_os = "linux")]
#[test]
fn an_engine_that_ignores_ctrl_c_dies_with_tabla_on_ctrl_c() {
    // Ctrl-C signals the terminal's foreground process group: tabla and its engines.
    engine_dies_with_its_holder(libc::SIGINT, true);
}
