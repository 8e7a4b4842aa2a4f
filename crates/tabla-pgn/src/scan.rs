//! Finding the first of two or three bytes where haystacks are short: a comment such as
//! `{ [%clk 0:05:00] }` or a tag value is a few dozen bytes, too few for `memchr`'s set-up to pay.
//! The first bytes are looked at eight at a time in a `u64`; the rest, when there is more, goes
//! to `memchr`.

use memchr::{memchr2, memchr3};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// How many bytes are looked at word by word before `memchr` takes over.
const SHORT: usize = 32;

/// The high bit of each byte of `word` equal to `byte`. Only the lowest such bit is exact (a
/// borrow may mark bytes above it), which is all a search for the first needs.
#[inline(always)]
fn equal_bytes(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The index of the first byte of `haystack` that `hit` marks in its word, looking at up to
/// [`SHORT`] bytes; `Err` with how far it looked when none is there.
#[inline(always)]
fn find_short(
    haystack: &[u8],
    hit: impl Fn(u64) -> u64,
    is_needle: impl Fn(u8) -> bool,
) -> Result<usize, usize> {
    let mut offset = 0;
    while offset < SHORT
        && let Some(chunk) = haystack[offset..].first_chunk::<8>()
    {
        let hits = hit(u64::from_le_bytes(*chunk));
        if hits != 0 {
            return Ok(offset + (hits.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    if offset < SHORT {
        // Fewer than eight bytes left.
        return match haystack[offset..].iter().position(|&c| is_needle(c)) {
            Some(i) => Ok(offset + i),
            None => Err(haystack.len()),
        };
    }
    Err(offset)
}

/// The index of the first `a` or `b` in `haystack`.
#[inline(always)]
pub(crate) fn find2(a: u8, b: u8, haystack: &[u8]) -> Option<usize> {
    let hit = |word| equal_bytes(word, a) | equal_bytes(word, b);
    match find_short(haystack, hit, |c| c == a || c == b) {
        Ok(i) => Some(i),
        Err(seen) => memchr2(a, b, &haystack[seen..]).map(|i| seen + i),
    }
}

/// The index of the first `a`, `b` or `c` in `haystack`.
#[inline]
pub(crate) fn find3(a: u8, b: u8, c: u8, haystack: &[u8]) -> Option<usize> {
    let hit = |word| equal_bytes(word, a) | equal_bytes(word, b) | equal_bytes(word, c);
    match find_short(haystack, hit, |x| x == a || x == b || x == c) {
        Ok(i) => Some(i),
        Err(seen) => memchr3(a, b, c, &haystack[seen..]).map(|i| seen + i),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a plain search, on every length and every place of the needles, with bytes that
    /// trip a word-at-a-time search (`0x80`, the needles plus or minus one, zero).
    #[test]
    fn agrees_with_a_plain_search() {
        let fill = [b'x', 0x80, 0x7f, 0, b'|', b'~', 0xff, b'!'];
        for len in 0..80 {
            for first in 0..=len {
                for second in first..=len {
                    let mut hay: Vec<u8> = (0..len).map(|i| fill[i % fill.len()]).collect();
                    if first < len {
                        hay[first] = b'}';
                    }
                    if second < len {
                        hay[second] = b'\n';
                    }
                    let plain2 = hay.iter().position(|&c| c == b'}' || c == b'\n');
                    assert_eq!(find2(b'}', b'\n', &hay), plain2, "{hay:?}");
                    let plain3 = hay.iter().position(|&c| c == b'"' || c == b'}' || c == 0);
                    assert_eq!(find3(b'"', b'}', 0, &hay), plain3, "{hay:?}");
                }
            }
        }
    }
}
