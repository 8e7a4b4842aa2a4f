//! The evaluation's weights: the tuned ones ([`crate::tuned::WEIGHTS`], laid out as
//! [`crate::params`] says) and the few still set by hand (king danger grows faster than
//! linearly and the unstoppable pawn is a rule, so a linear fit does not reach them).

use crate::params::Trace;
use crate::tapered::S;
use crate::tuned::WEIGHTS;
use tabla::Color;

/// Weight `index` counted `count` times for `color`, told to `trace`.
#[inline(always)]
pub fn term<T: Trace>(trace: &mut T, color: Color, index: usize, count: i32) -> S {
    trace.add(color, index, count);
    WEIGHTS[index] * count
}

/// A passed pawn the enemy king cannot catch when the enemy has only pawns.
pub const UNSTOPPABLE: i32 = 770;

/// Per cent of the attack weight that counts, by the number of attackers.
pub const KING_ATTACK_SCALE: [i32; 8] = [0, 0, 50, 75, 88, 94, 97, 99];
