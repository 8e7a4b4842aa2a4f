//! Exact endgame tables from `tabla-endgame` as the search's [`EndgameOracle`]: the specialised
//! tables held in memory (KBNK, KQK, KRK: a probe is a few dozen nanoseconds) and, when one is
//! given, a [`Tablebase`] directory of table files for every ending of up to five men built with
//! `tabla tb build`. Positions are played perfectly: the fastest mate for the winner and the
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
use tabla_endgame::{Dtm, Material, Table, Tablebase, default_tablebase_dir, generate};

/// A set of distance-to-mate tables, asked in turn.
pub struct EndgameTables {
    tables: Vec<Table>,
    tablebase: Option<Arc<Tablebase>>,
    max_men: u32,
}

impl EndgameTables {
    /// The given tables.
    pub fn new(tables: Vec<Table>) -> EndgameTables {
        let max_men = tables
            .iter()
            .map(|t| t.material().pieces().len() as u32 + 2)
            .max()
            .unwrap_or(0);
        EndgameTables {
            tables,
            tablebase: None,
            max_men,
        }
    }

    /// Generates the tables of `materials` (KBNK takes about a fifth of a second).
    pub fn generate(materials: &[Material]) -> EndgameTables {
        EndgameTables::new(
            materials
                .iter()
                .map(|&m| generate(m, &mut |_| {}))
                .collect(),
        )
    }

    /// KBNK, KQK and KRK.
    pub fn standard() -> EndgameTables {
        EndgameTables::generate(&[Material::KBNK, Material::KQK, Material::KRK])
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
        if let Some(dtm) = self.tables.iter().find_map(|t| t.dtm(pos).ok()) {
            return Some(oracle_value(dtm));
        }
        let tablebase = self.tablebase.as_deref()?;
        if ply > 1 && pos.halfmoves() != 0 {
            return None;
        }
        tablebase.probe(pos).ok().map(oracle_value)
    }
}
