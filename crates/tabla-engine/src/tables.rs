//! Exact endgame tables from `tabla-endgame` as the search's [`EndgameOracle`]: endings solved in
//! memory at start (KBNvK, KQvK and KRvK, with the endings they lead to: a probe is a fraction of
//! a microsecond) and, when one is given, a [`Tablebase`] directory of table files for every
//! ending of up to five men built with `tabla tb build`. Positions are played perfectly: the fastest mate for the winner and the
//! longest defence for the loser.
//!
//! A tablebase probe may decode a block of its file, so the tablebase is asked about the root,
//! the root's moves and positions just after a capture or a pawn move (the halfmove clock at
//! zero): the moves that change the ending, which is where the search needs it; deeper in an
//! unchanged ending the root's answer already stands. The search itself keeps a table's result
//! only when the fifty-move rule lets it stand ([`crate::OracleValue::in_time`]).

use crate::oracle::{EndgameOracle, OracleValue};
use std::path::Path;
use std::sync::Arc;
use tabla::Position;
use tabla_endgame::{Dtm, Men, Solved, Tablebase, default_tablebase_dir};

/// Distance-to-mate tables: endings solved in memory, then a tablebase's files.
pub struct EndgameTables {
    solved: Solved,
    tablebase: Option<Arc<Tablebase>>,
    max_men: u32,
}

use tabla_endgame::SOLVED_IN_MEMORY;

impl EndgameTables {
    /// The endings solved in `solved`.
    pub fn new(solved: Solved) -> EndgameTables {
        let max_men = solved
            .endings()
            .iter()
            .map(|m| m.total() as u32)
            .max()
            .unwrap_or(0);
        EndgameTables {
            solved,
            tablebase: None,
            max_men,
        }
    }

    /// KBNvK, KQvK and KRvK (and KBvK and KNvK, where KBNvK's captures lead), solved in memory
    /// (about a quarter of a second).
    pub fn standard() -> EndgameTables {
        let mut solved = Solved::new();
        for name in SOLVED_IN_MEMORY {
            if let Ok(men) = name.parse::<Men>() {
                // Four men at most: solving cannot fail.
                let _ = solved.solve(men);
            }
        }
        EndgameTables::new(solved)
    }

    /// The endings solved in memory.
    pub fn solved(&self) -> &Solved {
        &self.solved
    }

    /// [`EndgameTables::standard`] and the tablebase in `dir` (by default
    /// [`default_tablebase_dir`]), when it opens; a directory that does not exist holds no
    /// tables, and one that does not open is left out with a note on standard error.
    pub fn standard_with_tablebase(dir: Option<&Path>) -> EndgameTables {
        let dir = dir.map_or_else(default_tablebase_dir, Path::to_path_buf);
        let tables = EndgameTables::standard();
        match Tablebase::open(&dir) {
            Ok(tablebase) => tables.with_tablebase(Arc::new(tablebase)),
            Err(e) => {
                eprintln!("endgame tables left out: {e}");
                tables
            }
        }
    }

    /// These tables and `tablebase`'s, asked after them.
    pub fn with_tablebase(mut self, tablebase: Arc<Tablebase>) -> EndgameTables {
        let most = tablebase
            .endings()
            .iter()
            .map(|m| m.total() as u32)
            .max()
            .unwrap_or(0);
        self.max_men = self.max_men.max(most);
        self.tablebase = Some(tablebase);
        self
    }

    /// The tablebase, if one was given.
    pub fn tablebase(&self) -> Option<&Tablebase> {
        self.tablebase.as_deref()
    }
}

fn oracle_value(dtm: Dtm) -> OracleValue {
    match dtm {
        Dtm::Win(n) => OracleValue::WinIn(u32::from(n)),
        Dtm::Loss(n) => OracleValue::LossIn(u32::from(n)),
        Dtm::Draw => OracleValue::Draw,
    }
}

impl EndgameOracle for EndgameTables {
    fn max_men(&self) -> u32 {
        self.max_men
    }

    fn probe(&self, pos: &Position, ply: usize) -> Option<OracleValue> {
        // Two kings alone: the search sees the draw by itself (insufficient material).
        if pos.board().pieces().count() > 2
            && let Some(dtm) = self.solved.dtm(pos)
        {
            return Some(oracle_value(dtm));
        }
        let tablebase = self.tablebase.as_deref()?;
        if ply > 1 && pos.halfmoves() != 0 {
            return None;
        }
        tablebase.probe(pos).ok().map(oracle_value)
    }
}
