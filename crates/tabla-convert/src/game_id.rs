//! Game ids: deterministic, whatever the threads or the way the input is cut.

/// Bits of the offset within a frame (or a plain file): a game must start in the first TiB.
pub const OFFSET_BITS: u32 = 40;
/// Frame ordinals must stay below 2^24.
pub const FRAME_BITS: u32 = 24;

/// The 64-bit FNV-1a hash of a name.
fn fnv1a(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A bijection of `u64` that spreads every input bit over the output (SplitMix64's finaliser).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The id of the game whose first byte is at `offset` of the decompressed text of frame `frame`
/// of the input named `name`; `None` when `offset` or `frame` is out of range.
///
/// `name` is the input's file name without directory and without a trailing `.zst` (`-` for the
/// standard input: [`crate::Input::id_name`]). `frame` counts the input's frames from 0,
/// skippable frames included (pzstd writes one before each zstd frame, so its zstd frames are
/// 1, 3, 5...); a plain file is frame 0 and `offset` is the byte offset of the game in it.
///
/// The id is `mix(fnv1a64(name) XOR (frame << 40 | offset))` with `mix` SplitMix64's
/// finaliser, a bijection: two games of one input never share an id; games of two inputs do
/// with probability about n1·n2 / 2^64.
///
/// ```
/// use tabla_convert::game_id;
/// let first = game_id("lichess_db_standard_rated_2013-01.pgn", 1, 0).unwrap();
/// assert_ne!(first, game_id("lichess_db_standard_rated_2013-01.pgn", 3, 0).unwrap());
/// assert_eq!(game_id("x.pgn", 0, 1 << 40), None);
/// ```
pub fn game_id(name: &str, frame: u64, offset: u64) -> Option<u64> {
    id_from_hash(fnv1a(name), frame, offset)
}

/// [`game_id`] with the name already hashed.
pub(crate) fn id_from_hash(name_hash: u64, frame: u64, offset: u64) -> Option<u64> {
    if offset >> OFFSET_BITS != 0 || frame >> FRAME_BITS != 0 {
        return None;
    }
    Some(mix(name_hash ^ (frame << OFFSET_BITS | offset)))
}

/// The hash [`game_id`] starts from.
pub(crate) fn name_hash(name: &str) -> u64 {
    fnv1a(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_its_published_test_vectors() {
        // From the FNV reference test suite.
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn ids_of_one_input_are_distinct() {
        let h = name_hash("a.pgn");
        let mut ids: Vec<u64> = (0..4)
            .flat_map(|frame| (0..2000).map(move |o| (frame, o * 37)))
            .map(|(f, o)| id_from_hash(h, f, o).expect("in range"))
            .collect();
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n);
    }
}
