//! An import's explorer parts summed into one table by merging them (each is sorted by key).
//!
//! An import aggregates each positions file apart (sql/explorer.sql, one part each: the
//! engine's hash table holds one file's keys). A popular position then has rows in every part
//! (the start position of 2 million games: 24 parts, 1.2 million rows to read and add for an
//! answer). Merging the parts key by key ([`crate::runs`]) sums rows of equal key, move and
//! bucket into one file sorted like a part, in the memory of one batch per part and one key's
//! rows: the same sums the engine's `GROUP BY` gives ([`crate::compact`] for parts of any
//! order), without a hash table over the whole import.

use crate::DbError;
use crate::runs::{Decode, Runs, signed_order};
use crate::store::{LookupWriter, SortedLayout};
use crate::values::{int_at, ints, strings};
use arrow_array::builder::{Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tabla_convert::SPEEDS;

/// Rows of the merged table per row group: a popular position's rows in one or two (each
/// column chunk read costs a codec of its own in the `parquet` crate).
const GROUP_ROWS: usize = 1 << 17;

/// The six count columns, in the order of the table.
const COUNTS: [&str; 6] = ["games", "white", "draws", "black", "rating_sum", "rated"];

/// The columns of an `explorer` batch (here, and in the lookups of `crate::explore`).
pub(crate) struct Part {
    pub hi: Int64Array,
    pub lo: Int64Array,
    pub uci: StringArray,
    pub group: Int64Array,
    pub speed: StringArray,
    pub year: Int64Array,
    pub month: Int64Array,
    /// `games`, `white`, `draws`, `black`, `rating_sum`, `rated`.
    pub counts: [Int64Array; 6],
}

impl Part {
    /// Row `i`'s month as `YYYYMM`, when it has one.
    pub(crate) fn when(&self, i: usize) -> Option<i64> {
        int_at(&self.year, i)
            .zip(int_at(&self.month, i))
            .map(|(y, m)| y * 100 + m)
    }
}

impl Decode for Part {
    const COLUMNS: &'static [&'static str] = &[
        "key_hi",
        "key_lo",
        "uci",
        "rating_group",
        "speed",
        "year",
        "month",
        "games",
        "white",
        "draws",
        "black",
        "rating_sum",
        "rated",
    ];

    fn decode(batch: &RecordBatch) -> Result<Part, DbError> {
        let [games, white, draws, black, rating_sum, rated] = COUNTS.map(|c| ints(batch, c));
        Ok(Part {
            hi: ints(batch, "key_hi")?,
            lo: ints(batch, "key_lo")?,
            uci: strings(batch, "uci")?,
            group: ints(batch, "rating_group")?,
            speed: strings(batch, "speed")?,
            year: ints(batch, "year")?,
            month: ints(batch, "month")?,
            counts: [games?, white?, draws?, black?, rating_sum?, rated?],
        })
    }

    fn key(&self, i: usize) -> u128 {
        signed_order(self.hi.value(i), self.lo.value(i))
    }

    fn rows(&self) -> usize {
        self.hi.len()
    }
}

/// A move in UCI, held without an allocation (zero-padded: ordered as the text).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Uci([u8; 7]);

impl Uci {
    fn new(text: &str) -> Result<Uci, DbError> {
        let mut bytes = [0; 7];
        if text.len() > bytes.len() || text.bytes().any(|b| b == 0) {
            return Err(DbError::Engine(format!("explorer: {text:?} is not a move")));
        }
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Ok(Uci(bytes))
    }

    fn as_str(&self) -> &str {
        let len = self.0.iter().position(|&b| b == 0).unwrap_or(self.0.len());
        std::str::from_utf8(&self.0[..len]).unwrap_or("")
    }
}

/// A row's move and bucket: what the aggregate groups by within a key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Group {
    uci: Option<Uci>,
    rating_group: Option<i64>,
    /// The index in [`SPEEDS`].
    speed: Option<u8>,
    year: Option<i64>,
    month: Option<i64>,
}

/// What [`merge_parts`] did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Merged {
    /// Rows read from the parts.
    pub rows_before: u64,
    /// Rows written.
    pub rows: u64,
}

/// The `totals` table's schema: per position and move, the counts over every bucket and the
/// latest month (`YYYYMM`) played.
pub(crate) fn totals_schema() -> arrow_schema::SchemaRef {
    use arrow_schema::{DataType, Field, Schema};
    let int = |name: &str, nullable| Field::new(name, DataType::Int64, nullable);
    let mut fields = vec![
        int("key_hi", false),
        int("key_lo", false),
        Field::new("uci", DataType::Utf8, true),
    ];
    fields.extend(COUNTS.map(|c| int(c, false)));
    fields.push(int("last", true));
    Arc::new(Schema::new(fields))
}

/// Writes the sum of the explorer `parts` (each sorted by `key_hi`, `key_lo`, as
/// [`crate::store::write_explorer`] writes them) to the Parquet file `out`: a row per key,
/// move and bucket, sorted by key and move. And to `totals`, for each position counted for
/// at least [`crate::lists::LISTED_FROM`] games, a row per move with its sums over all
/// buckets: what an answer without filters adds up, added up once.
pub(crate) fn merge_parts(parts: &[PathBuf], out: &Path, totals: &Path) -> Result<Merged, DbError> {
    let mut runs: Runs<Part> = Runs::open(parts, 8192)?;
    let mut writer = LookupWriter::create(
        out,
        crate::tables::explorer_schema(),
        &SortedLayout::by_key(GROUP_ROWS),
    )?;
    let mut totals_writer =
        LookupWriter::create(totals, totals_schema(), &SortedLayout::by_key(GROUP_ROWS))?;
    let mut totals_table = Totals::default();
    let mut table = Columns::default();
    let mut rows: Vec<(Group, [i64; 6])> = Vec::new();
    let mut merged = Merged::default();
    let mut key = (0, 0);
    let mut bad: Option<DbError> = None;
    while runs
        .next_key(|p, i| {
            key = (p.hi.value(i), p.lo.value(i));
            let speed = match p.speed.is_valid(i).then(|| p.speed.value(i)) {
                None => None,
                Some(s) => match SPEEDS.iter().position(|&known| known == s) {
                    Some(index) => Some(index as u8),
                    None => {
                        bad = Some(DbError::Engine(format!("explorer: unknown speed {s:?}")));
                        None
                    }
                },
            };
            let group = Group {
                uci: p
                    .uci
                    .is_valid(i)
                    .then(|| Uci::new(p.uci.value(i)))
                    .transpose()?,
                rating_group: int_at(&p.group, i),
                speed,
                year: int_at(&p.year, i),
                month: int_at(&p.month, i),
            };
            rows.push((
                group,
                p.counts.each_ref().map(|a| int_at(a, i).unwrap_or(0)),
            ));
            Ok(())
        })?
        .is_some()
    {
        if let Some(e) = bad.take() {
            return Err(e);
        }
        merged.rows_before += rows.len() as u64;
        if rows.len() > 1 {
            rows.sort_unstable_by_key(|r| r.0);
        }
        let mut sums: Option<(Group, [i64; 6])> = None;
        for &(group, counts) in &rows {
            match &mut sums {
                Some((g, s)) if *g == group => {
                    for (total, c) in s.iter_mut().zip(counts) {
                        *total += c;
                    }
                }
                _ => {
                    if let Some(done) = sums.replace((group, counts)) {
                        table.push(key, &done);
                        merged.rows += 1;
                    }
                }
            }
        }
        if let Some(done) = sums {
            table.push(key, &done);
            merged.rows += 1;
        }
        if rows.iter().map(|r| r.1[0]).sum::<i64>() >= crate::lists::LISTED_FROM as i64 {
            // Sorted by move first: one total per run of a move.
            let mut total: Option<(Option<Uci>, [i64; 6], Option<i64>)> = None;
            for (group, counts) in &rows {
                let when = group.year.zip(group.month).map(|(y, m)| y * 100 + m);
                match &mut total {
                    Some((uci, sums, last)) if *uci == group.uci => {
                        for (t, c) in sums.iter_mut().zip(counts) {
                            *t += c;
                        }
                        *last = (*last).max(when);
                    }
                    _ => {
                        if let Some(done) = total.replace((group.uci, *counts, when)) {
                            totals_table.push(key, &done);
                        }
                    }
                }
            }
            if let Some(done) = total {
                totals_table.push(key, &done);
            }
            if totals_table.len() >= GROUP_ROWS {
                totals_writer.write(&totals_table.finish()?)?;
            }
        }
        rows.clear();
        if table.len() >= GROUP_ROWS {
            writer.write(&table.finish()?)?;
        }
    }
    if table.len() > 0 {
        writer.write(&table.finish()?)?;
    }
    if totals_table.len() > 0 {
        totals_writer.write(&totals_table.finish()?)?;
    }
    writer.close()?;
    totals_writer.close()?;
    Ok(merged)
}

/// The totals table's rows being built.
#[derive(Default)]
struct Totals {
    hi: Int64Builder,
    lo: Int64Builder,
    uci: StringBuilder,
    counts: [Int64Builder; 6],
    last: Int64Builder,
}

impl Totals {
    fn push(
        &mut self,
        (hi, lo): (i64, i64),
        (uci, counts, last): &(Option<Uci>, [i64; 6], Option<i64>),
    ) {
        self.hi.append_value(hi);
        self.lo.append_value(lo);
        self.uci.append_option(uci.as_ref().map(Uci::as_str));
        for (b, &c) in self.counts.iter_mut().zip(counts) {
            b.append_value(c);
        }
        self.last.append_option(*last);
    }

    fn len(&self) -> usize {
        use arrow_array::builder::ArrayBuilder;
        self.hi.len()
    }

    fn finish(&mut self) -> Result<RecordBatch, DbError> {
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.hi.finish()),
            Arc::new(self.lo.finish()),
            Arc::new(self.uci.finish()),
        ];
        columns.extend(
            self.counts
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef),
        );
        columns.push(Arc::new(self.last.finish()));
        RecordBatch::try_new(totals_schema(), columns)
            .map_err(|e| DbError::Engine(format!("totals: {e}")))
    }
}

/// The merged table's rows being built.
#[derive(Default)]
struct Columns {
    hi: Int64Builder,
    lo: Int64Builder,
    uci: StringBuilder,
    group: Int64Builder,
    speed: StringBuilder,
    year: Int32Builder,
    month: Int32Builder,
    counts: [Int64Builder; 6],
}

impl Columns {
    fn push(&mut self, (hi, lo): (i64, i64), (group, counts): &(Group, [i64; 6])) {
        self.hi.append_value(hi);
        self.lo.append_value(lo);
        self.uci.append_option(group.uci.as_ref().map(Uci::as_str));
        self.group.append_option(group.rating_group);
        self.speed
            .append_option(group.speed.map(|s| SPEEDS[usize::from(s)]));
        self.year
            .append_option(group.year.and_then(|y| i32::try_from(y).ok()));
        self.month
            .append_option(group.month.and_then(|m| i32::try_from(m).ok()));
        for (b, &c) in self.counts.iter_mut().zip(counts) {
            b.append_value(c);
        }
    }

    fn len(&self) -> usize {
        use arrow_array::builder::ArrayBuilder;
        self.hi.len()
    }

    fn finish(&mut self) -> Result<RecordBatch, DbError> {
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.hi.finish()),
            Arc::new(self.lo.finish()),
            Arc::new(self.uci.finish()),
            Arc::new(self.group.finish()),
            Arc::new(self.speed.finish()),
            Arc::new(self.year.finish()),
            Arc::new(self.month.finish()),
        ];
        columns.extend(
            self.counts
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef),
        );
        RecordBatch::try_new(crate::tables::explorer_schema(), columns)
            .map_err(|e| DbError::Engine(format!("explorer: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::fs::File;

    type Row = ((i64, i64), Group, [i64; 6]);

    fn write_part(path: &Path, mut rows: Vec<Row>) {
        rows.sort_by_key(|r| (signed_order(r.0.0, r.0.1), r.1.uci));
        let mut w = LookupWriter::create(
            path,
            crate::tables::explorer_schema(),
            &SortedLayout::by_key(5),
        )
        .expect("writer");
        let mut table = Columns::default();
        for chunk in rows.chunks(4) {
            for r in chunk {
                table.push(r.0, &(r.1, r.2));
            }
            w.write(&table.finish().expect("batch")).expect("write");
        }
        w.close().expect("close");
    }

    fn read(path: &Path) -> Vec<Row> {
        let mut runs: Runs<Part> = Runs::open(&[path.to_owned()], 3).expect("open");
        let mut out = Vec::new();
        while runs
            .next_key(|p, i| {
                let speed = p.speed.is_valid(i).then(|| {
                    SPEEDS
                        .iter()
                        .position(|&s| s == p.speed.value(i))
                        .expect("speed") as u8
                });
                out.push((
                    (p.hi.value(i), p.lo.value(i)),
                    Group {
                        uci: p
                            .uci
                            .is_valid(i)
                            .then(|| Uci::new(p.uci.value(i)).expect("uci")),
                        rating_group: int_at(&p.group, i),
                        speed,
                        year: int_at(&p.year, i),
                        month: int_at(&p.month, i),
                    },
                    p.counts.each_ref().map(|a| a.value(i)),
                ));
                Ok(())
            })
            .expect("read")
            .is_some()
        {}
        out
    }

    /// The merged table holds, per key, move and bucket, the sum of the parts' rows (summed
    /// here in a map): each once, sorted by signed key, nulls kept apart from values.
    #[test]
    fn merged_parts_are_the_sums_of_the_parts() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut expected: BTreeMap<((i64, i64), Group), [i64; 6]> = BTreeMap::new();
        let mut parts = Vec::new();
        let ucis = ["e2e4", "d2d4", "e7e8q", "g1f3"];
        for p in 0..3i64 {
            let mut rows = Vec::new();
            for i in 0..60i64 {
                let x = (i * 7919 + p * 104_729) % 1009;
                // Negative and positive halves, repeated keys within and across parts.
                let key = ((x % 5) - 2, if x % 3 == 0 { -5 } else { 9 });
                let group = Group {
                    uci: (x % 11 != 0).then(|| Uci::new(ucis[(x % 4) as usize]).expect("uci")),
                    rating_group: (x % 5 != 0).then_some(1000 + 200 * (x % 2)),
                    speed: (x % 7 != 0).then_some((x % 5) as u8),
                    year: Some(2013 + x % 2),
                    month: (x % 6 != 0).then_some(1 + x % 3),
                };
                let counts = [1 + x % 3, x % 2, 1, 0, 3000 + x, 1];
                let total = expected.entry((key, group)).or_insert([0; 6]);
                for (t, c) in total.iter_mut().zip(counts) {
                    *t += c;
                }
                rows.push((key, group, counts));
            }
            let path = dir.path().join(format!("part-{p}.parquet"));
            write_part(&path, rows);
            parts.push(path);
        }
        let out = dir.path().join("merged.parquet");
        let totals = dir.path().join("totals.parquet");
        let merged = merge_parts(&parts, &out, &totals).expect("merge");
        assert_eq!(merged.rows_before, 180);
        let got = read(&out);
        assert_eq!(merged.rows as usize, got.len());
        let keys: Vec<u128> = got.iter().map(|r| signed_order(r.0.0, r.0.1)).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "sorted by key");
        let got: BTreeMap<((i64, i64), Group), [i64; 6]> =
            got.into_iter().map(|(k, g, c)| ((k, g), c)).collect();
        assert_eq!(got.len(), merged.rows as usize, "each group once");
        assert_eq!(got, expected);

        // The totals: per popular key and move, the sums and the latest month.
        let mut per_key: BTreeMap<(i64, i64), i64> = BTreeMap::new();
        for ((key, _), c) in &expected {
            *per_key.entry(*key).or_default() += c[0];
        }
        type Total = ([i64; 6], Option<i64>);
        let mut want: BTreeMap<((i64, i64), Option<String>), Total> = BTreeMap::new();
        for ((key, g), c) in &expected {
            if per_key[key] < crate::lists::LISTED_FROM as i64 {
                continue;
            }
            let t = want
                .entry((*key, g.uci.map(|u| u.as_str().to_owned())))
                .or_insert(([0; 6], None));
            for (a, b) in t.0.iter_mut().zip(c) {
                *a += b;
            }
            t.1 = t.1.max(g.year.zip(g.month).map(|(y, m)| y * 100 + m));
        }
        let popular = per_key.values().filter(|&&g| g >= 32).count();
        assert!(popular >= 2 && popular < per_key.len(), "{per_key:?}");
        let file = File::open(&totals).expect("totals");
        let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
            .expect("reader")
            .build()
            .expect("reader");
        let mut have: BTreeMap<((i64, i64), Option<String>), Total> = BTreeMap::new();
        for batch in reader {
            let batch = batch.expect("batch");
            let [hi, lo, last] =
                ["key_hi", "key_lo", "last"].map(|c| ints(&batch, c).expect("ints"));
            let sums = COUNTS.map(|c| ints(&batch, c).expect("ints"));
            let uci = strings(&batch, "uci").expect("uci");
            for i in 0..batch.num_rows() {
                let key = ((hi.value(i), lo.value(i)), crate::values::str_at(&uci, i));
                let total = (sums.each_ref().map(|a| a.value(i)), int_at(&last, i));
                assert!(
                    have.insert(key, total).is_none(),
                    "one row per key and move"
                );
            }
        }
        assert_eq!(have, want);
    }
}
