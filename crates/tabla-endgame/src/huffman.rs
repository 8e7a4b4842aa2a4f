//! Canonical prefix codes: the lengths from the symbols' counts (Huffman's method, lengths
//! limited to [`MAX_LEN`] bits), the codes from the lengths alone, so a file stores one length a
//! symbol. Codes are read most significant bit first from a 64-bit window.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The longest code.
pub(crate) const MAX_LEN: u8 = 24;
/// Codes up to this long are decoded by one table look-up.
const FAST_BITS: u32 = 10;

/// Code lengths for `counts` (0 for a symbol never used), no longer than [`MAX_LEN`].
pub(crate) fn lengths(counts: &[u64]) -> Vec<u8> {
    let mut counts: Vec<u64> = counts.to_vec();
    loop {
        let lens = unlimited(&counts);
        if lens.iter().all(|&l| l <= MAX_LEN) {
            return lens;
        }
        // Flatten the distribution and try again: rare symbols get shorter codes.
        for c in counts.iter_mut().filter(|c| **c > 0) {
            *c = (*c >> 1) | 1;
        }
    }
}

fn unlimited(counts: &[u64]) -> Vec<u8> {
    let mut lens = vec![0u8; counts.len()];
    let used: Vec<usize> = (0..counts.len()).filter(|&s| counts[s] > 0).collect();
    match used.len() {
        0 => return lens,
        1 => {
            lens[used[0]] = 1;
            return lens;
        }
        _ => {}
    }
    // Nodes: leaves first, then inner nodes; parent links give the depths.
    let mut parent = vec![usize::MAX; 2 * used.len()];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = used
        .iter()
        .enumerate()
        .map(|(i, &s)| Reverse((counts[s], i)))
        .collect();
    let mut next = used.len();
    while heap.len() > 1 {
        let (Some(Reverse((ca, a))), Some(Reverse((cb, b)))) = (heap.pop(), heap.pop()) else {
            break;
        };
        parent[a] = next;
        parent[b] = next;
        heap.push(Reverse((ca + cb, next)));
        next += 1;
    }
    let mut depth = vec![0u8; next];
    for node in (0..next - 1).rev() {
        depth[node] = depth[parent[node]].saturating_add(1);
    }
    for (i, &s) in used.iter().enumerate() {
        lens[s] = depth[i];
    }
    lens
}

/// The canonical code of each symbol (`(code, length)`, code right-aligned): shorter codes
/// first, and within a length in symbol order.
pub(crate) fn codes(lens: &[u8]) -> Vec<(u32, u8)> {
    let mut out = vec![(0u32, 0u8); lens.len()];
    let mut code = 0u32;
    for len in 1..=MAX_LEN {
        for (s, &l) in lens.iter().enumerate() {
            if l == len {
                out[s] = (code, len);
                code += 1;
            }
        }
        code <<= 1;
    }
    out
}

/// Decodes canonical codes.
#[derive(Debug, Clone)]
pub(crate) struct Decoder {
    /// Symbols in code order.
    sorted: Vec<u16>,
    /// Per length: one past the last code of that length, the first code, and the index in
    /// `sorted` of the first code.
    limit: [u64; MAX_LEN as usize + 1],
    first: [u32; MAX_LEN as usize + 1],
    start: [u32; MAX_LEN as usize + 1],
    /// By the next [`FAST_BITS`] bits: the symbol and its length, or length 0 when longer.
    fast: Vec<(u16, u8)>,
}

impl Decoder {
    /// The decoder of the canonical code with these lengths; `None` when the lengths are not
    /// those of a prefix code (a damaged file).
    pub(crate) fn new(lens: &[u8]) -> Option<Decoder> {
        let mut count = [0u32; MAX_LEN as usize + 1];
        for &l in lens {
            if l > MAX_LEN {
                return None;
            }
            count[usize::from(l)] += 1;
        }
        count[0] = 0;
        // Kraft: the codes must fit (a single symbol of length 1 is allowed).
        let mut room: i64 = 1;
        for &c in &count[1..] {
            room = room * 2 - i64::from(c);
            if room < 0 {
                return None;
            }
        }
        let mut sorted = Vec::new();
        let mut first = [0u32; MAX_LEN as usize + 1];
        let mut start = [0u32; MAX_LEN as usize + 1];
        let mut limit = [0u64; MAX_LEN as usize + 1];
        let mut code = 0u32;
        for len in 1..=MAX_LEN {
            let l = usize::from(len);
            first[l] = code;
            start[l] = sorted.len() as u32;
            for (s, &sl) in lens.iter().enumerate() {
                if sl == len {
                    sorted.push(s as u16);
                }
            }
            code += count[l];
            // Codes of this length are below `code`: compare the window's top `len` bits.
            limit[l] = u64::from(code);
            code <<= 1;
        }
        let mut fast = vec![(0u16, 0u8); 1 << FAST_BITS];
        for (s, &(c, l)) in codes(lens).iter().enumerate() {
            if l > 0 && u32::from(l) <= FAST_BITS {
                let shift = FAST_BITS - u32::from(l);
                let base = (c as usize) << shift;
                for e in &mut fast[base..base + (1 << shift)] {
                    *e = (s as u16, l);
                }
            }
        }
        Some(Decoder {
            sorted,
            limit,
            first,
            start,
            fast,
        })
    }

    /// The symbol at the top of `window` and its length; `None` when no code matches.
    #[inline]
    pub(crate) fn decode(&self, window: u64) -> Option<(u16, u8)> {
        let (s, l) = self.fast[(window >> (64 - FAST_BITS)) as usize];
        if l != 0 {
            return Some((s, l));
        }
        for len in FAST_BITS as usize + 1..=MAX_LEN as usize {
            let top = window >> (64 - len);
            if top < self.limit[len] {
                let i = self.start[len] as u64 + top.checked_sub(u64::from(self.first[len]))?;
                return self.sorted.get(i as usize).map(|&s| (s, len as u8));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frequent_symbols_get_short_codes_and_every_code_decodes() {
        let counts: Vec<u64> = (0..300u64).map(|s| (s * 7919) % 1000 + 1).collect();
        let lens = lengths(&counts);
        for a in 0..300 {
            for b in 0..300 {
                if counts[a] > 2 * counts[b] {
                    assert!(lens[a] <= lens[b]);
                }
            }
        }
        let dec = Decoder::new(&lens).expect("a prefix code");
        for (s, &(c, l)) in codes(&lens).iter().enumerate() {
            let window = (u64::from(c) << (64 - u32::from(l))) | (0x5555 >> l);
            assert_eq!(dec.decode(window), Some((s as u16, l)));
        }
    }

    #[test]
    fn skewed_counts_stay_within_the_limit() {
        // Fibonacci counts make Huffman's deepest tree.
        let mut counts = vec![1u64, 1];
        while counts.len() < 60 {
            let n = counts[counts.len() - 1] + counts[counts.len() - 2];
            counts.push(n);
        }
        let lens = lengths(&counts);
        assert!(lens.iter().all(|&l| (1..=MAX_LEN).contains(&l)));
        let dec = Decoder::new(&lens).expect("a prefix code");
        for (s, &(c, l)) in codes(&lens).iter().enumerate() {
            assert_eq!(
                dec.decode(u64::from(c) << (64 - u32::from(l))),
                Some((s as u16, l))
            );
        }
    }

    #[test]
    fn lengths_that_overflow_are_refused() {
        assert!(Decoder::new(&[1, 1, 1]).is_none());
        assert!(Decoder::new(&[1]).is_some());
    }
}
