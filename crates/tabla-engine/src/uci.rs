//! The UCI protocol: a loop reading commands and answering them, with the search on a thread of
//! its own so that `stop`, `isready` and `quit` are answered while it runs.
//!
//! ```
//! use tabla_engine::{Engine, uci};
//! let input = b"uci\nisready\nposition startpos moves e2e4\ngo depth 3\nquit\n";
//! let out = uci::run(Engine::new(), &input[..], Vec::new()).unwrap();
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.contains("uciok") && out.contains("readyok"));
//! assert!(out.lines().last().unwrap().starts_with("bestmove "));
//! ```

use crate::engine::{
    DEFAULT_HASH_MIB, Engine, MAX_HASH_MIB, MAX_MULTIPV, MAX_THREADS, SEARCH_STACK_BYTES,
};
use crate::info::CastlingNotation;
use crate::limits::Limits;
use crate::search::Control;
use crate::skill::{MAX_SKILL_LEVEL, Skill};
use crate::tables::EndgameTables;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{JoinHandle, Scope, ScopedJoinHandle};
use std::time::Duration;
use tabla::Position;

mod position;

pub use position::{PositionCommandError, parse_position, parse_position_with};

/// The engine's name as `uci` reports it: the version and, as build metadata, a checksum of the
/// engine's source (`tabla 0.1.0+5d0c9e1a`), which changes with any change to its search,
/// evaluation or network. Evaluation caches are keyed by it.
pub const ENGINE_NAME: &str = concat!(
    "tabla ",
    env!("CARGO_PKG_VERSION"),
    "+",
    env!("TABLA_ENGINE_SOURCE")
);
/// The author line.
pub const ENGINE_AUTHOR: &str = "the tabla authors";

const DEFAULT_OVERHEAD_MS: u64 = 30;
const MAX_OVERHEAD_MS: u64 = 5000;

/// Options set by `setoption`, applied to the engine before each search.
#[derive(Clone, Debug)]
struct Settings {
    hash_mib: usize,
    threads: usize,
    multipv: usize,
    overhead: Duration,
    /// `UCI_Chess960`: castling moves read and written as king takes rook.
    chess960: bool,
    /// `Skill Level`, 0..=20.
    skill_level: u8,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (which then overrides `Skill Level`).
    limit_strength: bool,
    /// `UCI_Elo`.
    elo: u32,
    /// The seed of a weakened engine's choices, fixed for the session.
    skill_seed: u64,
}

impl Settings {
    fn notation(&self) -> CastlingNotation {
        CastlingNotation::chess960(self.chess960)
    }

    /// The strength the options ask for: `UCI_Elo`'s level under `UCI_LimitStrength`, else
    /// `Skill Level`'s.
    fn skill(&self) -> Skill {
        let skill = if self.limit_strength {
            Skill::from_elo(self.elo)
        } else {
            Skill::new(self.skill_level)
        };
        skill.with_seed(self.skill_seed)
    }
}

/// A running search: its thread (which hands the engine back) and its controls.
struct Running<'scope> {
    handle: ScopedJoinHandle<'scope, Engine>,
    control: Arc<Control>,
    /// Set by the search thread, under the output lock, just before it writes `bestmove`.
    done: Arc<AtomicBool>,
}

struct Session<'scope, 'env, W: Write + Send> {
    scope: &'scope Scope<'scope, 'env>,
    out: &'scope Mutex<W>,
    engine: Option<Engine>,
    running: Option<Running<'scope>>,
    position: Position,
    settings: Settings,
    new_game_pending: bool,
    tables: Option<JoinHandle<EndgameTables>>,
}

/// Runs the UCI loop over `input` until `quit` or the end of input, answering on `output`;
/// returns the output. Malformed commands get an `info string` and are otherwise ignored.
pub fn run<R: BufRead, W: Write + Send>(engine: Engine, input: R, output: W) -> io::Result<W> {
    run_with_tables(engine, None, input, output)
}

/// [`run`], with endgame tables being generated on another thread: they are plugged into the
/// engine at the first `isready` or `go` (which wait for them).
pub fn run_with_tables<R: BufRead, W: Write + Send>(
    engine: Engine,
    tables: Option<JoinHandle<EndgameTables>>,
    input: R,
    output: W,
) -> io::Result<W> {
    let out = Mutex::new(output);
    let result = std::thread::scope(|scope| {
        let mut session = Session {
            scope,
            out: &out,
            settings: Settings {
                hash_mib: engine.hash_mib(),
                threads: engine.threads(),
                multipv: engine.multipv(),
                overhead: Duration::from_millis(DEFAULT_OVERHEAD_MS),
                chess960: false,
                skill_level: engine.skill().level(),
                limit_strength: false,
                elo: Skill::MIN_ELO,
                skill_seed: session_seed(),
            },
            engine: Some(engine),
            running: None,
            position: Position::startpos(),
            new_game_pending: false,
            tables,
        };
        let mut outcome = Ok(());
        for line in input.lines() {
            let line = match line {
                Ok(l) => l,
                // Undecodable bytes are one bad command, not the end of the session.
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    if let Err(e) = session.say("info string ignored a line that is not UTF-8") {
                        outcome = Err(e);
                        break;
                    }
                    continue;
                }
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            };
            match session.command(&line) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
        }
        session.stop_search();
        outcome
    });
    result?;
    out.into_inner()
        .map_err(|_| io::Error::other("output lock poisoned"))
}

/// Runs the UCI loop on standard input and output, with the KBNvK, KQvK and KRvK tables and the
/// tablebase of the default directory (`tabla tb build`'s), when there is one.
pub fn run_stdio() -> io::Result<()> {
    let stdin = io::stdin();
    let tables = std::thread::spawn(|| EndgameTables::standard_with_tablebase(None));
    run_with_tables(Engine::new(), Some(tables), stdin.lock(), io::stdout()).map(|_| ())
}

fn lock<W>(out: &Mutex<W>) -> MutexGuard<'_, W> {
    // A panic while holding the lock cannot leave a half-written line worth refusing.
    out.lock().unwrap_or_else(|e| e.into_inner())
}

impl<'scope, 'env, W: Write + Send> Session<'scope, 'env, W> {
    fn say(&self, line: &str) -> io::Result<()> {
        let mut out = lock(self.out);
        writeln!(out, "{line}")?;
        out.flush()
    }

    fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.done.load(Ordering::SeqCst))
    }

    /// Waits for a finished (or finishing) search and takes the engine back.
    fn join_search(&mut self) {
        if let Some(running) = self.running.take() {
            match running.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                // The search panicked: carry on with a fresh engine rather than die.
                Err(_) => {
                    let _ = self.say("info string the search failed; the engine was reset");
                    self.engine = Some(Engine::new());
                }
            }
        }
    }

    /// Waits for the endgame tables being generated and hands them to the engine.
    fn attach_tables(&mut self) {
        let Some(handle) = self.tables.take() else {
            return;
        };
        match (handle.join(), self.engine.as_mut()) {
            (Ok(tables), Some(engine)) => engine.set_oracle(Some(Arc::new(tables))),
            // While a search holds the engine, keep them for the next `go`.
            (Ok(tables), None) => {
                let ready = std::thread::spawn(move || tables);
                self.tables = Some(ready);
            }
            (Err(_), _) => {
                let _ = self.say("info string endgame tables unavailable");
            }
        }
    }

    fn stop_search(&mut self) {
        if let Some(running) = &self.running {
            running.control.stop.store(true, Ordering::SeqCst);
            running.control.pondering.store(false, Ordering::SeqCst);
        }
        self.join_search();
    }

    /// Handles one line; `Ok(false)` to quit.
    fn command(&mut self, line: &str) -> io::Result<bool> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word {
            "" => {}
            "uci" => self.uci()?,
            "isready" => {
                self.attach_tables();
                self.say("readyok")?
            }
            "debug" => {}
            "setoption" => self.setoption(rest)?,
            "register" => {}
            "ucinewgame" => {
                if self.is_searching() {
                    self.say("info string ucinewgame ignored: a search is running (send stop)")?;
                } else {
                    self.new_game_pending = true;
                }
            }
            "position" => self.position(rest)?,
            "go" => self.go(rest)?,
            "stop" => self.stop_search(),
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.control.pondering.store(false, Ordering::SeqCst);
                }
            }
            "quit" => return Ok(false),
            "d" => {
                let diagram = self.position.text_diagram();
                let fen = self.position.to_fen();
                let mut out = lock(self.out);
                write!(out, "{diagram}")?;
                writeln!(out, "Fen: {fen}")?;
                out.flush()?;
            }
            _ => self.say(&format!("info string unknown command: {}", clip(line)))?,
        }
        Ok(true)
    }

    fn uci(&self) -> io::Result<()> {
        let mut out = lock(self.out);
        writeln!(out, "id name {ENGINE_NAME}")?;
        writeln!(out, "id author {ENGINE_AUTHOR}")?;
        writeln!(
            out,
            "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
        )?;
        writeln!(out, "option name Clear Hash type button")?;
        writeln!(
            out,
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        )?;
        writeln!(
            out,
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        )?;
        writeln!(
            out,
            "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
        )?;
        writeln!(out, "option name Ponder type check default false")?;
        writeln!(out, "option name UCI_Chess960 type check default false")?;
        writeln!(
            out,
            "option name Skill Level type spin default {MAX_SKILL_LEVEL} min 0 max {MAX_SKILL_LEVEL}"
        )?;
        writeln!(
            out,
            "option name UCI_LimitStrength type check default false"
        )?;
        writeln!(
            out,
            "option name UCI_Elo type spin default {} min {} max {}",
            Skill::MIN_ELO,
            Skill::MIN_ELO,
            Skill::MAX_ELO
        )?;
        writeln!(out, "uciok")?;
        out.flush()
    }

    fn setoption(&mut self, rest: &str) -> io::Result<()> {
        let Some(after_name) = rest.strip_prefix("name") else {
            return self.say("info string setoption: expected `setoption name <id> [value <x>]`");
        };
        let (name, value) = match after_name.split_once(" value") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (after_name.trim(), None),
        };
        let spin = |min: u64, max: u64| -> Result<u64, String> {
            let v = value.ok_or_else(|| format!("setoption: {name} needs a value"))?;
            match v.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "setoption: {name} takes a whole number from {min} to {max}, not {v:?}"
                )),
            }
        };
        let check = || -> Result<bool, String> {
            match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => Ok(true),
                Some("false") => Ok(false),
                _ => Err(format!(
                    "setoption: {name} takes true or false, not {:?}",
                    clip(value.unwrap_or(""))
                )),
            }
        };
        let outcome = match name.to_ascii_lowercase().as_str() {
            "hash" => spin(1, MAX_HASH_MIB as u64).map(|n| self.settings.hash_mib = n as usize),
            "threads" => spin(1, MAX_THREADS as u64).map(|n| self.settings.threads = n as usize),
            "multipv" => spin(1, MAX_MULTIPV as u64).map(|n| self.settings.multipv = n as usize),
            "move overhead" => {
                spin(0, MAX_OVERHEAD_MS).map(|n| self.settings.overhead = Duration::from_millis(n))
            }
            "clear hash" => {
                self.new_game_pending = true;
                Ok(())
            }
            "ponder" => Ok(()),
            "uci_chess960" => check().map(|on| self.settings.chess960 = on),
            "skill level" => {
                spin(0, MAX_SKILL_LEVEL as u64).map(|n| self.settings.skill_level = n as u8)
            }
            "uci_limitstrength" => check().map(|on| self.settings.limit_strength = on),
            "uci_elo" => spin(Skill::MIN_ELO as u64, Skill::MAX_ELO as u64)
                .map(|n| self.settings.elo = n as u32),
            _ => {
                return self.say(&format!(
                    "info string setoption: no option named {:?}",
                    clip(name)
                ));
            }
        };
        match outcome {
            Ok(()) => Ok(()),
            Err(message) => self.say(&format!("info string {message}; option unchanged")),
        }
    }

    fn position(&mut self, rest: &str) -> io::Result<()> {
        match parse_position_with(rest, self.settings.notation()) {
            Ok(pos) => {
                self.position = pos;
                Ok(())
            }
            Err(error) => self.say(&format!("info string {error}; position unchanged")),
        }
    }

    fn go(&mut self, rest: &str) -> io::Result<()> {
        if self.is_searching() {
            return self.say("info string go ignored: a search is running (send stop first)");
        }
        self.join_search();
        self.attach_tables();
        let limits = match Limits::parse(rest) {
            Ok(l) => l,
            Err(e) => return self.say(&format!("info string {e}; command ignored")),
        };
        let Some(mut engine) = self.engine.take() else {
            return self.say("info string internal error: no engine");
        };
        if self.new_game_pending {
            engine.new_game();
            self.new_game_pending = false;
        }
        engine.set_hash_mib(self.settings.hash_mib);
        engine.set_threads(self.settings.threads);
        engine.set_multipv(self.settings.multipv);
        engine.set_move_overhead(self.settings.overhead);
        engine.set_skill(self.settings.skill());
        let notation = self.settings.notation();
        let control = Arc::new(Control::default());
        if limits.ponder {
            control.pondering.store(true, Ordering::SeqCst);
        }
        let done = Arc::new(AtomicBool::new(false));
        let position = self.position.clone();
        let out = self.out;
        let thread_control = Arc::clone(&control);
        let thread_done = Arc::clone(&done);
        let multipv = self.settings.multipv > 1;
        let handle = std::thread::Builder::new()
            .name("tabla-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn_scoped(self.scope, move || {
                let mut reported = 0;
                let mut on_info = |info: &crate::Info| {
                    reported = info.nodes;
                    let mut o = lock(out);
                    let _ = writeln!(o, "{}", info.uci_line_with(multipv, notation));
                    let _ = o.flush();
                };
                let result = engine.search_here(&position, &limits, &thread_control, &mut on_info);
                let mut o = lock(out);
                thread_done.store(true, Ordering::SeqCst);
                // A search stopped inside an iteration searched more than its last report says.
                if result.nodes > reported {
                    let _ = writeln!(o, "{}", result.totals_line());
                }
                let _ = writeln!(o, "{}", result.bestmove_line_with(notation));
                let _ = o.flush();
                engine
            });
        match handle {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    control,
                    done,
                });
                Ok(())
            }
            Err(e) => {
                self.engine = Some(Engine::new());
                self.say(&format!(
                    "info string could not start the search thread: {e}"
                ))
            }
        }
    }
}

/// A seed for a weakened engine's choices that differs from session to session, so that a game
/// against a low `Skill Level` does not repeat itself.
fn session_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |t| t.as_nanos() as u64)
}

/// At most 60 characters of untrusted text for an error message.
fn clip(text: &str) -> String {
    let mut s: String = text.chars().take(60).collect();
    if s.len() < text.len() {
        s.push_str("...");
    }
    s
}
