//! The body coder: an adaptive binary range coder and the model of Black-to-move values.
//!
//! The range coder is the carry-propagating kind LZMA popularised: a 32-bit range split in
//! proportion to a 12-bit probability per binary decision, the probability moving a sixteenth of
//! the way toward each outcome seen. A value (0..=62, 63 escaping to 8 more bits) is coded as six
//! binary decisions down a tree; each tree is chosen by the context, the values of the bare-king
//! squares to the left and below in the same configuration (or "unknown" when those slots are not
//! coded). Neighbouring squares hold close values, so the contexts predict well: about 1.5 bits a
//! coded KBNK value.

/// Probability scale: a probability is `p / 4096` that the next bit is 0.
const PROB_BITS: u32 = 12;
const PROB_ONE: u16 = 1 << PROB_BITS;
const ADAPT_SHIFT: u32 = 4;
const TOP: u32 = 1 << 24;

/// The context value of a slot that is not coded.
pub(crate) const UNKNOWN: u8 = 63;
/// Values up to this are coded directly; larger ones escape.
const ESCAPE: u8 = 63;

/// Range encoder writing to a byte vector.
pub(crate) struct Encoder {
    low: u64,
    range: u32,
    cache: u8,
    pending: u64,
    out: Vec<u8>,
}

impl Encoder {
    pub(crate) fn new() -> Encoder {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            pending: 1,
            out: Vec::new(),
        }
    }

    fn shift_low(&mut self) {
        // A byte can be written once no carry can reach it any more.
        if self.low < 0xFF00_0000 || self.low > 0xFFFF_FFFF {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            while self.pending > 0 {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.pending -= 1;
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.pending += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    #[inline]
    pub(crate) fn bit(&mut self, prob: &mut u16, bit: bool) {
        let bound = (self.range >> PROB_BITS) * u32::from(*prob);
        if bit {
            self.low += u64::from(bound);
            self.range -= bound;
            *prob -= *prob >> ADAPT_SHIFT;
        } else {
            self.range = bound;
            *prob += (PROB_ONE - *prob) >> ADAPT_SHIFT;
        }
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    /// Writes `count` bits of `value` with probability one half each.
    pub(crate) fn raw(&mut self, value: u32, count: u32) {
        for i in (0..count).rev() {
            let mut half = PROB_ONE / 2;
            self.bit(&mut half, value >> i & 1 != 0);
        }
    }

    pub(crate) fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        self.out
    }
}

/// Range decoder over a byte slice. Reading past the end yields zero bytes and is remembered,
/// so a truncated body is reported rather than decoded into values.
pub(crate) struct Decoder<'a> {
    code: u32,
    range: u32,
    input: &'a [u8],
    pos: usize,
    overrun: bool,
}

impl<'a> Decoder<'a> {
    pub(crate) fn new(input: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder {
            code: 0,
            range: u32::MAX,
            input,
            pos: 0,
            overrun: false,
        };
        // The encoder's first byte is always 0 (the initial cache): anything else is damage.
        if d.next_byte() != 0 {
            d.overrun = true;
        }
        for _ in 0..4 {
            d.code = d.code << 8 | u32::from(d.next_byte());
        }
        d
    }

    #[inline]
    fn next_byte(&mut self) -> u8 {
        match self.input.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                b
            }
            None => {
                self.overrun = true;
                0
            }
        }
    }

    #[inline]
    pub(crate) fn bit(&mut self, prob: &mut u16) -> bool {
        let bound = (self.range >> PROB_BITS) * u32::from(*prob);
        let bit = if self.code < bound {
            self.range = bound;
            *prob += (PROB_ONE - *prob) >> ADAPT_SHIFT;
            false
        } else {
            self.code -= bound;
            self.range -= bound;
            *prob -= *prob >> ADAPT_SHIFT;
            true
        };
        while self.range < TOP {
            self.range <<= 8;
            self.code = self.code << 8 | u32::from(self.next_byte());
        }
        bit
    }

    pub(crate) fn raw(&mut self, count: u32) -> u32 {
        let mut value = 0;
        for _ in 0..count {
            let mut half = PROB_ONE / 2;
            value = value << 1 | u32::from(self.bit(&mut half));
        }
        value
    }

    /// `true` when the decoder needed bytes past the end of its input, or the input did not
    /// start as an encoder's output does.
    pub(crate) fn overran(&self) -> bool {
        self.overrun
    }

    /// Bytes consumed so far.
    pub(crate) fn consumed(&self) -> usize {
        self.pos
    }
}

/// Adaptive probabilities of the value trees, one tree per (left, below) context.
pub(crate) struct ValueModel {
    probs: Vec<u16>,
}

impl ValueModel {
    pub(crate) fn new() -> ValueModel {
        ValueModel {
            probs: vec![PROB_ONE / 2; 64 * 64 * 64],
        }
    }

    #[inline]
    fn tree(&mut self, left: u8, below: u8) -> &mut [u16] {
        let ctx = (usize::from(left.min(UNKNOWN)) * 64 + usize::from(below.min(UNKNOWN))) * 64;
        &mut self.probs[ctx..ctx + 64]
    }

    pub(crate) fn encode(&mut self, enc: &mut Encoder, left: u8, below: u8, value: u8) {
        let tree = self.tree(left, below);
        let symbol = value.min(ESCAPE);
        let mut node = 1usize;
        for i in (0..6).rev() {
            let bit = symbol >> i & 1 != 0;
            enc.bit(&mut tree[node], bit);
            node = node << 1 | usize::from(bit);
        }
        if symbol == ESCAPE {
            enc.raw(u32::from(value), 8);
        }
    }

    pub(crate) fn decode(&mut self, dec: &mut Decoder<'_>, left: u8, below: u8) -> u8 {
        let tree = self.tree(left, below);
        let mut node = 1usize;
        for _ in 0..6 {
            let bit = dec.bit(&mut tree[node]);
            node = node << 1 | usize::from(bit);
        }
        let symbol = (node & 63) as u8;
        if symbol == ESCAPE {
            dec.raw(8) as u8
        } else {
            symbol
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip() {
        // A skewed, context-dependent stream with escapes.
        let mut state = 12345u32;
        let mut values = Vec::new();
        for i in 0..20_000u32 {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let v = if i % 997 == 0 {
                200
            } else {
                ((state >> 16) % 7 + (i / 1000)) as u8
            };
            values.push(v);
        }
        let mut enc = Encoder::new();
        let mut model = ValueModel::new();
        let mut prev = UNKNOWN;
        for &v in &values {
            model.encode(&mut enc, prev, UNKNOWN, v);
            prev = v;
        }
        let bytes = enc.finish();
        assert!(
            bytes.len() < values.len(),
            "no compression: {}",
            bytes.len()
        );
        let mut dec = Decoder::new(&bytes);
        let mut model = ValueModel::new();
        let mut prev = UNKNOWN;
        for &v in &values {
            let got = model.decode(&mut dec, prev, UNKNOWN);
            assert_eq!(got, v);
            prev = got;
        }
        assert!(!dec.overran());
        assert_eq!(dec.consumed(), bytes.len());
    }

    #[test]
    fn truncation_is_noticed() {
        let mut enc = Encoder::new();
        let mut model = ValueModel::new();
        for v in 0..5000u32 {
            model.encode(&mut enc, UNKNOWN, UNKNOWN, (v * 7 % 41) as u8);
        }
        let bytes = enc.finish();
        let cut = &bytes[..bytes.len() / 2];
        let mut dec = Decoder::new(cut);
        let mut model = ValueModel::new();
        for _ in 0..5000 {
            model.decode(&mut dec, UNKNOWN, UNKNOWN);
        }
        assert!(dec.overran());
    }
}
