//! `OUT/_tabla_inputs.json`: the inputs converted into an output directory, each identified by
//! the BLAKE3 hash of its bytes, so that converting the same content into it again is noticed
//! and skipped rather than adding every game a second time ([`convert_recorded`]).
//!
//! The record is replaced atomically (written under a temporary name, then renamed) after a
//! conversion succeeds; the leading `_` makes Spark and DuckDB's Hive readers pass over it.

use crate::{ConvertError, Input, Limits, Options, ProgressSink, Summary};
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::Path;

/// The record's file name in the output directory.
pub const INPUTS_RECORD: &str = "_tabla_inputs.json";

/// An input converted into an output directory, as [`INPUTS_RECORD`] keeps it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ConvertedInput {
    /// The path it was given as.
    pub name: String,
    /// The BLAKE3 hash of its bytes, in hex.
    pub blake3: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// When its conversion finished, in seconds since 1970 ([`crate::utc_minute`] writes it
    /// as a date).
    pub converted: u64,
}

/// The file's content: the inputs, oldest first.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
struct Record {
    inputs: Vec<ConvertedInput>,
}

/// An input left out because its content is in the output directory already.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedInput {
    /// The input given.
    pub input: Input,
    /// The earlier input with the same content: converted before (with its date), or given
    /// before it in the same run (`converted` is then `None`).
    pub earlier: String,
    /// When the earlier input was converted; `None` when it was given in the same run.
    pub converted: Option<u64>,
}

impl std::fmt::Display for SkippedInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.converted {
            Some(when) => write!(
                f,
                "{}: skipped, its content is there already (converted as {} on {})",
                self.input,
                self.earlier,
                crate::utc_minute(when)
            ),
            None => write!(
                f,
                "{}: skipped, the same content as {} given before it",
                self.input, self.earlier
            ),
        }
    }
}

/// What [`convert_recorded`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordedSummary {
    /// The conversion of the inputs not skipped (all zero when every input was).
    pub summary: Summary,
    /// The inputs left out, in the order given.
    pub skipped: Vec<SkippedInput>,
    /// Whether the output directory held tables that no record accounts for (converted by an
    /// older tabla, or copied in): their inputs could not be compared, so games may be there
    /// twice.
    pub unrecorded_tables: bool,
}

/// [`crate::convert_with`] into a directory that remembers its inputs: an input whose content
/// (BLAKE3 of its bytes) was converted into `options.out_dir` before, or is given twice, is
/// skipped unless `again`; the others are converted and added to [`INPUTS_RECORD`]. The
/// standard input cannot be hashed before it is read: it is always converted, and not recorded.
pub fn convert_recorded(
    options: &Options,
    limits: &Limits,
    again: bool,
    progress: &dyn ProgressSink,
) -> Result<RecordedSummary, ConvertError> {
    if options.inputs.is_empty() {
        return Err(ConvertError::NoInput);
    }
    let dir = &options.out_dir;
    let mut record = read_record(dir)?;
    let unrecorded_tables = record.inputs.is_empty() && has_tables(dir);
    let mut skipped = Vec::new();
    let mut kept = Vec::new();
    let mut hashed: Vec<(Input, String, u64)> = Vec::new();
    for input in &options.inputs {
        let Some(path) = input.path() else {
            kept.push(input.clone());
            continue;
        };
        let (blake3, bytes) = hash_file(path).map_err(|source| ConvertError::Open {
            input: input.clone(),
            source,
        })?;
        let before = record.inputs.iter().find(|r| r.blake3 == blake3);
        let twice = hashed.iter().find(|(_, h, _)| *h == blake3);
        match (before, twice) {
            (Some(earlier), _) if !again => skipped.push(SkippedInput {
                input: input.clone(),
                earlier: earlier.name.clone(),
                converted: Some(earlier.converted),
            }),
            (_, Some((first, _, _))) if !again => skipped.push(SkippedInput {
                input: input.clone(),
                earlier: first.to_string(),
                converted: None,
            }),
            _ => {
                hashed.push((input.clone(), blake3, bytes));
                kept.push(input.clone());
            }
        }
    }
    if kept.is_empty() {
        return Ok(RecordedSummary {
            summary: Summary::default(),
            skipped,
            unrecorded_tables,
        });
    }
    let run = Options {
        inputs: kept,
        ..options.clone()
    };
    let summary = crate::convert_with(&run, limits, progress)?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    record.inputs.extend(
        hashed
            .into_iter()
            .map(|(input, blake3, bytes)| ConvertedInput {
                name: input.to_string(),
                blake3,
                bytes,
                converted: now,
            }),
    );
    write_record(dir, &record)?;
    Ok(RecordedSummary {
        summary,
        skipped,
        unrecorded_tables,
    })
}

/// The inputs recorded in `dir` (none when it has no record).
pub fn converted_inputs(dir: &Path) -> Result<Vec<ConvertedInput>, ConvertError> {
    Ok(read_record(dir)?.inputs)
}

fn read_record(dir: &Path) -> Result<Record, ConvertError> {
    // No directory yet (or a file in its place, which the conversion then reports): no record.
    if !dir.is_dir() {
        return Ok(Record::default());
    }
    let path = dir.join(INPUTS_RECORD);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Record::default()),
        Err(source) => {
            return Err(ConvertError::Record {
                path,
                reason: source.to_string(),
            });
        }
    };
    serde_json::from_str(&text).map_err(|e| ConvertError::Record {
        path,
        reason: format!("not a record of converted inputs: {e}; remove it to start a new one"),
    })
}

fn write_record(dir: &Path, record: &Record) -> Result<(), ConvertError> {
    let path = dir.join(INPUTS_RECORD);
    let temp = dir.join(format!(".{INPUTS_RECORD}.tmp"));
    let mut text = serde_json::to_string_pretty(record).map_err(|e| ConvertError::Record {
        path: path.clone(),
        reason: e.to_string(),
    })?;
    text.push('\n');
    std::fs::write(&temp, text).map_err(|source| ConvertError::Write {
        path: temp.clone(),
        source,
    })?;
    std::fs::rename(&temp, &path).map_err(|source| ConvertError::Write { path, source })
}

/// Whether `dir` holds a table directory of an earlier conversion.
fn has_tables(dir: &Path) -> bool {
    ["games", "positions"].iter().any(|t| dir.join(t).is_dir())
}

/// The BLAKE3 hash (hex) and length of a file's bytes.
fn hash_file(path: &Path) -> std::io::Result<(String, u64)> {
    if path.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "a directory, not a PGN file",
        ));
    }
    let mut file = std::fs::File::open(path)?;
    let mut hasher = blake3::Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            return Ok((hasher.finalize().to_hex().to_string(), bytes));
        }
        bytes += n as u64;
        hasher.update(&buf[..n]);
    }
}
