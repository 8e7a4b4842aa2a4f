//! What imports and compactions share: the database's lock, the removal of what an interrupted
//! one left, and writing an explorer table (sorted, for the lookups: [`crate::lookup_write`]).

use crate::DbError;
use crate::lookup_write::write_sorted;
use crate::manifest::Manifest;
use crate::session::Session;
use datafusion::prelude::col;
use std::fs::File;
use std::path::Path;

/// Holds the database's lock while alive.
pub(crate) struct Lock(#[allow(dead_code)] File);

pub(crate) fn lock(dir: &Path) -> Result<Lock, DbError> {
    let path = dir.join("tabla-db.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(DbError::io(&path))?;
    match file.try_lock() {
        Ok(()) => Ok(Lock(file)),
        Err(std::fs::TryLockError::WouldBlock) => Err(DbError::Locked(dir.to_owned())),
        Err(std::fs::TryLockError::Error(e)) => Err(DbError::io(&path)(e)),
    }
}

/// Runs `sql` (rows of the `explorer` table) and writes its result as the Parquet file `out`,
/// sorted by key and move; returns the rows written.
pub(crate) fn write_explorer(session: &Session, sql: &str, out: &Path) -> Result<u64, DbError> {
    session.block_on(async {
        let df = session.ctx.sql(sql).await?.sort(vec![
            col("key_hi").sort(true, false),
            col("key_lo").sort(true, false),
            col("uci").sort(true, false),
        ])?;
        write_sorted(df, out, 16_384, true).await
    })
}

/// Removes what an interrupted import or compaction left: staging directories, batch and
/// compaction directories the manifest does not list (moved into place, but never committed),
/// and the explorer parts (with their totals) a committed compaction replaced.
pub(crate) fn remove_leftovers(dir: &Path, manifest: &Manifest) -> Result<(), DbError> {
    for entry in std::fs::read_dir(dir).map_err(DbError::io(dir))? {
        let entry = entry.map_err(DbError::io(dir))?;
        if entry.file_name().to_string_lossy().starts_with(".staging-") {
            std::fs::remove_dir_all(entry.path()).map_err(DbError::io(entry.path()))?;
        }
    }
    let batches = dir.join("batches");
    if let Ok(entries) = std::fs::read_dir(&batches) {
        for entry in entries {
            let entry = entry.map_err(DbError::io(&batches))?;
            let listed = manifest
                .batches
                .iter()
                .any(|b| dir.join(b.dir()) == entry.path());
            if !listed {
                std::fs::remove_dir_all(entry.path()).map_err(DbError::io(entry.path()))?;
            }
        }
    }
    let compactions = dir.join("explorer");
    if let Ok(entries) = std::fs::read_dir(&compactions) {
        for entry in entries {
            let entry = entry.map_err(DbError::io(&compactions))?;
            let current = manifest
                .compacted
                .as_ref()
                .is_some_and(|c| dir.join(c.dir()) == entry.path());
            if !current {
                std::fs::remove_dir_all(entry.path()).map_err(DbError::io(entry.path()))?;
            }
        }
    }
    if let Some(c) = &manifest.compacted {
        // A compacted import's aggregate, and the totals of it.
        for batch in manifest.batches.iter().filter(|b| b.id <= c.through) {
            for table in ["explorer", "totals"] {
                let folded = dir.join(batch.dir()).join(table);
                if folded.is_dir() {
                    std::fs::remove_dir_all(&folded).map_err(DbError::io(&folded))?;
                }
            }
        }
    }
    Ok(())
}
