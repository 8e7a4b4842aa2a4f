//! The database's games: a page of them under the explorer's filters and a text search, one
//! game back as PGN, and every matching game written as PGN (`tabla db export`).
//!
//! A game's PGN is rebuilt from its row: the tags (the Seven Tag Roster first, in its order,
//! then the others as the columns and the `tags` list hold them) and the movetext as it was
//! read. What the row keeps is the game's text after its tags, so comments, variations and
//! NAGs come back as written; only the tags' order and spacing may differ from the input.

use crate::explore::Target;
use crate::filters::Filters;
use crate::game_refs::GameRef;
use crate::search::SearchQuery;
use crate::values::{int_at, ints, str_at, strings};
use crate::{Database, DbError};
use arrow_array::{Array, ListArray, RecordBatch, StringArray, StructArray};
use serde::Serialize;
use std::io::Write;

/// A page of games (what `GET /api/db/games` returns).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GamePage {
    /// Games that match (all of them, not only this page).
    pub total: u64,
    /// This page: most recent first, then by id; `ply` is 0.
    pub games: Vec<GameRef>,
}

/// The largest `LIMIT` or `OFFSET` the query engine takes (it reads them as `i64`).
const MAX_ROWS: usize = i64::MAX as usize;

/// The Seven Tag Roster, in its order.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The tag columns as the export reads them: tag name, and the SQL that gives its value as
/// text as the PGN tag would hold it (dates `YYYY.MM.DD`, rating differences signed).
const TAG_SQL: [(&str, &str); 19] = [
    ("Event", "g.event"),
    ("Site", "g.site"),
    ("Date", "REPLACE(CAST(g.date AS VARCHAR), '-', '.')"),
    ("Round", "g.round"),
    ("White", "g.white"),
    ("Black", "g.black"),
    ("Result", "g.result"),
    ("UTCDate", "REPLACE(CAST(g.utc_date AS VARCHAR), '-', '.')"),
    ("UTCTime", "g.utc_time"),
    ("WhiteElo", "CAST(g.white_elo AS VARCHAR)"),
    ("BlackElo", "CAST(g.black_elo AS VARCHAR)"),
    (
        "WhiteRatingDiff",
        "CASE WHEN g.white_rating_diff >= 0 THEN CONCAT('+', CAST(g.white_rating_diff AS VARCHAR)) \
         ELSE CAST(g.white_rating_diff AS VARCHAR) END",
    ),
    (
        "BlackRatingDiff",
        "CASE WHEN g.black_rating_diff >= 0 THEN CONCAT('+', CAST(g.black_rating_diff AS VARCHAR)) \
         ELSE CAST(g.black_rating_diff AS VARCHAR) END",
    ),
    ("WhiteTitle", "g.white_title"),
    ("BlackTitle", "g.black_title"),
    ("ECO", "g.eco"),
    ("Opening", "g.opening"),
    ("TimeControl", "g.time_control"),
    ("Termination", "g.termination"),
];

impl Database {
    /// A page of the games that match `filters` and, when given, whose players, event or site
    /// contain `text` (any case; in place of `filters.text`): most recent first, from
    /// `offset`, at most `limit`.
    pub fn games(
        &self,
        filters: &Filters,
        text: Option<&str>,
        limit: usize,
        offset: usize,
    ) -> Result<GamePage, DbError> {
        filters.validate()?;
        if self.manifest().batches.is_empty() {
            return Ok(GamePage {
                total: 0,
                games: Vec::new(),
            });
        }
        // The query engine reads LIMIT and OFFSET as 64-bit signed numbers: larger ones fail
        // its planning. No table has that many rows, so they are cut to the largest it takes.
        let (limit, offset) = (limit.min(MAX_ROWS), offset.min(MAX_ROWS));
        let condition = match text.map(str::trim).filter(|t| !t.is_empty()) {
            Some(text) => Filters {
                text: Some(text.to_owned()),
                ..filters.clone()
            }
            .games_sql(),
            None => filters.games_sql(),
        };
        let count = self.session().collect(&format!(
            "SELECT COUNT(*) AS n FROM game_refs g WHERE TRUE{condition}"
        ))?;
        let total = match count.first() {
            Some(batch) => int_at(&ints(batch, "n")?, 0).unwrap_or(0).max(0) as u64,
            None => 0,
        };
        let games = self.game_refs(&format!(
            "SELECT {}, CAST(0 AS BIGINT) AS ply FROM game_refs g WHERE TRUE{condition} \
             ORDER BY REPLACE(g.played, '?', '0') DESC NULLS LAST, g.game_id \
             LIMIT {limit} OFFSET {offset}",
            crate::game_refs::game_ref_select()
        ))?;
        Ok(GamePage { total, games })
    }

    /// The game `id` as PGN, or `None` when the database has no such game.
    ///
    /// The id is the `id` of the explorer's and the search's game lists (a 64-bit number
    /// written in decimal, possibly negative).
    pub fn game_pgn(&self, id: &str) -> Result<Option<String>, DbError> {
        let id: i64 = id.trim().parse().map_err(|_| {
            DbError::Argument(format!(
                "game id {:?}: not a game id (a whole number, as the game lists give it)",
                id.trim()
            ))
        })?;
        if self.manifest().batches.is_empty() {
            return Ok(None);
        }
        // Its month from `game_refs` (sorted by id), so that only that month's `games` files
        // are read.
        let found = self.session().collect(&format!(
            "SELECT year, month FROM game_refs WHERE game_id = {id}"
        ))?;
        let Some(batch) = found.iter().find(|b| b.num_rows() > 0) else {
            return Ok(None);
        };
        let (year, month) = (ints(batch, "year")?, ints(batch, "month")?);
        let part = |name: &str, value: Option<i64>| match value {
            Some(v) => format!(" AND g.{name} = {v}"),
            None => format!(" AND g.{name} IS NULL"),
        };
        let condition = format!(
            " AND g.game_id = {id}{}{}",
            part("year", int_at(&year, 0)),
            part("month", int_at(&month, 0))
        );
        let mut out = Vec::new();
        let n = self.write_pgn_rows(&condition, &mut out, None)?;
        if n == 0 {
            return Ok(None);
        }
        String::from_utf8(out)
            .map(Some)
            .map_err(|e| DbError::Query(format!("game {id}: not UTF-8: {e}")))
    }

    /// Writes every game that matches `filters` (and, with `position`, reached it at any ply)
    /// as PGN, one blank line apart; returns how many.
    pub fn export(
        &self,
        filters: &Filters,
        position: Option<&Target>,
        out: &mut dyn Write,
    ) -> Result<u64, DbError> {
        filters.validate()?;
        if let Some(target) = position {
            target.position()?;
        }
        if self.manifest().batches.is_empty() {
            return Ok(0);
        }
        let Some(target) = position else {
            return self.write_pgn_rows(&filters.games_sql(), out, None);
        };
        let (ids, _) = self.search_ids(&SearchQuery::Position(target.clone()), filters)?;
        let mut written = 0;
        // In pages, so that the query stays small whatever the number of games.
        for page in ids.chunks(1000) {
            let list: Vec<String> = page.iter().map(|(id, _)| id.to_string()).collect();
            let order: Vec<i64> = page.iter().map(|(id, _)| *id).collect();
            written += self.write_pgn_rows(
                &format!(" AND g.game_id IN ({})", list.join(", ")),
                out,
                Some(&order),
            )?;
        }
        Ok(written)
    }

    /// Writes the games selected by `condition` as PGN; with `order`, in that order of ids.
    fn write_pgn_rows(
        &self,
        condition: &str,
        out: &mut dyn Write,
        order: Option<&[i64]>,
    ) -> Result<u64, DbError> {
        let sql = pgn_sql(condition);
        let mut games: Vec<(i64, String)> = Vec::new();
        let mut written = 0;
        let io = |e: std::io::Error| DbError::Io {
            path: "standard output".into(),
            source: e,
        };
        self.session().for_each_batch(&sql, |batch| {
            for (id, pgn) in pgn_of_batch(batch)? {
                match order {
                    Some(_) => games.push((id, pgn)),
                    None => {
                        out.write_all(pgn.as_bytes()).map_err(io)?;
                        written += 1;
                    }
                }
            }
            Ok(())
        })?;
        if let Some(order) = order {
            for id in order {
                if let Some((_, pgn)) = games.iter().find(|(g, _)| g == id) {
                    out.write_all(pgn.as_bytes()).map_err(io)?;
                    written += 1;
                }
            }
        }
        Ok(written)
    }
}

/// The query of the games selected by `condition` (conditions on `games g`, each starting
/// with ` AND `) whose rows [`pgn_of_batch`] makes PGN of.
pub(crate) fn pgn_sql(condition: &str) -> String {
    let columns: Vec<String> = TAG_SQL
        .iter()
        .enumerate()
        .map(|(i, (_, sql))| format!("{sql} AS t{i}"))
        .collect();
    format!(
        "SELECT g.game_id, {}, g.movetext, g.tags FROM games g WHERE TRUE{condition}",
        columns.join(", ")
    )
}

/// The PGN text of each row of a batch of [`pgn_sql`]'s query.
pub(crate) fn pgn_of_batch(batch: &RecordBatch) -> Result<Vec<(i64, String)>, DbError> {
    let ids = ints(batch, "game_id")?;
    let values: Vec<StringArray> = (0..TAG_SQL.len())
        .map(|i| strings(batch, &format!("t{i}")))
        .collect::<Result<_, _>>()?;
    let movetext = strings(batch, "movetext")?;
    let tags = batch
        .column_by_name("tags")
        .and_then(|c| c.as_any().downcast_ref::<ListArray>())
        .ok_or_else(|| DbError::Query("column tags: not a list".to_owned()))?;
    let mut out = Vec::with_capacity(batch.num_rows());
    for row in 0..batch.num_rows() {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (i, (name, _)) in TAG_SQL.iter().enumerate() {
            if let Some(v) = str_at(&values[i], row) {
                pairs.push(((*name).to_owned(), v));
            }
        }
        let list = tags.value(row);
        if let Some(items) = list.as_any().downcast_ref::<StructArray>() {
            let names = items.column(0).as_any().downcast_ref::<StringArray>();
            let vals = items.column(1).as_any().downcast_ref::<StringArray>();
            if let (Some(names), Some(vals)) = (names, vals) {
                for i in 0..items.len() {
                    pairs.push((names.value(i).to_owned(), vals.value(i).to_owned()));
                }
            }
        }
        // The roster first, in its order (a stable sort keeps the rest as they were).
        pairs.sort_by_key(|(name, _)| {
            ROSTER
                .iter()
                .position(|r| r == name)
                .unwrap_or(ROSTER.len())
        });
        let mut pgn = String::new();
        for (name, value) in &pairs {
            pgn.push('[');
            pgn.push_str(name);
            pgn.push_str(" \"");
            for c in value.chars() {
                if c == '"' || c == '\\' {
                    pgn.push('\\');
                }
                pgn.push(c);
            }
            pgn.push_str("\"]\n");
        }
        pgn.push('\n');
        let text = str_at(&movetext, row).unwrap_or_default();
        let text = text.trim_matches(|c: char| c == '\n' || c == '\r');
        pgn.push_str(text);
        pgn.push_str("\n\n");
        out.push((int_at(&ids, row).unwrap_or(0), pgn));
    }
    Ok(out)
}
