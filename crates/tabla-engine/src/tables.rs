//! Exact endgame tables from `tabla-endgame` as the search's [`EndgameOracle`]: KBNK (and the
//! other king-and-pieces-against-king endings it can generate) played perfectly, the fastest mate
//! for the winner and the longest defence for the loser.

use crate::oracle::{EndgameOracle, OracleValue};
use tabla::Position;
use tabla_endgame::{Dtm, Material, Table, generate};

/// A set of distance-to-mate tables, asked in turn.
pub struct EndgameTables {
    tables: Vec<Table>,
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
        EndgameTables { tables, max_men }
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
}

impl EndgameOracle for EndgameTables {
    fn max_men(&self) -> u32 {
        self.max_men
    }

    fn probe(&self, pos: &Position) -> Option<OracleValue> {
        self.tables
            .iter()
            .find_map(|t| t.dtm(pos).ok())
            .map(|dtm| match dtm {
                Dtm::Win(n) => OracleValue::WinIn(u32::from(n)),
                Dtm::Loss(n) => OracleValue::LossIn(u32::from(n)),
                Dtm::Draw => OracleValue::Draw,
            })
    }
}
