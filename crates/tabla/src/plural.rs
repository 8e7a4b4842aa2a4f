//! A count in words for people: `1 game`, `2 games`, `1 ply`, `3 plies`.

use std::fmt::Display;

/// `n` and `word`, with an `s` added unless `n` is one: `plural(1, "game")` is `"1 game"`,
/// `plural(0, "game")` is `"0 games"`. For a word whose plural is not `word` + `s`, see
/// [`plural_with`]. Every message that counts something for people says it this way;
/// machine-read lines with fixed keys (`games 1, errors 0`) do not.
///
/// ```
/// use tabla::plural;
/// assert_eq!(plural(1, "game"), "1 game");
/// assert_eq!(plural(2_u64, "error"), "2 errors");
/// assert_eq!(plural(0_usize, "field"), "0 fields");
/// ```
pub fn plural(n: impl Display, word: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `n` and `singular` when `n` is one, else `n` and `plural`, for the words [`plural`] cannot
/// spell: `plural_with(3, "ply", "plies")` is `"3 plies"`.
///
/// ```
/// use tabla::plural_with;
/// assert_eq!(plural_with(1, "ply", "plies"), "1 ply");
/// assert_eq!(plural_with(21, "ply", "plies"), "21 plies");
/// ```
pub fn plural_with(n: impl Display, singular: &str, plural: &str) -> String {
    let n = n.to_string();
    let word = if n == "1" { singular } else { plural };
    format!("{n} {word}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(plural(1_u8, "game"), "1 game");
        assert_eq!(plural(1_i64, "game"), "1 game");
        for n in [0_u64, 2, 11, 21, 101] {
            assert_eq!(plural(n, "game"), format!("{n} games"));
        }
        assert_eq!(plural(-1, "game"), "-1 games");
        assert_eq!(plural_with(1_usize, "man", "men"), "1 man");
        assert_eq!(plural_with(0_usize, "man", "men"), "0 men");
        assert_eq!(plural_with(2_u32, "ply", "plies"), "2 plies");
    }
}
