//! The opening explorer: for a position and filters, the moves played from it with their
//! results, and the top and most recent games that reached it.
//!
//! Counts come from the `explorer` aggregate when the filters fall on its buckets, else from
//! the `positions` and `games` tables (the same counting rule, [`crate::EXPLORER_SQL`]); the
//! games lists always come from the latter.

use crate::filters::Filters;
use crate::values::{int_at, ints, str_at, strings};
use crate::{Database, DbError};
use serde::Serialize;
use tabla::{Position, SanMode};
use tabla_convert::key_columns;

/// How many top and recent games an answer lists.
pub const GAMES_LISTED: usize = 8;

/// The explorer's answer (the shape `tabla db explore --json` prints).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
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
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
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
            Target::Fen(fen) if fen.trim() == "startpos" => Ok(Position::startpos()),
            Target::Fen(fen) => Position::from_fen(fen)
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

impl Database {
    /// The explorer's answer for `target` under `filters`.
    pub fn explore(&self, target: &Target, filters: &Filters) -> Result<Explorer, DbError> {
        filters.validate()?;
        let pos = target.position()?;
        let (hi, lo) = key_columns(pos.wide_key());
        let max_ply = self.manifest().max_ply;
        let reached = format!(
            "p.key_hi = {hi} AND p.key_lo = {lo} AND p.first AND p.ply < {max_ply} \
             AND p.next_uci IS NOT NULL AND p.outcome IS NOT NULL{}",
            filters.positions_sql()
        );
        let counts = match filters.aggregate_sql() {
            Some(buckets) => format!(
                "SELECT e.uci AS uci, SUM(e.games) AS games, SUM(e.white) AS white, \
                 SUM(e.draws) AS draws, SUM(e.black) AS black, SUM(e.rating_sum) AS rating_sum, \
                 SUM(e.rated) AS rated, \
                 MAX(CASE WHEN e.month IS NOT NULL THEN CAST(e.year AS BIGINT) * 100 + e.month END) AS last \
                 FROM explorer e WHERE e.key_hi = {hi} AND e.key_lo = {lo}{buckets} GROUP BY e.uci"
            ),
            None => format!(
                "SELECT p.next_uci AS uci, COUNT(*) AS games, \
                 SUM(CASE WHEN p.outcome = 1 THEN 1 ELSE 0 END) AS white, \
                 SUM(CASE WHEN p.outcome = 0 THEN 1 ELSE 0 END) AS draws, \
                 SUM(CASE WHEN p.outcome = -1 THEN 1 ELSE 0 END) AS black, \
                 SUM(CASE WHEN p.elo_sum IS NULL THEN 0 ELSE CAST(p.elo_sum AS BIGINT) END) AS rating_sum, \
                 SUM(CASE WHEN p.elo_sum IS NULL THEN 0 ELSE 1 END) AS rated, \
                 MAX(CASE WHEN p.month IS NOT NULL THEN CAST(p.year AS BIGINT) * 100 + p.month END) AS last \
                 FROM positions p WHERE {reached} GROUP BY p.next_uci"
            ),
        };
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
        for batch in self.engine().collect(&counts)? {
            let uci = strings(&batch, "uci")?;
            let [games, white, draws, black, rating_sum, rated, last] = [
                "games",
                "white",
                "draws",
                "black",
                "rating_sum",
                "rated",
                "last",
            ]
            .map(|c| ints(&batch, c));
            let (games, white, draws, black) = (games?, white?, draws?, black?);
            let (rating_sum, rated, last) = (rating_sum?, rated?, last?);
            for i in 0..batch.num_rows() {
                let Some(uci) = str_at(&uci, i) else { continue };
                let san = pos
                    .parse_uci(&uci)
                    .map(|mv| pos.san(mv))
                    .unwrap_or_else(|_| uci.clone());
                let n = |a: &arrow_array::Int64Array| int_at(a, i).unwrap_or(0).max(0) as u64;
                let rated_n = n(&rated);
                answer.moves.push(MoveStats {
                    uci,
                    san,
                    games: n(&games),
                    white: n(&white),
                    draws: n(&draws),
                    black: n(&black),
                    // The mean of (white + black) / 2, rounded half up: floor((sum + rated) / (2 rated)).
                    avg_rating: (rated_n > 0).then(|| {
                        let sum = int_at(&rating_sum, i).unwrap_or(0);
                        (sum + rated_n as i64).div_euclid(2 * rated_n as i64)
                    }),
                    last_played: int_at(&last, i)
                        .map(|m| format!("{:04}-{:02}", m.div_euclid(100), m.rem_euclid(100))),
                });
            }
        }
        answer.moves.retain(|m| m.games > 0);
        answer
            .moves
            .sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.san.cmp(&b.san)));
        for m in &answer.moves {
            answer.games += m.games;
            answer.white += m.white;
            answer.draws += m.draws;
            answer.black += m.black;
        }
        let list = |condition: &str, order: &str| {
            format!(
                "SELECT p.game_id, p.ply FROM positions p WHERE {reached}{condition} \
                 ORDER BY {order} DESC, p.game_id LIMIT {GAMES_LISTED}"
            )
        };
        if answer.games > 0 {
            let top = self.ids_and_plies(&list(" AND p.elo_sum IS NOT NULL", "p.elo_sum"))?;
            let recent =
                self.ids_and_plies(&list(" AND p.played_on IS NOT NULL", "p.played_on"))?;
            let mut all: Vec<(i64, u64)> = top.iter().chain(&recent).copied().collect();
            all.sort_unstable();
            all.dedup();
            let refs = self.game_refs_by_id(&all)?;
            answer.top_games = top.iter().filter_map(|h| refs.get(h)).cloned().collect();
            answer.recent_games = recent.iter().filter_map(|h| refs.get(h)).cloned().collect();
        }
        Ok(answer)
    }

    /// The `game_id` and `ply` columns of a query's rows.
    fn ids_and_plies(&self, sql: &str) -> Result<Vec<(i64, u64)>, DbError> {
        let mut out = Vec::new();
        for batch in self.engine().collect(sql)? {
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
        // Short lists, which the engine prunes with each row group's bounds of `game_id`.
        for page in hits.chunks(16) {
            let ids: Vec<String> = page.iter().map(|(id, _)| id.to_string()).collect();
            let found = self.game_refs(&format!(
                "SELECT g.game_id, g.white, g.black, g.result, g.white_elo, g.black_elo, \
                 g.played, g.event, CAST(0 AS BIGINT) AS ply FROM game_refs g \
                 WHERE g.game_id IN ({})",
                ids.join(", ")
            ))?;
            for &(id, ply) in page {
                let text = id.to_string();
                if let Some(g) = found.iter().find(|g| g.id == text) {
                    out.insert((id, ply), GameRef { ply, ..g.clone() });
                }
            }
        }
        Ok(out)
    }

    /// The games a query lists (columns as in [`GameRef`], plus `game_id`, `played` and `ply`).
    pub(crate) fn game_refs(&self, sql: &str) -> Result<Vec<GameRef>, DbError> {
        let mut out = Vec::new();
        for batch in self.engine().collect(sql)? {
            let id = ints(&batch, "game_id")?;
            let [white, black, result, played, event] =
                ["white", "black", "result", "played", "event"].map(|c| strings(&batch, c));
            let (white, black, result, played, event) = (white?, black?, result?, played?, event?);
            let (white_elo, black_elo, ply) = (
                ints(&batch, "white_elo")?,
                ints(&batch, "black_elo")?,
                ints(&batch, "ply")?,
            );
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
                    ply: int_at(&ply, i).unwrap_or(0).max(0) as u64,
                });
            }
        }
        Ok(out)
    }
}
