//! `tabla-db.json`: what the database holds. It is the commit point of every import: the
//! tables are read from the batches it lists and nothing else, and it is replaced atomically
//! (written under a temporary name, synced, renamed), so an interrupted import leaves the
//! database as it was.

use crate::DbError;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The manifest's file name in the database directory.
pub(crate) const MANIFEST: &str = "tabla-db.json";
/// The layout version this code writes and reads. Version 2 added [`Manifest::compacted`];
/// version 3 keys positions by 96 bits ([`tabla::zobrist::key_columns`]) where versions 1 and
/// 2 kept 128, so their tables cannot be looked up by this code: they are refused, with a hint
/// to import the games again.
pub(crate) const SCHEMA_VERSION: u32 = 3;
/// The `format` field's value.
const FORMAT: &str = "tabla-db";

/// The manifest.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Manifest {
    /// Always `tabla-db`.
    pub format: String,
    /// [`SCHEMA_VERSION`] when written.
    pub schema_version: u32,
    /// The explorer's max-ply, fixed when the database is created.
    pub max_ply: u32,
    /// The imports, oldest first.
    pub batches: Vec<Batch>,
    /// The explorer aggregates of the batches up to one folded into one table; those batches'
    /// own `explorer/` directories are no longer read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compacted: Option<Compaction>,
}

/// The explorer aggregates of batches `1..=through` summed into one table, in `explorer/<id>/`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Compaction {
    /// The compaction's number (its directory is `explorer/` and the number in six digits).
    pub id: u32,
    /// The last batch it holds: every batch with this number or a lower one.
    pub through: u32,
    /// Its rows.
    pub rows: u64,
    /// Its Parquet files, as written (empty in a manifest written before parts were listed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
}

/// A Parquet file a batch or a compaction wrote: opening the database checks that each is
/// there, whole ([`crate::DbError::DamagedPart`]), so that no table answers from part of its
/// files.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Part {
    /// Its path under the batch's or the compaction's directory, with `/` between names.
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
}

impl Compaction {
    /// Its directory, relative to the database's.
    pub fn dir(&self) -> PathBuf {
        compaction_dir(self.id)
    }
}

/// The directory of compaction `id`, relative to the database's.
pub(crate) fn compaction_dir(id: u32) -> PathBuf {
    Path::new("explorer").join(format!("{id:06}"))
}

/// One part of the explorer's aggregate: an import's, or a compaction's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerUnit {
    /// Its directory, relative to the database's.
    pub dir: PathBuf,
    /// The directory of its per-move totals (an import's), relative to the database's.
    pub totals: Option<PathBuf>,
    /// The batches whose aggregates hold only their popular positions
    /// ([`Batch::explorer_from`] above 1): a position without rows in this part is counted
    /// from their `positions` (a position with rows here is complete).
    pub fallback: Vec<u32>,
}

/// One import: its tables live in `batches/<id>/`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Batch {
    /// The batch's number (its directory is `batches/` and the number in six digits).
    pub id: u32,
    /// When it was imported, in seconds since 1970.
    pub imported: u64,
    /// Its inputs.
    pub inputs: Vec<InputRecord>,
    /// Games read (damaged ones included).
    pub games: u64,
    /// Games with an error (kept, with their positions up to it).
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
    /// Rows of its positions table.
    pub positions: u64,
    /// The fewest games a position needs in this import to have rows in its explorer
    /// aggregate (and totals and lists): the others are counted from its `positions`. 1 (also
    /// when absent) for an aggregate that holds every position, as one made elsewhere does.
    #[serde(default = "every_position")]
    pub explorer_from: u64,
    /// The id of its first game when it numbered its games (`first_game_id` to
    /// `first_game_id + games - 1`: [`tabla_convert::GameIds::Numbered`]); absent when its
    /// ids came with its tables (a `tabla convert` directory's, derived from where each game
    /// stands in its file) or the database is older.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_game_id: Option<u64>,
    /// Its Parquet files, as written (empty in a manifest written before parts were listed:
    /// the next import or compaction lists them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
}

/// [`Batch::explorer_from`] of an aggregate that holds every position.
fn every_position() -> u64 {
    1
}

/// An input of an import, identified by its content.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct InputRecord {
    /// The path it was given as.
    pub name: String,
    /// The BLAKE3 hash of its bytes, in hex.
    pub blake3: String,
    /// Its size in bytes.
    pub bytes: u64,
}

impl Batch {
    /// The batch's directory, relative to the database's.
    pub fn dir(&self) -> PathBuf {
        batch_dir(self.id)
    }
}

/// The directory of batch `id`, relative to the database's.
pub(crate) fn batch_dir(id: u32) -> PathBuf {
    Path::new("batches").join(format!("{id:06}"))
}

impl Manifest {
    /// A new database's manifest.
    pub fn new(max_ply: u32) -> Manifest {
        Manifest {
            format: FORMAT.to_owned(),
            schema_version: SCHEMA_VERSION,
            max_ply,
            batches: Vec::new(),
            compacted: None,
        }
    }

    /// The manifest of the database in `dir`; [`DbError::NotADatabase`] when there is none.
    pub fn read(dir: &Path) -> Result<Manifest, DbError> {
        let path = dir.join(MANIFEST);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(DbError::NotADatabase(dir.to_owned()));
            }
            Err(e) => return Err(DbError::io(&path)(e)),
        };
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| DbError::Manifest {
            path: path.clone(),
            reason: format!("not a tabla-db manifest: {e}"),
        })?;
        if manifest.format != FORMAT {
            return Err(DbError::Manifest {
                path,
                reason: format!("format {:?}, expected {FORMAT:?}", manifest.format),
            });
        }
        if manifest.schema_version != SCHEMA_VERSION {
            let hint = if manifest.schema_version < SCHEMA_VERSION {
                " (an older layout, with 128-bit position keys: import the games into a new \
                 database)"
            } else {
                ""
            };
            return Err(DbError::Manifest {
                path,
                reason: format!(
                    "schema version {}; this tabla reads version {SCHEMA_VERSION}{hint}",
                    manifest.schema_version
                ),
            });
        }
        Ok(manifest)
    }

    /// Replaces the manifest in `dir` atomically (as [`SCHEMA_VERSION`]).
    pub fn write(&self, dir: &Path) -> Result<(), DbError> {
        let path = dir.join(MANIFEST);
        let current = Manifest {
            schema_version: SCHEMA_VERSION,
            ..self.clone()
        };
        let temp = dir.join(format!(".{MANIFEST}.tmp"));
        let mut text = serde_json::to_string_pretty(&current).map_err(|e| DbError::Manifest {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        text.push('\n');
        let mut file = std::fs::File::create(&temp).map_err(DbError::io(&temp))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(DbError::io(&temp))?;
        std::fs::rename(&temp, &path).map_err(DbError::io(&path))?;
        sync_dir(dir)
    }

    /// The number the next batch gets.
    pub fn next_batch_id(&self) -> u32 {
        self.batches.iter().map(|b| b.id).max().unwrap_or(0) + 1
    }

    /// The directories (relative to the database's) whose Parquet files make the `explorer`
    /// table: the compaction's, then those of the batches after it.
    pub fn explorer_dirs(&self) -> Vec<PathBuf> {
        self.explorer_units().into_iter().map(|u| u.dir).collect()
    }

    /// The explorer's parts, each with the batches it answers for: the compaction (the
    /// batches up to [`Compaction::through`]), then each batch after it.
    pub fn explorer_units(&self) -> Vec<ExplorerUnit> {
        let through = self.compacted.as_ref().map_or(0, |c| c.through);
        let thresholded = |keep: &dyn Fn(u32) -> bool| -> Vec<u32> {
            (self.batches.iter())
                .filter(|b| keep(b.id) && b.explorer_from > 1)
                .map(|b| b.id)
                .collect()
        };
        let compaction = self.compacted.iter().map(|c| ExplorerUnit {
            dir: c.dir(),
            totals: None,
            fallback: thresholded(&|id| id <= through),
        });
        let batches = self
            .batches
            .iter()
            .filter(|b| b.id > through)
            .map(|b| ExplorerUnit {
                dir: b.dir().join("explorer"),
                totals: Some(b.dir().join("totals")),
                fallback: thresholded(&|id| id == b.id),
            });
        compaction.chain(batches).collect()
    }

    /// The explorer's parts on disk, under the database directory `dir`: [`Manifest::explorer_dirs`]
    /// that exist (an import whose games reach no counted position has none).
    pub fn explorer_parts(&self, dir: &Path) -> Vec<PathBuf> {
        self.explorer_dirs()
            .into_iter()
            .map(|d| dir.join(d))
            .filter(|d| d.is_dir())
            .collect()
    }

    /// The id the next import numbers its first game with: past every numbered batch's ids
    /// (ids start at 1).
    ///
    /// ```
    /// let mut manifest = tabla_db::Manifest::new(50);
    /// assert_eq!(manifest.next_game_id(), 1);
    /// ```
    pub fn next_game_id(&self) -> u64 {
        self.batches
            .iter()
            .filter_map(|b| b.first_game_id.map(|first| first + b.games))
            .max()
            .unwrap_or(1)
    }

    /// Games in the database.
    pub fn games(&self) -> u64 {
        self.batches.iter().map(|b| b.games).sum()
    }

    /// The input already imported with this content hash, and its batch.
    pub fn find_hash(&self, blake3: &str) -> Option<(&Batch, &InputRecord)> {
        self.batches
            .iter()
            .flat_map(|b| b.inputs.iter().map(move |i| (b, i)))
            .find(|(_, i)| i.blake3 == blake3)
    }
}

/// Makes a directory's entries (a rename) durable.
pub(crate) fn sync_dir(dir: &Path) -> Result<(), DbError> {
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(DbError::io(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_refusals() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert!(matches!(
            Manifest::read(dir.path()),
            Err(DbError::NotADatabase(_))
        ));
        let mut m = Manifest::new(50);
        m.batches.push(Batch {
            id: 1,
            imported: 5,
            inputs: vec![InputRecord {
                name: "a.pgn".into(),
                blake3: "ab".into(),
                bytes: 3,
            }],
            games: 2,
            errors: 1,
            warnings: 0,
            positions: 9,
            explorer_from: 32,
            first_game_id: Some(1),
            parts: vec![Part {
                path: "games/part-00000.parquet".into(),
                bytes: 812,
            }],
        });
        // A batch with its own ids (a `tabla convert` directory's) numbers nothing.
        let mut attached = m.batches[0].clone();
        (attached.id, attached.games, attached.first_game_id) = (2, 40, None);
        let mut both = m.clone();
        both.batches.push(attached);
        assert_eq!((m.next_game_id(), both.next_game_id()), (3, 3));
        m.write(dir.path()).expect("write");
        assert_eq!(Manifest::read(dir.path()).expect("read"), m);
        // Versions 1 and 2 (128-bit keys) are refused, saying what to do.
        for old in [1, 2] {
            let text = std::fs::read_to_string(dir.path().join(MANIFEST))
                .expect("read")
                .replace(
                    &format!("\"schema_version\": {SCHEMA_VERSION}"),
                    &format!("\"schema_version\": {old}"),
                );
            let path = dir.path().join(format!("v{old}"));
            std::fs::create_dir_all(&path).expect("mkdir");
            std::fs::write(path.join(MANIFEST), text).expect("write");
            let err = Manifest::read(&path).expect_err("older version");
            assert!(err.to_string().contains("import the games"), "{err}");
        }
        assert_eq!(
            m.explorer_dirs(),
            vec![PathBuf::from("batches/000001/explorer")]
        );
        m.compacted = Some(Compaction {
            id: 3,
            through: 1,
            rows: 7,
            parts: Vec::new(),
        });
        assert_eq!(m.explorer_dirs(), vec![PathBuf::from("explorer/000003")]);
        assert_eq!(m.next_batch_id(), 2);
        assert!(m.find_hash("ab").is_some() && m.find_hash("cd").is_none());
        std::fs::write(dir.path().join(MANIFEST), "{\"format\": 3}").expect("write");
        assert!(matches!(
            Manifest::read(dir.path()),
            Err(DbError::Manifest { .. })
        ));
        let newer = serde_json::to_string(&Manifest {
            schema_version: 99,
            ..Manifest::new(50)
        })
        .expect("json");
        std::fs::write(dir.path().join(MANIFEST), newer).expect("write");
        let err = Manifest::read(dir.path()).expect_err("newer version");
        assert!(err.to_string().contains("schema version 99"), "{err}");
    }
}
