//! The transposition table: search results by Zobrist key, in buckets of four entries, shared
//! by the search threads without locks.

use crate::score::Value;
use std::sync::atomic::{AtomicU64, Ordering};
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

/// One slot: two words that threads read and write without locks.
///
/// The first word holds the key's low 32 bits, the depth and the move; the second the value, the
/// static evaluation, generation and bound, and 24 more bits drawn from the key. A reader that
/// meets one word of one write and the other word of another (two threads storing into the slot
/// at once) sees the two key checks disagree and treats the slot as missing. Two writes for the
/// same position pass both checks, so such a read may pair one search's depth and move with
/// another's value and bound; the move is checked for legality before use, and the search accepts
/// that rare imprecision, as lock-free tables do.
struct Slot {
    key_move: AtomicU64,
    data: AtomicU64,
}

/// The 24 bits of the key kept in a slot's second word: the key's bits 8 to 31 mixed with bits
/// 32 to 55, so that two keys of one bucket (their top bits alike) differ here as their low bits
/// do.
#[inline]
fn verify(key: u64) -> u64 {
    ((key >> 8) ^ (key >> 32)) & 0xff_ffff
}

#[inline]
fn bound_of(gen_bound: u8) -> Bound {
    match gen_bound & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    }
}

/// A slot's contents, unpacked.
#[derive(Copy, Clone)]
struct Stored {
    check: u32,
    mv: Move,
    depth: i8,
    value: i16,
    eval: i16,
    /// Generation in the upper six bits, [`Bound`] in the lower two (0 for an empty slot).
    gen_bound: u8,
    verify: u32,
}

impl Stored {
    #[inline]
    fn load(slot: &Slot) -> Stored {
        let a = slot.key_move.load(Ordering::Relaxed);
        let b = slot.data.load(Ordering::Relaxed);
        Stored {
            check: (a >> 32) as u32,
            depth: (a >> 24) as u8 as i8,
            mv: Move::from_bits(a as u32),
            value: b as u16 as i16,
            eval: (b >> 16) as u16 as i16,
            gen_bound: (b >> 32) as u8,
            verify: (b >> 40) as u32,
        }
    }

    #[inline]
    fn save(&self, slot: &Slot) {
        let a = u64::from(self.check) << 32
            | u64::from(self.depth as u8) << 24
            | u64::from(self.mv.bits() & 0xff_ffff);
        let b = u64::from(self.value as u16)
            | u64::from(self.eval as u16) << 16
            | u64::from(self.gen_bound) << 32
            | u64::from(self.verify) << 40;
        slot.key_move.store(a, Ordering::Relaxed);
        slot.data.store(b, Ordering::Relaxed);
    }

    #[inline]
    fn holds(&self, key: u64) -> bool {
        self.gen_bound & 3 != 0 && self.check == key as u32 && u64::from(self.verify) == verify(key)
    }
}

const WAYS: usize = 4;

#[repr(align(64))]
struct Bucket([Slot; WAYS]);

impl Bucket {
    fn empty() -> Bucket {
        Bucket(std::array::from_fn(|_| Slot {
            key_move: AtomicU64::new(0),
            data: AtomicU64::new(0),
        }))
    }
}

/// A fixed-size table of search results, sized in MiB, that search threads share: reads and
/// writes take `&self` and need no lock (see [`TranspositionTable::probe`]).
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> TranspositionTable {
        let count = (mib.max(1) * 1024 * 1024 / size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: (0..count).map(|_| Bucket::empty()).collect(),
            generation: 0,
        }
    }

    /// The table's size in bytes.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            for slot in &mut bucket.0 {
                *slot.key_move.get_mut() = 0;
                *slot.data.get_mut() = 0;
            }
        }
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

    /// Asks the processor to start loading `key`'s bucket into its cache, so that a
    /// [`probe`](Self::probe) soon after does not wait for memory. A hint only: nothing is read.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = &self.buckets[self.bucket_index(key)];
            // SAFETY: a prefetch reads nothing and cannot fault, whatever the address; the `sse`
            // feature it needs is part of every x86_64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any. Another thread may be storing at the same moment;
    /// a slot read half before and half after its write is not returned. The move, as with any
    /// hash table, may belong to another position with the same key: check it is legal.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = &self.buckets[self.bucket_index(key)];
        bucket
            .0
            .iter()
            .map(Stored::load)
            .find(|s| s.holds(key))
            .map(|s| Entry {
                mv: s.mv,
                value: s.value as Value,
                eval: s.eval as Value,
                depth: s.depth as i32,
                bound: bound_of(s.gen_bound),
            })
    }

    /// Stores a result, replacing the same key's entry or else the shallowest, oldest one.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.generation;
        let bucket = &self.buckets[self.bucket_index(key)];
        let age = |s: &Stored| (generation.wrapping_sub(s.gen_bound >> 2) & 63) as i32;
        let mut victim = 0;
        let mut old = Stored::load(&bucket.0[0]);
        let mut worst = i32::MAX;
        for (i, slot) in bucket.0.iter().enumerate() {
            let s = Stored::load(slot);
            if s.gen_bound & 3 == 0 || s.holds(key) {
                victim = i;
                old = s;
                break;
            }
            let worth = s.depth as i32 - 8 * age(&s);
            if worth < worst {
                worst = worth;
                victim = i;
                old = s;
            }
        }
        let same = old.holds(key);
        // A shallower result for the same position without a move keeps the old move.
        let mv = if entry.mv.is_null() && same {
            old.mv
        } else {
            entry.mv
        };
        let mut new = Stored {
            check: key as u32,
            mv,
            depth: entry.depth.clamp(-1, 127) as i8,
            value: entry.value.clamp(i16::MIN as Value, i16::MAX as Value) as i16,
            eval: entry.eval.clamp(i16::MIN as Value, i16::MAX as Value) as i16,
            gen_bound: generation << 2 | entry.bound as u8,
            verify: verify(key) as u32,
        };
        if same
            && old.gen_bound >> 2 == generation
            && entry.bound != Bound::Exact
            && (old.depth as i32) > entry.depth + 2
        {
            // Keep the deeper result; only the move is news.
            new = Stored { mv, ..old };
        }
        new.save(&bucket.0[victim]);
    }

    /// Per mille of a sample of slots holding results of the current search (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                b.0.iter()
                    .map(Stored::load)
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

    /// An entry whose every field is derived from its key, so that a read mixing two writes
    /// shows.
    fn entry_for(key: u64) -> Entry {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        Entry {
            mv: moves[(key % moves.len() as u64) as usize],
            value: ((key >> 20) % 3000) as i32 - 1500,
            eval: ((key >> 40) % 3000) as i32 - 1500,
            depth: ((key >> 8) % 100) as i32,
            bound: [Bound::Upper, Bound::Lower, Bound::Exact][(key % 3) as usize],
        }
    }

    #[test]
    fn threads_storing_into_one_bucket_never_read_a_mixed_entry() {
        // Keys with equal top bits land in the same bucket (of a 1 MiB table), so two threads
        // keep overwriting each other's slots while two more read them.
        let tt = TranspositionTable::new(1);
        let keys: Vec<u64> = (0..64u64)
            .map(|i| 0x5555_0000_0000_0000 | i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20)
            .collect();
        use std::sync::atomic::{AtomicUsize, Ordering};
        let found = AtomicUsize::new(0);
        let writing = AtomicUsize::new(2);
        std::thread::scope(|scope| {
            for t in 0..2 {
                let (tt, keys, writing) = (&tt, &keys, &writing);
                scope.spawn(move || {
                    for round in 0..200_000 {
                        let k = keys[(round * 7 + t * 13) % keys.len()];
                        tt.store(k, entry_for(k));
                    }
                    writing.fetch_sub(1, Ordering::SeqCst);
                });
            }
            for t in 0..2 {
                let (tt, keys, found, writing) = (&tt, &keys, &found, &writing);
                scope.spawn(move || {
                    // Read for as long as a writer runs (on a busy machine the readers may be
                    // run before the writers start), then once more over every key (5 and 64
                    // are coprime), which finds what the writers left in the bucket.
                    let (mut round, mut last_pass) = (0usize, keys.len());
                    loop {
                        if round >= 200_000 && writing.load(Ordering::SeqCst) == 0 {
                            if last_pass == 0 {
                                break;
                            }
                            last_pass -= 1;
                        }
                        round += 1;
                        let k = keys[(round * 5 + t * 3) % keys.len()];
                        if let Some(e) = tt.probe(k) {
                            let want = entry_for(k);
                            assert_eq!(
                                (e.mv, e.value, e.eval, e.depth, e.bound),
                                (want.mv, want.value, want.eval, want.depth, want.bound),
                                "key {k:x}"
                            );
                            found.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        // The readers did see entries (the test is not vacuous).
        assert!(found.into_inner() > 0);
        for &k in &keys {
            if let Some(e) = tt.probe(k) {
                assert_eq!(e.value, entry_for(k).value);
            }
        }
    }

    #[test]
    fn a_slot_holding_halves_of_two_writes_is_missing() {
        // What a reader sees when another thread's store lands between its two loads: the first
        // word of one entry, the second of another entry of the same bucket.
        let tt = TranspositionTable::new(1);
        let (a, b) = (0x7777_0000_1234_5678u64, 0x7777_0000_8765_4321u64);
        let words = |key: u64| {
            let fresh = TranspositionTable::new(1);
            fresh.store(key, entry_for(key));
            let slot = &fresh.buckets[fresh.bucket_index(key)].0[0];
            (
                slot.key_move.load(Ordering::Relaxed),
                slot.data.load(Ordering::Relaxed),
            )
        };
        let ((a0, a1), (b0, b1)) = (words(a), words(b));
        let slot = &tt.buckets[tt.bucket_index(a)].0[0];
        for (first, second, key, whole) in
            [(a0, b1, a, false), (b0, a1, b, false), (a0, a1, a, true)]
        {
            slot.key_move.store(first, Ordering::Relaxed);
            slot.data.store(second, Ordering::Relaxed);
            assert_eq!(tt.probe(key).is_some(), whole, "{first:x} {second:x}");
        }
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_entry() {
        let tt = TranspositionTable::new(1);
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
