//! A UCI engine program behind the [`Analyser`] interface: the handshake, options, one search
//! after another, and the faults (crash, hang, output that is not UCI, illegal moves) that get
//! its process killed.

use super::analyser::{Analyser, StopSignal};
use super::analysis::{Analysis, LatestLines, Line};
use super::error::{EngineError, EngineId, IllegalMove, Said};
use super::process::{EngineProcess, Next};
use super::request::Request;
use super::uci_message::{self, Message};
use super::uci_option::{OptionKind, UciOption};
use super::uci_spec::UciSpec;
use std::time::{Duration, Instant};
use tabla::{Color, File, Move, Position, Square, back_rank};

/// How often a search in progress looks at its [`StopSignal`].
const STOP_POLL: Duration = Duration::from_millis(10);

/// A UCI engine program, started and handshaken, ready to analyse.
///
/// Each search sends `position` (the game's start and its moves, so that the engine sees
/// repetitions), synchronises with `isready`, then `go` with the budget. Every `info` line with
/// a score becomes a [`Line`] once its moves are checked legal. An engine that crashes, hangs
/// past its [`crate::Timeouts`], prints what is not UCI or an illegal move is killed: the call
/// returns the fault, and the next call starts the program again.
///
/// ```no_run
/// use tabla::Position;
/// use tabla_analysis::{Analyser, Budget, Request, StopSignal, UciEngine, UciSpec};
/// let spec = UciSpec::new("/usr/games/stockfish").option("Hash", "64");
/// let mut stockfish = UciEngine::start(spec)?;
/// let request = Request::new(Position::startpos(), Budget::Nodes(100_000)).with_multipv(3);
/// let analysis = stockfish.analyse(&request, &StopSignal::new(), &mut |line| {
///     println!("depth {} line {} {}", line.depth, line.multipv, line.score);
/// })?;
/// assert_eq!(analysis.lines.len(), 3);
/// # Ok::<(), tabla_analysis::EngineError>(())
/// ```
pub struct UciEngine {
    spec: UciSpec,
    id: EngineId,
    options: Vec<UciOption>,
    /// `None` after a fault killed it, until the next search starts it again.
    process: Option<EngineProcess>,
    /// The `MultiPV` and `UCI_Chess960` the running process was given.
    multipv: usize,
    chess960: bool,
}

impl UciEngine {
    /// Starts the program: `uci` until `uciok` (its name and options noted), the spec's options
    /// (each checked against the engine's list and declared type), `Threads=1` unless the spec
    /// sets `Threads`, then `isready` until `readyok`.
    pub fn start(spec: UciSpec) -> Result<UciEngine, EngineError> {
        let mut engine = UciEngine {
            id: EngineId::new(&spec.path, None),
            spec,
            options: Vec::new(),
            process: None,
            multipv: 1,
            chess960: false,
        };
        engine.launch()?;
        Ok(engine)
    }

    /// The options the engine listed.
    pub fn options(&self) -> &[UciOption] {
        &self.options
    }

    /// The running process's id; `None` between a fault and the next search.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(EngineProcess::pid)
    }

    fn launch(&mut self) -> Result<(), EngineError> {
        self.process = None;
        let process = EngineProcess::start(&self.spec.path, &self.spec.args).map_err(|source| {
            EngineError::Spawn {
                path: self.spec.path.display().to_string(),
                source,
            }
        })?;
        self.process = Some(process);
        self.multipv = 1;
        self.chess960 = false;
        self.send("uci");
        let deadline = Instant::now() + self.spec.timeouts.handshake;
        let mut options = Vec::new();
        loop {
            let line = self.next_line(deadline, "uciok", "starting")?;
            match uci_message::parse(&line) {
                Ok(Message::UciOk) => break,
                Ok(Message::Id {
                    field: "name",
                    value,
                }) => self.id.name = Some(value.to_owned()),
                Ok(Message::Option(text)) => options.extend(UciOption::parse(text)),
                // Engines greet with a banner before `uci`'s answer: text there is tolerated.
                _ => {}
            }
        }
        self.options = options;
        let result = self.apply_options();
        if result.is_err() {
            self.process = None;
        }
        result?;
        self.synchronise("starting")
    }

    fn apply_options(&mut self) -> Result<(), EngineError> {
        let mut threads_set = false;
        for (name, value) in self.spec.options.clone() {
            let option = self
                .option(&name)
                .ok_or_else(|| EngineError::UnknownOption {
                    engine: self.id.clone(),
                    name: name.clone(),
                    known: self.options.iter().map(|o| o.name.clone()).collect(),
                })?;
            option
                .check_value(&value)
                .map_err(|expected| EngineError::BadOptionValue {
                    engine: self.id.clone(),
                    name: option.name.clone(),
                    value: value.clone(),
                    expected,
                })?;
            threads_set |= option.name.eq_ignore_ascii_case("Threads");
            let command = match option.kind {
                OptionKind::Button => format!("setoption name {}", option.name),
                _ => format!("setoption name {} value {value}", option.name),
            };
            self.send(&command);
        }
        // One search thread per engine: a pool's parallelism comes from its engines.
        if !threads_set && self.option("Threads").is_some() {
            self.send("setoption name Threads value 1");
        }
        Ok(())
    }

    /// The declared option of that name (UCI names ignore case).
    fn option(&self, name: &str) -> Option<&UciOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// `MultiPV` and `UCI_Chess960` as the request needs them.
    fn configure(&mut self, request: &Request, chess960: bool) -> Result<(), EngineError> {
        if request.multipv != self.multipv {
            let lines = match self.option("MultiPV").map(|o| &o.kind) {
                Some(OptionKind::Spin { max, .. }) => {
                    let most = max
                        .and_then(|m| usize::try_from(m).ok())
                        .unwrap_or(usize::MAX);
                    request.multipv.min(most)
                }
                _ if request.multipv > 1 => {
                    return Err(EngineError::Unsupported {
                        engine: self.id.clone(),
                        what: format!("report {} lines", request.multipv),
                        option: "MultiPV",
                    });
                }
                _ => 1,
            };
            if lines != self.multipv {
                self.send(&format!("setoption name MultiPV value {lines}"));
                self.multipv = lines;
            }
        }
        if chess960 != self.chess960 {
            match self.option("UCI_Chess960") {
                Some(option) => {
                    let command = format!("setoption name {} value {chess960}", option.name);
                    self.send(&command);
                }
                None if chess960 => {
                    return Err(EngineError::Unsupported {
                        engine: self.id.clone(),
                        what: "analyse a Chess960 position".to_owned(),
                        option: "UCI_Chess960",
                    });
                }
                None => {}
            }
            self.chess960 = chess960;
        }
        Ok(())
    }

    /// `isready`, then the lines up to `readyok` (what is left of an earlier search is
    /// dropped).
    fn synchronise(&mut self, doing: &'static str) -> Result<(), EngineError> {
        self.send("isready");
        let deadline = Instant::now() + self.spec.timeouts.handshake;
        loop {
            let line = self.next_line(deadline, "readyok", doing)?;
            match uci_message::parse(&line) {
                Ok(Message::ReadyOk) => return Ok(()),
                Ok(_) => {}
                Err(problem) => return Err(self.not_uci(problem, &line)),
            }
        }
    }

    /// Runs one search after `go`, until `bestmove`.
    fn search(
        &mut self,
        request: &Request,
        stop: &StopSignal,
        on_line: &mut dyn FnMut(&Line),
    ) -> Result<Analysis, EngineError> {
        let mut waited = self.spec.timeouts.search_limit(request.budget);
        let mut deadline = waited.map(|limit| Instant::now() + limit);
        let mut stop_sent = false;
        let mut lines = LatestLines::default();
        loop {
            if !stop_sent && stop.is_stopped() {
                self.send("stop");
                stop_sent = true;
                // A stop never extends the search's own limit: a review that stops its engines
                // because one hung must not wait longer for the others.
                let grace = Instant::now() + self.spec.timeouts.stop_grace;
                if deadline.is_none_or(|d| grace < d) {
                    waited = Some(self.spec.timeouts.stop_grace);
                    deadline = Some(grace);
                }
            }
            let now = Instant::now();
            // Checked before reading, so that an engine printing without end cannot outrun it.
            if let (Some(deadline), Some(waited)) = (deadline, waited)
                && now >= deadline
            {
                return Err(self.timed_out("bestmove", waited));
            }
            let wait = match deadline {
                Some(deadline) if stop_sent => deadline.saturating_duration_since(now),
                Some(deadline) => deadline.saturating_duration_since(now).min(STOP_POLL),
                None => STOP_POLL,
            };
            let text = match self.receive(wait) {
                Next::Line(text) => text,
                Next::Garbage { problem, text } => return Err(self.not_uci(problem.into(), &text)),
                Next::TimedOut => continue,
                Next::Ended => return Err(self.crashed("searching")),
            };
            match uci_message::parse(&text) {
                Ok(Message::Info(info)) => {
                    if let Some(nodes) = info.nodes {
                        lines.count_nodes(nodes);
                    }
                    let Some(line) = info.line(Vec::new()) else {
                        continue;
                    };
                    let line = Line {
                        pv: self.legal_moves(&request.position, &info.pv, &text)?,
                        ..line
                    };
                    on_line(&line);
                    lines.record(line, request.multipv);
                }
                Ok(Message::BestMove(best)) => {
                    let best = self.legal_moves(&request.position, &[best], &text)?;
                    if lines.is_empty() && !stop_sent {
                        return Err(
                            self.fault(|engine, said| EngineError::NoScore { engine, said }, &text)
                        );
                    }
                    return Ok(lines.finish(best.first().copied(), stop_sent));
                }
                Ok(_) => {}
                Err(problem) => return Err(self.not_uci(problem, &text)),
            }
        }
    }

    /// The engine's moves, each checked legal in turn from `position`.
    fn legal_moves(
        &mut self,
        position: &Position,
        texts: &[&str],
        line: &str,
    ) -> Result<Vec<Move>, EngineError> {
        let mut walk = position.clone_without_history();
        let mut moves = Vec::with_capacity(texts.len());
        for (index, text) in texts.iter().enumerate() {
            match walk.parse_uci(text) {
                Ok(mv) => {
                    walk.play_unchecked(mv);
                    moves.push(mv);
                }
                Err(_) => {
                    let place = if line.starts_with("bestmove") {
                        "bestmove".to_owned()
                    } else {
                        format!("move {} of the principal variation", index + 1)
                    };
                    let (text, fen) = (text.to_string(), walk.to_fen());
                    return Err(self.fault(
                        |engine, said| {
                            EngineError::IllegalMove(Box::new(IllegalMove {
                                engine,
                                text,
                                fen,
                                place,
                                said,
                            }))
                        },
                        line,
                    ));
                }
            }
        }
        Ok(moves)
    }

    fn send(&self, command: &str) {
        if let Some(process) = &self.process {
            process.send(command);
        }
    }

    fn receive(&mut self, wait: Duration) -> Next {
        match &mut self.process {
            Some(process) => process.receive(wait),
            None => Next::Ended,
        }
    }

    /// The next line before `deadline`, or the fault: a timeout waiting for `awaited`, a crash
    /// while `doing`, or bytes that are not text.
    fn next_line(
        &mut self,
        deadline: Instant,
        awaited: &'static str,
        doing: &'static str,
    ) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        // An engine printing without end must not outrun the deadline.
        if left.is_zero() {
            return Err(self.timed_out(awaited, self.spec.timeouts.handshake));
        }
        match self.receive(left) {
            Next::Line(line) => Ok(line),
            Next::Garbage { problem, text } => Err(self.not_uci(problem.into(), &text)),
            Next::TimedOut => Err(self.timed_out(awaited, self.spec.timeouts.handshake)),
            Next::Ended => Err(self.crashed(doing)),
        }
    }

    /// Kills the process and builds the error about `line` it printed.
    fn fault(
        &mut self,
        error: impl FnOnce(EngineId, Said) -> EngineError,
        line: &str,
    ) -> EngineError {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        error(self.id.clone(), Said::line(line))
    }

    fn not_uci(&mut self, problem: String, line: &str) -> EngineError {
        self.fault(
            |engine, said| EngineError::NotUci {
                engine,
                problem,
                said,
            },
            line,
        )
    }

    fn timed_out(&mut self, awaited: &'static str, waited: Duration) -> EngineError {
        let said = match self.process.take() {
            Some(mut process) => {
                process.kill();
                process.last_words()
            }
            None => Said::default(),
        };
        EngineError::Timeout {
            engine: self.id.clone(),
            awaited,
            waited,
            said,
        }
    }

    fn crashed(&mut self, doing: &'static str) -> EngineError {
        let (status, said) = match self.process.take() {
            Some(mut process) => (process.exit_status(), process.last_words()),
            None => ("not running".to_owned(), Said::default()),
        };
        EngineError::Crashed {
            engine: self.id.clone(),
            status,
            doing,
            said,
        }
    }
}

impl Analyser for UciEngine {
    fn id(&self) -> &EngineId {
        &self.id
    }

    fn search(
        &mut self,
        request: &Request,
        stop: &StopSignal,
        on_line: &mut dyn FnMut(&Line),
    ) -> Result<Analysis, EngineError> {
        if self.process.is_none() {
            self.launch()?;
        }
        let (command, chess960) = position_command(&request.position);
        self.configure(request, chess960)?;
        if request.new_game {
            self.send("ucinewgame");
        }
        self.send(&command);
        self.synchronise("setting up the position")?;
        self.send(&format!("go {}", request.budget));
        self.search(request, stop, on_line)
    }
}

/// UCI's `position` command for `position` (its game's start, then its moves) and whether
/// that start needs Chess960's castling notation.
fn position_command(position: &Position) -> (String, bool) {
    let mut root = position.clone();
    let mut moves = Vec::new();
    while let Some(mv) = root.undo() {
        moves.push(mv);
    }
    moves.reverse();
    let chess960 = is_chess960(&root);
    let mut command = if root == Position::startpos() {
        "position startpos".to_owned()
    } else {
        format!("position fen {}", root.to_fen())
    };
    if !moves.is_empty() {
        command.push_str(" moves");
        for mv in moves {
            command.push(' ');
            root.write_uci(mv, &mut command);
            root.play_unchecked(mv);
        }
    }
    (command, chess960)
}

/// `true` when a side may castle with its king off the e-file or a rook off the corners, which
/// standard UCI cannot express.
fn is_chess960(root: &Position) -> bool {
    let rights = root.castling_rights();
    [Color::White, Color::Black].into_iter().any(|color| {
        let rooks = rights.rooks_of(color);
        !rooks.is_empty()
            && (root.king(color) != Square::from_coords(File::E, back_rank(color))
                || rooks
                    .into_iter()
                    .any(|rook| !matches!(rook.file(), File::A | File::H)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_sent_as_their_start_and_moves() {
        let mut pos = Position::startpos();
        assert_eq!(
            position_command(&pos),
            ("position startpos".to_owned(), false)
        );
        for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O"] {
            pos.push_san(san).expect("a legal move");
        }
        assert_eq!(
            position_command(&pos).0,
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1"
        );
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 20";
        let mut pos = Position::from_fen(fen).expect("valid FEN");
        assert_eq!(position_command(&pos).0, format!("position fen {fen}"));
        pos.push_san("O-O-O").expect("legal");
        assert_eq!(
            position_command(&pos),
            (format!("position fen {fen} moves e1c1"), false)
        );
    }

    #[test]
    fn chess960_starts_need_its_notation() {
        let chess960 =
            Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
                .expect("valid FEN");
        let (command, is_960) = position_command(&chess960);
        assert!(is_960, "{command}");
        let no_rights = Position::from_fen("1k6/8/8/8/8/8/8/4K2R w - - 0 1").expect("valid FEN");
        assert!(!position_command(&no_rights).1);
    }
}
