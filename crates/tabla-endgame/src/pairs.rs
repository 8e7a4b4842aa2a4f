//! The pair grammar of a table's values: the most frequent pairs of neighbouring symbols are
//! replaced by new symbols, round after round, until the alphabet is full or no pair repeats
//! enough to pay for its rule (the "Re-Pair" method of Larsson and Moffat, 1999, which Syzygy's
//! tables also use). Each symbol then stands for a run of values, and a probe finds a value by
//! walking down the two halves of one symbol.

/// Symbols below this are values (a value code stands for itself); rules follow.
pub(crate) const TERMINALS: usize = 256;
/// The largest alphabet: the pair counts are a `SYMBOLS × SYMBOLS` array.
pub(crate) const SYMBOLS: usize = 4096;
/// A pair seen fewer times than this gets no rule (a rule costs four bytes).
const MIN_COUNT: u32 = 12;
/// At most this many new rules a round; a round takes only pairs at least a sixteenth as
/// frequent as the round's best, so the counts that chose them stay close to the truth (a pair
/// at a time, as the method has it, codes within 1-2% and takes many times longer).
const PER_ROUND: usize = 192;

/// The rules: symbol `TERMINALS + i` stands for `rules[i].0` followed by `rules[i].1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Grammar {
    pub(crate) rules: Vec<(u16, u16)>,
}

impl Grammar {
    /// The number of values each symbol stands for (values 1, rules the sum of their halves).
    /// `None` when a rule names a symbol not defined before it (a damaged file).
    pub(crate) fn lengths(&self) -> Option<Vec<u64>> {
        let mut len = vec![1u64; TERMINALS + self.rules.len()];
        for (i, &(a, b)) in self.rules.iter().enumerate() {
            let me = TERMINALS + i;
            if usize::from(a) >= me || usize::from(b) >= me {
                return None;
            }
            len[me] = len[usize::from(a)] + len[usize::from(b)];
        }
        Some(len)
    }

    /// The value at `offset` within `symbol`, walking down its halves.
    #[inline]
    pub(crate) fn value_at(&self, lengths: &[u64], mut symbol: u16, mut offset: u64) -> u8 {
        while usize::from(symbol) >= TERMINALS {
            let (a, b) = self.rules[usize::from(symbol) - TERMINALS];
            let la = lengths[usize::from(a)];
            if offset < la {
                symbol = a;
            } else {
                offset -= la;
                symbol = b;
            }
        }
        symbol as u8
    }

    /// Appends the values `symbol` stands for.
    pub(crate) fn expand(&self, symbol: u16, out: &mut Vec<u8>) {
        let mut stack = vec![symbol];
        while let Some(s) = stack.pop() {
            if usize::from(s) < TERMINALS {
                out.push(s as u8);
            } else {
                let (a, b) = self.rules[usize::from(s) - TERMINALS];
                stack.push(b);
                stack.push(a);
            }
        }
    }
}

/// Builds the grammar of `values` and returns it with the sequence of symbols that spells them.
pub(crate) fn compress(values: &[u8]) -> (Grammar, Vec<u16>) {
    let mut seq: Vec<u16> = values.iter().map(|&v| u16::from(v)).collect();
    let mut rules: Vec<(u16, u16)> = Vec::new();
    let mut counts = vec![0u32; SYMBOLS * SYMBOLS];
    let mut replace = vec![0u16; SYMBOLS * SYMBOLS];
    let mut touched: Vec<u32> = Vec::new();
    loop {
        let room = SYMBOLS - TERMINALS - rules.len();
        if room == 0 || seq.len() < 2 {
            break;
        }
        // Count the pairs, noting each pair the first time it is seen: a round costs the
        // sequence's length, not the size of the counts.
        let mut prev = usize::from(seq[0]);
        for &s in &seq[1..] {
            let s = usize::from(s);
            let k = prev * SYMBOLS + s;
            if counts[k] == 0 {
                touched.push(k as u32);
            }
            counts[k] += 1;
            prev = s;
        }
        // The round's best pairs.
        let mut best: Vec<(u32, usize)> = Vec::new();
        let mut floor = MIN_COUNT;
        for &k in &touched {
            let pair = k as usize;
            let c = counts[pair];
            counts[pair] = 0;
            if c >= floor {
                best.push((c, pair));
                if best.len() >= 4 * PER_ROUND {
                    best.sort_unstable_by(|x, y| y.cmp(x));
                    best.truncate(PER_ROUND.min(room));
                    floor = floor.max(best[best.len() - 1].0);
                }
            }
        }
        touched.clear();
        best.sort_unstable_by(|x, y| y.cmp(x));
        let Some(&(top, _)) = best.first() else {
            break;
        };
        best.retain(|&(c, _)| c >= top / 16);

        best.truncate(PER_ROUND.min(room));
        for &(_, pair) in &best {
            let id = (TERMINALS + rules.len()) as u16;
            rules.push(((pair / SYMBOLS) as u16, (pair % SYMBOLS) as u16));
            replace[pair] = id;
        }
        // Left to right, a chosen pair becomes its symbol.
        let n = seq.len();
        let (mut read, mut write) = (0, 0);
        while read < n {
            let s = seq[read];
            if read + 1 < n {
                let r = replace[usize::from(s) * SYMBOLS + usize::from(seq[read + 1])];
                if r != 0 {
                    seq[write] = r;
                    write += 1;
                    read += 2;
                    continue;
                }
            }
            seq[write] = s;
            write += 1;
            read += 1;
        }
        seq.truncate(write);
        for &(_, pair) in &best {
            replace[pair] = 0;
        }
    }
    (Grammar { rules }, seq)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(n: usize, seed: u32) -> Vec<u8> {
        // Runs and repeated phrases over a small alphabet, as table values are.
        let mut state = seed;
        let mut out = Vec::with_capacity(n);
        let phrase = [3u8, 5, 5, 7, 0, 0, 9, 3];
        while out.len() < n {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            match (state >> 16) % 4 {
                0 => out.extend(std::iter::repeat_n(
                    (state >> 8) as u8 % 6,
                    (state % 40) as usize,
                )),
                1 => out.extend_from_slice(&phrase),
                _ => out.push((state >> 20) as u8 % 12),
            }
        }
        out.truncate(n);
        out
    }

    #[test]
    fn the_symbols_spell_the_values() {
        let values = sample(200_000, 7);
        let (grammar, seq) = compress(&values);
        assert!(!grammar.rules.is_empty());
        assert!(seq.len() < values.len() / 2, "{} symbols", seq.len());
        let mut out = Vec::new();
        for &s in &seq {
            grammar.expand(s, &mut out);
        }
        assert_eq!(out, values);
        // And value_at finds each value inside its symbol.
        let lengths = grammar.lengths().expect("well formed");
        let mut at = 0usize;
        for &s in &seq {
            for o in 0..lengths[usize::from(s)] {
                assert_eq!(grammar.value_at(&lengths, s, o), values[at]);
                at += 1;
            }
        }
    }

    #[test]
    fn short_and_uniform_inputs() {
        for values in [vec![], vec![4u8], vec![0u8; 100_000], vec![1, 2]] {
            let (grammar, seq) = compress(&values);
            let mut out = Vec::new();
            for &s in &seq {
                grammar.expand(s, &mut out);
            }
            assert_eq!(out, values);
        }
    }

    #[test]
    fn a_rule_naming_a_later_symbol_is_refused() {
        let bad = Grammar {
            rules: vec![(1, 300)],
        };
        assert!(bad.lengths().is_none());
    }
}
