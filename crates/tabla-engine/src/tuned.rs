//! The evaluation's weights, fitted to Stockfish's scores of quiet positions by
//! `examples/tune.rs` (see [`crate::params`] for the layout). Generated: edit by tuning.

use crate::params::COUNT;
use crate::tapered::{S, s};

/// The weights, laid out as `params.rs` says.
pub const WEIGHTS: [S; COUNT] = [
    s(87, 117),    // material pawn
    s(345, 409),   // material knight
    s(364, 426),   // material bishop
    s(448, 725),   // material rook
    s(1153, 1218), // material queen
    s(-4, -7),     // psqt pawn a1/mirror
    s(-4, -7),     // psqt pawn b1/mirror
    s(-4, -7),     // psqt pawn c1/mirror
    s(-4, -7),     // psqt pawn d1/mirror
    s(-21, 16),    // psqt pawn a2/mirror
    s(-4, 22),     // psqt pawn b2/mirror
    s(-9, 30),     // psqt pawn c2/mirror
    s(-13, 19),    // psqt pawn d2/mirror
    s(-28, 15),    // psqt pawn a3/mirror
    s(-18, 12),    // psqt pawn b3/mirror
    s(-20, 16),    // psqt pawn c3/mirror
    s(-22, 22),    // psqt pawn d3/mirror
    s(-9, 10),     // psqt pawn a4/mirror
    s(-7, 7),      // psqt pawn b4/mirror
    s(6, 0),       // psqt pawn c4/mirror
    s(10, -17),    // psqt pawn d4/mirror
    s(7, 23),      // psqt pawn a5/mirror
    s(23, 11),     // psqt pawn b5/mirror
    s(20, 8),      // psqt pawn c5/mirror
    s(28, -15),    // psqt pawn d5/mirror
    s(17, 42),     // psqt pawn a6/mirror
    s(58, 30),     // psqt pawn b6/mirror
    s(80, 0),      // psqt pawn c6/mirror
    s(50, 12),     // psqt pawn d6/mirror
    s(99, 24),     // psqt pawn a7/mirror
    s(-24, 37),    // psqt pawn b7/mirror
    s(26, 76),     // psqt pawn c7/mirror
    s(31, 20),     // psqt pawn d7/mirror
    s(24, 42),     // psqt pawn a8/mirror
    s(24, 42),     // psqt pawn b8/mirror
    s(24, 42),     // psqt pawn c8/mirror
    s(24, 42),     // psqt pawn d8/mirror
    s(-76, -25),   // psqt knight a1/mirror
    s(-21, -9),    // psqt knight b1/mirror
    s(-25, -15),   // psqt knight c1/mirror
    s(-3, 13),     // psqt knight d1/mirror
    s(-9, 24),     // psqt knight a2/mirror
    s(-13, 60),    // psqt knight b2/mirror
    s(-12, 13),    // psqt knight c2/mirror
    s(11, -15),    // psqt knight d2/mirror
    s(-26, -18),   // psqt knight a3/mirror
    s(4, -24),     // psqt knight b3/mirror
    s(7, -10),     // psqt knight c3/mirror
    s(26, 19),     // psqt knight d3/mirror
    s(-11, 19),    // psqt knight a4/mirror
    s(56, -21),    // psqt knight b4/mirror
    s(26, 14),     // psqt knight c4/mirror
    s(22, 29),     // psqt knight d4/mirror
    s(-14, 35),    // psqt knight a5/mirror
    s(3, 27),      // psqt knight b5/mirror
    s(25, 25),     // psqt knight c5/mirror
    s(23, 27),     // psqt knight d5/mirror
    s(15, 0),      // psqt knight a6/mirror
    s(-6, -20),    // psqt knight b6/mirror
    s(46, 7),      // psqt knight c6/mirror
    s(46, -19),    // psqt knight d6/mirror
    s(17, 3),      // psqt knight a7/mirror
    s(-20, -8),    // psqt knight b7/mirror
    s(26, -8),     // psqt knight c7/mirror
    s(29, 12),     // psqt knight d7/mirror
    s(-57, -24),   // psqt knight a8/mirror
    s(-10, 10),    // psqt knight b8/mirror
    s(6, 12),      // psqt knight c8/mirror
    s(16, -27),    // psqt knight d8/mirror
    s(-22, 20),    // psqt bishop a1/mirror
    s(25, -8),     // psqt bishop b1/mirror
    s(-15, 21),    // psqt bishop c1/mirror
    s(-21, 3),     // psqt bishop d1/mirror
    s(10, -15),    // psqt bishop a2/mirror
    s(11, -21),    // psqt bishop b2/mirror
    s(18, -12),    // psqt bishop c2/mirror
    s(-6, 10),     // psqt bishop d2/mirror
    s(9, -21),     // psqt bishop a3/mirror
    s(10, 2),      // psqt bishop b3/mirror
    s(-7, 23),     // psqt bishop c3/mirror
    s(5, 16),      // psqt bishop d3/mirror
    s(17, -3),     // psqt bishop a4/mirror
    s(-13, 2),     // psqt bishop b4/mirror
    s(-8, 19),     // psqt bishop c4/mirror
    s(16, 19),     // psqt bishop d4/mirror
    s(-22, 1),     // psqt bishop a5/mirror
    s(-15, 19),    // psqt bishop b5/mirror
    s(17, 12),     // psqt bishop c5/mirror
    s(15, 23),     // psqt bishop d5/mirror
    s(2, 20),      // psqt bishop a6/mirror
    s(50, -13),    // psqt bishop b6/mirror
    s(46, -2),     // psqt bishop c6/mirror
    s(24, -1),     // psqt bishop d6/mirror
    s(-27, 23),    // psqt bishop a7/mirror
    s(4, 2),       // psqt bishop b7/mirror
    s(16, -8),     // psqt bishop c7/mirror
    s(32, -7),     // psqt bishop d7/mirror
    s(10, -19),    // psqt bishop a8/mirror
    s(-17, -18),   // psqt bishop b8/mirror
    s(13, 9),      // psqt bishop c8/mirror
    s(-43, -2),    // psqt bishop d8/mirror
    s(-14, -5),    // psqt rook a1/mirror
    s(-12, -11),   // psqt rook b1/mirror
    s(0, -13),     // psqt rook c1/mirror
    s(11, -27),    // psqt rook d1/mirror
    s(-43, 21),    // psqt rook a2/mirror
    s(-31, 3),     // psqt rook b2/mirror
    s(-12, -11),   // psqt rook c2/mirror
    s(3, -12),     // psqt rook d2/mirror
    s(-5, -30),    // psqt rook a3/mirror
    s(12, -21),    // psqt rook b3/mirror
    s(-9, -1),     // psqt rook c3/mirror
    s(1, -7),      // psqt rook d3/mirror
    s(-9, 11),     // psqt rook a4/mirror
    s(-27, 17),    // psqt rook b4/mirror
    s(-15, 20),    // psqt rook c4/mirror
    s(24, -1),     // psqt rook d4/mirror
    s(-7, 31),     // psqt rook a5/mirror
    s(37, 9),      // psqt rook b5/mirror
    s(34, 7),      // psqt rook c5/mirror
    s(43, 6),      // psqt rook d5/mirror
    s(1, 46),      // psqt rook a6/mirror
    s(20, 36),     // psqt rook b6/mirror
    s(39, 8),      // psqt rook c6/mirror
    s(-4, 26),     // psqt rook d6/mirror
    s(15, 15),     // psqt rook a7/mirror
    s(8, 25),      // psqt rook b7/mirror
    s(41, 0),      // psqt rook c7/mirror
    s(2, 12),      // psqt rook d7/mirror
    s(-13, 15),    // psqt rook a8/mirror
    s(-10, 25),    // psqt rook b8/mirror
    s(43, 5),      // psqt rook c8/mirror
    s(-8, 23),     // psqt rook d8/mirror
    s(-12, -24),   // psqt queen a1/mirror
    s(-12, -56),   // psqt queen b1/mirror
    s(-14, 2),     // psqt queen c1/mirror
    s(10, -55),    // psqt queen d1/mirror
    s(-18, 10),    // psqt queen a2/mirror
    s(12, -14),    // psqt queen b2/mirror
    s(22, -57),    // psqt queen c2/mirror
    s(14, -18),    // psqt queen d2/mirror
    s(-4, 14),     // psqt queen a3/mirror
    s(4, 16),      // psqt queen b3/mirror
    s(4, 6),       // psqt queen c3/mirror
    s(-4, 28),     // psqt queen d3/mirror
    s(7, -7),      // psqt queen a4/mirror
    s(8, 39),      // psqt queen b4/mirror
    s(1, 23),      // psqt queen c4/mirror
    s(0, 27),      // psqt queen d4/mirror
    s(1, 9),       // psqt queen a5/mirror
    s(4, 65),      // psqt queen b5/mirror
    s(2, 31),      // psqt queen c5/mirror
    s(0, 38),      // psqt queen d5/mirror
    s(-4, 31),     // psqt queen a6/mirror
    s(29, 22),     // psqt queen b6/mirror
    s(16, 14),     // psqt queen c6/mirror
    s(21, 53),     // psqt queen d6/mirror
    s(17, -37),    // psqt queen a7/mirror
    s(-22, 0),     // psqt queen b7/mirror
    s(29, 13),     // psqt queen c7/mirror
    s(17, 11),     // psqt queen d7/mirror
    s(-11, 3),     // psqt queen a8/mirror
    s(9, 2),       // psqt queen b8/mirror
    s(12, 1),      // psqt queen c8/mirror
    s(16, 17),     // psqt queen d8/mirror
    s(1, -101),    // psqt king a1/mirror
    s(33, -74),    // psqt king b1/mirror
    s(7, -52),     // psqt king c1/mirror
    s(5, -69),     // psqt king d1/mirror
    s(1, -34),     // psqt king a2/mirror
    s(18, -46),    // psqt king b2/mirror
    s(-38, -27),   // psqt king c2/mirror
    s(-44, -20),   // psqt king d2/mirror
    s(-38, -9),    // psqt king a3/mirror
    s(-16, -5),    // psqt king b3/mirror
    s(-17, -15),   // psqt king c3/mirror
    s(-20, -7),    // psqt king d3/mirror
    s(-39, 22),    // psqt king a4/mirror
    s(-69, -4),    // psqt king b4/mirror
    s(-32, 17),    // psqt king c4/mirror
    s(-67, 26),    // psqt king d4/mirror
    s(-65, 30),    // psqt king a5/mirror
    s(-48, 46),    // psqt king b5/mirror
    s(-66, 58),    // psqt king c5/mirror
    s(-90, 37),    // psqt king d5/mirror
    s(-62, -6),    // psqt king a6/mirror
    s(-38, 66),    // psqt king b6/mirror
    s(-75, 63),    // psqt king c6/mirror
    s(-56, 18),    // psqt king d6/mirror
    s(-100, -69),  // psqt king a7/mirror
    s(-69, 62),    // psqt king b7/mirror
    s(-77, 42),    // psqt king c7/mirror
    s(-96, 53),    // psqt king d7/mirror
    s(-92, -4),    // psqt king a8/mirror
    s(-90, -1),    // psqt king b8/mirror
    s(-89, 23),    // psqt king c8/mirror
    s(-98, -20),   // psqt king d8/mirror
    s(-19, -57),   // mobility knight 0
    s(-23, -25),   // mobility knight 1
    s(-11, 2),     // mobility knight 2
    s(-6, 13),     // mobility knight 3
    s(2, 33),      // mobility knight 4
    s(10, 44),     // mobility knight 5
    s(14, 42),     // mobility knight 6
    s(16, 40),     // mobility knight 7
    s(32, 15),     // mobility knight 8
    s(-17, -1),    // mobility bishop 0
    s(-30, -43),   // mobility bishop 1
    s(-11, -17),   // mobility bishop 2
    s(-5, -3),     // mobility bishop 3
    s(-1, 9),      // mobility bishop 4
    s(4, 11),      // mobility bishop 5
    s(6, 22),      // mobility bishop 6
    s(7, 22),      // mobility bishop 7
    s(12, 29),     // mobility bishop 8
    s(-1, 27),     // mobility bishop 9
    s(14, 22),     // mobility bishop 10
    s(20, 6),      // mobility bishop 11
    s(19, 19),     // mobility bishop 12
    s(41, 34),     // mobility bishop 13
    s(-23, -32),   // mobility rook 0
    s(-16, -22),   // mobility rook 1
    s(-9, -11),    // mobility rook 2
    s(-9, -1),     // mobility rook 3
    s(-9, 4),      // mobility rook 4
    s(-5, 13),     // mobility rook 5
    s(-1, 10),     // mobility rook 6
    s(-6, 27),     // mobility rook 7
    s(9, 29),      // mobility rook 8
    s(-1, 39),     // mobility rook 9
    s(3, 45),      // mobility rook 10
    s(10, 43),     // mobility rook 11
    s(14, 48),     // mobility rook 12
    s(40, 49),     // mobility rook 13
    s(26, 35),     // mobility rook 14
    s(-12, -49),   // mobility queen 0
    s(-6, -23),    // mobility queen 1
    s(-10, -24),   // mobility queen 2
    s(-7, -22),    // mobility queen 3
    s(-3, -49),    // mobility queen 4
    s(-2, -33),    // mobility queen 5
    s(-3, -4),     // mobility queen 6
    s(-3, 9),      // mobility queen 7
    s(3, -8),      // mobility queen 8
    s(6, 0),       // mobility queen 9
    s(4, 14),      // mobility queen 10
    s(5, 13),      // mobility queen 11
    s(5, 39),      // mobility queen 12
    s(4, 27),      // mobility queen 13
    s(1, 48),      // mobility queen 14
    s(-1, 32),     // mobility queen 15
    s(16, 36),     // mobility queen 16
    s(21, 31),     // mobility queen 17
    s(23, 23),     // mobility queen 18
    s(36, 15),     // mobility queen 19
    s(30, 13),     // mobility queen 20
    s(15, 22),     // mobility queen 21
    s(8, 27),      // mobility queen 22
    s(-5, 14),     // mobility queen 23
    s(28, 48),     // mobility queen 24
    s(27, 57),     // mobility queen 25
    s(28, 56),     // mobility queen 26
    s(30, 60),     // mobility queen 27
    s(-18, -32),   // trapped minor
    s(29, 99),     // bishop pair
    s(22, 10),     // rook on open file
    s(12, -4),     // rook on semi-open file
    s(24, 22),     // knight outpost
    s(55, 35),     // pawn threat
    s(51, 15),     // minor threat on major
    s(18, 25),     // hanging
    s(-19, -20),   // doubled pawn
    s(-5, -15),    // isolated pawn
    s(-5, -20),    // backward pawn
    s(7, 8),       // connected rank 1
    s(2, -3),      // connected rank 2
    s(18, 2),      // connected rank 3
    s(14, 8),      // connected rank 4
    s(17, 28),     // connected rank 5
    s(38, 65),     // connected rank 6
    s(30, 95),     // connected rank 7
    s(21, 29),     // connected rank 8
    s(0, 0),       // passed rank 1
    s(-5, 7),      // passed rank 2
    s(-28, 36),    // passed rank 3
    s(-10, 60),    // passed rank 4
    s(13, 91),     // passed rank 5
    s(14, 159),    // passed rank 6
    s(141, 179),   // passed rank 7
    s(0, 0),       // passed rank 8
    s(0, 0),       // passed blocked rank 1
    s(-7, -10),    // passed blocked rank 2
    s(3, 3),       // passed blocked rank 3
    s(-21, -26),   // passed blocked rank 4
    s(-19, -33),   // passed blocked rank 5
    s(-16, -35),   // passed blocked rank 6
    s(-8, -71),    // passed blocked rank 7
    s(0, 0),       // passed blocked rank 8
    s(2, 10),      // passed: their king distance
    s(0, -10),     // passed: our king distance
    s(55, 30),     // tempo
    s(1, 17),      // shield pawn one ahead
    s(-5, 22),     // shield pawn two ahead
    s(-14, 23),    // shield pawn missing
    s(-23, -7),    // king open file
    s(-13, 8),     // king half-open file
    s(-3, 19),     // threat by minor on pawn
    s(28, 37),     // threat by minor on knight
    s(45, 16),     // threat by minor on bishop
    s(0, 20),      // threat by rook on pawn
    s(8, 21),      // threat by rook on knight
    s(21, 17),     // threat by rook on bishop
    s(54, 11),     // threat by rook on queen
    s(0, 0),       // passed free rank 1
    s(9, 3),       // passed free rank 2
    s(10, -9),     // passed free rank 3
    s(-16, 3),     // passed free rank 4
    s(-3, 13),     // passed free rank 5
    s(18, 32),     // passed free rank 6
    s(4, 8),       // passed free rank 7
    s(0, 0),       // passed free rank 8
];

/// King danger weights, in [`crate::params::KING_DANGER_COUNT`]'s order.
pub const KING_DANGER: [i32; crate::params::KING_DANGER_COUNT] = [18, 26, 35, 31, -5, 28];
