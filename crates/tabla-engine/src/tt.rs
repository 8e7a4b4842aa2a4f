//! The transposition table: search results by Zobrist key, in buckets of four entries.

use crate::score::Value;
use tabla::Move;

/// What a stored value says about the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the value (every move failed low).
    Upper = 1,
    /// The true score is at least the value (a move failed high).
    Lower = 2,
    /// The value is the true score (searched with an open window).
    Exact = 3,
}

/// One stored search result.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    /// The best (or refuting) move found, [`Move::NULL`] when none.
    pub mv: Move,
    /// The value, mate scores relative to this node (see [`crate::score::to_table`]).
    pub value: Value,
    /// The static evaluation of the node.
    pub eval: Value,
    /// The depth searched.
    pub depth: i32,
    /// What the value means.
    pub bound: Bound,
}

#[derive(Copy, Clone)]
struct Slot {
    check: u32,
    mv: Move,
    value: i16,
    eval: i16,
    depth: i8,
    /// Generation in the upper six bits, [`Bound`] in the lower two (0 for an empty slot).
    gen_bound: u8,
}

const EMPTY: Slot = Slot {
    check: 0,
    mv: Move::NULL,
    value: 0,
    eval: 0,
    depth: 0,
    gen_bound: 0,
};

const WAYS: usize = 4;

#[derive(Copy, Clone)]
#[repr(align(64))]
struct Bucket([Slot; WAYS]);

/// A fixed-size table of search results, sized in MiB.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> TranspositionTable {
        let count = (mib.max(1) * 1024 * 1024 / size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: vec![Bucket([EMPTY; WAYS]); count],
            generation: 0,
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket([EMPTY; WAYS]));
        self.generation = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn bucket_index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = &self.buckets[self.bucket_index(key)];
        let check = key as u32;
        bucket
            .0
            .iter()
            .find(|s| s.check == check && s.gen_bound & 3 != 0)
            .map(|s| Entry {
                mv: s.mv,
                value: s.value as Value,
                eval: s.eval as Value,
                depth: s.depth as i32,
                bound: match s.gen_bound & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                },
            })
    }

    /// Stores a result, replacing the same key's entry or else the shallowest, oldest one.
    #[inline]
    pub fn store(&mut self, key: u64, entry: Entry) {
        let generation = self.generation;
        let index = self.bucket_index(key);
        let bucket = &mut self.buckets[index];
        let check = key as u32;
        let age = |s: &Slot| (generation.wrapping_sub(s.gen_bound >> 2) & 63) as i32;
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, slot) in bucket.0.iter().enumerate() {
            if slot.check == check || slot.gen_bound & 3 == 0 {
                victim = i;
                break;
            }
            let worth = slot.depth as i32 - 8 * age(slot);
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let slot = &mut bucket.0[victim];
        // A shallower result for the same position without a move keeps the old move.
        let mv = if entry.mv.is_null() && slot.check == check {
            slot.mv
        } else {
            entry.mv
        };
        if slot.check == check
            && slot.gen_bound >> 2 == generation
            && entry.bound != Bound::Exact
            && (slot.depth as i32) > entry.depth + 2
        {
            slot.mv = mv;
            return;
        }
        *slot = Slot {
            check,
            mv,
            value: entry.value.clamp(i16::MIN as Value, i16::MAX as Value) as i16,
            eval: entry.eval.clamp(i16::MIN as Value, i16::MAX as Value) as i16,
            depth: entry.depth.clamp(-1, 127) as i8,
            gen_bound: generation << 2 | entry.bound as u8,
        };
    }

    /// Per mille of a sample of slots holding results of the current search (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                b.0.iter()
                    .filter(|s| s.gen_bound & 3 != 0 && s.gen_bound >> 2 == self.generation)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * WAYS)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabla::Position;

    #[test]
    fn stores_and_finds_by_key() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.bytes(), 1024 * 1024);
        let pos = Position::startpos();
        let mv = pos.parse_san("e4").expect("test data");
        let key = pos.zobrist();
        assert!(tt.probe(key).is_none());
        tt.store(
            key,
            Entry {
                mv,
                value: 25,
                eval: 10,
                depth: 7,
                bound: Bound::Exact,
            },
        );
        let e = tt.probe(key).expect("test data");
        assert_eq!(
            (e.mv, e.value, e.eval, e.depth, e.bound),
            (mv, 25, 10, 7, Bound::Exact)
        );
        assert!(tt.probe(key ^ 1).is_none());
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_entry() {
        let mut tt = TranspositionTable::new(1);
        // Keys with the same high bits share a bucket; the low 32 bits tell them apart.
        let keys: Vec<u64> = (1..=5).map(|i| 0xabcd_0000_0000_0000 | i).collect();
        for (i, &k) in keys.iter().enumerate() {
            let depth = [9, 3, 8, 7, 6][i];
            tt.store(
                k,
                Entry {
                    mv: Move::NULL,
                    value: 0,
                    eval: 0,
                    depth,
                    bound: Bound::Lower,
                },
            );
        }
        assert!(tt.probe(keys[1]).is_none(), "depth 3 was the one to go");
        for k in [keys[0], keys[2], keys[3], keys[4]] {
            assert!(tt.probe(k).is_some());
        }
    }
}
