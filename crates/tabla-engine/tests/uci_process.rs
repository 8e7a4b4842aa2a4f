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
