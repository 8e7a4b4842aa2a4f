//! The totals table: for each position an import counts for at least
//! [`crate::lists::LISTED_FROM`] games, a row per move with its counts over every bucket and
//! the latest month it was played. An answer without filters reads these few rows instead of
//! adding up the position's rows of every bucket (the start position of 2 million games has
//! hundreds of thousands).
//!
//! Written by [`crate::lists::write_lists`] in its pass over the import's positions, from the
//! rows that the counting rule counts: the same sums as the aggregate's rows of the position
//! added up (the tests compare the two).

use crate::DbError;
use arrow_array::builder::{Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::sync::Arc;

/// The six count columns, in the order of the table (as in the `explorer` table).
pub(crate) const COUNTS: [&str; 6] = ["games", "white", "draws", "black", "rating_sum", "rated"];

/// The `totals` table's schema: per position and move, the counts over every bucket and the
/// latest month (`YYYYMM`) played.
pub(crate) fn totals_schema() -> SchemaRef {
    let int = |name: &str, nullable| Field::new(name, DataType::Int64, nullable);
    let mut fields = vec![
        int("key_hi", false),
        int("key_lo", false),
        Field::new("uci", DataType::Utf8, true),
    ];
    fields.extend(COUNTS.map(|c| int(c, false)));
    fields.push(int("last", true));
    Arc::new(Schema::new(fields))
}

/// A move in UCI, held without an allocation (zero-padded: ordered as the text).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Uci([u8; 7]);

impl Uci {
    pub(crate) fn new(text: &str) -> Result<Uci, DbError> {
        let mut bytes = [0; 7];
        if text.len() > bytes.len() || text.bytes().any(|b| b == 0) {
            return Err(DbError::Query(format!("explorer: {text:?} is not a move")));
        }
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Ok(Uci(bytes))
    }

    pub(crate) fn as_str(&self) -> &str {
        let len = self.0.iter().position(|&b| b == 0).unwrap_or(self.0.len());
        std::str::from_utf8(&self.0[..len]).unwrap_or("")
    }
}

/// One move's totals: the counts ([`COUNTS`]) and the latest month.
pub(crate) type MoveTotal = (Uci, [i64; 6], Option<i64>);

/// The totals of one position's moves, added up a counted game at a time.
#[derive(Debug, Default)]
pub(crate) struct PositionTotals {
    moves: Vec<MoveTotal>,
}

impl PositionTotals {
    /// Counts a game that played `uci` from the position, with its `outcome` (1, 0, -1 from
    /// White's view), its players' Elo sum when both are known, and its month (`YYYYMM`).
    pub(crate) fn add(
        &mut self,
        uci: &str,
        outcome: i64,
        elo_sum: Option<i64>,
        month: Option<i64>,
    ) -> Result<(), DbError> {
        let uci = Uci::new(uci)?;
        let index = match self.moves.iter().position(|m| m.0 == uci) {
            Some(index) => index,
            None => {
                self.moves.push((uci, [0; 6], None));
                self.moves.len() - 1
            }
        };
        let (_, counts, last) = &mut self.moves[index];
        counts[0] += 1;
        match outcome {
            1 => counts[1] += 1,
            0 => counts[2] += 1,
            -1 => counts[3] += 1,
            _ => {}
        }
        if let Some(elo) = elo_sum {
            counts[4] += elo;
            counts[5] += 1;
        }
        *last = (*last).max(month);
        Ok(())
    }

    /// The moves' totals sorted by move, the position's totals emptied.
    pub(crate) fn drain(&mut self) -> std::vec::Drain<'_, MoveTotal> {
        self.moves.sort_unstable_by_key(|m| m.0);
        self.moves.drain(..)
    }

    pub(crate) fn clear(&mut self) {
        self.moves.clear();
    }
}

/// The totals table's rows being built.
#[derive(Default)]
pub(crate) struct TotalsColumns {
    hi: Int64Builder,
    lo: Int64Builder,
    uci: StringBuilder,
    counts: [Int64Builder; 6],
    last: Int64Builder,
}

impl TotalsColumns {
    pub(crate) fn push(&mut self, (hi, lo): (i64, i64), (uci, counts, last): &MoveTotal) {
        self.hi.append_value(hi);
        self.lo.append_value(lo);
        self.uci.append_value(uci.as_str());
        for (b, &c) in self.counts.iter_mut().zip(counts) {
            b.append_value(c);
        }
        self.last.append_option(*last);
    }

    pub(crate) fn len(&self) -> usize {
        use arrow_array::builder::ArrayBuilder;
        self.hi.len()
    }

    pub(crate) fn finish(&mut self) -> Result<RecordBatch, DbError> {
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.hi.finish()),
            Arc::new(self.lo.finish()),
            Arc::new(self.uci.finish()),
        ];
        columns.extend(
            self.counts
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef),
        );
        columns.push(Arc::new(self.last.finish()));
        RecordBatch::try_new(totals_schema(), columns)
            .map_err(|e| DbError::Query(format!("totals: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position's totals per move: games, each result, the Elo sums of the games with one,
    /// the latest known month; moves in UCI order.
    #[test]
    fn totals_add_up_each_moves_games() {
        let mut totals = PositionTotals::default();
        let games = [
            ("e2e4", 1, Some(3000), Some(202_001)),
            ("d2d4", 0, None, None),
            ("e2e4", -1, Some(2500), None),
            ("e2e4", 0, None, Some(201_912)),
            ("a7a8q", 1, Some(4000), Some(201_301)),
        ];
        for (uci, outcome, elo, month) in games {
            totals.add(uci, outcome, elo, month).expect("add");
        }
        let got: Vec<(String, [i64; 6], Option<i64>)> = totals
            .drain()
            .map(|(u, c, l)| (u.as_str().to_owned(), c, l))
            .collect();
        assert_eq!(
            got,
            vec![
                ("a7a8q".to_owned(), [1, 1, 0, 0, 4000, 1], Some(201_301)),
                ("d2d4".to_owned(), [1, 0, 1, 0, 0, 0], None),
                ("e2e4".to_owned(), [3, 1, 1, 1, 5500, 2], Some(202_001)),
            ]
        );
        assert!(totals.drain().next().is_none(), "drained");
        assert!(totals.add("e2e4e2e4", 1, None, None).is_err());
    }
}
