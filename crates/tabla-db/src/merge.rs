//! An import's explorer parts summed into one table by merging them (each is sorted by key).
//!
//! An import aggregates each positions file apart (sql/explorer.sql, one part each, streamed
//! as the engine groups the file's sorted rows). A popular position has rows in every part
//! (the start position of 2 million games: 24 parts, 1.2 million rows to add for an answer).
//! Merging the parts key by key ([`crate::runs`]) sums rows of equal key, move and bucket into
//! one file sorted like a part, in the memory of one batch per part and one key's rows: the
//! same sums the engine's `GROUP BY` gives ([`crate::compact`] for parts of any order), without
//! a hash table over the whole import.

use crate::DbError;
use crate::lookup_write::{LookupWriter, SortedLayout};
use crate::runs::{Decode, Runs, signed_order};
use crate::totals::{COUNTS, Uci};
use crate::values::{int_at, ints, strings};
use arrow_array::builder::{Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray};
use std::path::Path;
use std::sync::Arc;
use tabla_convert::SPEEDS;

/// Rows of the merged table per row group: a popular position's rows in one or two (each
/// column chunk read costs a codec of its own in the `parquet` crate).
const GROUP_ROWS: usize = 1 << 17;

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

    /// The months row `i`'s games could have been played in ([`crate::filters::months_of`]).
    pub(crate) fn months(&self, i: usize) -> Option<(i64, i64)> {
        crate::filters::months_of(int_at(&self.year, i), int_at(&self.month, i))
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

/// Writes the sum of the explorer parts in `runs` (each sorted by `key_hi`, `key_lo`) to the
/// Parquet file `out`: a row per key, move and bucket, sorted by key and move; only the keys
/// whose rows add up to at least `min_games` games (1: every key).
pub(crate) fn merge_parts(
    mut runs: Runs<Part>,
    out: &Path,
    min_games: u64,
) -> Result<Merged, DbError> {
    let mut writer = LookupWriter::create(
        out,
        crate::tables::explorer_schema(),
        &SortedLayout::by_key(GROUP_ROWS),
    )?;
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
                        bad = Some(DbError::Query(format!("explorer: unknown speed {s:?}")));
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
        let games: i64 = rows.iter().map(|r| r.1[0]).sum();
        if games < i64::try_from(min_games).unwrap_or(i64::MAX) {
            rows.clear();
            continue;
        }
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
        rows.clear();
        if table.len() >= GROUP_ROWS {
            writer.write(&table.finish()?)?;
        }
    }
    if table.len() > 0 {
        writer.write(&table.finish()?)?;
    }
    writer.close()?;
    Ok(merged)
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
            .map_err(|e| DbError::Query(format!("explorer: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

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
        let runs = Runs::open(&parts, 8192).expect("open");
        let merged = merge_parts(runs, &out, 1).expect("merge");
        assert_eq!(merged.rows_before, 180);
        let got = read(&out);
        assert_eq!(merged.rows as usize, got.len());
        let keys: Vec<u128> = got.iter().map(|r| signed_order(r.0.0, r.0.1)).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "sorted by key");
        let got: BTreeMap<((i64, i64), Group), [i64; 6]> =
            got.into_iter().map(|(k, g, c)| ((k, g), c)).collect();
        assert_eq!(got.len(), merged.rows as usize, "each group once");
        assert_eq!(got, expected);
        // With a threshold, the keys whose games add up to less are left out, the others whole.
        let mut per_key: BTreeMap<(i64, i64), i64> = BTreeMap::new();
        for ((key, _), counts) in &expected {
            *per_key.entry(*key).or_default() += counts[0];
        }
        let mut totals: Vec<i64> = per_key.values().copied().collect();
        totals.sort_unstable();
        let min = totals[totals.len() / 2];
        assert!(min > totals[0], "some keys fall below {min}: {totals:?}");
        let popular = dir.path().join("popular.parquet");
        let runs = Runs::open(&parts, 8192).expect("open");
        merge_parts(runs, &popular, min as u64).expect("merge");
        let got: BTreeMap<((i64, i64), Group), [i64; 6]> = read(&popular)
            .into_iter()
            .map(|(k, g, c)| ((k, g), c))
            .collect();
        let want: BTreeMap<((i64, i64), Group), [i64; 6]> = expected
            .into_iter()
            .filter(|((key, _), _)| per_key[key] >= min)
            .collect();
        assert!(!want.is_empty());
        assert_eq!(got, want);
    }
}
