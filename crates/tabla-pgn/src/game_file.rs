//! A PGN file on disk, edited game by game and saved without losing a byte: [`GameFile`].
//!
//! The file is cut where its games start (each game's bytes run to the next game's start, so
//! the blank lines after a game are its own; the first game's start from the file's start,
//! after a byte-order mark, since the comments before its tags are its own); saving writes the bytes of the games that did not
//! change exactly as they were read. A save is refused when the file changed on disk since it
//! was read (another program, another tab), and it never leaves a half-written file: the new
//! content goes to a temporary file beside it, is flushed to the disk and renamed over the old
//! one; the previous version is kept as `FILE.bak` (`games.pgn.bak`), replaced by each save.

use crate::{GameStart, Reader, Skip, Visitor};
use std::fs::{self, File};
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Why a file could not be opened or saved (the file on disk is then unchanged).
#[derive(Debug, thiserror::Error)]
pub enum GameFileError {
    /// Reading, writing or renaming failed.
    #[error("{what} {}: {source}", path.display())]
    Io {
        /// What was done (`reading`, `writing`, `renaming into place`).
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file on disk is not what was read: it changed since (the edits are not written).
    #[error(
        "{} changed on disk since it was read: not saved (read it again, or save elsewhere)",
        path.display()
    )]
    Changed {
        /// The file.
        path: PathBuf,
    },
    /// The file is read-only: it is not replaced.
    #[error("{} is read-only: not saved", path.display())]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
    /// A game number past the file's games.
    #[error("game {number}: the file has {games} games")]
    NoSuchGame {
        /// The number given (from 1).
        number: usize,
        /// How many games the file has.
        games: usize,
    },
}

/// A PGN file as read, cut into its games' bytes.
///
/// ```
/// use tabla_pgn::GameFile;
/// let dir = std::env::temp_dir().join(format!("tabla-doc-gamefile-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("games.pgn");
/// std::fs::write(&path, "[White \"A\"]\n\n1. e4 {old} *\n\n[White \"B\"]\n\n1.d4   d5 *\n").unwrap();
/// let mut file = GameFile::open(&path).unwrap();
/// assert_eq!(file.games(), 2);
/// file.save(&[(1, "[White \"A\"]\n\n1. e4 {new} *\n\n".to_owned())], &[]).unwrap();
/// let saved = std::fs::read_to_string(&path).unwrap();
/// // The second game keeps its bytes, spacing and all.
/// assert_eq!(saved, "[White \"A\"]\n\n1. e4 {new} *\n\n[White \"B\"]\n\n1.d4   d5 *\n");
/// assert!(std::fs::read_to_string(dir.join("games.pgn.bak")).unwrap().contains("{old}"));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
pub struct GameFile {
    path: PathBuf,
    bytes: Vec<u8>,
    /// Each game's bytes: from its first token to the next game's, the last to the end.
    spans: Vec<Range<usize>>,
}

impl GameFile {
    /// Reads the file and finds its games (as the reader reads them: every game, damaged or not).
    pub fn open(path: &Path) -> Result<GameFile, GameFileError> {
        let bytes = fs::read(path).map_err(|source| GameFileError::Io {
            what: "reading",
            path: path.to_owned(),
            source,
        })?;
        Ok(GameFile::from_bytes(path, bytes))
    }

    /// A file's bytes as read from `path`.
    pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> GameFile {
        /// Where each game starts, its moves skipped (not replayed): the reader's games.
        struct Starts(Vec<u64>);
        impl Visitor for Starts {
            type Output = ();
            fn begin_game(&mut self, start: GameStart) {
                self.0.push(start.location.offset);
            }
            fn end_tags(&mut self) -> Skip {
                Skip(true)
            }
            fn end_game(&mut self) {}
        }
        let mut starts = Starts(Vec::new());
        let mut reader = Reader::new(&bytes[..]);
        // Reading from memory cannot fail.
        while let Ok(Some(())) = reader.read_game(&mut starts) {}
        let mut starts: Vec<usize> = starts
            .0
            .iter()
            .map(|&offset| usize::try_from(offset).map_or(bytes.len(), |o| o.min(bytes.len())))
            .collect();
        if let Some(first) = starts.first_mut() {
            // The first game's bytes start after the byte-order mark: the comments before its
            // first tag are the game's (its tree holds them), so an edit of it replaces them.
            *first = if bytes.starts_with(b"\xef\xbb\xbf") {
                3
            } else {
                0
            };
        }
        let spans = starts
            .iter()
            .enumerate()
            .map(|(i, &start)| start..starts.get(i + 1).copied().unwrap_or(bytes.len()))
            .collect();
        GameFile {
            path: path.to_owned(),
            bytes,
            spans,
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many games the file has.
    pub fn games(&self) -> usize {
        self.spans.len()
    }

    /// The bytes as read.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Game `number`'s bytes (from 1), up to the next game's start.
    pub fn game_bytes(&self, number: usize) -> Option<&[u8]> {
        let span = self.spans.get(number.checked_sub(1)?)?;
        Some(&self.bytes[span.clone()])
    }

    /// The file's content with game `number` (from 1) replaced by its text for each of
    /// `replaced`, and `appended` games after the last (each text should end with a blank line,
    /// as [`crate::write_game`]'s does). Every other byte is as read.
    pub fn edited(
        &self,
        replaced: &[(usize, String)],
        appended: &[String],
    ) -> Result<Vec<u8>, GameFileError> {
        let mut texts: Vec<Option<&str>> = vec![None; self.spans.len()];
        for (number, text) in replaced {
            let slot = number.checked_sub(1).and_then(|i| texts.get_mut(i)).ok_or(
                GameFileError::NoSuchGame {
                    number: *number,
                    games: self.spans.len(),
                },
            )?;
            *slot = Some(text);
        }
        let prefix = self.spans.first().map_or(self.bytes.len(), |s| s.start);
        let mut out = Vec::with_capacity(self.bytes.len());
        out.extend_from_slice(&self.bytes[..prefix]);
        for (span, text) in self.spans.iter().zip(&texts) {
            match text {
                Some(text) => out.extend_from_slice(text.as_bytes()),
                None => out.extend_from_slice(&self.bytes[span.clone()]),
            }
        }
        if !appended.is_empty() && !out.is_empty() && !out.ends_with(b"\n\n") {
            // A new game starts on a line of its own, after a blank line.
            out.extend_from_slice(if out.ends_with(b"\n") { b"\n" } else { b"\n\n" });
        }
        for text in appended {
            out.extend_from_slice(text.as_bytes());
        }
        Ok(out)
    }

    /// Writes [`GameFile::edited`]'s content to the file, safely: refused when the file on disk
    /// is no longer what was read ([`GameFileError::Changed`]); the new content written to a
    /// temporary file in the same directory, flushed to the disk and renamed over the file (so
    /// that a crash leaves the old file or the new one, never a mix); the old content kept as
    /// `FILE.bak`. Afterwards this value holds the new content, for the next save.
    pub fn save(
        &mut self,
        replaced: &[(usize, String)],
        appended: &[String],
    ) -> Result<(), GameFileError> {
        let content = self.edited(replaced, appended)?;
        let on_disk = fs::read(&self.path).map_err(|source| GameFileError::Io {
            what: "reading",
            path: self.path.clone(),
            source,
        })?;
        if on_disk != self.bytes {
            return Err(GameFileError::Changed {
                path: self.path.clone(),
            });
        }
        let permissions = fs::metadata(&self.path)
            .map_err(|source| GameFileError::Io {
                what: "reading",
                path: self.path.clone(),
                source,
            })?
            .permissions();
        if permissions.readonly() {
            return Err(GameFileError::ReadOnly {
                path: self.path.clone(),
            });
        }
        let backup = sibling(&self.path, ".bak");
        write_replacing(&backup, &self.bytes)?;
        write_replacing(&self.path, &content)?;
        *self = GameFile::from_bytes(&self.path, content);
        Ok(())
    }
}

/// `path` with `suffix` added to its file name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(suffix);
    path.with_file_name(name)
}

/// Writes `bytes` to a temporary file beside `path`, flushes it to the disk and renames it over
/// `path`, then flushes the directory (on Unix): `path` holds the old content or the new one.
fn write_replacing(path: &Path, bytes: &[u8]) -> Result<(), GameFileError> {
    let temporary = sibling(path, &format!(".tabla-{}.tmp", std::process::id()));
    let io = |what: &'static str, path: &Path| {
        let path = path.to_owned();
        move |source| GameFileError::Io { what, path, source }
    };
    let written = (|| {
        let mut file = File::create(&temporary)?;
        file.write_all(bytes)?;
        if let Ok(old) = fs::metadata(path) {
            // The new file is the old one's successor: same permissions.
            file.set_permissions(old.permissions())?;
        }
        file.sync_all()
    })();
    if let Err(source) = written {
        let _ = fs::remove_file(&temporary);
        return Err(io("writing", &temporary)(source));
    }
    if let Err(source) = fs::rename(&temporary, path) {
        let _ = fs::remove_file(&temporary);
        return Err(io("renaming into place", path)(source));
    }
    #[cfg(unix)]
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        // The rename is durable once the directory is.
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io("flushing the directory of", path))?;
    }
    Ok(())
}
