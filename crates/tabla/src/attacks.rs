//! Attack tables. They are built once, at first use, by stepping on the 0x88 board with the
//! seed's offsets (rook ±1 ±16, bishop ±15 ±17, knight ±14 ±18 ±31 ±33, king all eight), and then
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

fn find_magics(steps: &[i8], rng: &mut Xorshift, table: &mut Vec<Bitboard>) -> Vec<Magic> {
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
            let candidate = rng.sparse();
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
    let rook_magics = find_magics(&ROOK_STEPS, &mut rng, &mut sliders);
    let bishop_magics = find_magics(&BISHOP_STEPS, &mut rng, &mut sliders);
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

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    TABLES.sliders[m.offset + ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    TABLES.knight[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    TABLES.king[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks (diagonally forward).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    TABLES.pawn[color.index()][sq.index()]
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&TABLES.rook_magics[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&TABLES.bishop_magics[sq.index()], occupied)
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a piece of `color` and `role` on `sq` attacks, given the occupied squares.
#[inline]
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
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    TABLES.between[a.index() * 64 + b.index()]
}

/// The whole line (rank, file or diagonal) through `a` and `b`, or empty when they share none.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    TABLES.line[a.index() * 64 + b.index()]
}

/// `true` when `c` lies on the line through `a` and `b`.
#[inline]
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
