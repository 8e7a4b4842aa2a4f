//! The Parquet files a database's tables are read from, and the check that opening a database
//! makes of them: every file the manifest lists is there with the size it was written with and
//! ends with Parquet's footer, and no file it does not list sits where a table is read from.
//!
//! The query engine reads a table as the union of the files in its directories, so a deleted
//! file, or one emptied to zero bytes (which it skips without a word), would give smaller
//! answers; a file left over from elsewhere would give larger ones. The check costs a directory
//! walk and one small read per file: about 20 µs a file, 4.6 ms of the 16 ms that opening a
//! database of 224 files takes (`docs/db.md`, "Damaged files").
//!
//! A manifest written before parts were listed ([`crate::Batch::parts`] empty) cannot say a
//! file is missing: its files are checked for their footer only, and the next import or
//! compaction lists them ([`record_unlisted`]).

use crate::DbError;
use crate::manifest::{Manifest, Part};
use std::fs;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The last bytes of every Parquet file.
const FOOTER_MAGIC: &[u8; 4] = b"PAR1";
/// The smallest whole Parquet file: the magic at both ends and the footer's length.
const SMALLEST: u64 = 12;

/// The Parquet files under `dir` (recursively; names starting with `.` left out, as a temporary
/// file's), with their sizes, sorted by path. None when `dir` does not exist.
pub(crate) fn list(dir: &Path) -> Result<Vec<Part>, DbError> {
    let mut parts = Vec::new();
    walk(dir, "", &mut parts)?;
    parts.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(parts)
}

fn walk(dir: &Path, prefix: &str, parts: &mut Vec<Part>) -> Result<(), DbError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(DbError::io(dir)(e)),
    };
    for entry in entries {
        let entry = entry.map_err(DbError::io(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = format!("{prefix}{name}");
        let meta = entry.metadata().map_err(DbError::io(entry.path()))?;
        if meta.is_dir() {
            walk(&entry.path(), &format!("{path}/"), parts)?;
        } else if name.ends_with(".parquet") {
            parts.push(Part {
                path,
                bytes: meta.len(),
            });
        }
    }
    Ok(())
}

/// A directory whose files make (part of) the database's tables, and what the manifest says
/// of them.
struct Unit<'a> {
    /// The directory, relative to the database's.
    dir: PathBuf,
    /// The files the manifest lists (empty for an older manifest).
    listed: &'a [Part],
    /// Subdirectories no longer read (a compacted batch's `explorer` and `totals`): their
    /// files are neither required nor refused.
    retired: &'static [&'static str],
    /// The batch whose inputs it was made of (none for a compaction).
    batch: Option<u32>,
}

/// The directories the tables are read from.
fn units(manifest: &Manifest) -> Vec<Unit<'_>> {
    let through = manifest.compacted.as_ref().map_or(0, |c| c.through);
    let batches = manifest.batches.iter().map(|b| Unit {
        dir: b.dir(),
        listed: &b.parts,
        retired: if b.id <= through { &RETIRED } else { &[] },
        batch: Some(b.id),
    });
    let compaction = manifest.compacted.iter().map(|c| Unit {
        dir: c.dir(),
        listed: &c.parts,
        retired: &[],
        batch: None,
    });
    batches.chain(compaction).collect()
}

/// A compacted batch's subdirectories that the compaction replaced.
const RETIRED: [&str; 2] = ["explorer", "totals"];

fn is_retired(path: &str, retired: &[&str]) -> bool {
    path.split_once('/')
        .is_some_and(|(top, _)| retired.contains(&top))
}

/// Checks the Parquet files of the database in `dir` as opening it does
/// ([`crate::Database::open`]): the number of files checked, or the first one missing, of
/// another size, without its footer, or not listed, as a [`DbError::DamagedPart`].
///
/// ```no_run
/// let files = tabla_db::verify_parts("games.db".as_ref())?;
/// println!("{files} files whole");
/// # Ok::<(), tabla_db::DbError>(())
/// ```
pub fn verify_parts(dir: &Path) -> Result<usize, DbError> {
    verify(dir, &Manifest::read(dir)?)
}

/// [`verify_parts`] with the manifest read.
pub(crate) fn verify(dir: &Path, manifest: &Manifest) -> Result<usize, DbError> {
    let mut checked = 0;
    for unit in units(manifest) {
        let damaged = |part: &str, problem: String| DbError::DamagedPart {
            db: dir.to_owned(),
            part: unit.dir.join(part),
            problem,
            repair: repair(manifest, unit.batch),
        };
        let found: Vec<Part> = list(&dir.join(&unit.dir))?
            .into_iter()
            .filter(|p| !is_retired(&p.path, unit.retired))
            .collect();
        if unit.listed.is_empty() {
            // An older manifest: only what a file says of itself can be checked.
            for part in &found {
                if let Some(problem) = footer_problem(&dir.join(&unit.dir).join(&part.path))? {
                    return Err(damaged(&part.path, problem));
                }
            }
            checked += found.len();
            continue;
        }
        for part in unit.listed {
            if is_retired(&part.path, unit.retired) {
                continue;
            }
            let Some(on_disk) = found.iter().find(|f| f.path == part.path) else {
                return Err(damaged(&part.path, "missing".to_owned()));
            };
            if on_disk.bytes != part.bytes {
                return Err(damaged(
                    &part.path,
                    format!("{} bytes where {} were written", on_disk.bytes, part.bytes),
                ));
            }
            if let Some(problem) = footer_problem(&dir.join(&unit.dir).join(&part.path))? {
                return Err(damaged(&part.path, problem));
            }
            checked += 1;
        }
        if let Some(extra) = found
            .iter()
            .find(|f| !unit.listed.iter().any(|p| p.path == f.path))
        {
            return Err(damaged(
                &extra.path,
                "not written by the import or compaction the manifest lists (a file put there \
                 would be read as part of the table)"
                    .to_owned(),
            ));
        }
    }
    Ok(checked + verify_reviews(dir)?)
}

/// Checks the review tables' files (`evals/`, `review/`) for their footer: written as reviews
/// go, they are in no manifest, so a missing one cannot be told; one that a running review
/// merges away between the listing and the check is passed over.
fn verify_reviews(dir: &Path) -> Result<usize, DbError> {
    let mut checked = 0;
    for table in [
        crate::review_tables::EVALS_DIR,
        crate::review_tables::REVIEW_DIR,
    ] {
        for part in list(&dir.join(table))? {
            let path = dir.join(table).join(&part.path);
            match footer_problem(&path) {
                Ok(None) => checked += 1,
                Ok(Some(problem)) => {
                    return Err(DbError::DamagedPart {
                        db: dir.to_owned(),
                        part: Path::new(table).join(&part.path),
                        problem,
                        repair: "remove the file: the reviews and evaluations it held are made \
                                 again by the next `tabla db review`"
                            .to_owned(),
                    });
                }
                Err(DbError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(checked)
}

/// What is wrong with the Parquet file at `path`, if its size and last bytes show it.
fn footer_problem(path: &Path) -> Result<Option<String>, DbError> {
    let mut file = fs::File::open(path).map_err(DbError::io(path))?;
    let bytes = file.metadata().map_err(DbError::io(path))?.len();
    if bytes == 0 {
        return Ok(Some("empty (0 bytes)".to_owned()));
    }
    if bytes < SMALLEST {
        return Ok(Some(format!("{bytes} bytes: too short for a Parquet file")));
    }
    let mut tail = [0u8; 4];
    file.seek(SeekFrom::End(-4))
        .and_then(|_| file.read_exact(&mut tail))
        .map_err(DbError::io(path))?;
    Ok((&tail != FOOTER_MAGIC)
        .then(|| "cut short or overwritten (it does not end with Parquet's footer)".to_owned()))
}

/// How to repair a damaged file of batch `batch` (or of the compaction, for `None`).
fn repair(manifest: &Manifest, batch: Option<u32>) -> String {
    let of_inputs = |batches: &mut dyn Iterator<Item = &crate::manifest::Batch>| {
        let names: Vec<&str> = batches
            .flat_map(|b| b.inputs.iter().map(|i| i.name.as_str()))
            .collect();
        match names.len() {
            0..=3 => names.join(", "),
            n => format!("{} and {} more", names[..3].join(", "), n - 3),
        }
    };
    match batch.and_then(|id| manifest.batches.iter().find(|b| b.id == id)) {
        Some(b) => format!(
            "put the file back from a backup, or import the inputs again into a new database \
             (this file is of import {}, of {})",
            b.id,
            of_inputs(&mut std::iter::once(b))
        ),
        None => {
            let through = manifest.compacted.as_ref().map_or(0, |c| c.through);
            format!(
                "put the file back from a backup, or import the inputs again into a new \
                 database (this file is the explorer's sum of imports 1 to {through}, of {})",
                of_inputs(&mut manifest.batches.iter().filter(|b| b.id <= through))
            )
        }
    }
}

/// Lists the files of every batch and compaction whose parts the manifest does not list yet:
/// one written by an older tabla (checked by [`verify`] before the import or compaction
/// began), or the batch or compaction being committed.
pub(crate) fn record_unlisted(dir: &Path, manifest: &mut Manifest) -> Result<(), DbError> {
    let through = manifest.compacted.as_ref().map_or(0, |c| c.through);
    for batch in &mut manifest.batches {
        if batch.parts.is_empty() {
            let retired: &[&str] = if batch.id <= through { &RETIRED } else { &[] };
            batch.parts = list(&dir.join(batch.dir()))?
                .into_iter()
                .filter(|p| !is_retired(&p.path, retired))
                .collect();
        }
    }
    if let Some(c) = &mut manifest.compacted
        && c.parts.is_empty()
    {
        c.parts = list(&dir.join(c.dir()))?;
    }
    Ok(())
}

/// Drops from the batches' lists the files a compaction through batch `through` replaced.
pub(crate) fn retire_compacted(manifest: &mut Manifest, through: u32) {
    for batch in manifest.batches.iter_mut().filter(|b| b.id <= through) {
        batch.parts.retain(|p| !is_retired(&p.path, &RETIRED));
    }
}
