//! A scripted UCI dialogue with the real `tabla-engine` binary over its standard input and output:
//! the handshake, malformed and illegal commands (answered with `info string`, then ignored),
//! searches with limits, `stop` during `go infinite`, `isready` while searching, and `quit`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};
use tabla::Position;

/// Generous: CI machines are shared; nothing here needs more than a fraction of this.
const PATIENCE: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabla-engine"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the engine binary starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        writeln!(stdin, "{command}").expect("the engine reads");
        stdin.flush().expect("flush");
    }

    /// Lines up to and including the first one for which `done` holds.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no answer in time; got {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed its output: {seen:#?}")
                }
            }
        }
    }

    /// Lines arriving within `wait` (none expected to end the wait early).
    fn quiet_for(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            seen.push(line);
        }
        seen
    }
}

fn bestmove_of(lines: &[String]) -> String {
    let last = lines.last().expect("a line");
    let mut words = last.split_whitespace();
    assert_eq!(words.next(), Some("bestmove"), "{last}");
    words.next().expect("a move").to_string()
}

#[test]
fn scripted_dialogue() {
    let mut e = Engine::start();

    e.send("uci");
    let hello = e.until(|l| l == "uciok");
    assert!(
        hello.iter().any(|l| l.starts_with("id name tabla")),
        "{hello:?}"
    );
    assert!(hello.iter().any(|l| l.starts_with("id author ")));
    for option in ["Hash", "Threads", "MultiPV"] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type spin"))),
            "{option} missing: {hello:?}"
        );
    }
    e.send("isready");
    e.until(|l| l == "readyok");

    // Malformed and illegal commands: each answered with an info string, none fatal.
    let bad = [
        "flibbertigibbet",
        "position",
        "position fen not/a/fen w - - 0 1",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 xyz",
        "position sideways",
        "go depth x",
        "go depth",
        "go wibble 5",
        "setoption name Hash value -1",
        "setoption name Hash value 99999999",
        "setoption name NoSuchOption value 1",
        "setoption Hash 5",
    ];
    for command in bad {
        e.send(command);
        let answer = e.until(|l| l.starts_with("info string"));
        assert_eq!(answer.len(), 1, "{command}: {answer:?}");
    }
    e.send("isready");
    e.until(|l| l == "readyok");

    // The illegal move left the position alone: still the start position, so e2e4 is legal.
    e.send("setoption name Hash value 8");
    e.send("setoption name MultiPV value 2");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 5");
    let search = e.until(|l| l.starts_with("bestmove"));
    let mut pos = Position::startpos();
    for m in ["e2e4", "e7e5"] {
        let mv = pos.parse_uci(m).expect("legal");
        pos.play(mv).expect("a legal move");
    }
    let best = bestmove_of(&search);
    assert!(
        pos.parse_uci(&best).is_ok(),
        "{best} is not legal after 1.e4 e5"
    );
    assert!(
        search
            .iter()
            .any(|l| l.starts_with("info depth 5 ") && l.contains(" multipv 2 "))
    );
    for info in search.iter().filter(|l| l.starts_with("info depth")) {
        for field in [
            " seldepth ",
            " score ",
            " nodes ",
            " nps ",
            " time ",
            " hashfull ",
            " pv ",
        ] {
            assert!(info.contains(field), "{field} missing in {info}");
        }
    }
    e.send("setoption name MultiPV value 1");

    // go infinite runs until stop; isready is answered meanwhile; stop brings bestmove.
    e.send("position fen 6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40");
    e.send("go infinite");
    e.until(|l| l.starts_with("info depth"));
    let meanwhile = e.quiet_for(Duration::from_millis(300));
    assert!(
        !meanwhile.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop: {meanwhile:?}"
    );
    e.send("go depth 1");
    e.until(|l| l.starts_with("info string"));
    e.send("isready");
    e.until(|l| l == "readyok");
    e.send("stop");
    let stopped = e.until(|l| l.starts_with("bestmove"));
    let seed =
        Position::from_fen("6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40").expect("seed");
    assert!(seed.parse_uci(&bestmove_of(&stopped)).is_ok());

    // A quick search with a node limit, then quit.
    e.send("position startpos");
    e.send("go nodes 2000");
    let quick = e.until(|l| l.starts_with("bestmove"));
    assert!(Position::startpos().parse_uci(&bestmove_of(&quick)).is_ok());
    e.send("quit");
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = e.child.try_wait().expect("wait") {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(Instant::now() < deadline, "the engine did not quit");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn several_threads_search_and_stop() {
    let mut e = Engine::start();
    for bad in [
        "setoption name Threads value 0",
        "setoption name Threads value 257",
    ] {
        e.send(bad);
        e.until(|l| l.starts_with("info string"));
    }
    e.send("setoption name Threads value 2");
    e.send("position startpos moves d2d4");
    e.send("go depth 8");
    let search = e.until(|l| l.starts_with("bestmove"));
    let mut pos = Position::startpos();
    pos.play(pos.parse_uci("d2d4").expect("legal"))
        .expect("a legal move");
    assert!(pos.parse_uci(&bestmove_of(&search)).is_ok());
    assert!(search.iter().any(|l| l.starts_with("info depth 8 ")));
    // Stop reaches the helper thread too: bestmove comes, and the next search runs.
    e.send("go infinite");
    e.until(|l| l.starts_with("info depth"));
    e.send("stop");
    let stopped = e.until(|l| l.starts_with("bestmove"));
    assert!(pos.parse_uci(&bestmove_of(&stopped)).is_ok());
    e.send("go nodes 5000");
    let quick = e.until(|l| l.starts_with("bestmove"));
    assert!(pos.parse_uci(&bestmove_of(&quick)).is_ok());
    e.send("quit");
    let status = e.child.wait().expect("wait");
    assert!(status.success());
}

#[test]
fn end_of_input_during_infinite_search_ends_the_engine() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.until(|l| l.starts_with("info depth"));
    e.stdin = None;
    let rest = e.until(|l| l.starts_with("bestmove"));
    assert!(Position::startpos().parse_uci(&bestmove_of(&rest)).is_ok());
    let status = e.child.wait().expect("wait");
    assert!(status.success());
}

/// The deepest `info depth` of a search's lines, and whether any line named a `multipv`.
fn deepest(lines: &[String]) -> (u32, bool) {
    let depth = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .max()
        .expect("an info depth line");
    (depth, lines.iter().any(|l| l.contains(" multipv ")))
}

#[test]
fn chess960_and_strength_options_are_advertised() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until(|l| l == "uciok");
    for option in [
        "option name UCI_Chess960 type check default false",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1010 min 1010 max 2430",
    ] {
        assert!(
            hello.iter().any(|l| l == option),
            "{option} missing: {hello:#?}"
        );
    }
    e.send("quit");
    assert!(e.child.wait().expect("wait").success());
}

#[test]
fn strength_settings_out_of_range_are_refused_and_the_setting_kept() {
    let mut e = Engine::start();
    let go = |e: &mut Engine| {
        e.send("position startpos moves e2e4");
        e.send("go depth 6");
        e.until(|l| l.starts_with("bestmove"))
    };
    // Each search's depths and node counts, from a cleared hash table, and its bestmove.
    let searches = |e: &mut Engine| {
        e.send("ucinewgame");
        let lines = go(e);
        let counts = lines
            .iter()
            .filter(|l| l.starts_with("info depth "))
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let nodes = words.iter().position(|w| *w == "nodes").expect("nodes");
                format!("{} {}", words[2], words[nodes + 1])
            })
            .collect::<Vec<String>>();
        (counts, bestmove_of(&lines))
    };
    let default = searches(&mut e);
    // Level 0 searches one ply (its depth cap), and shows only the one line asked for although
    // it chose among four.
    e.send("setoption name Skill Level value 0");
    assert_eq!(deepest(&go(&mut e)), (1, false));
    for (bad, why) in [
        (
            "Skill Level value 21",
            "Skill Level takes a whole number from 0 to 20, not \"21\"",
        ),
        (
            "Skill Level value -1",
            "Skill Level takes a whole number from 0 to 20, not \"-1\"",
        ),
        ("Skill Level", "Skill Level needs a value"),
        (
            "UCI_Elo value 1009",
            "UCI_Elo takes a whole number from 1010 to 2430, not \"1009\"",
        ),
        (
            "UCI_Elo value 2431",
            "UCI_Elo takes a whole number from 1010 to 2430, not \"2431\"",
        ),
        (
            "UCI_LimitStrength value yes",
            "UCI_LimitStrength takes true or false, not \"yes\"",
        ),
        (
            "UCI_Chess960 value 1",
            "UCI_Chess960 takes true or false, not \"1\"",
        ),
    ] {
        e.send(&format!("setoption name {bad}"));
        let answer = e.until(|l| l.starts_with("info string"));
        assert_eq!(
            answer,
            [format!("info string setoption: {why}; option unchanged")],
            "{bad}"
        );
    }
    // Still level 0: refused, not clamped to 20.
    assert_eq!(deepest(&go(&mut e)).0, 1);
    // UCI_Elo at its lowest is level 0 too, at its highest full strength; it overrides Skill
    // Level while UCI_LimitStrength is on.
    e.send("setoption name Skill Level value 20");
    e.send("setoption name UCI_LimitStrength value true");
    assert_eq!(deepest(&go(&mut e)).0, 1, "UCI_Elo's default is the lowest");
    e.send("setoption name UCI_Elo value 2430");
    assert_eq!(deepest(&go(&mut e)).0, 6);
    // An Elo between two levels' plays the lower level: the same searches (depths and nodes,
    // from a cleared hash table), whatever move each seed then chooses.
    e.send("setoption name UCI_Elo value 1500");
    let by_elo = searches(&mut e).0;
    e.send("setoption name UCI_LimitStrength value false");
    e.send("setoption name Skill Level value 4");
    assert_eq!(searches(&mut e).0, by_elo, "1500 is level 4 (1480)");
    e.send("setoption name Skill Level value 5");
    assert_ne!(searches(&mut e).0, by_elo, "level 5 (1540) searches more");
    // Back at 20: the very search of a session that never set a strength.
    e.send("setoption name Skill Level value 20");
    assert_eq!(searches(&mut e), default);
    e.send("quit");
    assert!(e.child.wait().expect("wait").success());
}

#[test]
fn chess960_castling_is_king_takes_rook_with_the_option_on() {
    // White castles long (king b1 to c1, rook a1 to d1) and mates; the king could also simply
    // step to c1, so the king's move `b1c1` cannot say which is meant.
    let fen = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1";
    let mut e = Engine::start();
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let standard = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(
        bestmove_of(&standard),
        "b1c1",
        "UCI's standard form: the king's move"
    );
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let chess960 = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove_of(&chess960), "b1a1");
    assert!(
        chess960.iter().any(|l| l.starts_with("info depth 3 ")
            && l.contains(" score mate 1 ")
            && l.ends_with(" pv b1a1")),
        "{chess960:#?}"
    );
    // And read back the same way: b1a1 castles, b1c1 is the king's step. The Shredder-FEN
    // castling field (`HAha`, here `A`) is read as X-FEN's.
    e.send(&format!("position fen {fen} moves b1a1"));
    e.send("d");
    let castled = e.until(|l| l.starts_with("Fen: "));
    assert_eq!(
        castled.last().map(String::as_str),
        Some("Fen: 2rkr3/2p1p3/8/8/8/8/8/2KR4 b - - 1 1")
    );
    e.send(&format!("position fen {fen} moves b1c1"));
    e.send("d");
    let stepped = e.until(|l| l.starts_with("Fen: "));
    assert_eq!(
        stepped.last().map(String::as_str),
        Some("Fen: 2rkr3/2p1p3/8/8/8/8/8/R1K5 b - - 1 1")
    );
    e.send("quit");
    assert!(e.child.wait().expect("wait").success());
}
