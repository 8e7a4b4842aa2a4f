//! The two tables: their Arrow schemas, and the builders that turn game records into record
//! batches.

use crate::PositionsTable;
use crate::date::{PgnDate, parse_date};
use crate::record::GameRecord;
use arrow_array::builder::{
    ArrayBuilder, Date32Builder, Int32Builder, Int64Builder, ListBuilder, StringBuilder,
    UInt32Builder,
};
use arrow_array::{
    ArrayRef, BooleanArray, Int32Array, Int64Array, ListArray, RecordBatch, StringArray,
    StructArray, UInt32Array, UInt64Array,
};
use arrow_buffer::{OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use std::sync::Arc;
use tabla::zobrist::key_columns;
use tabla_pgn::Outcome;

/// How a tag's value is stored in its column.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// As written (decoded to UTF-8).
    Text,
    /// `Date32`, null unless the date is whole and exists.
    Date,
    /// `Int32`, null unless the value is an integer.
    Int,
}

/// The tags with a column of their own, in column order: the lichess database's tags.
const TAG_COLUMNS: [(&str, &str, Kind); 19] = [
    ("Event", "event", Kind::Text),
    ("Site", "site", Kind::Text),
    ("Date", "date", Kind::Date),
    ("Round", "round", Kind::Text),
    ("White", "white", Kind::Text),
    ("Black", "black", Kind::Text),
    ("Result", "result", Kind::Text),
    ("UTCDate", "utc_date", Kind::Date),
    ("UTCTime", "utc_time", Kind::Text),
    ("WhiteElo", "white_elo", Kind::Int),
    ("BlackElo", "black_elo", Kind::Int),
    ("WhiteRatingDiff", "white_rating_diff", Kind::Int),
    ("BlackRatingDiff", "black_rating_diff", Kind::Int),
    ("WhiteTitle", "white_title", Kind::Text),
    ("BlackTitle", "black_title", Kind::Text),
    ("ECO", "eco", Kind::Text),
    ("Opening", "opening", Kind::Text),
    ("TimeControl", "time_control", Kind::Text),
    ("Termination", "termination", Kind::Text),
];

/// The column of a tag, by its name as written (the index into [`TAG_COLUMNS`]).
fn tag_column(name: &str) -> Option<usize> {
    // A match compiles to a length switch and a few comparisons: this runs for every tag.
    Some(match name {
        "Event" => 0,
        "Site" => 1,
        "Date" => 2,
        "Round" => 3,
        "White" => 4,
        "Black" => 5,
        "Result" => 6,
        "UTCDate" => 7,
        "UTCTime" => 8,
        "WhiteElo" => 9,
        "BlackElo" => 10,
        "WhiteRatingDiff" => 11,
        "BlackRatingDiff" => 12,
        "WhiteTitle" => 13,
        "BlackTitle" => 14,
        "ECO" => 15,
        "Opening" => 16,
        "TimeControl" => 17,
        "Termination" => 18,
        _ => return None,
    })
}

fn tag_fields() -> Fields {
    Fields::from(vec![
        Field::new("name", DataType::Utf8, false),
        Field::new("value", DataType::Utf8, false),
    ])
}

fn tags_item() -> Field {
    Field::new("item", DataType::Struct(tag_fields()), false)
}

fn uci_item() -> Field {
    Field::new("item", DataType::Utf8, false)
}

/// The `warnings` column's list item.
fn warning_item() -> Field {
    Field::new("item", DataType::Utf8, false)
}

/// The `games` table's schema.
pub fn games_schema() -> SchemaRef {
    let mut fields = vec![Field::new("game_id", DataType::Int64, false)];
    for (_, column, kind) in TAG_COLUMNS {
        let data_type = match kind {
            Kind::Text => DataType::Utf8,
            Kind::Date => DataType::Date32,
            Kind::Int => DataType::Int32,
        };
        fields.push(Field::new(column, data_type, true));
    }
    fields.extend([
        Field::new("speed", DataType::Utf8, true),
        Field::new("played", DataType::Utf8, true),
        Field::new("movetext", DataType::Utf8, false),
        Field::new("uci", DataType::List(Arc::new(uci_item())), false),
        Field::new("plies", DataType::UInt32, false),
        Field::new("final_fen", DataType::Utf8, true),
        Field::new("error", DataType::Utf8, true),
        Field::new("warnings", DataType::List(Arc::new(warning_item())), false),
        Field::new("tags", DataType::List(Arc::new(tags_item())), false),
    ]);
    Arc::new(Schema::new(fields))
}

/// The `positions` table's schema: [`PositionsTable::Full`]'s, or [`PositionsTable::Keys`]'s
/// (without `zobrist`, `fen`, `san` and `uci`: the explorer reads the move played from a
/// position, `next_uci`, not the one that led to it).
pub fn positions_schema(table: PositionsTable) -> SchemaRef {
    let full = table == PositionsTable::Full;
    let mut fields = Vec::new();
    if full {
        fields.push(Field::new("zobrist", DataType::UInt64, false));
    }
    fields.extend([
        Field::new("key_hi", DataType::Int64, false),
        Field::new("key_lo", DataType::Int64, false),
        Field::new("game_id", DataType::Int64, false),
        Field::new("ply", DataType::UInt32, false),
    ]);
    if full {
        fields.push(Field::new("fen", DataType::Utf8, false));
        fields.push(Field::new("san", DataType::Utf8, true));
        fields.push(Field::new("uci", DataType::Utf8, true));
    }
    fields.extend([
        Field::new("next_uci", DataType::Utf8, true),
        Field::new("first", DataType::Boolean, false),
        Field::new("outcome", DataType::Int32, true),
        Field::new("elo_sum", DataType::Int32, true),
        Field::new("speed", DataType::Utf8, true),
        Field::new("played_on", DataType::Int32, true),
    ]);
    Arc::new(Schema::new(fields))
}

/// What the `positions` table repeats of its game on every row, so that the opening explorer
/// filters and orders positions without joining the `games` table.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GameFacts {
    /// 1 when White won, 0 for a draw, -1 when Black won; `None` for any other result.
    pub outcome: Option<i32>,
    /// `WhiteElo + BlackElo` when both are integers.
    pub elo_sum: Option<i32>,
    /// The index of the speed in [`crate::speed::SPEEDS`].
    pub speed: Option<u8>,
    /// The date played as `YYYYMMDD`, `00` for an unknown month or day.
    pub played_on: Option<i32>,
}

/// A column builder for one tag column.
#[derive(Debug)]
enum TagBuilder {
    Text(StringBuilder),
    Date(Date32Builder),
    Int(Int32Builder),
}

/// The year and month of a game, for its partition.
pub(crate) type Month = (Option<i32>, Option<u32>);

/// Rows of the `games` table being gathered into a record batch.
#[derive(Debug)]
pub(crate) struct GamesBuilder {
    schema: SchemaRef,
    game_id: Int64Builder,
    tags: Vec<TagBuilder>,
    speed: StringBuilder,
    played: StringBuilder,
    movetext: StringBuilder,
    uci: ListBuilder<StringBuilder>,
    plies: UInt32Builder,
    final_fen: StringBuilder,
    error: StringBuilder,
    warnings: ListBuilder<StringBuilder>,
    other_names: StringBuilder,
    other_values: StringBuilder,
    other_offsets: Vec<i32>,
    rows: usize,
    bytes: usize,
}

/// What one game's tags give its columns.
pub(crate) struct TagValues<'a> {
    values: [Option<&'a str>; TAG_COLUMNS.len()],
    /// The typed value of `Date` and `Int` columns, by column.
    numbers: [Option<i32>; TAG_COLUMNS.len()],
    /// `Date` and `UTCDate` as read.
    date: PgnDate,
    utc_date: PgnDate,
    /// Indices into the record's tags of those kept in the `tags` column: tags without a
    /// column, repeated ones, and typed ones whose value did not fit the type (so nothing is
    /// lost).
    other: Vec<usize>,
    /// The game's result ([`GameRecord::result`]).
    result: Outcome,
}

impl<'a> TagValues<'a> {
    pub fn of(record: &'a GameRecord) -> TagValues<'a> {
        let mut v = TagValues {
            values: [None; TAG_COLUMNS.len()],
            numbers: [None; TAG_COLUMNS.len()],
            date: PgnDate::default(),
            utc_date: PgnDate::default(),
            other: Vec::new(),
            result: record.result,
        };
        for (i, (name, value)) in record.tag_pairs().enumerate() {
            let Some(column) = tag_column(name).filter(|&c| v.values[c].is_none()) else {
                v.other.push(i);
                continue;
            };
            let fits = match TAG_COLUMNS[column].2 {
                Kind::Text => true,
                Kind::Date => {
                    let date = parse_date(value);
                    if name == "UTCDate" {
                        v.utc_date = date;
                    } else {
                        v.date = date;
                    }
                    v.numbers[column] = date.days;
                    date.days.is_some()
                }
                Kind::Int => {
                    v.numbers[column] = value.trim().parse::<i32>().ok();
                    v.numbers[column].is_some()
                }
            };
            v.values[column] = Some(value);
            if !fits {
                v.other.push(i);
            }
        }
        // The result decided from the tag and the marker, in standard form (the tag's own
        // spelling, when it was another, is in the game's warnings).
        if let Some(column) = tag_column("Result") {
            v.values[column] = Some(record.result.as_str());
        }
        v
    }

    /// `UTCDate` when it has a year, else `Date`: the date the game was played.
    fn played(&self) -> &PgnDate {
        if self.utc_date.year.is_some() {
            &self.utc_date
        } else {
            &self.date
        }
    }

    /// Year and month from `UTCDate`, else `Date`.
    pub fn month(&self) -> Month {
        let date = self.played();
        (date.year, date.month)
    }

    /// The `TimeControl` tag's value.
    fn time_control(&self) -> Option<&'a str> {
        tag_column("TimeControl").and_then(|c| self.values[c])
    }

    /// What the positions of this game repeat of it.
    pub fn facts(&self) -> GameFacts {
        let number = |tag: &str| tag_column(tag).and_then(|c| self.numbers[c]);
        let outcome = match self.result {
            Outcome::WhiteWins => Some(1),
            Outcome::Draw => Some(0),
            Outcome::BlackWins => Some(-1),
            Outcome::Unknown => None,
        };
        let elo_sum = match (number("WhiteElo"), number("BlackElo")) {
            (Some(w), Some(b)) => w.checked_add(b),
            _ => None,
        };
        let speed = self
            .time_control()
            .and_then(crate::speed)
            .and_then(|s| crate::speed::SPEEDS.iter().position(|x| *x == s))
            .map(|i| i as u8);
        let date = self.played();
        let played_on = date.year.filter(|y| (0..=9999).contains(y)).map(|y| {
            y * 10_000 + date.month.unwrap_or(0) as i32 * 100 + date.day.unwrap_or(0) as i32
        });
        GameFacts {
            outcome,
            elo_sum,
            speed,
            played_on,
        }
    }
}

impl GamesBuilder {
    pub fn new(schema: SchemaRef) -> GamesBuilder {
        GamesBuilder {
            schema,
            game_id: Int64Builder::new(),
            tags: TAG_COLUMNS
                .iter()
                .map(|(_, _, kind)| match kind {
                    Kind::Text => TagBuilder::Text(StringBuilder::new()),
                    Kind::Date => TagBuilder::Date(Date32Builder::new()),
                    Kind::Int => TagBuilder::Int(Int32Builder::new()),
                })
                .collect(),
            speed: StringBuilder::new(),
            played: StringBuilder::new(),
            movetext: StringBuilder::new(),
            uci: ListBuilder::new(StringBuilder::new()).with_field(uci_item()),
            plies: UInt32Builder::new(),
            final_fen: StringBuilder::new(),
            error: StringBuilder::new(),
            warnings: ListBuilder::new(StringBuilder::new()).with_field(warning_item()),
            other_names: StringBuilder::new(),
            other_values: StringBuilder::new(),
            other_offsets: vec![0],
            rows: 0,
            bytes: 0,
        }
    }

    /// Rows gathered.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Roughly the bytes of text gathered.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn push(
        &mut self,
        id: u64,
        record: &GameRecord,
        tags: &TagValues<'_>,
        movetext: &str,
        error: Option<&str>,
    ) {
        self.game_id.append_value(id as i64);
        for (column, builder) in self.tags.iter_mut().enumerate() {
            match builder {
                TagBuilder::Text(b) => b.append_option(tags.values[column]),
                TagBuilder::Date(b) => b.append_option(tags.numbers[column]),
                TagBuilder::Int(b) => b.append_option(tags.numbers[column]),
            }
        }
        self.speed
            .append_option(tags.time_control().and_then(crate::speed));
        self.played.append_option(tags.played().played());
        self.movetext.append_value(movetext);
        for mv in record.uci_moves() {
            self.uci.values().append_value(mv);
        }
        self.uci.append(true);
        self.plies.append_value(record.uci.len() as u32);
        self.final_fen.append_option(record.final_fen.as_deref());
        self.error.append_option(error);
        for warning in &record.warnings {
            self.warnings.values().append_value(warning);
        }
        self.warnings.append(true);
        for &i in &tags.other {
            let (name, value) = &record.tags[i];
            self.other_names.append_value(record.tag_text.get(name));
            self.other_values.append_value(record.tag_text.get(value));
        }
        self.other_offsets.push(self.other_names.len() as i32);
        self.rows += 1;
        self.bytes += movetext.len()
            + record.tag_text.text.len()
            + record.uci_text.text.len()
            + record.uci.len() * 4
            + 100;
    }

    /// The rows gathered as a record batch; the builder starts again empty.
    pub fn finish(&mut self) -> Result<RecordBatch, arrow_schema::ArrowError> {
        let mut columns: Vec<ArrayRef> = vec![Arc::new(self.game_id.finish())];
        for builder in &mut self.tags {
            columns.push(match builder {
                TagBuilder::Text(b) => Arc::new(b.finish()),
                TagBuilder::Date(b) => Arc::new(b.finish()),
                TagBuilder::Int(b) => Arc::new(b.finish()),
            });
        }
        columns.push(Arc::new(self.speed.finish()));
        columns.push(Arc::new(self.played.finish()));
        columns.push(Arc::new(self.movetext.finish()));
        columns.push(Arc::new(self.uci.finish()));
        columns.push(Arc::new(self.plies.finish()));
        columns.push(Arc::new(self.final_fen.finish()));
        columns.push(Arc::new(self.error.finish()));
        columns.push(Arc::new(self.warnings.finish()));
        let pairs = StructArray::try_new(
            tag_fields(),
            vec![
                Arc::new(self.other_names.finish()),
                Arc::new(self.other_values.finish()),
            ],
            None,
        )?;
        let offsets = std::mem::replace(&mut self.other_offsets, vec![0]);
        let tags = ListArray::try_new(
            Arc::new(tags_item()),
            OffsetBuffer::new(ScalarBuffer::from(offsets)),
            Arc::new(pairs),
            None,
        )?;
        columns.push(Arc::new(tags));
        self.rows = 0;
        self.bytes = 0;
        RecordBatch::try_new(self.schema.clone(), columns)
    }
}

/// Sorts `rows` by `order`, given `top`, a number whose order agrees with it (`order(a) <
/// order(b)` implies `top(a) <= top(b)`) and whose high bits spread the rows evenly (a hash):
/// the rows are first moved in place into buckets by the top bits of `top` (each row moved
/// about once), then each bucket, small enough to sort in the processor's cache, is sorted.
/// Several times faster than one sort of millions of rows of 100 bytes, which moves each row
/// once per level of its recursion.
fn sort_in_buckets<T, K: Ord>(rows: &mut [T], top: impl Fn(&T) -> u64, order: impl Fn(&T) -> K) {
    const BITS: u32 = 10;
    if rows.len() < 1 << 16 {
        rows.sort_unstable_by_key(order);
        return;
    }
    let bucket = |r: &T| (top(r) >> (64 - BITS)) as usize;
    let mut ends = vec![0usize; 1 << BITS];
    for r in rows.iter() {
        ends[bucket(r)] += 1;
    }
    let mut total = 0;
    for end in ends.iter_mut() {
        total += *end;
        *end = total;
    }
    // `heads[b]`: the next row of bucket b's range not yet known to belong there.
    let mut heads: Vec<usize> = std::iter::once(0)
        .chain(ends.iter().copied())
        .take(ends.len())
        .collect();
    let starts = heads.clone();
    for b in 0..ends.len() {
        while heads[b] < ends[b] {
            let dest = bucket(&rows[heads[b]]);
            if dest == b {
                heads[b] += 1;
            } else {
                rows.swap(heads[b], heads[dest]);
                heads[dest] += 1;
            }
        }
    }
    for (start, end) in starts.into_iter().zip(ends) {
        rows[start..end].sort_unstable_by_key(&order);
    }
}

/// One row of the `positions` table, its text in the buffer's arena.
#[derive(Copy, Clone, Debug)]
struct PositionRow {
    zobrist: u64,
    facts: GameFacts,
    /// [`key_columns`] of the wide key.
    key: (i64, i64),
    game_id: i64,
    ply: u32,
    first: bool,
    /// FEN, SAN, UCI and the next move's UCI as `start..end` of the arena (SAN and UCI empty
    /// at ply 0, the next move empty at the last position).
    fen: (u32, u32),
    san: (u32, u32),
    uci: (u32, u32),
    next: (u32, u32),
}

/// Positions gathered for one partition, to be sorted by key and written as one file.
#[derive(Debug, Default)]
pub(crate) struct PositionsBuffer {
    rows: Vec<PositionRow>,
    text: String,
}

impl PositionsBuffer {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Bytes of text held.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The positions of one game.
    pub fn push_game(&mut self, game_id: u64, record: &GameRecord, facts: GameFacts) {
        let p = &record.positions;
        for ply in 0..p.len() {
            let mut put = |range: &std::ops::Range<u32>| {
                let start = self.text.len() as u32;
                self.text.push_str(p.text.get(range));
                (start, self.text.len() as u32)
            };
            let fen = put(&p.fen[ply]);
            let san = put(&p.san[ply]);
            let uci = put(&p.uci[ply]);
            let start = self.text.len() as u32;
            if let Some(next) = record.uci.get(ply) {
                self.text.push_str(record.uci_text.get(next));
            }
            let next = (start, self.text.len() as u32);
            self.rows.push(PositionRow {
                zobrist: p.zobrist[ply],
                facts,
                key: key_columns(p.key[ply]),
                game_id: game_id as i64,
                ply: ply as u32,
                first: p.first[ply],
                fen,
                san,
                uci,
                next,
            });
        }
    }

    /// Sorts (by zobrist for [`PositionsTable::Full`], by key for [`PositionsTable::Keys`],
    /// then game and ply) and hands out record batches of at most `rows` rows; the buffer is
    /// empty afterwards.
    pub fn drain_sorted(
        &mut self,
        table: PositionsTable,
        schema: &SchemaRef,
        rows: usize,
        mut write: impl FnMut(RecordBatch) -> Result<(), crate::ConvertError>,
    ) -> Result<(), crate::ConvertError> {
        let full = table == PositionsTable::Full;
        // By the top bits of the first field (its order: the key's sign bit flipped), then
        // each bucket by the whole order.
        if full {
            sort_in_buckets(
                &mut self.rows,
                |r| r.zobrist,
                |r| (r.zobrist, r.game_id, r.ply),
            );
        } else {
            sort_in_buckets(
                &mut self.rows,
                |r| r.key.0 as u64 ^ (1 << 63),
                |r| (r.key, r.game_id, r.ply),
            );
        }
        let text = &self.text;
        let get = |(s, e): (u32, u32)| &text[s as usize..e as usize];
        for chunk in self.rows.chunks(rows.max(1)) {
            let mut columns: Vec<ArrayRef> = Vec::new();
            if full {
                columns.push(Arc::new(UInt64Array::from_iter_values(
                    chunk.iter().map(|r| r.zobrist),
                )));
            }
            columns.push(Arc::new(Int64Array::from_iter_values(
                chunk.iter().map(|r| r.key.0),
            )));
            columns.push(Arc::new(Int64Array::from_iter_values(
                chunk.iter().map(|r| r.key.1),
            )));
            columns.push(Arc::new(Int64Array::from_iter_values(
                chunk.iter().map(|r| r.game_id),
            )));
            columns.push(Arc::new(UInt32Array::from_iter_values(
                chunk.iter().map(|r| r.ply),
            )));
            if full {
                columns.push(Arc::new(StringArray::from_iter_values(
                    chunk.iter().map(|r| get(r.fen)),
                )));
                let san: StringArray = chunk
                    .iter()
                    .map(|r| (r.ply > 0).then(|| get(r.san)))
                    .collect();
                columns.push(Arc::new(san));
                let uci: StringArray = chunk
                    .iter()
                    .map(|r| (r.ply > 0).then(|| get(r.uci)))
                    .collect();
                columns.push(Arc::new(uci));
            }
            let next: StringArray = chunk
                .iter()
                .map(|r| (r.next.1 > r.next.0).then(|| get(r.next)))
                .collect();
            columns.push(Arc::new(next));
            columns.push(Arc::new(BooleanArray::from_iter(
                chunk.iter().map(|r| Some(r.first)),
            )));
            columns.push(Arc::new(Int32Array::from_iter(
                chunk.iter().map(|r| r.facts.outcome),
            )));
            columns.push(Arc::new(Int32Array::from_iter(
                chunk.iter().map(|r| r.facts.elo_sum),
            )));
            let speed: StringArray = chunk
                .iter()
                .map(|r| {
                    r.facts
                        .speed
                        .and_then(|i| crate::speed::SPEEDS.get(usize::from(i)).copied())
                })
                .collect();
            columns.push(Arc::new(speed));
            columns.push(Arc::new(Int32Array::from_iter(
                chunk.iter().map(|r| r.facts.played_on),
            )));
            let batch = RecordBatch::try_new(schema.clone(), columns)
                .map_err(|e| crate::ConvertError::Worker(e.to_string()))?;
            write(batch)?;
        }
        self.rows.clear();
        self.text.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tag_finds_its_own_column() {
        for (i, (tag, _, _)) in TAG_COLUMNS.iter().enumerate() {
            assert_eq!(tag_column(tag), Some(i), "{tag}");
        }
        assert_eq!(tag_column("FEN"), None);
        assert_eq!(tag_column("event"), None, "tag names are case-sensitive");
    }

    /// The bucketed sort gives what one sort gives: signed keys (the sign bit flipped for the
    /// buckets), keys repeated with other games and plies, and a crowded bucket.
    #[test]
    fn sorting_in_buckets_is_sorting() {
        let mut state = 0x1234_5678_9abc_def0_u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state
        };
        let mut rows: Vec<((i64, i64), i64, u32)> = (0..200_000)
            .map(|i| {
                let hi = match i % 10 {
                    0 => 42,                      // one crowded bucket
                    1 => -((next() >> 1) as i64), // negative keys
                    _ => next() as i64,
                };
                (
                    (hi, (next() % 7) as i64 - 3),
                    (next() % 5) as i64,
                    (i % 3) as u32,
                )
            })
            .collect();
        let mut expected = rows.clone();
        expected.sort_unstable();
        sort_in_buckets(&mut rows, |r| r.0.0 as u64 ^ (1 << 63), |r| *r);
        assert_eq!(rows, expected);
    }
}
