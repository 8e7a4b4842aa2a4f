//! The players' names that contain a text, in any case, with their games: what `tabla db
//! players` and `GET /api/db/players` list, so that the exact name the `--player` filter
//! wants can be found from a part of it (`karpov` → `Karpov, Anatoly`, `Karpov, An`).

use crate::filters::contains_sql;
use crate::values::{int_at, ints, str_at, strings};
use crate::{Database, DbError};
use serde::Serialize;

/// A player's name as a `White` or `Black` tag holds it, and the games with that name in
/// either tag.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlayerCount {
    /// The name, exactly as in the tags (what `--player` takes).
    pub name: String,
    /// Games with this name as White or as Black.
    pub games: u64,
}

impl Database {
    /// The names in the `White` and `Black` tags that contain `part` in any case (every name
    /// when `part` is blank; never the unknown name `?`), with their games: most games first,
    /// then by name, at most `limit`.
    pub fn players(&self, part: &str, limit: usize) -> Result<Vec<PlayerCount>, DbError> {
        if self.manifest().batches.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let part = part.trim();
        let condition = if part.is_empty() {
            String::new()
        } else {
            format!(" AND {}", contains_sql("name", part))
        };
        let limit = limit.min(i64::MAX as usize);
        let batches = self.session().collect(&format!(
            "SELECT name, COUNT(DISTINCT game_id) AS games FROM \
             (SELECT game_id, white AS name FROM game_refs \
              UNION ALL SELECT game_id, black AS name FROM game_refs) \
             WHERE name IS NOT NULL AND name <> '' AND name <> '?'{condition} \
             GROUP BY name ORDER BY games DESC, name LIMIT {limit}"
        ))?;
        let mut out = Vec::new();
        for batch in &batches {
            let (names, games) = (strings(batch, "name")?, ints(batch, "games")?);
            for i in 0..batch.num_rows() {
                if let Some(name) = str_at(&names, i) {
                    let games = int_at(&games, i).unwrap_or(0).max(0) as u64;
                    out.push(PlayerCount { name, games });
                }
            }
        }
        Ok(out)
    }
}
