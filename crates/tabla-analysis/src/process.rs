//! An engine's process: started so that it dies with tabla, read and written by threads of its
//! own so that tabla never blocks on it, killed and reaped when dropped.
//!
//! No engine outlives tabla. Dropping an [`EngineProcess`] asks the engine to quit, then kills
//! it. On Linux the kernel also kills it (SIGKILL) when tabla dies in a way that runs no
//! destructor (a signal, an abort): each child asks for that with `PR_SET_PDEATHSIG` before it
//! runs the engine. The kernel sends that signal when the *thread* that started the child ends,
//! so every engine is started by one thread that lives as long as the process. On Ctrl-C the
//! terminal signals the whole foreground process group, tabla and its engines alike; an engine
//! that ignores SIGINT still gets its SIGKILL when tabla is gone.

use super::error::Said;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The longest line read from an engine; a longer one is garbage (and memory stays bounded).
const MAX_LINE_BYTES: usize = 64 * 1024;
/// Lines read but not yet taken before the reader waits (and the engine with it).
const READ_AHEAD_LINES: usize = 1024;
/// How much of the end of an engine's standard error is kept, to quote when it fails.
const STDERR_TAIL_BYTES: usize = 1024;
/// How many of its last lines are kept, to quote when it fails.
const RECENT_LINES: usize = 6;
/// How long an engine asked to quit may take before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(100);

/// What the reader thread hands on.
enum Output {
    Line(String),
    Garbage { problem: &'static str, text: String },
    End,
}

/// The next thing an engine said, or that it said nothing.
pub(crate) enum Next {
    /// A line, without its line ending.
    Line(String),
    /// Bytes that are no line of text: what is wrong, and the text (lossily decoded).
    Garbage { problem: &'static str, text: String },
    /// Nothing within the time given.
    TimedOut,
    /// The engine closed its output: it has ended, or is about to.
    Ended,
}

/// A running engine program with its standard streams piped.
pub(crate) struct EngineProcess {
    child: Child,
    /// `None` once the engine was told to quit.
    input: Option<Sender<String>>,
    output: Receiver<Output>,
    ended: bool,
    reaped: Option<ExitStatus>,
    recent: VecDeque<String>,
    stderr: Arc<StderrTail>,
}

/// The end of an engine's standard error, and whether it has ended.
#[derive(Default)]
struct StderrTail {
    text: Mutex<(String, bool)>,
    ended: Condvar,
}

impl EngineProcess {
    /// Starts `path` with `args`.
    pub(crate) fn start(path: &Path, args: &[OsString]) -> io::Result<EngineProcess> {
        let mut command = Command::new(path);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        die_with_parent(&mut command);
        let mut child = spawn(command)?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other(
                "the engine's standard streams were not piped",
            ));
        };
        let (input, commands) = mpsc::channel::<String>();
        let (lines, output) = mpsc::sync_channel(READ_AHEAD_LINES);
        let tail = Arc::new(StderrTail::default());
        let started = start_thread("tabla-engine-writer", move || {
            write_commands(stdin, commands)
        })
        .and_then(|()| start_thread("tabla-engine-reader", move || read_lines(stdout, lines)))
        .and_then(|()| {
            let tail = Arc::clone(&tail);
            start_thread("tabla-engine-stderr", move || keep_tail(stderr, &tail))
        });
        let mut process = EngineProcess {
            child,
            input: Some(input),
            output,
            ended: false,
            reaped: None,
            recent: VecDeque::new(),
            stderr: tail,
        };
        match started {
            Ok(()) => Ok(process),
            Err(error) => {
                process.kill();
                Err(error)
            }
        }
    }

    /// The process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one command (a newline is added). Never blocks: a writer thread delivers it. An
    /// engine that cannot take it any more is noticed by its output ending.
    pub(crate) fn send(&self, command: &str) {
        if let Some(input) = &self.input {
            let _ = input.send(command.to_owned());
        }
    }

    /// Waits at most `timeout` for the engine's next line.
    pub(crate) fn receive(&mut self, timeout: Duration) -> Next {
        if self.ended {
            return Next::Ended;
        }
        match self.output.recv_timeout(timeout) {
            Ok(Output::Line(line)) => {
                if self.recent.len() == RECENT_LINES {
                    self.recent.pop_front();
                }
                self.recent.push_back(line.clone());
                Next::Line(line)
            }
            Ok(Output::Garbage { problem, text }) => Next::Garbage { problem, text },
            Err(RecvTimeoutError::Timeout) => Next::TimedOut,
            Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => {
                self.ended = true;
                Next::Ended
            }
        }
    }

    /// The last lines it printed and the end of its standard error, for an error message.
    pub(crate) fn last_words(&self) -> Said {
        let mut text = self.recent.iter().cloned().collect::<Vec<_>>().join(" | ");
        let mut tail = self.stderr.text.lock().unwrap_or_else(|e| e.into_inner());
        if self.reaped.is_some() {
            // Its last words may still be in the pipe: give the reader a moment to finish.
            let deadline = Instant::now() + Duration::from_millis(200);
            while !tail.1 {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                tail = match self.stderr.ended.wait_timeout(tail, left) {
                    Ok((tail, _)) => tail,
                    Err(poisoned) => poisoned.into_inner().0,
                };
            }
        }
        let stderr = &tail.0;
        if !stderr.trim().is_empty() {
            if !text.is_empty() {
                text.push_str(" | ");
            }
            text.push_str("stderr: ");
            text.push_str(stderr.trim());
        }
        Said::last_words(&text)
    }

    /// After its output ended: how the process ended (it gets a moment to exit on its own, then
    /// is killed).
    pub(crate) fn exit_status(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = Some(status);
                    return describe(status);
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => {
                    self.kill();
                    return "closed its output, then was killed".to_owned();
                }
            }
        }
    }

    /// Kills the process now and reaps it.
    pub(crate) fn kill(&mut self) {
        self.input = None;
        if self.reaped.is_none() {
            let _ = self.child.kill();
            self.reaped = self.child.wait().ok();
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.reaped.is_some() {
            return;
        }
        // Asked politely first: `quit`, then the end of its input.
        self.send("quit");
        self.input = None;
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.reaped = Some(status);
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        self.kill();
    }
}

fn describe(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exit code {code}"),
        None => status.to_string(),
    }
}

fn start_thread(name: &str, work: impl FnOnce() + Send + 'static) -> io::Result<()> {
    std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(work)
        .map(|_| ())
}

fn write_commands(mut stdin: impl Write, commands: Receiver<String>) {
    for command in commands {
        let written = stdin
            .write_all(command.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        if written.is_err() {
            return;
        }
    }
    // Dropping `stdin` closes the engine's input.
}

fn read_lines(stdout: ChildStdout, lines: SyncSender<Output>) {
    let mut reader = BufReader::with_capacity(MAX_LINE_BYTES, stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        let too_long = match read_bounded_line(&mut reader, &mut line) {
            Ok(None) | Err(_) => break,
            Ok(Some(too_long)) => too_long,
        };
        while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            line.pop();
        }
        let output = if too_long {
            Output::Garbage {
                problem: "a line longer than 64 KiB",
                text: String::from_utf8_lossy(&line).into_owned(),
            }
        } else {
            match String::from_utf8(line.clone()) {
                Ok(text) => Output::Line(text),
                Err(_) => Output::Garbage {
                    problem: "bytes that are not UTF-8 text",
                    text: String::from_utf8_lossy(&line).into_owned(),
                },
            }
        };
        if lines.send(output).is_err() {
            return;
        }
    }
    let _ = lines.send(Output::End);
}

/// Reads up to a newline, keeping at most [`MAX_LINE_BYTES`] of it. `None` at the end of
/// input; else whether the line was cut.
fn read_bounded_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(read_any.then_some(too_long));
        }
        read_any = true;
        let (taken, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (end + 1, true),
            None => (buffer.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        too_long |= taken > room;
        line.extend_from_slice(&buffer[..taken.min(room)]);
        reader.consume(taken);
        if done {
            return Ok(Some(too_long));
        }
    }
}

fn keep_tail(mut stderr: ChildStderr, tail: &StderrTail) {
    let mut chunk = [0u8; 4096];
    loop {
        let n = match stderr.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let mut guard = tail.text.lock().unwrap_or_else(|e| e.into_inner());
        let tail = &mut guard.0;
        tail.push_str(&String::from_utf8_lossy(&chunk[..n]));
        if tail.len() > STDERR_TAIL_BYTES {
            let mut cut = tail.len() - STDERR_TAIL_BYTES;
            while !tail.is_char_boundary(cut) {
                cut += 1;
            }
            tail.drain(..cut);
        }
    }
    tail.text.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
    tail.ended.notify_all();
}

/// On Linux: the child asks the kernel for SIGKILL when its parent dies, and gives up if the
/// parent is already gone.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id();
    let ask = move || -> io::Result<()> {
        // SAFETY: prctl with PR_SET_PDEATHSIG takes one integer argument and touches no memory
        // of ours; it is a plain system call, safe between fork and exec.
        let asked = unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) };
        if asked != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: getppid has no arguments and cannot fail.
        let parent_now = unsafe { libc::getppid() };
        // The parent died before the request was made: no signal will come, so do not start.
        if u32::try_from(parent_now).ok() != Some(parent) {
            return Err(io::Error::from_raw_os_error(libc::ESRCH));
        }
        Ok(())
    };
    // SAFETY: `pre_exec` runs the closure in the child between fork and exec, where only
    // async-signal-safe work is allowed: it makes two system calls and builds its error from a
    // number, allocating nothing and taking no lock.
    unsafe {
        command.pre_exec(ask);
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_command: &mut Command) {}

type SpawnRequest = (Command, Sender<io::Result<Child>>);

/// Starts `command` from the one thread that starts every engine and never ends, so that the
/// parent-death signal fires when the process dies, not when the thread that asked for the
/// engine (a pool worker, a web server's blocking thread) ends.
fn spawn(mut command: Command) -> io::Result<Child> {
    static SPAWNER: OnceLock<Option<Mutex<Sender<SpawnRequest>>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (requests, inbox) = mpsc::channel::<SpawnRequest>();
        std::thread::Builder::new()
            .name("tabla-engine-spawner".into())
            .spawn(move || {
                for (mut command, reply) in inbox {
                    let _ = reply.send(command.spawn());
                }
            })
            .ok()
            .map(|_| Mutex::new(requests))
    });
    let Some(requests) = spawner else {
        // No thread could be started for it: this thread will have to do.
        return command.spawn();
    };
    let (reply, answer) = mpsc::channel();
    let sent = requests
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((command, reply));
    match sent {
        Ok(()) => answer
            .recv()
            .unwrap_or_else(|_| Err(io::Error::other("the engine spawner thread ended"))),
        Err(mpsc::SendError((mut command, _))) => command.spawn(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_flagged_and_the_next_line_is_whole() {
        let mut text = vec![b'x'; MAX_LINE_BYTES + 10];
        text.extend_from_slice(b"\nuciok\r\nlast");
        let mut reader = BufReader::with_capacity(1000, &text[..]);
        let mut line = Vec::new();
        assert_eq!(
            read_bounded_line(&mut reader, &mut line).ok(),
            Some(Some(true))
        );
        assert_eq!(line.len(), MAX_LINE_BYTES);
        line.clear();
        assert_eq!(
            read_bounded_line(&mut reader, &mut line).ok(),
            Some(Some(false))
        );
        assert_eq!(line, b"uciok\r\n");
        line.clear();
        assert_eq!(
            read_bounded_line(&mut reader, &mut line).ok(),
            Some(Some(false))
        );
        assert_eq!(line, b"last");
        line.clear();
        assert_eq!(read_bounded_line(&mut reader, &mut line).ok(), Some(None));
    }
}
