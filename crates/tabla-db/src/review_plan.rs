//! What a review of the games some filters select would take, before it starts: the games and
//! their positions, so that a page can ask "review 12 games, 1,030 positions, about 2 minutes?"
//! and a user choose before the engine runs for hours.

use crate::filters::Filters;
use crate::values::{int_at, ints};
use crate::{Database, DbError};
use serde::Serialize;

/// The games a review under some filters would take up (those reviewed before included: the
/// review skips them) and their positions.
#[derive(Copy, Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct ReviewPlan {
    /// Games the filters select.
    pub games: u64,
    /// Their positions: each game's plies, and the position after its last move.
    pub positions: u64,
}

impl Database {
    /// The games `filters` select and their positions: what [`Database::review`] under them
    /// would review, at most (games reviewed before are skipped).
    pub fn review_plan(&self, filters: &Filters) -> Result<ReviewPlan, DbError> {
        filters.validate()?;
        if self.manifest().batches.is_empty() {
            return Ok(ReviewPlan::default());
        }
        let condition = filters.games_sql();
        let batches = self.session().collect(&format!(
            "SELECT COUNT(*) AS games, CAST(SUM(CAST(g.plies AS BIGINT) + 1) AS BIGINT) AS positions \
             FROM games g WHERE TRUE{condition}"
        ))?;
        let Some(batch) = batches.first() else {
            return Ok(ReviewPlan::default());
        };
        let count = |name: &str| -> Result<u64, DbError> {
            Ok(int_at(&ints(batch, name)?, 0).unwrap_or(0).max(0) as u64)
        };
        Ok(ReviewPlan {
            games: count("games")?,
            positions: count("positions")?,
        })
    }
}
