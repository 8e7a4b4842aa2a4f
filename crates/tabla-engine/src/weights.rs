//! The evaluation's weights, in one place so that tuning touches one file.
//!
//! All values are this engine's own, set by hand from general chess knowledge and adjusted by
//! self-play; they are (middlegame, endgame) pairs in centipawns.

use crate::tapered::{S, s};

/// Piece values, indexed by `Role::index()` (pawn .. king).
pub const MATERIAL: [S; 6] = [
    s(85, 115),
    s(330, 305),
    s(350, 330),
    s(470, 540),
    s(1000, 1010),
    s(0, 0),
];

/// The side to move's bonus for having the move.
pub const TEMPO: S = s(16, 6);

/// Mobility per reachable square above (or below) the piece's typical count, and that count:
/// knight, bishop, rook, queen.
pub const MOBILITY: [(S, i32); 4] = [(s(6, 5), 4), (s(6, 6), 6), (s(3, 6), 6), (s(2, 4), 12)];
/// A minor piece with no safe square at all.
pub const TRAPPED_MINOR: S = s(-40, -30);

/// Two bishops.
pub const BISHOP_PAIR: S = s(30, 55);
/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: S = s(30, 10);
/// A rook on a file without own pawns.
pub const ROOK_SEMI_OPEN_FILE: S = s(14, 8);
/// A knight on the fifth to seventh rank, guarded by a pawn, that no enemy pawn can chase away.
pub const KNIGHT_OUTPOST: S = s(24, 12);

/// A pawn of ours attacks an enemy piece (not a pawn).
pub const PAWN_THREAT: S = s(50, 35);
/// A minor piece of ours attacks an enemy rook or queen.
pub const MINOR_THREAT_ON_MAJOR: S = s(30, 25);
/// An enemy piece that we attack and it does not defend.
pub const HANGING: S = s(20, 12);

/// Pawn structure.
pub const DOUBLED: S = s(-12, -22);
/// A pawn with no own pawn on a neighbouring file.
pub const ISOLATED: S = s(-12, -14);
/// A pawn that no own pawn can support any more and whose advance an enemy pawn stops.
pub const BACKWARD: S = s(-8, -10);
/// A pawn guarded by a pawn or standing beside one.
pub const CONNECTED: S = s(7, 8);

/// Passed pawns by relative rank (index 1 = second rank .. 6 = seventh).
pub const PASSED: [S; 8] = [
    s(0, 0),
    s(4, 12),
    s(8, 18),
    s(14, 34),
    s(30, 60),
    s(55, 100),
    s(90, 160),
    s(0, 0),
];
/// Per rank above the third: the enemy king's distance to the stopping square, and ours.
pub const PASSED_KING_DISTANCE: (i32, i32) = (7, 3);
/// Per cent of a passed pawn's bonus lost while a piece stands on its stopping square.
pub const PASSED_BLOCKED_PERCENT: i32 = 47;
/// A passed pawn the enemy king cannot catch when the enemy has only pawns.
pub const UNSTOPPABLE: i32 = 770;

/// King safety: attack weight of one attacker of the king zone, by role (knight .. queen).
pub const KING_ATTACKER_WEIGHT: [i32; 4] = [22, 22, 40, 75];
/// Per cent of the attack weight that counts, by the number of attackers.
pub const KING_ATTACK_SCALE: [i32; 8] = [0, 0, 50, 75, 88, 94, 97, 99];
/// A square next to the king that we cannot defend and the enemy attacks.
pub const KING_ZONE_SQUARE: i32 = 6;
/// A square from which an enemy piece could check the king without being taken.
pub const SAFE_CHECK: i32 = 25;
/// Pawn shield in front of the king, by file: pawn one rank ahead, two ranks ahead, missing.
pub const SHIELD: [i32; 3] = [0, -10, -26];
/// A file next to the king with no pawn at all.
pub const KING_OPEN_FILE: i32 = -14;
