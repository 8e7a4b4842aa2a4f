//! The opening explorer's game lists: the top games (by rating) and the most recent games that
//! reached a position under the filters, each as a [`GameRef`] (the columns of the `game_refs`
//! table, [`GAME_REF_COLUMNS`]). The games come from the position's rows in `positions` (looked
//! up, or through DataFusion for a player filter or a very popular position) or from the lists
//! of a popular position (`lists.rs`); their details by id from `game_refs`.

use crate::filters::{Filters, played_months};
use crate::lists::GAMES_LISTED;
use crate::tables::GAME_REFS_COLUMNS;
use crate::values::{int_at, ints, str_at, strings};
use crate::{Database, DbError};
use arrow_array::Array;
use serde::Serialize;

/// The columns of `game_refs` a [`GameRef`] shows, beside `game_id` (and `ply`, when a query
/// gives it): those after `game_id` in [`GAME_REFS_COLUMNS`] up to the filters' columns.
pub(crate) const GAME_REF_COLUMNS: &[&str] = GAME_REFS_COLUMNS.split_at(8).0.split_at(1).1;

/// [`GAME_REF_COLUMNS`] of the table aliased `g`, with `g.game_id` first, for a SELECT.
pub(crate) fn game_ref_select() -> String {
    GAME_REFS_COLUMNS[..8]
        .iter()
        .map(|c| format!("g.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A game in a list.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameRef {
    /// The game's id (`game_id`), as a string.
    pub id: String,
    /// White's name.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// The result tag.
    pub result: Option<String>,
    /// White's Elo.
    pub white_elo: Option<i64>,
    /// Black's Elo.
    pub black_elo: Option<i64>,
    /// `YYYY-MM-DD`, `??` for unknown parts.
    pub date: String,
    /// The event.
    pub event: Option<String>,
    /// The ply at which it reached the position (0: the start).
    pub ply: u64,
    /// Its review, when `review_games` has one and the list was given them
    /// ([`Database::add_reviews`]); `None` otherwise, and then absent from the JSON (the
    /// explorer's lists and `tabla db ... --json` never have it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review: Option<crate::GameReview>,
}

/// A game that reached the position, as the game lists order them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reached {
    pub(crate) game_id: i64,
    pub(crate) ply: u64,
    pub(crate) elo_sum: Option<i64>,
    pub(crate) played_on: Option<i64>,
}

/// Per batch (index in the lookups' batches), the games of the position read from its
/// `positions` under the filters of the question.
pub(crate) type Scanned = std::collections::HashMap<usize, Vec<Reached>>;

/// The first [`GAMES_LISTED`] of `games` by `rank` (highest first, then by id) among those
/// that have one.
fn best(games: &[Reached], rank: impl Fn(&Reached) -> Option<i64>) -> Vec<(i64, u64)> {
    let mut ranked: Vec<(i64, i64, u64)> = games
        .iter()
        .filter_map(|g| rank(g).map(|r| (r, g.game_id, g.ply)))
        .collect();
    let order = |a: &(i64, i64, u64), b: &(i64, i64, u64)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
    if ranked.len() > GAMES_LISTED {
        ranked.select_nth_unstable_by(GAMES_LISTED, order);
        ranked.truncate(GAMES_LISTED);
    }
    ranked.sort_unstable_by(order);
    ranked.into_iter().map(|(_, id, ply)| (id, ply)).collect()
}

impl Database {
    /// The top games (by rating) and the most recent games among the `games` counted for the
    /// position `(hi, lo)` under `filters`: from the position's rows in `positions` (those
    /// `scanned` already read for the counts, the others looked up), from the lists of a
    /// popular position, or through the query engine for a player filter or a position
    /// reached by more games than [`Database::lists_looked_up`]; then their details by id.
    pub(crate) fn game_lists(
        &self,
        hi: i64,
        lo: i64,
        filters: &Filters,
        games: u64,
        scanned: Scanned,
    ) -> Result<(Vec<GameRef>, Vec<GameRef>), DbError> {
        let looked_up = !filters.on_tags()
            && (games <= self.lists_looked_up
                || self.use_lists
                    && filters.on_buckets()
                    && self
                        .lookups()?
                        .batches
                        .iter()
                        .all(|b| b.lists.is_some() && b.lists_all.is_some()));
        let (top, recent) = if looked_up {
            let reached = self.reached(hi, lo, filters, scanned)?;
            (
                best(&reached, |g| g.elo_sum),
                best(&reached, |g| g.played_on),
            )
        } else {
            let reached = self.reached_sql(hi, lo, filters);
            let list = |condition: &str, order: &str| {
                format!(
                    "SELECT p.game_id, p.ply FROM positions p WHERE {reached}{condition} \
                     ORDER BY {order} DESC, p.game_id LIMIT {GAMES_LISTED}"
                )
            };
            (
                self.ids_and_plies(&list(" AND p.elo_sum IS NOT NULL", "p.elo_sum"))?,
                self.ids_and_plies(&list(" AND p.played_on IS NOT NULL", "p.played_on"))?,
            )
        };
        let mut all: Vec<(i64, u64)> = top.iter().chain(&recent).copied().collect();
        all.sort_unstable();
        all.dedup();
        let refs = self.game_refs_by_id(&all)?;
        let listed =
            |hits: &[(i64, u64)]| hits.iter().filter_map(|h| refs.get(h)).cloned().collect();
        Ok((listed(&top), listed(&recent)))
    }

    /// The games counted for the position under `filters` (no player filter), looked up: from
    /// each batch's lists of the position when the filters fall on buckets and the batch has
    /// them (a position it counts for at least `LISTED_FROM` games), else from its rows in
    /// the batch's `positions` under the counting rule (those `scanned` already read).
    fn reached(
        &self,
        hi: i64,
        lo: i64,
        filters: &Filters,
        mut scanned: Scanned,
    ) -> Result<Vec<Reached>, DbError> {
        let mut out = Vec::new();
        for (b, batch) in self.lookups()?.batches.iter().enumerate() {
            if let Some(games) = scanned.remove(&b) {
                out.extend(games);
                continue;
            }
            // Without filters the lists over all buckets (16 games), else those per bucket.
            let lists = if filters.is_empty() {
                batch.lists_all.as_ref()
            } else {
                batch.lists.as_ref()
            };
            if self.use_lists
                && filters.on_buckets()
                && let Some(lists) = lists
                && listed(lists, hi, lo, filters, &mut out)?
            {
                continue;
            }
            self.each_counted(&batch.positions, hi, lo, filters, |_, _, game| {
                out.push(game);
            })?;
        }
        Ok(out)
    }

    /// The `game_id` and `ply` columns of a query's rows.
    fn ids_and_plies(&self, sql: &str) -> Result<Vec<(i64, u64)>, DbError> {
        let mut out = Vec::new();
        for batch in self.session().collect(sql)? {
            let (id, ply) = (ints(&batch, "game_id")?, ints(&batch, "ply")?);
            for i in 0..batch.num_rows() {
                if let Some(g) = int_at(&id, i) {
                    out.push((g, int_at(&ply, i).unwrap_or(0).max(0) as u64));
                }
            }
        }
        Ok(out)
    }

    /// The list entries of games given by id, each with the ply given with it.
    pub(crate) fn game_refs_by_id(
        &self,
        hits: &[(i64, u64)],
    ) -> Result<std::collections::HashMap<(i64, u64), GameRef>, DbError> {
        let mut out = std::collections::HashMap::new();
        let mut found = Vec::new();
        if let Some(refs) = &self.lookups()?.game_refs {
            let ids: Vec<i64> = hits.iter().map(|&(id, _)| id).collect();
            found = game_refs_of(&refs.rows(&ids, GAME_REF_COLUMNS)?)?;
        } else {
            // Short lists, which the engine prunes with each row group's bounds of `game_id`.
            for page in hits.chunks(16) {
                let ids: Vec<String> = page.iter().map(|(id, _)| id.to_string()).collect();
                found.extend(self.game_refs(&format!(
                    "SELECT {} FROM game_refs g WHERE g.game_id IN ({})",
                    game_ref_select(),
                    ids.join(", ")
                ))?);
            }
        }
        for &(id, ply) in hits {
            let text = id.to_string();
            if let Some(g) = found.iter().find(|g| g.id == text) {
                out.insert((id, ply), GameRef { ply, ..g.clone() });
            }
        }
        Ok(out)
    }

    /// The games a query lists (columns as in [`GameRef`], plus `game_id`, `played` and, if
    /// it has it, `ply`).
    pub(crate) fn game_refs(&self, sql: &str) -> Result<Vec<GameRef>, DbError> {
        game_refs_of(&self.session().collect(sql)?)
    }
}

/// Adds to `out` the games of the position `(hi, lo)` in a batch's lists that pass `filters`;
/// whether the lists hold the position.
pub(crate) fn listed(
    lists: &crate::lookup::SortedFiles,
    hi: i64,
    lo: i64,
    filters: &Filters,
    out: &mut Vec<Reached>,
) -> Result<bool, DbError> {
    let columns = ["key_lo", "game_id", "ply", "elo_sum", "speed", "played_on"];
    let mut found = false;
    for batch in lists.rows(&[hi], &columns)? {
        let [key_lo, game_id, ply, elo_sum, played_on] =
            ["key_lo", "game_id", "ply", "elo_sum", "played_on"].map(|c| ints(&batch, c));
        let (key_lo, game_id, ply, elo_sum, played_on) =
            (key_lo?, game_id?, ply?, elo_sum?, played_on?);
        let speed = strings(&batch, "speed")?;
        for i in 0..batch.num_rows() {
            if int_at(&key_lo, i) != Some(lo) {
                continue;
            }
            found = true;
            let played = int_at(&played_on, i);
            let speed = speed.is_valid(i).then(|| speed.value(i));
            if let Some(game_id) = int_at(&game_id, i)
                && filters.keeps_game(int_at(&elo_sum, i), speed, played_months(played))
            {
                out.push(Reached {
                    game_id,
                    ply: int_at(&ply, i).unwrap_or(0).max(0) as u64,
                    elo_sum: int_at(&elo_sum, i),
                    played_on: played,
                });
            }
        }
    }
    Ok(found)
}

/// The games in record batches with the columns of [`Database::game_refs`].
fn game_refs_of(batches: &[arrow_array::RecordBatch]) -> Result<Vec<GameRef>, DbError> {
    let mut out = Vec::new();
    for batch in batches {
        let id = ints(batch, "game_id")?;
        // The text columns of GAME_REF_COLUMNS.
        let [white, black, result, played, event] =
            ["white", "black", "result", "played", "event"].map(|c| strings(batch, c));
        let (white, black, result, played, event) = (white?, black?, result?, played?, event?);
        let (white_elo, black_elo) = (ints(batch, "white_elo")?, ints(batch, "black_elo")?);
        let ply = match batch.column_by_name("ply") {
            Some(_) => Some(ints(batch, "ply")?),
            None => None,
        };
        for i in 0..batch.num_rows() {
            out.push(GameRef {
                id: int_at(&id, i).unwrap_or(0).to_string(),
                white: str_at(&white, i),
                black: str_at(&black, i),
                result: str_at(&result, i),
                white_elo: int_at(&white_elo, i),
                black_elo: int_at(&black_elo, i),
                date: str_at(&played, i).unwrap_or_else(|| "????-??-??".to_owned()),
                event: str_at(&event, i),
                ply: ply.as_ref().and_then(|p| int_at(p, i)).unwrap_or(0).max(0) as u64,
                review: None,
            });
        }
    }
    Ok(out)
}
