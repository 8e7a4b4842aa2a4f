//! A directory of table files, and endings solved in memory: probing any position of up to five
//! men.
//!
//! A file of up to four men answers both sides to move, each value exact. A pawnless one stores one
//! side and the other is solved from it at the ending's first probe ([`TbFile::derived`]: a
//! fraction of a second, then both sides are read from memory); one with pawns stores both,
//! block-coded. A five-man file holds one
//! side ([`TbFile::stored`]) and leaves the value of a position whose best move is a capture to the
//! prober ([`TbFile::captures`]): the value is the better of the stored one and the best capture's,
//! read from the four-man files in one look-up each. A position with the other side to move is
//! answered by one ply: the best of its legal moves' values, each read from the files (a capture
//! or a promotion from another ending's). A position with an en-passant capture is answered the
//! same way, the capture among the moves. An ending without a file may be solved in memory
//! ([`Solved`], [`Tablebase::with_solved`]): KBNvK takes about a quarter of a second, and its
//! values are read from memory.

use crate::dtm::Dtm;
use crate::ending_stats::EndingStats;
use crate::layout::Layout;
use crate::men::{MAX_MEN, Men};
use crate::probe::{MoveValue, Probe};
use crate::score::{BACK, ORD, code_of_ord};
use crate::solve::{SOLVED_IN_MEMORY, SolveError, Solved, dtm_of};
use crate::tb_file::{TbFile, TbFileError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tabla::{CastlingRights, Color, Move, Position, Role};

/// The file name of an ending's table in a directory.
pub fn table_file_name(men: Men) -> String {
    format!("{}.tbm", men.canonical().0)
}

/// The file name of an ending's counts ([`EndingStats`]) beside its table.
pub fn stats_file_name(men: Men) -> String {
    format!("{}.stats", men.canonical().0)
}

/// Why a tablebase gives no value for a position.
#[derive(Debug, thiserror::Error)]
pub enum TbError {
    /// The ending's table is not in the directory.
    #[error(
        "no table for {missing} in {dir}; build it with `tabla tb build {missing} --dir {dir}`"
    )]
    Missing {
        /// The ending (as built: the stronger side White).
        missing: Men,
        /// The directory searched.
        dir: String,
    },
    /// More men than the tables hold.
    #[error("{0} men on the board; the tables hold at most {MAX_MEN}")]
    TooMany(usize),
    /// Castling rights: the tables hold positions without them.
    #[error("the position has castling rights; the tables hold positions without them")]
    Castling,
    /// A table file could not be read.
    #[error(transparent)]
    File(#[from] TbFileError),
}

struct Entry {
    file: TbFile,
    layout: Layout,
    /// A derived file's ending, both sides, solved at its first probe (or why it cannot be).
    derived: OnceLock<Result<Solved, (PathBuf, String)>>,
}

/// The table files of a directory, opened, and the endings solved in memory.
pub struct Tablebase {
    dir: PathBuf,
    tables: HashMap<Men, Entry>,
    /// Endings solved in memory ([`Tablebase::with_solved`]), read where no file is open.
    solved: Solved,
}

impl Tablebase {
    /// A tablebase of no tables (every ending but the kings alone is [`TbError::Missing`],
    /// naming `dir`).
    pub fn empty(dir: &Path) -> Tablebase {
        Tablebase {
            dir: dir.to_path_buf(),
            tables: HashMap::new(),
            solved: Solved::new(),
        }
    }

    /// Opens every `*.tbm` file of `dir` (a directory that does not exist holds no tables).
    pub fn open(dir: &Path) -> Result<Tablebase, TbFileError> {
        let mut tables = HashMap::new();
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Tablebase {
                    dir: dir.to_path_buf(),
                    tables,
                    solved: Solved::new(),
                });
            }
            Err(source) => {
                return Err(TbFileError::Io {
                    path: dir.to_path_buf(),
                    source,
                });
            }
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some("tbm") {
                continue;
            }
            let file = TbFile::open(&path)?;
            let men = file.men();
            tables.insert(
                men,
                Entry {
                    layout: Layout::new(men),
                    file,
                    derived: OnceLock::new(),
                },
            );
        }
        Ok(Tablebase {
            dir: dir.to_path_buf(),
            tables,
            solved: Solved::new(),
        })
    }

    /// Opens the directory again (a table built since is then read), keeping the endings solved
    /// in memory.
    pub fn reopen(&self) -> Result<Tablebase, TbFileError> {
        let mut again = Tablebase::open(&self.dir)?;
        again.solved = self.solved.clone();
        Ok(again)
    }

    /// These tables and the endings of `solved`, answered from memory where no file of theirs
    /// is open (a solved ending is shared, not copied).
    ///
    /// ```
    /// use std::path::Path;
    /// use tabla::Position;
    /// use tabla_endgame::{Dtm, Solved, Tablebase};
    ///
    /// let mut solved = Solved::new();
    /// solved.solve("KQvK".parse().unwrap()).unwrap();
    /// let tb = Tablebase::empty(Path::new("no tables here")).with_solved(&solved);
    /// let pos = Position::from_fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1").unwrap();
    /// assert_eq!(tb.probe(&pos).unwrap(), Dtm::Win(1));
    /// assert_eq!(tb.endings().len(), 1);
    /// ```
    pub fn with_solved(mut self, solved: &Solved) -> Tablebase {
        self.solved.extend(solved);
        self
    }

    /// These tables, with `men`'s ending solved in memory when it is one of
    /// [`SOLVED_IN_MEMORY`] and no table of it is open (up to a quarter of a second, nothing
    /// written); otherwise as they are.
    ///
    /// ```
    /// use std::path::Path;
    /// use tabla::Position;
    /// use tabla_endgame::{Dtm, Tablebase};
    ///
    /// let none = Tablebase::empty(Path::new("no tables here"));
    /// let tb = none.with_solved_if_missing("KQvK".parse().unwrap()).unwrap();
    /// let pos = Position::from_fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1").unwrap();
    /// assert_eq!(tb.probe(&pos).unwrap(), Dtm::Win(1));
    /// let none = Tablebase::empty(Path::new("no tables here"));
    /// let tb = none.with_solved_if_missing("KPvK".parse().unwrap()).unwrap();
    /// assert!(tb.endings().is_empty());
    /// ```
    pub fn with_solved_if_missing(self, men: Men) -> Result<Tablebase, SolveError> {
        let ending = men.canonical().0;
        let in_memory = SOLVED_IN_MEMORY
            .iter()
            .any(|name| name.parse::<Men>().is_ok_and(|m| m == ending));
        if !in_memory || self.endings().contains(&ending) {
            return Ok(self);
        }
        let mut solved = Solved::new();
        solved.solve(ending)?;
        Ok(self.with_solved(&solved))
    }

    /// The endings whose tables are open or solved in memory.
    pub fn endings(&self) -> Vec<Men> {
        let mut out: Vec<Men> = self.tables.keys().copied().collect();
        for men in self.solved.endings() {
            if !out.contains(&men) {
                out.push(men);
            }
        }
        out.sort();
        out
    }

    /// The table file of an ending (canonical), if open.
    pub fn file(&self, men: Men) -> Option<&TbFile> {
        self.tables.get(&men).map(|e| &e.file)
    }

    /// The counts of an ending's table (either colours), kept beside its file when it was built.
    /// An ending solved in memory is counted now.
    pub fn stats(&self, men: Men) -> Result<EndingStats, TbError> {
        let canonical = men.canonical().0;
        if !self.tables.contains_key(&canonical)
            && let Some(solution) = self.solved.get(canonical)
        {
            return Ok(EndingStats::count(canonical, &solution.layout_values()));
        }
        if !self.tables.contains_key(&canonical) {
            return Err(TbError::Missing {
                missing: canonical,
                dir: self.dir.display().to_string(),
            });
        }
        let path = self.dir.join(stats_file_name(canonical));
        let text = std::fs::read_to_string(&path).map_err(|source| TbFileError::Io {
            path: path.clone(),
            source,
        })?;
        EndingStats::from_text(&text)
            .filter(|s| s.men == canonical)
            .ok_or_else(|| {
                TbError::File(TbFileError::Damaged {
                    path,
                    reason: "not the counts of this ending".to_owned(),
                })
            })
    }

    /// The distance to mate of a position.
    ///
    /// ```no_run
    /// use std::path::Path;
    /// use tabla::Position;
    /// use tabla_endgame::{Dtm, Tablebase};
    ///
    /// let tb = Tablebase::open(Path::new("tables")).unwrap();
    /// let pos = Position::from_fen("8/5k2/2PK4/5r2/8/8/8/8 w - - 0 1").unwrap();
    /// assert_eq!(tb.probe(&pos).unwrap(), Dtm::Win(43));
    /// ```
    pub fn probe(&self, pos: &Position) -> Result<Dtm, TbError> {
        Ok(dtm_of(self.code(pos)?))
    }

    /// The value of a position and of every legal move, and the best move: the fastest mate for
    /// the winner, the longest resistance (or a draw) for the loser, the first in tabla's move
    /// order among equals.
    pub fn probe_moves(&self, pos: &Position) -> Result<Probe, TbError> {
        let dtm = self.probe(pos)?;
        let mut moves = Vec::new();
        for mv in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            moves.push(MoveValue {
                mv,
                after: self.probe(&after)?,
            });
        }
        let best: Option<Move> = moves
            .iter()
            .min_by_key(|m| m.for_mover().badness())
            .map(|m| m.mv);
        Ok(Probe {
            dtm,
            stalemate: moves.is_empty() && !pos.is_check(),
            best,
            moves,
        })
    }

    /// The optimal line from a position to mate (empty for a draw or a position already
    /// decided): the best move, again and again.
    pub fn line(&self, pos: &Position) -> Result<Vec<Move>, TbError> {
        let mut line = Vec::new();
        let mut pos = pos.clone();
        if self.probe(&pos)? == Dtm::Draw {
            return Ok(line);
        }
        // A mate of up to five men is at most 254 plies away.
        for _ in 0..300 {
            let probe = self.probe_moves(&pos)?;
            let Some(mv) = probe.best else { break };
            line.push(mv);
            pos.play_unchecked(mv);
        }
        Ok(line)
    }

    /// The value code of a position (`0` a draw, else plies + 1).
    pub(crate) fn code(&self, pos: &Position) -> Result<u8, TbError> {
        if pos.castling_rights() != CastlingRights::NONE {
            return Err(TbError::Castling);
        }
        let count = pos.board().pieces().count();
        if count > MAX_MEN {
            return Err(TbError::TooMany(count));
        }
        if count == 2 {
            return Ok(0);
        }
        let men = Men::of(pos).map_err(|_| TbError::TooMany(count))?;
        let (canonical, swapped) = men.canonical();
        let missing = || TbError::Missing {
            missing: canonical,
            dir: self.dir.display().to_string(),
        };
        let Some(entry) = self.tables.get(&canonical) else {
            if self.solved.get(canonical).is_none() {
                return Err(missing());
            }
            if pos.legal_ep_square().is_some() {
                return self.one_ply(pos);
            }
            return self.solved.code(pos).ok_or_else(missing);
        };
        if entry.file.derived() {
            let derived = entry.derived.get_or_init(|| {
                Solved::derive(&entry.file).map_err(|e| match e {
                    TbFileError::Io { path, source } => (path, source.to_string()),
                    TbFileError::Damaged { path, reason } => (path, reason),
                })
            });
            let solved = match derived {
                Ok(solved) => solved,
                Err((path, reason)) => {
                    return Err(TbError::File(TbFileError::Damaged {
                        path: path.clone(),
                        reason: reason.clone(),
                    }));
                }
            };
            if pos.legal_ep_square().is_some() {
                return self.one_ply(pos);
            }
            return solved.code(pos).ok_or_else(missing);
        }
        let turn = if swapped { !pos.turn() } else { pos.turn() };
        if !entry.file.stores(turn) || pos.legal_ep_square().is_some() {
            return self.one_ply(pos);
        }
        let mut squares = [0u8; MAX_MEN];
        let mut kinds = [(Color::White, Role::Pawn, 0u8); MAX_MEN];
        let mut n = 0;
        for (sq, piece) in pos.board().pieces() {
            let (color, s) = if swapped {
                (!piece.color, sq.index() as u8 ^ 56)
            } else {
                (piece.color, sq.index() as u8)
            };
            match (color, piece.role) {
                (Color::White, Role::King) => squares[0] = s,
                (Color::Black, Role::King) => squares[1] = s,
                (c, r) => {
                    kinds[n] = (c, r, s);
                    n += 1;
                }
            }
        }
        let mut used = [false; MAX_MEN];
        for (at, (color, role)) in entry.layout.men_order().into_iter().enumerate() {
            let i = (0..n)
                .find(|&i| !used[i] && kinds[i].0 == color && kinds[i].1 == role)
                .unwrap_or(0);
            used[i] = true;
            squares[2 + at] = kinds[i].2;
        }
        let total = canonical.total();
        // A legal position always has a slot (tabla's Position is legal).
        let slot = entry.layout.slot(&squares[..total]).unwrap_or(0);
        let stored = entry.file.value(turn, slot)?;
        if !entry.file.captures() {
            return Ok(stored);
        }
        // Where the best capture is the value, the file may hold anything no better.
        let mut best = ORD[stored as usize];
        for mv in pos.legal_moves() {
            if mv.is_capture() {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                best = best.max(BACK[self.code(&after)? as usize]);
            }
        }
        Ok(code_of_ord(best))
    }

    /// The best of a position's legal moves, each move's value read from the tables.
    fn one_ply(&self, pos: &Position) -> Result<u8, TbError> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(if pos.is_check() { 1 } else { 0 });
        }
        let mut best = 0u8;
        for mv in moves {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            best = best.max(BACK[self.code(&after)? as usize]);
        }
        Ok(code_of_ord(best))
    }
}
