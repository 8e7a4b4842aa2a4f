//! Value codes and their order.
//!
//! A table keeps a *code* a position: `0` for a draw, else `plies + 1`, a win for the side to move
//! when `plies` is odd and a loss when it is even (`1`: checkmated). Comparing needs an *order*
//! byte instead, larger being better for the side it is counted for: a loss in `p` plies is
//! `p / 2` (0 to 127), a draw 128, a win in `p` plies `255 - (p - 1) / 2` (255 down to 129). The
//! longest mate of up to five men (127 moves, 253 plies) fits both.

/// The order of a code for the side to move.
pub(crate) const ORD: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = if c == 0 {
            128
        } else if (c - 1) % 2 == 1 {
            (255 - (c - 2) / 2) as u8
        } else {
            ((c - 1) / 2) as u8
        };
        c += 1;
    }
    t
};

/// The order, for the side that moved, of reaching a position with this code (the other side to
/// move): a loss there is a win one ply longer here, a win there a loss one ply longer.
pub(crate) const BACK: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = if c == 0 {
            128
        } else if (c - 1) % 2 == 0 {
            // Lost there in c - 1 plies: won here in c plies.
            if c == 255 {
                // Unreachable (a loss in 254 plies has no longer win before it).
                129
            } else {
                (255 - (c - 1) / 2) as u8
            }
        } else {
            // Won there in c - 1 plies: lost here in c plies.
            (c / 2) as u8
        };
        c += 1;
    }
    t
};

/// No exit: an order no move can have (a move never leaves its side checkmated at once).
pub(crate) const NO_EXIT: u8 = 0;

/// The draw's order.
pub(crate) const DRAW: u8 = 128;

/// The plies of an order that is a win or a loss.
#[inline]
pub(crate) const fn plies(ord: u8) -> usize {
    if ord > DRAW {
        2 * (255 - ord as usize) + 1
    } else {
        2 * ord as usize
    }
}

/// The code of a win or loss in `plies`.
#[inline]
pub(crate) const fn code(plies: usize) -> u8 {
    (plies + 1) as u8
}

/// The code of an order (for the side it is counted for, to move).
#[inline]
pub(crate) const fn code_of_ord(ord: u8) -> u8 {
    if ord == DRAW { 0 } else { code(plies(ord)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_rank_wins_over_draws_over_losses_and_step_back_one_ply() {
        assert_eq!(ORD[0], DRAW);
        assert_eq!(ORD[1], 0, "checkmated: the worst");
        assert_eq!(ORD[2], 255, "mate in one ply: the best");
        assert_eq!(plies(ORD[code(253) as usize]), 253);
        assert_eq!(plies(ORD[code(254) as usize]), 254);
        for p in 0..=252usize {
            let ord = BACK[code(p) as usize];
            assert_eq!(plies(ord), p + 1, "{p}");
            assert_eq!(ord > DRAW, p % 2 == 0, "{p}");
            assert_eq!(ORD[code(p + 1) as usize], ord, "{p}");
        }
        // Better positions for the side to move are worse for the side that reached them.
        for a in 1..255usize {
            for b in 1..255usize {
                if ORD[a] > ORD[b] {
                    assert!(BACK[a] < BACK[b], "{a} {b}");
                }
            }
        }
    }
}
