//! Position search: the games that reach a position, a material balance or a pattern of pieces
//! at any ply (not only below max-ply), found by replaying every game's mainline from the
//! `games` table's `uci` column on every core.

use crate::explore::Target;
use crate::filters::Filters;
use crate::game_refs::GameRef;
use crate::values::{int_at, str_at, strings};
use crate::{Database, DbError};
use arrow_array::{Array, ListArray, RecordBatch, StringArray, StructArray};
use serde::Serialize;
use tabla::{Bitboard, Color, Material, Piece, Position, Role, Square};

/// What to look for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchQuery {
    /// This exact position (placement, side to move, castling rights, an en-passant square
    /// only when a capture there is legal), reached by any move order.
    Position(Target),
    /// A material balance ([`SearchQuery::material`] reads one).
    Material {
        /// The men of each side.
        material: Material,
        /// Also match the balance with the colours swapped.
        either_color: bool,
    },
    /// Pieces that must stand on given squares (other squares are free).
    Pattern(Vec<Piece2Square>),
}

impl SearchQuery {
    /// A search for the material balance `text` (`KRPvKR`, as [`tabla::Material`] reads it),
    /// also with the colours swapped when `either_color`.
    ///
    /// ```
    /// use tabla_db::SearchQuery;
    /// assert!(SearchQuery::material("KRPvKR", false).is_ok());
    /// let e = SearchQuery::material("KRPKRK", false).unwrap_err();
    /// assert!(e.to_string().contains("--material"), "{e}");
    /// ```
    pub fn material(text: &str, either_color: bool) -> Result<SearchQuery, DbError> {
        let material = text
            .parse()
            .map_err(|e| DbError::Argument(format!("--material: {e}")))?;
        Ok(SearchQuery::Material {
            material,
            either_color,
        })
    }

    /// What a caller asks to search for (`tabla db search`, Python's `Database.search`):
    /// exactly one of a FEN, moves from the start, a material balance (with `either_color`
    /// only) and a pattern; a position is checked here.
    ///
    /// ```
    /// use tabla_db::SearchQuery;
    /// assert!(SearchQuery::one_of(None, Some("e4 e5"), None, None, false).is_ok());
    /// assert!(SearchQuery::one_of(None, None, Some("KRvK"), None, true).is_ok());
    /// assert!(SearchQuery::one_of(None, None, None, None, false).is_err());
    /// assert!(SearchQuery::one_of(Some("startpos"), None, Some("KRvK"), None, false).is_err());
    /// // either_color goes with a material balance.
    /// assert!(SearchQuery::one_of(None, Some("e4"), None, None, true).is_err());
    /// assert!(SearchQuery::one_of(None, Some("e4 e4"), None, None, false).is_err());
    /// ```
    pub fn one_of(
        fen: Option<&str>,
        moves: Option<&str>,
        material: Option<&str>,
        pattern: Option<&str>,
        either_color: bool,
    ) -> Result<SearchQuery, DbError> {
        let query = match (fen, moves, material, pattern) {
            (Some(fen), None, None, None) => SearchQuery::Position(Target::Fen(fen.to_owned())),
            (None, Some(moves), None, None) => {
                SearchQuery::Position(Target::Moves(moves.to_owned()))
            }
            (None, None, Some(material), None) => {
                return SearchQuery::material(material, either_color);
            }
            (None, None, None, Some(pattern)) => SearchQuery::Pattern(parse_pattern(pattern)?),
            _ => {
                return Err(DbError::Argument(
                    "give one of a FEN, moves, a material balance and a pattern to search for"
                        .to_owned(),
                ));
            }
        };
        if either_color {
            return Err(DbError::Argument(
                "either color goes with a material balance".to_owned(),
            ));
        }
        if let SearchQuery::Position(target) = &query {
            target.position()?;
        }
        Ok(query)
    }
}

/// The games a list of search results shows when the caller does not say (`tabla db search
/// --limit`, Python's `limit=`, the API's `limit`).
pub const DEFAULT_LIMIT: usize = 20;

/// One square of a pattern: a piece that must stand there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Piece2Square {
    /// The piece.
    pub piece: Piece,
    /// Its square.
    pub square: Square,
}

/// Reads a pattern, `wKg1,wRf1,bKg8`: colour (`w` or `b`), piece letter, square, separated by
/// commas or spaces.
///
/// ```
/// let p = tabla_db::parse_pattern("wKg1, wRf1 bKg8").unwrap();
/// assert_eq!(p.len(), 3);
/// assert!(tabla_db::parse_pattern("wKg9").is_err());
/// assert!(tabla_db::parse_pattern("wKg1,bQg1").is_err());
/// ```
pub fn parse_pattern(text: &str) -> Result<Vec<Piece2Square>, DbError> {
    let mut out: Vec<Piece2Square> = Vec::new();
    for item in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
    {
        let bad = |why: &str| DbError::Argument(format!("--pattern item {item:?}: {why}"));
        let b = item.as_bytes();
        if b.len() != 4 {
            return Err(bad("expected colour, piece and square, e.g. wKg1 or bPe5"));
        }
        let color = match b[0] {
            b'w' | b'W' => Color::White,
            b'b' | b'B' => Color::Black,
            _ => return Err(bad("the colour is w or b")),
        };
        let role =
            Role::from_char(b[1] as char).ok_or_else(|| bad("the piece is K, Q, R, B, N or P"))?;
        let square = Square::from_ascii(&b[2..4]).ok_or_else(|| bad("not a square (a1 to h8)"))?;
        if out.iter().any(|p| p.square == square) {
            return Err(bad("that square is already in the pattern"));
        }
        out.push(Piece2Square {
            piece: Piece { color, role },
            square,
        });
    }
    if out.is_empty() {
        return Err(DbError::Argument(
            "--pattern: give at least one piece, e.g. \"wKg1,wRf1,bKg8\"".to_owned(),
        ));
    }
    Ok(out)
}

/// The search's answer (what `tabla db search --json` prints).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SearchAnswer {
    /// Games that match (all of them, not only those listed).
    pub total: u64,
    /// The games listed: most recent first (then by id), from `offset`, at most `limit`; `ply`
    /// is where each first matched.
    pub games: Vec<GameRef>,
}

/// How many positions a search looked at, for the benchmark's figure.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchWork {
    /// Games replayed.
    pub games: u64,
    /// Positions looked at (every ply of every game replayed, the start included).
    pub positions: u64,
}

/// A compiled query: what one position is tested for.
enum Test {
    Position {
        turn: Color,
        occupied: Bitboard,
        key: u128,
    },
    Material {
        material: Material,
        either_color: bool,
    },
    Pattern(Vec<Piece2Square>),
}

impl Test {
    fn new(query: &SearchQuery) -> Result<Test, DbError> {
        Ok(match query {
            SearchQuery::Position(target) => {
                let pos = target.position()?;
                Test::Position {
                    turn: pos.turn(),
                    occupied: pos.occupied(),
                    key: pos.wide_key(),
                }
            }
            SearchQuery::Material {
                material,
                either_color,
            } => Test::Material {
                material: *material,
                either_color: *either_color,
            },
            SearchQuery::Pattern(p) => Test::Pattern(p.clone()),
        })
    }

    #[inline]
    fn matches(&self, pos: &Position) -> bool {
        match self {
            // Cheap comparisons first; the wide key (which looks for a legal en passant)
            // only when placement and turn agree.
            Test::Position {
                turn,
                occupied,
                key,
            } => pos.turn() == *turn && pos.occupied() == *occupied && pos.wide_key() == *key,
            Test::Material {
                material,
                either_color,
            } => {
                let found = Material::of(pos);
                found == *material || (*either_color && found.swapped() == *material)
            }
            Test::Pattern(p) => p.iter().all(|x| pos.piece_at(x.square) == Some(x.piece)),
        }
    }
}

/// A matching game: its id, date (for the order) and the ply of its first match.
struct Hit {
    id: i64,
    played: Option<String>,
    ply: u64,
}

impl Database {
    /// The games that match `query` and `filters`: their number, and `limit` of them from
    /// `offset`, most recent first.
    pub fn search(
        &self,
        query: &SearchQuery,
        filters: &Filters,
        limit: usize,
        offset: usize,
    ) -> Result<SearchAnswer, DbError> {
        let (hits, _) = self.search_hits(query, filters)?;
        let total = hits.len() as u64;
        let page: Vec<&Hit> = hits.iter().skip(offset).take(limit).collect();
        let games = self.refs_of(&page)?;
        Ok(SearchAnswer { total, games })
    }

    /// Every matching game's id and ply, most recent first, with the work done.
    pub fn search_ids(
        &self,
        query: &SearchQuery,
        filters: &Filters,
    ) -> Result<(Vec<(i64, u64)>, SearchWork), DbError> {
        let (hits, work) = self.search_hits(query, filters)?;
        Ok((hits.iter().map(|h| (h.id, h.ply)).collect(), work))
    }

    fn search_hits(
        &self,
        query: &SearchQuery,
        filters: &Filters,
    ) -> Result<(Vec<Hit>, SearchWork), DbError> {
        filters.validate()?;
        let test = Test::new(query)?;
        let mut hits = Vec::new();
        let mut work = SearchWork::default();
        if self.manifest().batches.is_empty() {
            return Ok((hits, work));
        }
        let sql = format!(
            "SELECT g.game_id, g.played, g.uci, g.tags FROM games g WHERE TRUE{}",
            filters.games_sql()
        );
        let threads = self.threads().max(1);
        self.session().for_each_batch(&sql, |batch| {
            let (found, done) = scan_batch(batch, &test, threads)?;
            hits.extend(found);
            work.games += done.games;
            work.positions += done.positions;
            Ok(())
        })?;
        // Most recent first (unknown parts sort before known ones, unknown dates last).
        hits.sort_by(|a, b| {
            let key = |h: &Hit| h.played.as_deref().map(|d| d.replace('?', "0"));
            key(b).cmp(&key(a)).then(a.id.cmp(&b.id))
        });
        Ok((hits, work))
    }

    /// The list entries of `hits`, in their order, each with its ply.
    fn refs_of(&self, hits: &[&Hit]) -> Result<Vec<GameRef>, DbError> {
        let keys: Vec<(i64, u64)> = hits.iter().map(|h| (h.id, h.ply)).collect();
        let refs = self.game_refs_by_id(&keys)?;
        Ok(keys.iter().filter_map(|k| refs.get(k)).cloned().collect())
    }
}

/// Replays the games of one record batch on `threads` threads.
fn scan_batch(
    batch: &RecordBatch,
    test: &Test,
    threads: usize,
) -> Result<(Vec<Hit>, SearchWork), DbError> {
    let ids = crate::values::ints(batch, "game_id")?;
    let played = strings(batch, "played")?;
    let uci = list_column(batch, "uci")?;
    let tags = list_column(batch, "tags")?;
    let rows = batch.num_rows();
    let chunk = rows.div_ceil(threads).max(1);
    let results: Vec<(Vec<Hit>, SearchWork)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..rows)
            .step_by(chunk)
            .map(|start| {
                let (ids, played, uci, tags) = (&ids, &played, &uci, &tags);
                scope.spawn(move || {
                    let mut hits = Vec::new();
                    let mut work = SearchWork::default();
                    for row in start..(start + chunk).min(rows) {
                        let Some(id) = int_at(ids, row) else { continue };
                        work.games += 1;
                        if let Some(ply) = first_match(uci, tags, row, test, &mut work) {
                            hits.push(Hit {
                                id,
                                played: str_at(played, row),
                                ply,
                            });
                        }
                    }
                    (hits, work)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .map_err(|_| DbError::Query("a search thread failed".to_owned()))
            })
            .collect::<Result<Vec<_>, DbError>>()
    })?;
    let mut hits = Vec::new();
    let mut work = SearchWork::default();
    for (h, w) in results {
        hits.extend(h);
        work.games += w.games;
        work.positions += w.positions;
    }
    Ok((hits, work))
}

/// The ply at which the game in `row` first matches, replaying its mainline.
fn first_match(
    uci: &ListArray,
    tags: &ListArray,
    row: usize,
    test: &Test,
    work: &mut SearchWork,
) -> Option<u64> {
    let mut pos = start_position(tags, row)?;
    work.positions += 1;
    if test.matches(&pos) {
        return Some(0);
    }
    let moves = uci.value(row);
    let moves = moves.as_any().downcast_ref::<StringArray>()?;
    for i in 0..moves.len() {
        // The column holds the mainline up to its first bad move: every move here plays.
        let text = moves.value(i);
        if text == "0000" {
            pos.play_null();
        } else {
            let mv = pos.parse_uci(text).ok()?;
            pos.play_unchecked(mv);
        }
        work.positions += 1;
        if test.matches(&pos) {
            return Some(i as u64 + 1);
        }
    }
    None
}

/// The game's starting position: its `FEN` tag's, else the standard start.
fn start_position(tags: &ListArray, row: usize) -> Option<Position> {
    let list = tags.value(row);
    let items = list.as_any().downcast_ref::<StructArray>()?;
    let names = items.column(0).as_any().downcast_ref::<StringArray>()?;
    let values = items.column(1).as_any().downcast_ref::<StringArray>()?;
    for i in 0..items.len() {
        if names.value(i) == "FEN" {
            return Position::from_fen(values.value(i)).ok();
        }
    }
    Some(Position::startpos())
}

fn list_column(batch: &RecordBatch, name: &str) -> Result<ListArray, DbError> {
    batch
        .column_by_name(name)
        .and_then(|c| c.as_any().downcast_ref::<ListArray>())
        .cloned()
        .ok_or_else(|| DbError::Query(format!("column {name}: not a list")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_with_more_men_than_a_side_has_is_refused_however_many() {
        // 1 king and 255 queens: 256 men, which a `u8` sum wrapped to 0.
        let text = format!("K{}vK", "Q".repeat(255));
        let e = SearchQuery::material(&text, false).expect_err("256 men");
        assert!(e.to_string().contains("more men"), "{e}");
        assert!(SearchQuery::material(&format!("K{}vK", "Q".repeat(300)), false).is_err());
        assert!(SearchQuery::material("KQQQQQQQQQQQQQQQvK", false).is_ok());
    }
}
