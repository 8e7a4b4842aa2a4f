//! The lists table: for each position that an import's games reached often, the games its
//! top and recent lists can show under any filter on the explorer's buckets.
//!
//! The explorer lists the highest-rated and the latest [`GAMES_LISTED`] games that reached a
//! position. For a rare position they are picked from its rows in `positions` (a few, looked
//! up); for a popular one those rows are many (the start position: one per game). So each
//! import keeps, for every position counted for at least [`LISTED_FROM`] of its games, and
//! for every bucket of the aggregate (rating group, speed, month), the bucket's top
//! [`GAMES_LISTED`] games by Elo sum and its latest [`GAMES_LISTED`] by date. The lists
//! under filters that select whole buckets are then exact: the first games of the union of
//! buckets are among the first games of each bucket (the same order: rank, then game id).
//!
//! Written in one pass over the import's positions files merged by key ([`crate::runs`]),
//! in the memory of one batch per file and the lists of one position's buckets; the same pass
//! writes the positions' totals ([`crate::totals`]). An import of more than [`LISTS_FAN_IN`]
//! positions files first merges them in waves of that many into files of their counted rows
//! ([`write_lists_in_waves`]), so that the pass never holds more than that many batches:
//! whether a position is listed depends on its count over the whole import, so the lists
//! themselves cannot be made per wave.

use crate::DbError;
use crate::filters::{month_of, rating_group};
use crate::lookup_write::{LookupWriter, SortedLayout};
use crate::runs::{Decode, Runs, signed_order};
use crate::totals::{PositionTotals, TotalsColumns, totals_schema};
use crate::values::{int_at, ints, strings};
use arrow_array::builder::{
    BooleanBuilder, Int32Builder, Int64Builder, StringBuilder, UInt32Builder,
};
use arrow_array::{Array, ArrayRef, BooleanArray, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tabla_convert::{PositionsTable, SPEEDS, positions_schema};

/// How many top and recent games an explorer answer lists.
pub const GAMES_LISTED: usize = 8;

/// A position counted for this many games of an import has its lists in the import's lists
/// table; a position with fewer is answered from its rows in `positions` (at most this many
/// counted rows per import, a page or two of each file).
pub(crate) const LISTED_FROM: u64 = 32;

/// Rows per row group of the lists table.
const GROUP_ROWS: usize = 1 << 17;

/// Positions files that the lists' pass reads at once (a batch of [`BATCH_ROWS`] rows each);
/// past it, they are merged in waves first.
pub(crate) const LISTS_FAN_IN: usize = 64;

/// Rows read at a time from each positions file.
const BATCH_ROWS: usize = 4096;

/// The lists table's schema: the position, and a game in one of its lists with what orders and
/// filters it (as in `positions`).
pub(crate) fn lists_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("key_hi", DataType::Int64, false),
        Field::new("key_lo", DataType::Int64, false),
        Field::new("game_id", DataType::Int64, false),
        Field::new("ply", DataType::UInt32, false),
        Field::new("elo_sum", DataType::Int32, true),
        Field::new("speed", DataType::Utf8, true),
        Field::new("played_on", DataType::Int32, true),
    ]))
}

/// The columns of a `positions` batch that the explorer's counting rule and game lists read
/// (here and in the lookups of `crate::explore`).
pub(crate) struct Positions {
    pub hi: Int64Array,
    pub lo: Int64Array,
    pub game_id: Int64Array,
    pub ply: Int64Array,
    first: BooleanArray,
    pub next_uci: StringArray,
    pub outcome: Int64Array,
    pub elo_sum: Int64Array,
    pub speed: StringArray,
    pub played_on: Int64Array,
}

impl Positions {
    /// Whether row `i` counts for its position under the explorer's counting rule
    /// (sql/explorer.sql): the game's first visit below `max_ply`, a move played from it, a
    /// decisive or drawn result.
    pub(crate) fn is_counted(&self, i: usize, max_ply: i64) -> bool {
        self.first.is_valid(i)
            && self.first.value(i)
            && int_at(&self.ply, i).is_some_and(|ply| ply < max_ply)
            && self.next_uci.is_valid(i)
            && self.outcome.is_valid(i)
    }

    /// Row `i`'s speed, if any.
    pub(crate) fn speed_at(&self, i: usize) -> Option<&str> {
        self.speed.is_valid(i).then(|| self.speed.value(i))
    }
}

impl Decode for Positions {
    const COLUMNS: &'static [&'static str] = &[
        "key_hi",
        "key_lo",
        "game_id",
        "ply",
        "first",
        "next_uci",
        "outcome",
        "elo_sum",
        "speed",
        "played_on",
    ];

    fn decode(batch: &RecordBatch) -> Result<Positions, DbError> {
        let first = batch
            .column_by_name("first")
            .and_then(|c| c.as_any().downcast_ref::<BooleanArray>())
            .cloned()
            .ok_or_else(|| DbError::Query("positions: no boolean column first".into()))?;
        Ok(Positions {
            hi: ints(batch, "key_hi")?,
            lo: ints(batch, "key_lo")?,
            game_id: ints(batch, "game_id")?,
            ply: ints(batch, "ply")?,
            first,
            next_uci: strings(batch, "next_uci")?,
            outcome: ints(batch, "outcome")?,
            elo_sum: ints(batch, "elo_sum")?,
            speed: strings(batch, "speed")?,
            played_on: ints(batch, "played_on")?,
        })
    }

    /// Positions files are sorted by the signed `(key_hi, key_lo)`.
    fn key(&self, i: usize) -> u128 {
        signed_order(self.hi.value(i), self.lo.value(i))
    }

    fn rows(&self) -> usize {
        self.hi.len()
    }
}

/// A counted game of the position being read.
#[derive(Copy, Clone, Debug)]
struct Candidate {
    /// Rating group, speed (index in [`SPEEDS`]), month (`YYYYMM`, `YYYY00` for a year
    /// alone: the date filters keep or drop a year's such games together).
    bucket: (Option<i64>, Option<u8>, Option<i64>),
    game_id: i64,
    ply: i64,
    elo_sum: Option<i64>,
    /// The game's speed (index in [`SPEEDS`]).
    speed: Option<u8>,
    played_on: Option<i64>,
    kept: bool,
}

/// Keeps, per bucket, the first [`GAMES_LISTED`] candidates by Elo sum and by date (each
/// among those that have one, highest first, then by game id).
fn keep_listed(candidates: &mut Vec<Candidate>) {
    for c in candidates.iter_mut() {
        c.kept = false;
    }
    for rank in [
        (|c: &Candidate| c.elo_sum) as fn(&Candidate) -> Option<i64>,
        |c: &Candidate| c.played_on,
    ] {
        candidates.sort_unstable_by(|a, b| {
            a.bucket
                .cmp(&b.bucket)
                .then_with(|| rank(b).cmp(&rank(a)))
                .then_with(|| a.game_id.cmp(&b.game_id))
        });
        let mut in_bucket = 0;
        for i in 0..candidates.len() {
            if i == 0 || candidates[i].bucket != candidates[i - 1].bucket {
                in_bucket = 0;
            }
            if rank(&candidates[i]).is_some() && in_bucket < GAMES_LISTED {
                candidates[i].kept = true;
                in_bucket += 1;
            }
        }
    }
    candidates.retain(|c| c.kept);
}

/// Where [`write_lists`] writes: the Parquet files of the `lists`, `lists_all` and `totals`
/// tables.
pub(crate) struct ListsOut<'a> {
    /// Per position and bucket.
    pub lists: &'a Path,
    /// Per position, over all the buckets at once (what an answer without filters shows: at
    /// most twice [`GAMES_LISTED`] games per position).
    pub overall: &'a Path,
    /// Per position and move, the counts over all the buckets ([`crate::totals`]).
    pub totals: &'a Path,
}

/// Writes the lists of the positions `files` (each sorted by key, as `tabla convert` writes
/// them), for the explorer's `max_ply`, and the totals of the same positions, to `out`;
/// returns the rows of the lists table.
pub(crate) fn write_lists(files: &[PathBuf], max_ply: u32, out: &ListsOut) -> Result<u64, DbError> {
    let mut runs: Runs<Positions> = Runs::open(files, BATCH_ROWS)?;
    let layout = SortedLayout::by_key(GROUP_ROWS);
    let mut writer = LookupWriter::create(out.lists, lists_schema(), &layout)?;
    let mut overall_writer = LookupWriter::create(out.overall, lists_schema(), &layout)?;
    let mut totals_writer = LookupWriter::create(out.totals, totals_schema(), &layout)?;
    let mut totals_table = TotalsColumns::default();
    let mut totals = PositionTotals::default();
    let mut table = Columns::default();
    let mut overall_table = Columns::default();
    let mut all_buckets: Vec<Candidate> = Vec::new();
    let mut candidates: Vec<Candidate> = Vec::new();
    // Past this many candidates of one position, the lists so far are kept and the rest
    // dropped: the memory of a position is bounded by its buckets, not by its games.
    let mut prune_at = 1 << 16;
    let mut counted: u64 = 0;
    let mut key = (0, 0);
    let max_ply = i64::from(max_ply);
    let mut bad: Option<DbError> = None;
    while runs
        .next_key(|p, i| {
            key = (p.hi.value(i), p.lo.value(i));
            if !p.is_counted(i, max_ply) {
                return Ok(());
            }
            counted += 1;
            let speed = match p.speed_at(i) {
                None => None,
                Some(s) => match SPEEDS.iter().position(|&known| known == s) {
                    Some(index) => Some(index as u8),
                    None => {
                        bad = Some(DbError::Query(format!("positions: unknown speed {s:?}")));
                        None
                    }
                },
            };
            let elo_sum = int_at(&p.elo_sum, i);
            let played_on = int_at(&p.played_on, i);
            let month = played_on.and_then(month_of);
            totals.add(
                p.next_uci.value(i),
                int_at(&p.outcome, i).unwrap_or(0),
                elo_sum,
                month,
            )?;
            candidates.push(Candidate {
                bucket: (elo_sum.map(rating_group), speed, played_on.map(|d| d / 100)),
                game_id: p.game_id.value(i),
                ply: int_at(&p.ply, i).unwrap_or(0),
                elo_sum,
                speed,
                played_on,
                kept: false,
            });
            if candidates.len() >= prune_at {
                keep_listed(&mut candidates);
                prune_at = prune_at.max(2 * candidates.len());
            }
            Ok(())
        })?
        .is_some()
    {
        if let Some(e) = bad.take() {
            return Err(e);
        }
        if counted >= LISTED_FROM {
            for total in totals.drain() {
                totals_table.push(key, &total);
            }
            if totals_table.len() >= GROUP_ROWS {
                totals_writer.write(&totals_table.finish()?)?;
            }
            keep_listed(&mut candidates);
            for c in &candidates {
                table.push(key, c);
            }
            if table.len() >= GROUP_ROWS {
                writer.write(&table.finish()?)?;
            }
            // The first games of all the buckets are among the first games of each.
            all_buckets.clear();
            all_buckets.extend(candidates.iter().map(|c| Candidate {
                bucket: (None, None, None),
                ..*c
            }));
            keep_listed(&mut all_buckets);
            for c in &all_buckets {
                overall_table.push(key, c);
            }
            if overall_table.len() >= GROUP_ROWS {
                overall_writer.write(&overall_table.finish()?)?;
            }
        }
        candidates.clear();
        totals.clear();
        counted = 0;
        prune_at = 1 << 16;
    }
    let rows = table.written + table.len() as u64;
    if table.len() > 0 {
        writer.write(&table.finish()?)?;
    }
    if overall_table.len() > 0 {
        overall_writer.write(&overall_table.finish()?)?;
    }
    if totals_table.len() > 0 {
        totals_writer.write(&totals_table.finish()?)?;
    }
    writer.close()?;
    overall_writer.close()?;
    totals_writer.close()?;
    Ok(rows)
}

/// [`write_lists`] over any number of `files`: while there are more than `fan_in`, they are
/// merged `fan_in` at a time into files of `scratch` that hold their counted rows in key order
/// (the only rows the lists and totals read), then those files in turn. `scratch` is removed
/// afterwards.
pub(crate) fn write_lists_in_waves(
    files: &[PathBuf],
    max_ply: u32,
    out: &ListsOut,
    fan_in: usize,
    scratch: &Path,
) -> Result<u64, DbError> {
    let fan_in = fan_in.max(2);
    let mut files = files.to_vec();
    let mut level = 0;
    while files.len() > fan_in {
        std::fs::create_dir_all(scratch).map_err(DbError::io(scratch))?;
        let mut merged = Vec::new();
        for (i, wave) in files.chunks(fan_in).enumerate() {
            let path = scratch.join(format!("level-{level}-wave-{i:05}.parquet"));
            merge_counted(wave, max_ply, &path)?;
            merged.push(path);
        }
        if level > 0 {
            for file in &files {
                std::fs::remove_file(file).map_err(DbError::io(file))?;
            }
        }
        files = merged;
        level += 1;
    }
    let rows = write_lists(&files, max_ply, out)?;
    if level > 0 {
        std::fs::remove_dir_all(scratch).map_err(DbError::io(scratch))?;
    }
    Ok(rows)
}

/// Writes the counted rows of the positions `files` (each sorted by key) to `out`, sorted by
/// key, with the columns of a positions file.
fn merge_counted(files: &[PathBuf], max_ply: u32, out: &Path) -> Result<(), DbError> {
    let mut runs: Runs<Positions> = Runs::open(files, BATCH_ROWS)?;
    let schema = positions_schema(PositionsTable::Keys);
    let error = |e: &dyn std::fmt::Display| DbError::Query(format!("{}: {e}", out.display()));
    let file = std::fs::File::create(out).map_err(DbError::io(out))?;
    // Read once, soon: zstd's fastest level keeps the disk's share small at little cost.
    let props = parquet::file::properties::WriterProperties::builder()
        .set_compression(parquet::basic::Compression::ZSTD(
            parquet::basic::ZstdLevel::default(),
        ))
        .build();
    let mut writer = parquet::arrow::ArrowWriter::try_new(file, schema.clone(), Some(props))
        .map_err(|e| error(&e))?;
    let mut rows = PositionColumns::default();
    let max_ply = i64::from(max_ply);
    while runs
        .next_key(|p, i| {
            if p.is_counted(i, max_ply) {
                rows.push(p, i);
            }
            Ok(())
        })?
        .is_some()
    {
        if rows.len() >= BATCH_ROWS {
            writer
                .write(&rows.finish(&schema)?)
                .map_err(|e| error(&e))?;
        }
    }
    if rows.len() > 0 {
        writer
            .write(&rows.finish(&schema)?)
            .map_err(|e| error(&e))?;
    }
    writer.close().map_err(|e| error(&e))?;
    Ok(())
}

/// Rows of a positions file being built (the columns of [`positions_schema`] for
/// [`PositionsTable::Keys`]).
#[derive(Default)]
struct PositionColumns {
    hi: Int64Builder,
    lo: Int64Builder,
    game_id: Int64Builder,
    ply: UInt32Builder,
    next_uci: StringBuilder,
    first: BooleanBuilder,
    outcome: Int32Builder,
    elo_sum: Int32Builder,
    speed: StringBuilder,
    played_on: Int32Builder,
}

impl PositionColumns {
    /// Row `i` of `p`.
    fn push(&mut self, p: &Positions, i: usize) {
        let int32 = |a: &Int64Array| int_at(a, i).and_then(|v| i32::try_from(v).ok());
        self.hi.append_value(p.hi.value(i));
        self.lo.append_value(p.lo.value(i));
        self.game_id.append_value(p.game_id.value(i));
        self.ply
            .append_option(int_at(&p.ply, i).and_then(|v| u32::try_from(v).ok()));
        self.next_uci
            .append_option(p.next_uci.is_valid(i).then(|| p.next_uci.value(i)));
        self.first
            .append_option(p.first.is_valid(i).then(|| p.first.value(i)));
        self.outcome.append_option(int32(&p.outcome));
        self.elo_sum.append_option(int32(&p.elo_sum));
        self.speed.append_option(p.speed_at(i));
        self.played_on.append_option(int32(&p.played_on));
    }

    fn len(&self) -> usize {
        use arrow_array::builder::ArrayBuilder;
        self.hi.len()
    }

    fn finish(&mut self, schema: &SchemaRef) -> Result<RecordBatch, DbError> {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.hi.finish()),
            Arc::new(self.lo.finish()),
            Arc::new(self.game_id.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.next_uci.finish()),
            Arc::new(self.first.finish()),
            Arc::new(self.outcome.finish()),
            Arc::new(self.elo_sum.finish()),
            Arc::new(self.speed.finish()),
            Arc::new(self.played_on.finish()),
        ];
        RecordBatch::try_new(schema.clone(), columns)
            .map_err(|e| DbError::Query(format!("positions: {e}")))
    }
}

/// The lists table's rows being built.
#[derive(Default)]
struct Columns {
    hi: Int64Builder,
    lo: Int64Builder,
    game_id: Int64Builder,
    ply: UInt32Builder,
    elo_sum: Int32Builder,
    speed: StringBuilder,
    played_on: Int32Builder,
    written: u64,
}

impl Columns {
    fn push(&mut self, (hi, lo): (i64, i64), c: &Candidate) {
        self.hi.append_value(hi);
        self.lo.append_value(lo);
        self.game_id.append_value(c.game_id);
        self.ply.append_value(u32::try_from(c.ply).unwrap_or(0));
        self.elo_sum
            .append_option(c.elo_sum.and_then(|e| i32::try_from(e).ok()));
        self.speed
            .append_option(c.speed.map(|s| SPEEDS[usize::from(s)]));
        self.played_on
            .append_option(c.played_on.and_then(|d| i32::try_from(d).ok()));
    }

    fn len(&self) -> usize {
        use arrow_array::builder::ArrayBuilder;
        self.hi.len()
    }

    fn finish(&mut self) -> Result<RecordBatch, DbError> {
        self.written += self.len() as u64;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.hi.finish()),
            Arc::new(self.lo.finish()),
            Arc::new(self.game_id.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.elo_sum.finish()),
            Arc::new(self.speed.finish()),
            Arc::new(self.played_on.finish()),
        ];
        RecordBatch::try_new(lists_schema(), columns)
            .map_err(|e| DbError::Query(format!("lists: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Rust forms of the counting rule (`Positions::is_counted`) and of the rating groups
    /// (`rating_group`) against sql/explorer.sql itself, run by DataFusion on a `positions`
    /// table of every combination of the rule's columns and of Elo sums around every bound.
    #[test]
    fn the_counting_rule_and_the_rating_groups_are_those_of_explorer_sql() {
        use arrow_array::{Int32Array, UInt32Array};
        let max_ply = 4_u32;
        // (first, ply, next_uci, outcome, elo_sum)
        type Row = (bool, u32, Option<&'static str>, Option<i32>, Option<i32>);
        let mut rows: Vec<Row> = Vec::new();
        for first in [true, false] {
            for ply in [0, 3, 4, 5] {
                for next in [Some("e2e4"), None] {
                    for outcome in [Some(1), Some(0), Some(-1), None] {
                        rows.push((first, ply, next, outcome, Some(3000)));
                    }
                }
            }
        }
        // Counted rows with every Elo sum from 0 to 6,000, and none.
        rows.extend((0..=6_000).map(|sum| (true, 1, Some("d2d4"), Some(0), Some(sum))));
        rows.push((true, 1, Some("d2d4"), Some(0), None));
        let n = rows.len();
        // The columns tabla convert writes (`--positions keys`), and the partitions.
        let mut fields: Vec<Field> = positions_schema(PositionsTable::Keys)
            .fields()
            .iter()
            .map(|f| f.as_ref().clone())
            .collect();
        fields.push(Field::new("year", DataType::Int32, true));
        fields.push(Field::new("month", DataType::Int32, true));
        let schema = Arc::new(Schema::new(fields));
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from(vec![7; n])),
            Arc::new((0..n as i64).collect::<Int64Array>()),
            Arc::new((0..n as i64).collect::<Int64Array>()),
            Arc::new(rows.iter().map(|r| r.1).collect::<UInt32Array>()),
            Arc::new(rows.iter().map(|r| r.2).collect::<StringArray>()),
            Arc::new(rows.iter().map(|r| Some(r.0)).collect::<BooleanArray>()),
            Arc::new(rows.iter().map(|r| r.3).collect::<Int32Array>()),
            Arc::new(rows.iter().map(|r| r.4).collect::<Int32Array>()),
            Arc::new(StringArray::from(vec![Some("blitz"); n])),
            Arc::new(Int32Array::from(vec![Some(20_130_101); n])),
            Arc::new(Int32Array::from(vec![Some(2013); n])),
            Arc::new(Int32Array::from(vec![Some(1); n])),
        ];
        let batch = RecordBatch::try_new(schema.clone(), columns).expect("a positions batch");
        let session = crate::session::Session::new(&crate::session::QueryOptions {
            threads: 1,
            ..Default::default()
        })
        .expect("a query session");
        let table = datafusion::datasource::MemTable::try_new(schema, vec![vec![batch.clone()]])
            .expect("a table");
        session
            .ctx
            .register_table("positions", Arc::new(table))
            .expect("registered");
        // Each row is a position of its own (key_lo = its index): the query's rows are the
        // counted rows, with their rating group.
        let mut by_sql = std::collections::BTreeMap::new();
        for out in session
            .collect(&crate::tables::explorer_sql(max_ply))
            .expect("explorer.sql runs")
        {
            let (lo, group, games) = (
                ints(&out, "key_lo").expect("key_lo"),
                ints(&out, "rating_group").expect("rating_group"),
                ints(&out, "games").expect("games"),
            );
            for i in 0..out.num_rows() {
                assert_eq!(games.value(i), 1);
                by_sql.insert(lo.value(i), int_at(&group, i));
            }
        }
        let positions = Positions::decode(&batch).expect("decoded");
        let mut by_rust = std::collections::BTreeMap::new();
        for i in 0..n {
            if positions.is_counted(i, i64::from(max_ply)) {
                let group = int_at(&positions.elo_sum, i).map(rating_group);
                by_rust.insert(i as i64, group);
            }
        }
        assert_eq!(
            by_rust.len(),
            6 + 6_002,
            "6 counted combinations, every Elo sum"
        );
        assert_eq!(by_sql, by_rust);
        // The lookups' condition is the same text.
        let counted = crate::tables::counted_sql(max_ply);
        let filtered = session
            .collect(&format!(
                "SELECT COUNT(*) AS n FROM positions p WHERE {counted}"
            ))
            .expect("the rule runs");
        assert_eq!(
            ints(&filtered[0], "n").expect("n").value(0),
            by_rust.len() as i64
        );
    }

    /// The kept candidates of a bucket are its first games by Elo and by date, whatever the
    /// order they came in, and pruning early keeps the same.
    #[test]
    fn each_bucket_keeps_its_first_games_by_rating_and_by_date() {
        let make = |i: i64| Candidate {
            bucket: (Some(1000 + 200 * (i % 2)), Some((i % 3) as u8), None),
            game_id: (i * 7_919) % 1_000,
            ply: i % 50,
            elo_sum: (i % 5 != 0).then_some(2000 + (i * 37) % 400),
            speed: Some((i % 3) as u8),
            played_on: (i % 4 != 0).then_some(20_130_101 + (i * 13) % 28),
            kept: false,
        };
        let all: Vec<Candidate> = (0..500).map(make).collect();
        let mut once = all.clone();
        keep_listed(&mut once);
        let mut pruned = Vec::new();
        for c in &all {
            pruned.push(*c);
            if pruned.len() >= 40 {
                keep_listed(&mut pruned);
            }
        }
        keep_listed(&mut pruned);
        let ids = |v: &[Candidate]| {
            let mut ids: Vec<i64> = v.iter().map(|c| c.game_id).collect();
            ids.sort_unstable();
            ids
        };
        assert_eq!(ids(&once), ids(&pruned));
        // Independently: per bucket, the 8 best by each rank, from a plain sort of all.
        let mut expected = Vec::new();
        let mut buckets: Vec<_> = all.iter().map(|c| c.bucket).collect();
        buckets.sort_unstable();
        buckets.dedup();
        for b in buckets {
            for rank in [
                (|c: &Candidate| c.elo_sum) as fn(&Candidate) -> Option<i64>,
                |c: &Candidate| c.played_on,
            ] {
                let mut in_b: Vec<(i64, i64)> = all
                    .iter()
                    .filter(|c| c.bucket == b)
                    .filter_map(|c| rank(c).map(|r| (-r, c.game_id)))
                    .collect();
                in_b.sort_unstable();
                expected.extend(in_b.iter().take(GAMES_LISTED).map(|x| x.1));
            }
        }
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(ids(&once), expected);
        assert!(expected.len() > 40, "only {} kept", expected.len());
    }
}
