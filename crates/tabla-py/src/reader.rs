//! `read_games`: games from a path (`.pgn` or `.pgn.zst`, told apart by the bytes, not the name),
//! from bytes, or from a Python file object, the GIL released while a game is parsed.

use crate::game::Game;
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::Mutex;
use tabla_convert::PgnText;
use tabla_pgn::{GameTree, Reader};

type Source = Box<dyn Read + Send>;

/// Reads a Python file object (binary or text) through its `read` method, taking the GIL for
/// each call.
struct FileObject {
    file: Py<PyAny>,
    chunk: Vec<u8>,
    at: usize,
}

const CHUNK: usize = 1 << 16;

impl FileObject {
    /// The next chunk of the file's bytes (text is encoded as UTF-8); empty at the end.
    fn fetch(&self) -> PyResult<Vec<u8>> {
        Python::attach(|py| {
            let data = self.file.bind(py).call_method1("read", (CHUNK,))?;
            if let Ok(bytes) = data.cast::<PyBytes>() {
                Ok(bytes.as_bytes().to_vec())
            } else if let Ok(text) = data.cast::<PyString>() {
                Ok(text.to_str()?.as_bytes().to_vec())
            } else {
                Err(PyTypeError::new_err(
                    "the file object's read() returned neither bytes nor str",
                ))
            }
        })
    }
}

impl Read for FileObject {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.chunk.len() {
            self.chunk = self
                .fetch()
                .map_err(|e| io::Error::other(format!("reading the file object: {e}")))?;
            self.at = 0;
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

struct State {
    reader: Reader<PgnText<Source>>,
    tree: GameTree,
}

/// An iterator over the games of a PGN source (see `read_games`).
#[pyclass(module = "tabla")]
pub struct GameReader {
    /// `None` once the input ended or failed.
    state: Mutex<Option<State>>,
}

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Game>> {
        let mut guard = self
            .state
            .lock()
            .map_err(|_| PyOSError::new_err("the reader failed in another thread"))?;
        let Some(state) = guard.as_mut() else {
            return Ok(None);
        };
        let next = py.detach(|| state.reader.read_game(&mut state.tree));
        match next {
            Ok(Some(game)) => Ok(Some(Game::new(game))),
            Ok(None) => {
                *guard = None;
                Ok(None)
            }
            Err(e) => {
                *guard = None;
                Err(PyOSError::new_err(format!("reading PGN: {e}")))
            }
        }
    }
}

/// The games of a PGN source, one `Game` at a time.
///
/// `source` is a path (`str` or `os.PathLike`) to a `.pgn` or zstd-compressed `.pgn.zst` file
/// (told apart by their first bytes), the PGN as `bytes`, or a file object opened in binary or
/// text mode. A damaged game is yielded with its `error` set and the next game is read; an
/// unreadable file raises `OSError`.
#[pyfunction]
pub fn read_games(source: &Bound<'_, PyAny>) -> PyResult<GameReader> {
    let input: Source = if let Ok(bytes) = source.cast::<PyBytes>() {
        Box::new(io::Cursor::new(bytes.as_bytes().to_vec()))
    } else if let Ok(path) = source.extract::<PathBuf>() {
        let file = std::fs::File::open(&path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        Box::new(file)
    } else if source.hasattr("read")? {
        Box::new(FileObject {
            file: source.clone().unbind(),
            chunk: Vec::new(),
            at: 0,
        })
    } else {
        return Err(PyTypeError::new_err(
            "read_games takes a path, bytes or a file object",
        ));
    };
    let text = PgnText::new(input)?;
    Ok(GameReader {
        state: Mutex::new(Some(State {
            reader: Reader::new(text),
            tree: GameTree::new(),
        })),
    })
}
