//! The body of a table file: the values spelled by a pair grammar ([`crate::pairs`]), the
//! symbols written in canonical prefix codes ([`crate::huffman`]) and packed into small blocks
//! of a fixed size, each holding whole symbols. An index gives each block's first slot, and a
//! sparse index the block of every 1,024th slot, so a probe reads two index words, a few more in
//! a binary search, and decodes part of one block: no buffer, no decompression of its neighbours.
//!
//! Layout of the index part (`meta`, little-endian):
//!
//! | field | |
//! |---|---|
//! | u64 | slots |
//! | u32 | rules `R` |
//! | `R` × (u16, u16) | the rules' halves |
//! | `256 + R` × u8 | each symbol's code length (0: unused) |
//! | u32 | block size in bytes |
//! | u32 | blocks `N` |
//! | `N` × u32 | each block's first slot |
//! | u32 | `shift`: sparse entries are `1 << shift` slots apart (about one a four blocks) |
//! | `(slots >> shift) + 2` × u32 | the block holding slot `i << shift` (the last: `N - 1`) |
//! | u32 a group of [`GROUP_BLOCKS`] blocks | CRC-32 of the group's bytes |
//!
//! The data part is `N` blocks of the block size. A group's checksum is checked the first time a
//! probe reads one of its blocks, so a damaged block is reported, not decoded into values.

use crate::huffman;
use crate::pairs::{self, Grammar, TERMINALS};
use std::sync::atomic::{AtomicBool, Ordering};

/// Bytes a block.
pub(crate) const BLOCK: usize = 64;
/// Blocks a sparse index entry, about: the entries are `1 << shift` slots apart, the shift
/// chosen for the table.
const BLOCKS_AN_ENTRY: usize = 4;
/// Blocks a checksum covers.
pub(crate) const GROUP_BLOCKS: usize = 1024;

/// A coded body: the index part and the blocks.
pub(crate) struct Encoded {
    pub(crate) meta: Vec<u8>,
    pub(crate) data: Vec<u8>,
}

/// Writes out the bits pending and pads the block with zeros.
fn flush_block(data: &mut Vec<u8>, acc: &mut u64, acc_len: &mut u32) {
    if *acc_len > 0 {
        data.push((*acc << (8 - *acc_len)) as u8);
        *acc_len = 0;
    }
    *acc = 0;
    let rest = data.len() % BLOCK;
    if rest != 0 {
        data.resize(data.len() + BLOCK - rest, 0);
    }
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Codes `values` (one a slot).
pub(crate) fn encode(values: &[u8]) -> Encoded {
    let (grammar, seq) = pairs::compress(values);
    let lengths = grammar
        .lengths()
        .expect("the grammar's rules name earlier symbols");
    let symbols = TERMINALS + grammar.rules.len();
    let mut counts = vec![0u64; symbols];
    for &s in &seq {
        counts[usize::from(s)] += 1;
    }
    let lens = huffman::lengths(&counts);
    let codes = huffman::codes(&lens);

    let mut data: Vec<u8> = Vec::new();
    let mut starts: Vec<u32> = Vec::new();
    let mut slot = 0u64;
    let mut bits = 0usize; // used in the current block
    let mut acc = 0u64; // pending bits, right-aligned
    let mut acc_len = 0u32;
    for &s in &seq {
        let (code, len) = codes[usize::from(s)];
        let len = usize::from(len);
        if starts.is_empty() || bits + len > BLOCK * 8 {
            if !starts.is_empty() {
                flush_block(&mut data, &mut acc, &mut acc_len);
            }
            starts.push(slot as u32);
            bits = 0;
        }
        acc = acc << len | u64::from(code);
        acc_len += len as u32;
        while acc_len >= 8 {
            acc_len -= 8;
            data.push((acc >> acc_len) as u8);
        }
        acc &= (1u64 << acc_len) - 1;
        bits += len;
        slot += lengths[usize::from(s)];
    }
    if !starts.is_empty() {
        flush_block(&mut data, &mut acc, &mut acc_len);
    }
    debug_assert_eq!(slot, values.len() as u64);
    debug_assert_eq!(data.len(), starts.len() * BLOCK);

    let mut meta = Vec::new();
    meta.extend_from_slice(&(values.len() as u64).to_le_bytes());
    put_u32(&mut meta, grammar.rules.len() as u32);
    for &(a, b) in &grammar.rules {
        meta.extend_from_slice(&a.to_le_bytes());
        meta.extend_from_slice(&b.to_le_bytes());
    }
    meta.extend_from_slice(&lens);
    put_u32(&mut meta, BLOCK as u32);
    put_u32(&mut meta, starts.len() as u32);
    for &s in &starts {
        put_u32(&mut meta, s);
    }
    let mut shift = 0u32;
    while (values.len() >> shift) > (starts.len() / BLOCKS_AN_ENTRY).max(1) {
        shift += 1;
    }
    put_u32(&mut meta, shift);
    let entries = (values.len() >> shift) + 2;
    let mut b = 0usize;
    for e in 0..entries {
        let target = (e << shift).min(values.len().saturating_sub(1)) as u32;
        while b + 1 < starts.len() && starts[b + 1] <= target {
            b += 1;
        }
        put_u32(&mut meta, b as u32);
    }
    for group in data.chunks(GROUP_BLOCKS * BLOCK) {
        put_u32(&mut meta, crc32fast::hash(group));
    }
    Encoded { meta, data }
}

/// Why a coded body cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CodeError {
    /// The index part does not parse or does not fit the slots and the data.
    Index(&'static str),
    /// A group of blocks fails its checksum.
    Checksum(usize),
    /// A block does not decode to the slot asked for.
    Block(usize),
}

impl std::fmt::Display for CodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodeError::Index(why) => write!(f, "the block index: {why}"),
            CodeError::Checksum(g) => {
                write!(f, "blocks {}.. fail their checksum", g * GROUP_BLOCKS)
            }
            CodeError::Block(b) => write!(f, "block {b} does not decode"),
        }
    }
}

/// A coded body opened for probing: the grammar and the code are read into memory, the
/// indexes and blocks are read in place.
pub(crate) struct Code {
    grammar: Grammar,
    lengths: Vec<u64>,
    decoder: huffman::Decoder,
    slots: u64,
    blocks: usize,
    /// Slots between sparse entries: `1 << shift`.
    shift: u32,
    /// Byte offsets in `meta` of the block starts, the sparse index and the checksums.
    starts: usize,
    sparse: usize,
    crcs: usize,
    checked: Vec<AtomicBool>,
}

/// The 64 bits of a block (padded with 8 zero bytes) from bit `bit` on, most significant first.
#[inline]
fn window(buf: &[u8; BLOCK + 8], bit: usize) -> u64 {
    let at = bit / 8;
    let mut w = [0u8; 8];
    w.copy_from_slice(&buf[at..at + 8]);
    u64::from_be_bytes(w) << (bit % 8)
}

fn get_u32(b: &[u8], at: usize) -> Option<u32> {
    let w = b.get(at..at + 4)?;
    Some(u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

fn get_u16(b: &[u8], at: usize) -> Option<u16> {
    let w = b.get(at..at + 2)?;
    Some(u16::from_le_bytes([w[0], w[1]]))
}

impl Code {
    /// Reads the index part `meta` of a body of `slots` values whose blocks take `data_len`
    /// bytes; checks that everything fits (not the blocks' checksums, which wait for a probe).
    pub(crate) fn open(meta: &[u8], slots: u64, data_len: usize) -> Result<Code, CodeError> {
        let short = CodeError::Index("shorter than its counts say");
        let lo = u64::from(get_u32(meta, 0).ok_or(short.clone())?);
        let hi = u64::from(get_u32(meta, 4).ok_or(short.clone())?);
        if lo | hi << 32 != slots {
            return Err(CodeError::Index("another number of slots"));
        }
        let meta = &meta[8..];
        let r = get_u32(meta, 0).ok_or(short.clone())? as usize;
        if r > pairs::SYMBOLS - TERMINALS {
            return Err(CodeError::Index("too many rules"));
        }
        let mut rules = Vec::with_capacity(r);
        for i in 0..r {
            let a = get_u16(meta, 4 + 4 * i).ok_or(short.clone())?;
            let b = get_u16(meta, 6 + 4 * i).ok_or(short.clone())?;
            rules.push((a, b));
        }
        let grammar = Grammar { rules };
        let lengths = grammar
            .lengths()
            .ok_or(CodeError::Index("a rule names a later symbol"))?;
        let at = 4 + 4 * r;
        let symbols = TERMINALS + r;
        let lens = meta.get(at..at + symbols).ok_or(short.clone())?;
        let decoder =
            huffman::Decoder::new(lens).ok_or(CodeError::Index("the code lengths overflow"))?;
        let at = at + symbols;
        if get_u32(meta, at).ok_or(short.clone())? as usize != BLOCK {
            return Err(CodeError::Index("another block size"));
        }
        let blocks = get_u32(meta, at + 4).ok_or(short.clone())? as usize;
        let starts = at + 8;
        let shift = get_u32(meta, starts + 4 * blocks).ok_or(short.clone())?;
        if shift > 40 {
            return Err(CodeError::Index("the sparse index's spacing"));
        }
        let sparse = starts + 4 * blocks + 4;
        let entries = (slots >> shift) as usize + 2;
        let crcs = sparse + 4 * entries;
        let groups = blocks.div_ceil(GROUP_BLOCKS);
        if meta.len() != crcs + 4 * groups {
            return Err(CodeError::Index("its length does not fit its counts"));
        }
        if data_len != blocks * BLOCK || (blocks == 0) != (slots == 0) {
            return Err(CodeError::Index("the blocks do not fit the data"));
        }
        // Block starts rise from 0 and stay below the slots; sparse entries name blocks.
        let mut previous = None;
        for b in 0..blocks {
            let s = u64::from(get_u32(meta, starts + 4 * b).ok_or(short.clone())?);
            if s >= slots || previous.is_some_and(|p| s <= p) || (b == 0 && s != 0) {
                return Err(CodeError::Index("block starts out of order"));
            }
            previous = Some(s);
        }
        for e in 0..entries {
            if get_u32(meta, sparse + 4 * e).ok_or(short.clone())? as usize >= blocks.max(1) {
                return Err(CodeError::Index("a sparse entry names no block"));
            }
        }
        Ok(Code {
            grammar,
            lengths,
            decoder,
            slots,
            blocks,
            shift,
            // Offsets into the whole index part, slot count included.
            starts: starts + 8,
            sparse: sparse + 8,
            crcs: crcs + 8,
            checked: (0..groups).map(|_| AtomicBool::new(false)).collect(),
        })
    }

    fn start(&self, meta: &[u8], block: usize) -> u64 {
        u64::from(get_u32(meta, self.starts + 4 * block).unwrap_or(u32::MAX))
    }

    /// The value of `slot` (below the slots), reading `meta` and `data` as given to `open`.
    pub(crate) fn value(&self, meta: &[u8], data: &[u8], slot: u64) -> Result<u8, CodeError> {
        if slot >= self.slots {
            return Err(CodeError::Index("a slot beyond the table"));
        }
        let e = (slot >> self.shift) as usize;
        let entry = |i: usize| get_u32(meta, self.sparse + 4 * i).unwrap_or(0) as usize;
        // The block is the last whose start is at most `slot`, between the two entries.
        let (mut lo, mut hi) = (entry(e), entry(e + 1).min(self.blocks - 1));
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if self.start(meta, mid) <= slot {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let block = lo;
        self.check(meta, data, block)?;
        let mut buf = [0u8; BLOCK + 8];
        buf[..BLOCK].copy_from_slice(&data[block * BLOCK..(block + 1) * BLOCK]);
        let mut offset = slot - self.start(meta, block);
        let mut bit = 0usize;
        while bit < BLOCK * 8 {
            let (symbol, len) = self
                .decoder
                .decode(window(&buf, bit))
                .ok_or(CodeError::Block(block))?;
            let run = self.lengths[usize::from(symbol)];
            if offset < run {
                return Ok(self.grammar.value_at(&self.lengths, symbol, offset));
            }
            offset -= run;
            bit += usize::from(len);
        }
        Err(CodeError::Block(block))
    }

    /// Checks the checksum of the group holding `block` the first time it is read.
    fn check(&self, meta: &[u8], data: &[u8], block: usize) -> Result<(), CodeError> {
        let group = block / GROUP_BLOCKS;
        if self.checked[group].load(Ordering::Relaxed) {
            return Ok(());
        }
        let from = group * GROUP_BLOCKS * BLOCK;
        let to = ((group + 1) * GROUP_BLOCKS * BLOCK).min(data.len());
        let want = get_u32(meta, self.crcs + 4 * group).ok_or(CodeError::Checksum(group))?;
        if crc32fast::hash(&data[from..to]) != want {
            return Err(CodeError::Checksum(group));
        }
        self.checked[group].store(true, Ordering::Relaxed);
        Ok(())
    }

    /// Every value, in slot order (for checks and statistics).
    pub(crate) fn values(&self, meta: &[u8], data: &[u8]) -> Result<Vec<u8>, CodeError> {
        let mut out = Vec::with_capacity(self.slots as usize);
        for block in 0..self.blocks {
            self.check(meta, data, block)?;
            let end = if block + 1 < self.blocks {
                self.start(meta, block + 1)
            } else {
                self.slots
            };
            let mut buf = [0u8; BLOCK + 8];
            buf[..BLOCK].copy_from_slice(&data[block * BLOCK..(block + 1) * BLOCK]);
            let mut bit = 0usize;
            while (out.len() as u64) < end {
                if bit >= BLOCK * 8 {
                    return Err(CodeError::Block(block));
                }
                let (symbol, len) = self
                    .decoder
                    .decode(window(&buf, bit))
                    .ok_or(CodeError::Block(block))?;
                self.grammar.expand(symbol, &mut out);
                bit += usize::from(len);
            }
            if out.len() as u64 != end {
                return Err(CodeError::Block(block));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(n: usize) -> Vec<u8> {
        let mut state = 99u32;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let v = (state >> 16) as u8 % 9;
            out.extend(std::iter::repeat_n(v, (state % 13) as usize + 1));
        }
        out.truncate(n);
        out
    }

    #[test]
    fn every_slot_reads_back() {
        for n in [1usize, 2, 1000, 1024, 1025, 300_000] {
            let values = sample(n);
            let e = encode(&values);
            let code = Code::open(&e.meta, n as u64, e.data.len()).expect("opens");
            for (slot, &v) in values.iter().enumerate() {
                assert_eq!(
                    code.value(&e.meta, &e.data, slot as u64),
                    Ok(v),
                    "slot {slot} of {n}"
                );
            }
            assert_eq!(code.values(&e.meta, &e.data), Ok(values));
        }
    }

    #[test]
    fn a_damaged_block_is_reported() {
        let values = sample(100_000);
        let mut e = encode(&values);
        let code = Code::open(&e.meta, 100_000, e.data.len()).expect("opens");
        e.data[70] ^= 0x10;
        assert_eq!(
            code.value(&e.meta, &e.data, 50),
            Err(CodeError::Checksum(0))
        );
    }

    #[test]
    fn a_damaged_index_is_refused() {
        let values = sample(10_000);
        let e = encode(&values);
        assert!(Code::open(&e.meta, 10_001, e.data.len()).is_err());
        assert!(Code::open(&e.meta[..e.meta.len() - 1], 10_000, e.data.len()).is_err());
        assert!(Code::open(&e.meta, 10_000, e.data.len() + BLOCK).is_err());
    }
}
