//! Compaction: the explorer aggregates of many imports summed into one table.
//!
//! Each import writes the aggregate of its own games, and queries sum the aggregates of every
//! import: exact, but a lookup then reads one part per import. Compaction sums the parts into
//! one (the aggregate is a sum per key, move and bucket, so the result is the aggregate of all
//! the games at once), writes it under `explorer/<id>/`, and commits it in the manifest
//! ([`crate::Manifest::compacted`]); the parts it replaced are removed after the commit. An
//! interrupted compaction leaves the database as it was. [`crate::import`] compacts by itself
//! once a database has more than [`COMPACT_AFTER`] parts.
//!
//! An import's aggregate holds only the positions it counts for at least
//! [`crate::lists::LISTED_FROM`] games (the others are counted from its `positions`), so a
//! position popular in one import may have no rows in another's part though that import has
//! games there. A position the compaction holds must be complete (a lookup that finds its rows
//! reads no positions), so for each such part and each position it lacks that another part has,
//! its games are looked up in the part's positions and counted by sql/explorer.sql with the rest.

use crate::lookup::SortedFiles;
use crate::manifest::{Compaction, ExplorerUnit, Manifest, batch_dir, compaction_dir, sync_dir};
use crate::session::{QueryOptions, Session};
use crate::store::{lock, remove_leftovers, write_explorer};
use crate::values::first_int;
use crate::values::{int_at, ints};
use crate::{DbError, tables};
use std::path::{Path, PathBuf};

/// The explorer parts (the compaction and the imports after it) past which an import compacts.
pub const COMPACT_AFTER: usize = 8;

/// What a compaction did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompactSummary {
    /// Explorer parts before it.
    pub parts: usize,
    /// Rows of the parts before it.
    pub rows_before: u64,
    /// Rows of `positions` looked up to complete the positions some parts lack (see the
    /// module's documentation).
    pub completed: u64,
    /// Rows of the compacted table (0 when nothing was done).
    pub rows: u64,
}

/// Sums the explorer parts of the database in `dir` into one; does nothing when there is at
/// most one part.
pub fn compact(dir: &Path, options: &QueryOptions) -> Result<CompactSummary, DbError> {
    Manifest::read(dir)?;
    let _lock = lock(dir)?;
    let mut manifest = Manifest::read(dir)?;
    remove_leftovers(dir, &manifest)?;
    crate::parts::verify(dir, &manifest)?;
    compact_locked(dir, &mut manifest, options)
}

/// [`compact`], the lock held and the manifest read.
pub(crate) fn compact_locked(
    dir: &Path,
    manifest: &mut Manifest,
    options: &QueryOptions,
) -> Result<CompactSummary, DbError> {
    let units: Vec<ExplorerUnit> = (manifest.explorer_units().into_iter())
        .filter(|u| dir.join(&u.dir).is_dir())
        .collect();
    if units.len() <= 1 {
        return Ok(CompactSummary {
            parts: units.len(),
            ..CompactSummary::default()
        });
    }
    let id = manifest.compacted.as_ref().map_or(1, |c| c.id + 1);
    let staging = dir.join(format!(".staging-explorer-{id:06}"));
    let result = sum_parts(dir, manifest, &units, &staging, options);
    let (rows_before, completed, rows) = match result {
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
    let through = manifest.batches.iter().map(|b| b.id).max().unwrap_or(0);
    manifest.compacted = Some(Compaction {
        id,
        through,
        rows,
        parts: Vec::new(),
    });
    crate::parts::retire_compacted(manifest, through);
    crate::parts::record_unlisted(dir, manifest)?;
    manifest.write(dir)?;
    remove_leftovers(dir, manifest)?;
    Ok(CompactSummary {
        parts: units.len(),
        rows_before,
        completed,
        rows,
    })
}

/// Writes the sum of the explorer parts `units` to `out`, sorted by key and move, each
/// position complete (see the module's documentation); returns the rows read, the positions
/// rows that completed them, and the rows written.
fn sum_parts(
    dir: &Path,
    manifest: &Manifest,
    units: &[ExplorerUnit],
    out: &Path,
    options: &QueryOptions,
) -> Result<(u64, u64, u64), DbError> {
    let spill = out.join("spill");
    std::fs::create_dir_all(&spill).map_err(DbError::io(&spill))?;
    let mut options = options.clone();
    if options.spill_dir.is_none() {
        options.spill_dir = Some(spill);
    }
    let session = Session::new(&options)?;
    let parts: Vec<PathBuf> = units.iter().map(|u| dir.join(&u.dir)).collect();
    session.register("explorer", &parts, tables::explorer_schema(), false)?;
    let before = first_int(&session, "SELECT COUNT(*) FROM explorer")?;
    let completion = out.join("completion");
    let completed = complete(dir, units, &session, &completion.join("positions.parquet"))?;
    let groups = "key_hi, key_lo, uci, rating_group, speed, year, month";
    let counts = "games, white, draws, black, rating_sum, rated";
    let sums = ["games", "white", "draws", "black", "rating_sum", "rated"]
        .map(|c| format!("CAST(SUM({c}) AS BIGINT) AS {c}"))
        .join(", ");
    let rows = if completed > 0 {
        tables::register_positions(&session, std::slice::from_ref(&completion), false)?;
        let counted = tables::explorer_sql(manifest.max_ply);
        format!(
            "SELECT {groups}, {counts} FROM explorer UNION ALL \
             SELECT {groups}, {counts} FROM ({counted}\n) counted"
        )
    } else {
        format!("SELECT {groups}, {counts} FROM explorer")
    };
    let sql = format!("SELECT {groups}, {sums} FROM ({rows}) parts GROUP BY {groups}");
    let written = write_explorer(&session, &sql, &out.join("part-00000.parquet"))?;
    std::fs::remove_dir_all(&completion).ok();
    Ok((before, completed, written))
}

/// Writes to the Parquet file `out` the `positions` rows that complete the compaction of
/// `units` (whose parts are registered as `explorer` on `engine`): for each part with
/// fallback batches, the rows in their positions of the positions that another part has and
/// this one lacks. Returns the rows written (no file when none).
fn complete(
    dir: &Path,
    units: &[ExplorerUnit],
    session: &Session,
    out: &Path,
) -> Result<u64, DbError> {
    use datafusion::arrow::array::{Array, BooleanArray};
    use datafusion::arrow::compute::filter_record_batch;
    let schema = tabla_convert::positions_schema(tabla_convert::PositionsTable::Keys);
    let columns: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    let mut writer: Option<parquet::arrow::ArrowWriter<std::fs::File>> = None;
    let mut written = 0u64;
    for (i, unit) in units.iter().enumerate() {
        if unit.fallback.is_empty() {
            continue;
        }
        let positions = SortedFiles::open(
            &(unit.fallback.iter())
                .map(|&b| dir.join(batch_dir(b)).join("positions"))
                .collect::<Vec<_>>(),
            "key_hi",
        )?;
        let part = format!("part_{i}");
        session.register(
            &part,
            std::slice::from_ref(&dir.join(&unit.dir)),
            tables::explorer_schema(),
            false,
        )?;
        // The positions this part lacks, in sorted chunks (a chunk's lookups share pages).
        let lacking = format!(
            "SELECT key_hi, key_lo FROM explorer EXCEPT SELECT key_hi, key_lo FROM {part} \
             ORDER BY key_hi, key_lo"
        );
        session.for_each_batch(&lacking, |keys| {
            let (hi, lo) = (ints(keys, "key_hi")?, ints(keys, "key_lo")?);
            let wanted: std::collections::HashSet<(i64, i64)> = (0..keys.num_rows())
                .filter_map(|r| Some((int_at(&hi, r)?, int_at(&lo, r)?)))
                .collect();
            let mut his: Vec<i64> = wanted.iter().map(|k| k.0).collect();
            his.sort_unstable();
            his.dedup();
            for batch in positions.rows(&his, &columns)? {
                let (bh, bl) = (ints(&batch, "key_hi")?, ints(&batch, "key_lo")?);
                let keep: BooleanArray = (0..batch.num_rows())
                    .map(|r| {
                        Some(
                            bh.is_valid(r)
                                && bl.is_valid(r)
                                && wanted.contains(&(bh.value(r), bl.value(r))),
                        )
                    })
                    .collect();
                let rows = filter_record_batch(&batch, &keep)
                    .map_err(|e| DbError::Query(format!("compaction: {e}")))?;
                if rows.num_rows() == 0 {
                    continue;
                }
                if writer.is_none() {
                    let parent = out.parent().unwrap_or(out);
                    std::fs::create_dir_all(parent).map_err(DbError::io(parent))?;
                    let file = std::fs::File::create(out).map_err(DbError::io(out))?;
                    let w = parquet::arrow::ArrowWriter::try_new(file, schema.clone(), None)
                        .map_err(|e| DbError::Query(format!("{}: {e}", out.display())))?;
                    writer = Some(w);
                }
                written += rows.num_rows() as u64;
                if let Some(w) = writer.as_mut() {
                    let rows = rows
                        .with_schema(schema.clone())
                        .map_err(|e| DbError::Query(format!("compaction: {e}")))?;
                    w.write(&rows)
                        .map_err(|e| DbError::Query(format!("{}: {e}", out.display())))?;
                }
            }
            Ok(())
        })?;
    }
    if let Some(w) = writer {
        w.close()
            .map_err(|e| DbError::Query(format!("{}: {e}", out.display())))?;
    }
    Ok(written)
}
