//! The opening explorer: for a position and filters, the moves played from it with their
//! results, and the top and most recent games that reached it.
//!
//! Counts come from the `explorer` aggregate when the filters fall on its buckets, else from
//! the `positions` and `games` tables (the same counting rule, [`crate::EXPLORER_SQL`]); the
//! games lists always come from the latter. Most questions are answered by point lookups of the
//! position's key (the `lookup` module) without the query engine; DataFusion answers the counts
//! off the aggregate's buckets, the game lists of a position with more than 500,000 games, and
//! anything with a player filter.

use crate::filters::{Filters, month_of, played_months};
use crate::lists::GAMES_LISTED;
use crate::values::{int_at, ints, str_at, strings};
use crate::{Database, DbError};
use arrow_array::{Array, Int64Array};
use serde::Serialize;
use tabla::zobrist::key_columns;
use tabla::{Position, SanMode, Validation};

/// The explorer's answer (the shape `tabla db explore --json` prints).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Explorer {
    /// The position, as `tabla fen` writes it.
    pub fen: String,
    /// Games that reached it (and went on from it).
    pub games: u64,
    /// Of them, won by White.
    pub white: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black: u64,
    /// The moves played from it, most played first (then by SAN).
    pub moves: Vec<MoveStats>,
    /// The highest-rated games (average of both Elos) that reached it, highest first.
    pub top_games: Vec<GameRef>,
    /// The most recent games that reached it, latest first.
    pub recent_games: Vec<GameRef>,
}

/// One move played from the position.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveStats {
    /// UCI.
    pub uci: String,
    /// SAN.
    pub san: String,
    /// Games that played it.
    pub games: u64,
    /// Won by White.
    pub white: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black: u64,
    /// The mean of both players' Elo over its games that have both (rounded half up).
    pub avg_rating: Option<i64>,
    /// The latest month (`YYYY-MM`) it was played, among its games with a known month.
    pub last_played: Option<String>,
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

/// A position to explore: a FEN, or moves from the standard start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A FEN (`startpos` for the standard start).
    Fen(String),
    /// Moves from the standard start, in SAN or UCI, separated by spaces (move numbers allowed).
    Moves(String),
}

impl Target {
    /// The position.
    ///
    /// ```
    /// use tabla_db::Target;
    /// let pos = Target::Moves("1. e4 e5 2. Nf3".into()).position().unwrap();
    /// assert_eq!(pos.to_fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    /// assert!(Target::Moves("e4 e4".into()).position().is_err());
    /// ```
    pub fn position(&self) -> Result<Position, DbError> {
        match self {
            Target::Fen(fen) => Position::from_text(fen, Validation::Strict)
                .map_err(|e| DbError::Argument(format!("--fen {:?}: {e}", fen.trim()))),
            Target::Moves(text) => {
                let mut pos = Position::startpos();
                for (i, token) in text
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|t| !t.is_empty())
                    .enumerate()
                {
                    let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                    if token.is_empty() {
                        continue;
                    }
                    let mv = pos.parse_san_with(token, SanMode::Lenient).map_err(|e| {
                        DbError::Argument(format!(
                            "--moves: word {} {token:?} is not a legal move in {}: {e}",
                            i + 1,
                            pos.to_fen()
                        ))
                    })?;
                    pos.play_unchecked(mv);
                }
                Ok(pos)
            }
        }
    }
}

/// What the games that played one move from the position add up to.
#[derive(Clone, Debug, Default)]
struct Tally {
    games: i64,
    white: i64,
    draws: i64,
    black: i64,
    rating_sum: i64,
    rated: i64,
    /// The latest month (`YYYYMM`) among its games with a known month.
    last: Option<i64>,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.white += other.white;
        self.draws += other.draws;
        self.black += other.black;
        self.rating_sum += other.rating_sum;
        self.rated += other.rated;
        self.last = self.last.max(other.last);
    }
}

/// The columns of a result that add up to a [`Tally`] (the aggregate's, and the counts
/// from the positions).
struct Sums([Int64Array; 6]);

impl Sums {
    fn read(batch: &arrow_array::RecordBatch) -> Result<Sums, DbError> {
        let [games, white, draws, black, rating_sum, rated] =
            ["games", "white", "draws", "black", "rating_sum", "rated"].map(|c| ints(batch, c));
        Ok(Sums([games?, white?, draws?, black?, rating_sum?, rated?]))
    }

    /// Row `i`'s tally, `last` its latest month.
    fn at(&self, i: usize, last: Option<i64>) -> Tally {
        let [games, white, draws, black, rating_sum, rated] =
            self.0.each_ref().map(|a| int_at(a, i).unwrap_or(0));
        Tally {
            games,
            white,
            draws,
            black,
            rating_sum,
            rated,
            last,
        }
    }
}

/// A game that reached the position, as the game lists order them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Reached {
    game_id: i64,
    ply: u64,
    elo_sum: Option<i64>,
    played_on: Option<i64>,
}

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
    /// The explorer's answer for `target` under `filters`.
    ///
    /// Counts come from the `explorer` aggregate when the filters fall on its buckets (a point
    /// lookup of the position's key), else from the `positions` table through the query engine
    /// (the same counting rule, [`crate::EXPLORER_SQL`]). The top and recent games come from
    /// the position's rows in `positions`: looked up, or through the query engine for a
    /// player filter or a position reached by more than 500,000 games.
    pub fn explore(&self, target: &Target, filters: &Filters) -> Result<Explorer, DbError> {
        filters.validate()?;
        let pos = target.position()?;
        let (hi, lo) = key_columns(pos.wide_key());
        let mut answer = Explorer {
            fen: pos.to_fen(),
            games: 0,
            white: 0,
            draws: 0,
            black: 0,
            moves: Vec::new(),
            top_games: Vec::new(),
            recent_games: Vec::new(),
        };
        if self.manifest().batches.is_empty() {
            return Ok(answer);
        }
        // The batches whose rows of the position were read for the counts, with its games
        // there: the lists take them rather than reading them again.
        let mut scanned = Scanned::new();
        let tallies = if filters.on_buckets() {
            self.tallies_from_aggregate(hi, lo, filters, &mut scanned)?
        } else {
            self.tallies_from_positions(&self.reached_sql(hi, lo, filters))?
        };
        for (uci, t) in tallies {
            if t.games <= 0 {
                continue;
            }
            let san = pos
                .parse_uci(&uci)
                .map(|mv| pos.san(mv))
                .unwrap_or_else(|_| uci.clone());
            let n = |v: i64| v.max(0) as u64;
            answer.moves.push(MoveStats {
                uci,
                san,
                games: n(t.games),
                white: n(t.white),
                draws: n(t.draws),
                black: n(t.black),
                // The mean of (white + black) / 2, rounded half up: floor((sum + rated) / (2 rated)).
                avg_rating: (t.rated > 0).then(|| (t.rating_sum + t.rated).div_euclid(2 * t.rated)),
                last_played: t
                    .last
                    .map(|m| format!("{:04}-{:02}", m.div_euclid(100), m.rem_euclid(100))),
            });
        }
        answer
            .moves
            .sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.san.cmp(&b.san)));
        for m in &answer.moves {
            answer.games += m.games;
            answer.white += m.white;
            answer.draws += m.draws;
            answer.black += m.black;
        }
        if answer.games > 0 {
            let looked_up = !filters.on_tags()
                && (answer.games <= self.lists_looked_up
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
            answer.top_games = top.iter().filter_map(|h| refs.get(h)).cloned().collect();
            answer.recent_games = recent.iter().filter_map(|h| refs.get(h)).cloned().collect();
        }
        Ok(answer)
    }

    /// The condition on `positions` (alias `p`) of the games counted for the position.
    fn reached_sql(&self, hi: i64, lo: i64, filters: &Filters) -> String {
        format!(
            "p.key_hi = {hi} AND p.key_lo = {lo} AND {}{}",
            crate::tables::counted_sql(self.manifest().max_ply),
            filters.positions_sql()
        )
    }

    /// Per move, the aggregate's rows of the position whose buckets pass `filters`: without
    /// filters, an import's totals of the position when it has them; when a part has no rows
    /// of it, its games in the positions of that part's batches (kept in `scanned`).
    fn tallies_from_aggregate(
        &self,
        hi: i64,
        lo: i64,
        filters: &Filters,
        scanned: &mut Scanned,
    ) -> Result<Vec<(String, Tally)>, DbError> {
        let mut out = Tallies::default();
        let everything = self.use_lists && filters.is_empty();
        let lookups = self.lookups()?;
        for unit in &lookups.explorer {
            let found = if everything
                && let Some(totals) = &unit.totals
                && add_totals(totals, hi, lo, &mut out)?
            {
                true
            } else {
                add_bucket_rows(&unit.rows, hi, lo, filters, &mut out)?
            };
            if !found {
                // Not one of the unit's popular positions: its games are counted from the
                // positions of the batches whose aggregates hold only those.
                for &b in &unit.fallback {
                    let positions = &lookups.batches[b].positions;
                    let games = scanned.entry(b).or_default();
                    self.each_counted(positions, hi, lo, filters, |p, i, game| {
                        tally_of(&mut out, p.next_uci.value(i)).add(&one_game(p, i, &game));
                        games.push(game);
                    })?;
                }
            }
        }
        Ok(out.into_iter().collect())
    }

    /// Per move, the games `reached` (a condition on `positions`) selects, through the engine.
    fn tallies_from_positions(&self, reached: &str) -> Result<Vec<(String, Tally)>, DbError> {
        let sql = format!(
            "SELECT p.next_uci AS uci, COUNT(*) AS games, \
             SUM(CASE WHEN p.outcome = 1 THEN 1 ELSE 0 END) AS white, \
             SUM(CASE WHEN p.outcome = 0 THEN 1 ELSE 0 END) AS draws, \
             SUM(CASE WHEN p.outcome = -1 THEN 1 ELSE 0 END) AS black, \
             SUM(CASE WHEN p.elo_sum IS NULL THEN 0 ELSE CAST(p.elo_sum AS BIGINT) END) AS rating_sum, \
             SUM(CASE WHEN p.elo_sum IS NULL THEN 0 ELSE 1 END) AS rated, \
             MAX(CASE WHEN p.month IS NOT NULL THEN CAST(p.year AS BIGINT) * 100 + p.month END) AS last \
             FROM positions p WHERE {reached} GROUP BY p.next_uci"
        );
        let mut out = Vec::new();
        for batch in self.session().collect(&sql)? {
            let uci = strings(&batch, "uci")?;
            let (sums, last) = (Sums::read(&batch)?, ints(&batch, "last")?);
            for i in 0..batch.num_rows() {
                if let Some(uci) = str_at(&uci, i) {
                    out.push((uci, sums.at(i, int_at(&last, i))));
                }
            }
        }
        Ok(out)
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

    /// [`each_counted`] under this database's max-ply.
    fn each_counted(
        &self,
        positions: &crate::lookup::SortedFiles,
        hi: i64,
        lo: i64,
        filters: &Filters,
        each: impl FnMut(&crate::lists::Positions, usize, Reached),
    ) -> Result<(), DbError> {
        each_counted(positions, hi, lo, self.manifest().max_ply, filters, each)
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
            let columns = [
                "white",
                "black",
                "result",
                "white_elo",
                "black_elo",
                "played",
                "event",
            ];
            found = game_refs_of(&refs.rows(&ids, &columns)?)?;
        } else {
            // Short lists, which the engine prunes with each row group's bounds of `game_id`.
            for page in hits.chunks(16) {
                let ids: Vec<String> = page.iter().map(|(id, _)| id.to_string()).collect();
                found.extend(self.game_refs(&format!(
                    "SELECT g.game_id, g.white, g.black, g.result, g.white_elo, g.black_elo, \
                     g.played, g.event FROM game_refs g WHERE g.game_id IN ({})",
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

/// The games in record batches with the columns of [`Database::game_refs`].
/// Tallies per move (UCI).
type Tallies = std::collections::BTreeMap<String, Tally>;

/// Per batch (index in the lookups' batches), the games of the position read from its
/// `positions` under the filters of the question.
type Scanned = std::collections::HashMap<usize, Vec<Reached>>;

/// The tally of `uci` in `out` (no text copied when it is there: a popular position has many
/// rows per move).
fn tally_of<'a>(out: &'a mut Tallies, uci: &str) -> &'a mut Tally {
    if !out.contains_key(uci) {
        out.insert(uci.to_owned(), Tally::default());
    }
    out.get_mut(uci).expect("inserted above")
}

/// Adds to `out` the rows of the position `(hi, lo)` in an explorer aggregate whose buckets
/// pass `filters`; whether the aggregate has rows of the position (whatever the filters).
fn add_bucket_rows(
    rows: &crate::lookup::SortedFiles,
    hi: i64,
    lo: i64,
    filters: &Filters,
    out: &mut Tallies,
) -> Result<bool, DbError> {
    use crate::merge::Part;
    use crate::runs::Decode;
    let mut found = false;
    for batch in rows.rows(&[hi], Part::COLUMNS)? {
        let p = Part::decode(&batch)?;
        let sums = Sums(p.counts.clone());
        for i in 0..batch.num_rows() {
            if int_at(&p.lo, i) != Some(lo) {
                continue;
            }
            found = true;
            if !p.uci.is_valid(i) {
                continue;
            }
            let when = p.when(i);
            let speed = p.speed.is_valid(i).then(|| p.speed.value(i));
            if filters.keeps_bucket(int_at(&p.group, i), speed, p.months(i)) {
                tally_of(out, p.uci.value(i)).add(&sums.at(i, when));
            }
        }
    }
    Ok(found)
}

/// What counted row `i` of `p` (the game `game`) adds to its move's tally: what its rows in
/// the aggregate would add (sql/explorer.sql: one game, its result, its Elo sum if it has one).
fn one_game(p: &crate::lists::Positions, i: usize, game: &Reached) -> Tally {
    let outcome = int_at(&p.outcome, i);
    Tally {
        games: 1,
        white: i64::from(outcome == Some(1)),
        draws: i64::from(outcome == Some(0)),
        black: i64::from(outcome == Some(-1)),
        rating_sum: game.elo_sum.unwrap_or(0),
        rated: i64::from(game.elo_sum.is_some()),
        last: game.played_on.and_then(month_of),
    }
}

/// Adds to `out` the totals of the position `(hi, lo)` in an import's totals table; whether
/// the table holds the position.
fn add_totals(
    totals: &crate::lookup::SortedFiles,
    hi: i64,
    lo: i64,
    out: &mut Tallies,
) -> Result<bool, DbError> {
    let columns: Vec<&str> = ["key_lo", "uci"]
        .into_iter()
        .chain(crate::totals::COUNTS)
        .chain(["last"])
        .collect();
    let mut found = false;
    for batch in totals.rows(&[hi], &columns)? {
        let (key_lo, last) = (ints(&batch, "key_lo")?, ints(&batch, "last")?);
        let (sums, uci) = (Sums::read(&batch)?, strings(&batch, "uci")?);
        for i in 0..batch.num_rows() {
            if int_at(&key_lo, i) != Some(lo) {
                continue;
            }
            found = true;
            if uci.is_valid(i) {
                tally_of(out, uci.value(i)).add(&sums.at(i, int_at(&last, i)));
            }
        }
    }
    Ok(found)
}

/// Adds to `out` the games of the position `(hi, lo)` in a batch's lists that pass `filters`;
/// whether the lists hold the position.
fn listed(
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

/// Calls `each` with the rows of the position `(hi, lo)` in a batch's `positions` that count
/// for it (the explorer's rule) and pass `filters` (no player filter): the batch, the row,
/// and the game as the lists order it.
fn each_counted(
    positions: &crate::lookup::SortedFiles,
    hi: i64,
    lo: i64,
    max_ply: u32,
    filters: &Filters,
    mut each: impl FnMut(&crate::lists::Positions, usize, Reached),
) -> Result<(), DbError> {
    use crate::lists::Positions;
    use crate::runs::Decode;
    let max_ply = i64::from(max_ply);
    for batch in positions.rows(&[hi], Positions::COLUMNS)? {
        let p = Positions::decode(&batch)?;
        for i in 0..batch.num_rows() {
            if p.lo.value(i) != lo || !p.is_counted(i, max_ply) {
                continue;
            }
            let played = int_at(&p.played_on, i);
            let elo_sum = int_at(&p.elo_sum, i);
            if filters.keeps_game(elo_sum, p.speed_at(i), played_months(played)) {
                let game = Reached {
                    game_id: p.game_id.value(i),
                    ply: int_at(&p.ply, i).unwrap_or(0).max(0) as u64,
                    elo_sum,
                    played_on: played,
                };
                each(&p, i, game);
            }
        }
    }
    Ok(())
}

fn game_refs_of(batches: &[arrow_array::RecordBatch]) -> Result<Vec<GameRef>, DbError> {
    let mut out = Vec::new();
    for batch in batches {
        let id = ints(batch, "game_id")?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Filters, ImportOptions, QueryOptions, YearMonth, import};

    /// The top and recent games picked from the looked-up rows, and from the lists of the
    /// popular positions, are those the engine's top-k picks (the way of a position reached
    /// by more than 500,000 games), under every filter.
    #[test]
    fn the_lists_looked_up_are_the_engines() {
        let dir = tempfile::tempdir().expect("tempdir");
        let query = QueryOptions {
            threads: 2,
            memory: 256 << 20,
            spill_dir: None,
        };
        let options = ImportOptions {
            db: dir.path().join("db"),
            inputs: vec![tabla_testdata::testdata_dir().join("pgn/lichess_db_1000k.pgn")],
            max_ply: Some(50),
            query: query.clone(),
        };
        import(&options, &tabla_convert::NoProgress).expect("import");
        let mut db = Database::open_with(&options.db, &query).expect("open");
        let filters = [
            Filters::default(),
            Filters {
                rating: Some((Some(1600), Some(1999))),
                ..Filters::default()
            },
            Filters {
                rating: Some((Some(1650), Some(1850))),
                ..Filters::default()
            },
            Filters {
                speeds: vec!["blitz".into(), "rapid".into()],
                since: YearMonth::parse("2013-01").ok(),
                ..Filters::default()
            },
        ];
        let mut listed = 0;
        let (mut popular, mut rare) = (0, 0);
        for moves in ["", "e4", "e4 e5", "d4 Nf6 c4 e6", "e4 c5 Nf3 d6"] {
            for f in &filters {
                let target = Target::Moves(moves.into());
                // The positions' rows looked up; then the lists of popular positions (those
                // with at least LISTED_FROM games, under filters on buckets); then the engine.
                db.use_lists = false;
                db.lists_looked_up = u64::MAX;
                let looked_up = db.explore(&target, f).expect("explore");
                db.use_lists = true;
                let from_lists = db.explore(&target, f).expect("explore");
                db.use_lists = false;
                db.lists_looked_up = 0;
                let engine = db.explore(&target, f).expect("explore");
                assert_eq!(looked_up, engine, "{moves:?} with {f:?}");
                assert_eq!(from_lists, engine, "{moves:?} with {f:?}, from the lists");
                listed += looked_up.top_games.len() + looked_up.recent_games.len();
                if *f == Filters::default() {
                    if looked_up.games >= crate::lists::LISTED_FROM {
                        popular += 1;
                    } else if looked_up.games > 0 {
                        rare += 1;
                    }
                }
            }
        }
        assert!(
            listed > 100,
            "only {listed} games listed: the check saw too little"
        );
        assert!(popular >= 2 && rare >= 1, "{popular} popular, {rare} rare");
        // The lists were read, not skipped: the start position's are there.
        let (hi, lo) = key_columns(Position::startpos().wide_key());
        let mut start = Vec::new();
        let lists = db.lookups().expect("lookups").batches[0].lists.as_ref();
        let found = super::listed(
            lists.expect("lists"),
            hi,
            lo,
            &Filters::default(),
            &mut start,
        );
        assert!(found.expect("lists") && start.len() >= GAMES_LISTED);
        let all = db.lookups().expect("lookups").batches[0].lists_all.as_ref();
        let mut overall = Vec::new();
        let found = super::listed(
            all.expect("lists_all"),
            hi,
            lo,
            &Filters::default(),
            &mut overall,
        );
        assert!(found.expect("lists_all") && overall.len() >= GAMES_LISTED);
        assert!(overall.len() <= 2 * GAMES_LISTED && overall.len() < start.len());
        let totals = db.lookups().expect("lookups").explorer[0].totals.as_ref();
        let found = add_totals(totals.expect("totals"), hi, lo, &mut Tallies::default());
        assert!(found.expect("totals"), "the start position has totals");
    }
}
