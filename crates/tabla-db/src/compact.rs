//! Compaction: the explorer aggregates of many imports summed into one table.
//!
//! Each import writes the aggregate of its own games, and queries sum the aggregates of every
//! import: exact, but a lookup then reads one part per import. Compaction sums the parts into
//! one (the aggregate is a sum per key, move and bucket, so the result is the aggregate of all
//! the games at once), writes it under `explorer/<id>/`, and commits it in the manifest
//! ([`crate::Manifest::compacted`]); the parts it replaced are removed after the commit. An
//! interrupted compaction leaves the database as it was. [`crate::import`] compacts by itself
//! once a database has more than [`COMPACT_AFTER`] parts.

use crate::engine::{Engine, EngineOptions};
use crate::manifest::{Compaction, Manifest, compaction_dir, sync_dir};
use crate::store::{first_int, lock, remove_leftovers, write_explorer};
use crate::{DbError, tables};
use std::path::Path;

/// The explorer parts (the compaction and the imports after it) past which an import compacts.
pub const COMPACT_AFTER: usize = 8;

/// What a compaction did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompactSummary {
    /// Explorer parts before it.
    pub parts: usize,
    /// Rows of the parts before it.
    pub rows_before: u64,
    /// Rows of the compacted table (0 when nothing was done).
    pub rows: u64,
}

/// Sums the explorer parts of the database in `dir` into one; does nothing when there is at
/// most one part.
pub fn compact(dir: &Path, options: &EngineOptions) -> Result<CompactSummary, DbError> {
    Manifest::read(dir)?;
    let _lock = lock(dir)?;
    let mut manifest = Manifest::read(dir)?;
    remove_leftovers(dir, &manifest)?;
    compact_locked(dir, &mut manifest, options)
}

/// [`compact`], the lock held and the manifest read.
pub(crate) fn compact_locked(
    dir: &Path,
    manifest: &mut Manifest,
    options: &EngineOptions,
) -> Result<CompactSummary, DbError> {
    let parts = manifest.explorer_parts(dir);
    if parts.len() <= 1 {
        return Ok(CompactSummary {
            parts: parts.len(),
            ..CompactSummary::default()
        });
    }
    let id = manifest.compacted.as_ref().map_or(1, |c| c.id + 1);
    let staging = dir.join(format!(".staging-explorer-{id:06}"));
    let result = sum_parts(&parts, &staging, options);
    let (rows_before, rows) = match result {
        Ok(rows) => rows,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    let _ = std::fs::remove_dir_all(staging.join("spill"));
    let target = dir.join(compaction_dir(id));
    let parent = dir.join("explorer");
    std::fs::create_dir_all(&parent).map_err(DbError::io(&parent))?;
    std::fs::rename(&staging, &target).map_err(DbError::io(&target))?;
    sync_dir(&parent)?;
    manifest.compacted = Some(Compaction {
        id,
        through: manifest.batches.iter().map(|b| b.id).max().unwrap_or(0),
        rows,
    });
    manifest.write(dir)?;
    remove_leftovers(dir, manifest)?;
    Ok(CompactSummary {
        parts: parts.len(),
        rows_before,
        rows,
    })
}

/// Writes the sum of the explorer tables in `parts` to `out`, sorted by key and move; returns
/// the rows read and written.
fn sum_parts(
    parts: &[std::path::PathBuf],
    out: &Path,
    options: &EngineOptions,
) -> Result<(u64, u64), DbError> {
    let spill = out.join("spill");
    std::fs::create_dir_all(&spill).map_err(DbError::io(&spill))?;
    let mut options = options.clone();
    if options.spill_dir.is_none() {
        options.spill_dir = Some(spill);
    }
    let engine = Engine::new(&options)?;
    engine.register("explorer", parts, tables::explorer_schema(), false)?;
    let before = first_int(&engine, "SELECT COUNT(*) FROM explorer")?;
    let groups = "key_hi, key_lo, uci, rating_group, speed, year, month";
    let sums = ["games", "white", "draws", "black", "rating_sum", "rated"]
        .map(|c| format!("CAST(SUM({c}) AS BIGINT) AS {c}"))
        .join(", ");
    let sql = format!("SELECT {groups}, {sums} FROM explorer GROUP BY {groups}");
    let written = write_explorer(&engine, &sql, &out.join("part-00000.parquet"))?;
    Ok((before, written))
}
