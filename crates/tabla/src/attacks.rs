//! Attack tables. They are built once, at first use, by stepping on the 0x88 board with the
//! 0x88 step offsets (rook ±1 ±16, bishop ±15 ±17, knight ±14 ±18 ±31 ±33, king all eight), and then
//! indexed by square; sliding pieces use magic multiplication over those tables.

use crate::{Bitboard, Color, Role, Square};
use std::sync::LazyLock;

/// 0x88 steps of the rook.
pub const ROOK_STEPS: [i8; 4] = [1, -1, 16, -16];
/// 0x88 steps of the bishop.
pub const BISHOP_STEPS: [i8; 4] = [15, -15, 17, -17];
/// 0x88 steps of the knight.
pub const KNIGHT_STEPS: [i8; 8] = [14, -14, 18, -18, 31, -31, 33, -33];
/// 0x88 steps of the king (and the queen's directions).
pub const KING_STEPS: [i8; 8] = [1, -1, 16, -16, 15, -15, 17, -17];

/// Squares reached from `from` by single steps on the 0x88 board.
fn step_targets(from: Square, steps: &[i8]) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for &step in steps {
        let to = from.to_0x88() as i16 + step as i16;
        if let Some(sq) = u8::try_from(to).ok().and_then(Square::from_0x88) {
            bb = bb.with(sq);
        }
    }
    bb
}

/// Squares reached from `from` by sliding along `steps` until the edge (`& 0x88`) or a piece of
/// `occupied`, which is included.
pub fn slide_0x88(from: Square, steps: &[i8], occupied: Bitboard) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for &step in steps {
        let mut i = from.to_0x88() as i16;
        loop {
            i += step as i16;
            let Some(sq) = u8::try_from(i).ok().and_then(Square::from_0x88) else {
                break;
            };
            bb = bb.with(sq);
            if occupied.contains(sq) {
                break;
            }
        }
    }
    bb
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct Tables {
    knight: [Bitboard; 64],
    king: [Bitboard; 64],
    pawn: [[Bitboard; 64]; 2],
    rook_magics: Vec<Magic>,
    bishop_magics: Vec<Magic>,
    sliders: Vec<Bitboard>,
    between: Vec<Bitboard>,
    line: Vec<Bitboard>,
}

/// A small deterministic generator for magic candidates (xorshift64*).
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// The squares a slider's attack set depends on: its rays without the last square of each.
fn relevant_mask(sq: Square, steps: &[i8]) -> u64 {
    let mut mask = 0u64;
    for &step in steps {
        let mut i = sq.to_0x88() as i16 + step as i16;
        loop {
            let next = i + step as i16;
            let here = u8::try_from(i).ok().and_then(Square::from_0x88);
            let beyond = u8::try_from(next).ok().and_then(Square::from_0x88);
            match (here, beyond) {
                (Some(s), Some(_)) => mask |= 1 << s as u8,
                _ => break,
            }
            i = next;
        }
    }
    mask
}

/// Builds the magic lookup for every square: tries the known multiplier first (found once by this
/// very search and kept below so start-up takes milliseconds), and searches afresh only if it does
/// not fit, so a wrong constant can cost time but never give wrong attacks.
fn find_magics(
    steps: &[i8],
    known: &[u64; 64],
    rng: &mut Xorshift,
    table: &mut Vec<Bitboard>,
) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for sq in Square::ALL {
        let mask = relevant_mask(sq, steps);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let size = 1usize << bits;
        // Every subset of the mask (carry-rippler) with its reference attacks.
        let mut occupancies = Vec::with_capacity(size);
        let mut subset = 0u64;
        loop {
            occupancies.push((subset, slide_0x88(sq, steps, Bitboard(subset))));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let offset = table.len();
        table.resize(offset + size, Bitboard::EMPTY);
        let mut used = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            attempt += 1;
            let candidate = if attempt == 1 {
                known[sq.index()]
            } else {
                rng.sparse()
            };
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            let ok = occupancies.iter().all(|&(occ, attacks)| {
                let idx = (occ.wrapping_mul(candidate) >> shift) as usize;
                if used[idx] != attempt {
                    used[idx] = attempt;
                    table[offset + idx] = attacks;
                    true
                } else {
                    table[offset + idx] == attacks
                }
            });
            if ok {
                break candidate;
            }
        };
        magics.push(Magic {
            mask,
            magic,
            shift,
            offset,
        });
    }
    magics
}

/// Magic multipliers for rooks, found by [`find_magics`]'s own search (seeded as below).
const ROOK_MAGICS: [u64; 64] = [
    0x2080002890854000,
    0x0840100840002000,
    0x9080200080081000,
    0x0080100080080004,
    0x0480020800800400,
    0x0200080144020050,
    0x1200040088020001,
    0x010000890000204a,
    0x0000801020804000,
    0x010c400820100040,
    0x0440802000100080,
    0x8100800800801001,
    0x402c800800800400,
    0x080e004430080200,
    0x2014000104100248,
    0x000a000040820104,
    0x0040808000384000,
    0x0229020020820840,
    0x0020008020801000,
    0x01c0808010000800,
    0x0881010008001004,
    0x0000808002000400,
    0x8000040028300142,
    0x0081020008940443,
    0x0780004040002000,
    0xa002200380400080,
    0x1010200080100080,
    0x0180080080100080,
    0x0100080080800400,
    0x0418040080800200,
    0x0082000200010804,
    0x8000204200040081,
    0x084000804280002e,
    0x1040804010802000,
    0x2240200080801000,
    0x0000080082801004,
    0x0310080080800400,
    0x08120005020008d0,
    0x0000800100800200,
    0x804603228200004c,
    0x0000804000208000,
    0x0040002000848040,
    0x8000220040820010,
    0x0201001002090020,
    0x6810080100110004,
    0x0029000204010008,
    0x0408212802440010,
    0x8009408044020001,
    0x0080800040210500,
    0x0840048228410100,
    0x0292104020010300,
    0x0003001000882300,
    0x0010040080080080,
    0x1024008004020080,
    0x0240811228100400,
    0x0203089401144200,
    0x8088142100408001,
    0x8012044210210286,
    0x0900401020000901,
    0x000900100048a035,
    0x0802000904102082,
    0x1802001008010402,
    0x180409080230008c,
    0x002600240049008a,
];
/// Magic multipliers for bishops, found by [`find_magics`]'s own search (seeded as below).
const BISHOP_MAGICS: [u64; 64] = [
    0x1002181001021220,
    0x0802300200810060,
    0x0244184081040000,
    0x0044040085020002,
    0x0001104101001008,
    0x280d100a10000932,
    0x1041080842080480,
    0x0700411401014001,
    0x4000041014880480,
    0x8000080141040100,
    0x0084900102083001,
    0x0483044040880910,
    0x0480011040500811,
    0x4000410460040800,
    0x8542204804504818,
    0x0c14420504018480,
    0x0265409110260800,
    0x0e50002841080484,
    0x0404000828001210,
    0x21208a080200c010,
    0x0204000088a00009,
    0x002100ba00524200,
    0x86c0800328082200,
    0x0051002020885402,
    0x01020a0010200801,
    0xc008043020840084,
    0x0880a80050088164,
    0x0100404004010200,
    0x00c10012c5004000,
    0x0e24080801008200,
    0x203404000880c460,
    0x10022020460a8a00,
    0x02282004000a0800,
    0x0004042000042102,
    0x00410c01001a0800,
    0x8401100820040400,
    0x0180810200040208,
    0x0018100120010290,
    0x0081020611008804,
    0x410202021040208a,
    0x8101012020009001,
    0x0238880802040810,
    0x1001004028801000,
    0x1040002011090802,
    0x00000c0902104400,
    0x0244009081000200,
    0x0a10010244000081,
    0x0410024202409024,
    0x0021080230062008,
    0x0914888410222000,
    0x0000442402080642,
    0x4002040842020c00,
    0x88001108102402f0,
    0x8100222002208208,
    0x0010421024008410,
    0x0a84042404003444,
    0x0800a2020a204220,
    0x0028008604826004,
    0x0098001084008808,
    0xc100100140208800,
    0x8200041450420210,
    0x068a001002108100,
    0x000208208810a500,
    0x0202900408840140,
];

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut knight = [Bitboard::EMPTY; 64];
    let mut king = [Bitboard::EMPTY; 64];
    let mut pawn = [[Bitboard::EMPTY; 64]; 2];
    for sq in Square::ALL {
        knight[sq.index()] = step_targets(sq, &KNIGHT_STEPS);
        king[sq.index()] = step_targets(sq, &KING_STEPS);
        pawn[Color::White.index()][sq.index()] = step_targets(sq, &[15, 17]);
        pawn[Color::Black.index()][sq.index()] = step_targets(sq, &[-15, -17]);
    }
    // Any non-zero seed works; a fixed one makes start-up deterministic.
    let mut rng = Xorshift(0x7ab1_a088_5eed_0001);
    let mut sliders = Vec::with_capacity(110_000);
    let rook_magics = find_magics(&ROOK_STEPS, &ROOK_MAGICS, &mut rng, &mut sliders);
    let bishop_magics = find_magics(&BISHOP_STEPS, &BISHOP_MAGICS, &mut rng, &mut sliders);
    let mut between = vec![Bitboard::EMPTY; 64 * 64];
    let mut line = vec![Bitboard::EMPTY; 64 * 64];
    for a in Square::ALL {
        for &step in &KING_STEPS {
            let steps = [step];
            let ray = slide_0x88(a, &steps, Bitboard::EMPTY);
            let back = slide_0x88(a, &[-step], Bitboard::EMPTY);
            for b in ray {
                let beyond_b = slide_0x88(b, &steps, Bitboard::EMPTY);
                between[a.index() * 64 + b.index()] = Bitboard(ray.0 & !beyond_b.0).without(b);
                line[a.index() * 64 + b.index()] = ray | back | Bitboard::from_square(a);
            }
        }
    }
    Tables {
        knight,
        king,
        pawn,
        rook_magics,
        bishop_magics,
        sliders,
        between,
        line,
    }
});

#[inline(always)]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    TABLES.sliders[m.offset + ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    TABLES.knight[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    TABLES.king[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks (diagonally forward).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    TABLES.pawn[color.index()][sq.index()]
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&TABLES.rook_magics[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&TABLES.bishop_magics[sq.index()], occupied)
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a piece of `color` and `role` on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn attacks(color: Color, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` when they share a line (rank, file or diagonal), else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    TABLES.between[a.index() * 64 + b.index()]
}

/// The whole line (rank, file or diagonal) through `a` and `b`, or empty when they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    TABLES.line[a.index() * 64 + b.index()]
}

/// `true` when `c` lies on the line through `a` and `b`.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_equal_0x88_slides() {
        let mut rng = Xorshift(12345);
        for sq in Square::ALL {
            for _ in 0..200 {
                let occ = Bitboard(rng.next() & rng.next());
                assert_eq!(rook_attacks(sq, occ), slide_0x88(sq, &ROOK_STEPS, occ));
                assert_eq!(bishop_attacks(sq, occ), slide_0x88(sq, &BISHOP_STEPS, occ));
            }
        }
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(Square::A1, Square::D4),
            Bitboard::from_square(Square::B2) | Bitboard::from_square(Square::C3)
        );
        assert!(between(Square::A1, Square::B3).is_empty());
        assert!(line(Square::A1, Square::B3).is_empty());
        assert_eq!(line(Square::E1, Square::E4), Bitboard::file(crate::File::E));
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(king_attacks(Square::E4).count(), 8);
        assert_eq!(
            pawn_attacks(Color::White, Square::E4),
            Bitboard::from_square(Square::D5) | Bitboard::from_square(Square::F5)
        );
    }
}
