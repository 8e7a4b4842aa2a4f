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
use crate::game_refs::{GameRef, Reached, Scanned};
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

/// A position to explore: a FEN, or moves from the standard start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A FEN (`startpos` for the standard start).
    Fen(String),
    /// Moves from the standard start, in SAN or UCI, separated by spaces (move numbers allowed).
    Moves(String),
}

impl Target {
    /// The position a caller names by a FEN or by moves (`tabla db explore --fen/--moves`,
    /// Python's `fen=`/`moves=`), the standard start when neither is given; both given is an
    /// argument error.
    ///
    /// ```
    /// use tabla_db::Target;
    /// let start = Target::from_fen_or_moves(None, None).unwrap();
    /// assert_eq!(start.position().unwrap(), tabla::Position::startpos());
    /// assert!(Target::from_fen_or_moves(Some("startpos".into()), Some("e4".into())).is_err());
    /// ```
    pub fn from_fen_or_moves(
        fen: Option<String>,
        moves: Option<String>,
    ) -> Result<Target, DbError> {
        match (fen, moves) {
            (Some(_), Some(_)) => Err(DbError::Argument(
                "give a FEN or moves, not both".to_owned(),
            )),
            (Some(fen), None) => Ok(Target::Fen(fen)),
            (None, Some(moves)) => Ok(Target::Moves(moves)),
            (None, None) => Ok(Target::Fen("startpos".to_owned())),
        }
    }

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
            (answer.top_games, answer.recent_games) =
                self.game_lists(hi, lo, filters, answer.games, scanned)?;
        }
        Ok(answer)
    }

    /// The condition on `positions` (alias `p`) of the games counted for the position.
    pub(crate) fn reached_sql(&self, hi: i64, lo: i64, filters: &Filters) -> String {
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

    /// [`each_counted`] under this database's max-ply.
    pub(crate) fn each_counted(
        &self,
        positions: &crate::lookup::SortedFiles,
        hi: i64,
        lo: i64,
        filters: &Filters,
        each: impl FnMut(&crate::lists::Positions, usize, Reached),
    ) -> Result<(), DbError> {
        each_counted(positions, hi, lo, self.manifest().max_ply, filters, each)
    }
}

/// Tallies per move (UCI).
type Tallies = std::collections::BTreeMap<String, Tally>;

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

/// Calls `each` with the rows of the position `(hi, lo)` in a batch's `positions` that count
/// for it (the explorer's rule) and pass `filters` (no player filter): the batch, the row,
/// and the game as the lists order it.
pub(crate) fn each_counted(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lists::GAMES_LISTED;
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
        let found = crate::game_refs::listed(
            lists.expect("lists"),
            hi,
            lo,
            &Filters::default(),
            &mut start,
        );
        assert!(found.expect("lists") && start.len() >= GAMES_LISTED);
        let all = db.lookups().expect("lookups").batches[0].lists_all.as_ref();
        let mut overall = Vec::new();
        let found = crate::game_refs::listed(
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
