//! Where each placement of an endgame's men lives in its table (for any [`Men`]).
//!
//! A slot is a placement of the two kings and of every other man, for one side to move; a table
//! holds [`Layout::size`] slots a side to move, numbered in mixed radix:
//!
//! ```text
//! slot = kings * G1 * G2 ... + group1 * G2 ... + group2 ...          (no pawns)
//! slot = pawns * K * G1 ... + kings * G1 ... + group1 * G2 ...      (pawns)
//! ```
//!
//! With pawns, the pawns' groups are the outermost digits (White's first), then the kings, then
//! the other groups: a pawn moves least often along a game and its rank decides most, so the
//! values of neighbouring slots are most alike in this order (the tables code 15-27% smaller
//! than with the kings outermost).
//!
//! - `kings`: the kings' pair, brought into a canonical form by the board's symmetries: without
//!   pawns any of the eight (White's king in the triangle a1–d1–d4, Black's on or below the
//!   a1–h8 diagonal when White's is on it), 462 pairs; with pawns only the left-right mirror
//!   (White's king on files a–d), 1,806 pairs. Pairs of adjacent kings have no slot.
//! - one *group* a kind of man (colour and role) with `k` men: their squares as a set, numbered
//!   by the combinatorial number system over 64 squares, or over the 48 squares of ranks 2 to 7
//!   for pawns: `C(64, k)` (`C(48, k)`) slots, so identical men are counted once (KRRvK holds
//!   `462 * 2,016` slots a side, not `462 * 4,096`). Groups come in the order queens, rooks,
//!   bishops, knights, pawns, White's first.
//!
//! A placement and its images under the symmetries that apply have one slot, the smallest of
//! their numbers; slots that are no placement's smallest number (two men on a square, or a
//! placement whose smallest number is another slot) hold nothing and are never reached.
//!
//! ```
//! use tabla_endgame::{Layout, Men};
//! assert_eq!(Layout::new("KQRvKR".parse().unwrap()).size(), 462 * 64 * 64 * 64);
//! assert_eq!(Layout::new("KPPvKP".parse().unwrap()).size(), 1_806 * 1_128 * 48);
//! ```

use crate::men::{Men, ROLES};
use crate::symmetry::Symmetry;
use tabla::{Board, CastlingRights, Color, Piece, Position, Role, Setup, Square, Validation};

/// The most squares a placement has (five men).
const MAX_SQUARES: usize = crate::men::MAX_MEN;

/// The slots of one endgame's table, a side to move.
#[derive(Clone, Debug)]
pub struct Layout {
    men: Men,
    pawns: bool,
    /// The canonical kings' pairs, in slot order.
    kings: Vec<(u8, u8)>,
    /// The number of each canonical pair, by `white_king * 64 + black_king` (`u32::MAX`: none).
    king_number: Vec<u32>,
    /// The kinds of men besides the kings, in slot order.
    groups: Vec<Group>,
    /// What a kings' pair is worth in slots: the product of the groups' sizes.
    per_kings: u64,
    /// The digits of a slot, outermost first: 0 the kings' pair, `1 + i` group `i`.
    digits: Vec<usize>,
    /// Each digit's radix, by digit (kings' pairs, then the groups' sizes).
    radix: Vec<u64>,
}

/// A kind of man (colour and role) and how many of it stand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Group {
    color: Color,
    role: Role,
    count: usize,
    /// Slots: `C(domain, count)`.
    size: u64,
}

impl Group {
    fn domain(&self) -> u8 {
        if self.role == Role::Pawn { 48 } else { 64 }
    }
}

/// `C(n, k)` for `n <= 64`, `k <= 4`.
const fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut out = 1;
    let mut i = 0;
    while i < k {
        out = out * (n - i) / (i + 1);
        i += 1;
    }
    out
}

fn adjacent_or_same(a: u8, b: u8) -> bool {
    let (ax, ay, bx, by) = (a & 7, a >> 3, b & 7, b >> 3);
    ax.abs_diff(bx) <= 1 && ay.abs_diff(by) <= 1
}

impl Layout {
    /// The layout of `men`'s table.
    pub fn new(men: Men) -> Layout {
        let pawns = men.has_pawns();
        let mut kings = Vec::new();
        let mut king_number = vec![u32::MAX; 64 * 64];
        for wk in 0..64u8 {
            for bk in 0..64u8 {
                if adjacent_or_same(wk, bk) || !canonical_kings(pawns, wk, bk) {
                    continue;
                }
                king_number[wk as usize * 64 + bk as usize] = kings.len() as u32;
                kings.push((wk, bk));
            }
        }
        let mut groups = Vec::new();
        for color in [Color::White, Color::Black] {
            for &role in ROLES {
                let count = men.count(color, role);
                if count > 0 {
                    let domain = if role == Role::Pawn { 48 } else { 64 };
                    groups.push(Group {
                        color,
                        role,
                        count,
                        size: binomial(domain, count as u64),
                    });
                }
            }
        }
        let per_kings = groups.iter().map(|g| g.size).product();
        let mut digits: Vec<usize> = (0..groups.len())
            .filter(|&i| groups[i].role == Role::Pawn)
            .map(|i| i + 1)
            .collect();
        digits.push(0);
        digits.extend(
            (0..groups.len())
                .filter(|&i| groups[i].role != Role::Pawn)
                .map(|i| i + 1),
        );
        let mut radix = vec![kings.len() as u64];
        radix.extend(groups.iter().map(|g| g.size));
        Layout {
            men,
            pawns,
            kings,
            king_number,
            groups,
            per_kings,
            digits,
            radix,
        }
    }

    /// The endgame.
    pub fn men(&self) -> Men {
        self.men
    }

    /// Slots a side to move.
    pub fn size(&self) -> u64 {
        self.kings.len() as u64 * self.per_kings
    }

    /// The canonical kings' pairs (462 without pawns, 1,806 with).
    pub fn kings_pairs(&self) -> usize {
        self.kings.len()
    }

    /// The colour and role of each square of a placement after the kings, in slot order
    /// (`[(White, Queen), (Black, Rook)]` for KQvKR).
    pub fn men_order(&self) -> Vec<(Color, Role)> {
        self.groups
            .iter()
            .flat_map(|g| std::iter::repeat_n((g.color, g.role), g.count))
            .collect()
    }

    /// The slot of a placement: `squares` holds White's king, Black's king, then the other men
    /// in [`Layout::men_order`] (identical men in any order). `None` when it is no placement: two
    /// men on a square, kings side by side, a pawn on the first or last rank.
    pub fn slot(&self, squares: &[u8]) -> Option<u64> {
        let n = self.men.total();
        if squares.len() != n || squares.iter().any(|&s| s >= 64) {
            return None;
        }
        let occupied = squares.iter().fold(0u64, |bb, &s| bb | 1 << s);
        if occupied.count_ones() as usize != n || adjacent_or_same(squares[0], squares[1]) {
            return None;
        }
        // The symmetries that make the kings canonical: one, or two when both kings stand on
        // the a1–h8 diagonal (then the smaller number of the two).
        let (wk, bk) = (squares[0], squares[1]);
        if self.pawns {
            let sym = if wk & 7 > 3 {
                Symmetry::MIRROR_FILES
            } else {
                Symmetry::IDENTITY
            };
            return self.slot_under(sym, squares);
        }
        let sym = Symmetry::to_triangle(wk);
        let on_diagonal = |sq: u8| sq & 7 == sq >> 3;
        let (w, b) = (sym.apply(wk), sym.apply(bk));
        if !on_diagonal(w) {
            return self.slot_under(sym, squares);
        }
        let transposed = sym.then_transpose();
        if !on_diagonal(b) {
            // Black's king below the diagonal (file greater than rank) as it is, or after the
            // transposition.
            let below = b & 7 > b >> 3;
            return self.slot_under(if below { sym } else { transposed }, squares);
        }
        match (
            self.slot_under(sym, squares),
            self.slot_under(transposed, squares),
        ) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The slot of the placement's image under `sym` if its kings are then canonical.
    fn slot_under(&self, sym: Symmetry, squares: &[u8]) -> Option<u64> {
        let (wk, bk) = (sym.apply(squares[0]), sym.apply(squares[1]));
        let kings = self.king_number[wk as usize * 64 + bk as usize];
        if kings == u32::MAX {
            return None;
        }
        let mut numbers = [0u64; MAX_SQUARES];
        numbers[0] = u64::from(kings);
        let mut at = 2;
        for (gi, g) in self.groups.iter().enumerate() {
            let mut set = [0u8; 4];
            for (i, &sq) in squares[at..at + g.count].iter().enumerate() {
                let image = sym.apply(sq);
                if g.role == Role::Pawn && !(8..56).contains(&image) {
                    return None;
                }
                set[i] = if g.role == Role::Pawn {
                    image - 8
                } else {
                    image
                };
            }
            let set = &mut set[..g.count];
            set.sort_unstable();
            let number: u64 = set
                .iter()
                .enumerate()
                .map(|(i, &s)| binomial(u64::from(s), i as u64 + 1))
                .sum();
            numbers[gi + 1] = number;
            at += g.count;
        }
        Some(self.compose(&numbers))
    }

    /// The slot of each digit's number (kings' pair, then the groups).
    #[inline]
    fn compose(&self, numbers: &[u64]) -> u64 {
        self.digits
            .iter()
            .fold(0, |slot, &d| slot * self.radix[d] + numbers[d])
    }

    /// The placement a slot stands for, written into `out` as [`Layout::slot`] reads it
    /// (identical men in increasing square order); `false` when two men share a square. The
    /// placement is the slot's own only where [`Layout::slot`] gives the slot back.
    pub fn placement(&self, slot: u64, out: &mut [u8]) -> bool {
        debug_assert!(slot < self.size());
        let mut numbers = [0u64; MAX_SQUARES];
        let mut rest = slot;
        for &d in self.digits.iter().rev() {
            numbers[d] = rest % self.radix[d];
            rest /= self.radix[d];
        }
        let mut at = self.men.total();
        for (gi, g) in self.groups.iter().enumerate().rev() {
            let mut number = numbers[gi + 1];
            at -= g.count;
            // The largest square whose binomial fits, from the last man down.
            let mut top = g.domain();
            for i in (0..g.count).rev() {
                let k = i as u64 + 1;
                let mut s = top - 1;
                while binomial(u64::from(s), k) > number {
                    s -= 1;
                }
                number -= binomial(u64::from(s), k);
                out[at + i] = if g.role == Role::Pawn { s + 8 } else { s };
                top = s;
            }
        }
        let (wk, bk) = self.kings[numbers[0] as usize];
        out[0] = wk;
        out[1] = bk;
        let n = self.men.total();
        let occupied = out[..n].iter().fold(0u64, |bb, &s| bb | 1 << s);
        occupied.count_ones() as usize == n
    }
}

impl Layout {
    /// The position a slot stands for with `turn` to move (no castling, no en-passant square),
    /// when the slot is its placement's own and the position is legal: the side not to move is
    /// not in check (checks no game could reach are accepted, as the tables hold them).
    ///
    /// ```
    /// use tabla::Color;
    /// use tabla_endgame::{Layout, Men};
    /// let layout = Layout::new("KQvK".parse::<Men>().unwrap());
    /// let slot = layout.slot(&[0, 2, 63]).unwrap();
    /// let pos = layout.position(slot, Color::White).unwrap();
    /// assert_eq!(pos.to_fen(), "7Q/8/8/8/8/8/8/K1k5 w - - 0 1");
    /// // The queen on b1 checks Black's king on c1: no position with White to move.
    /// let checked = layout.slot(&[0, 2, 1]).unwrap();
    /// assert!(layout.position(checked, Color::White).is_none());
    /// assert!(layout.position(checked, Color::Black).is_some());
    /// ```
    pub fn position(&self, slot: u64, turn: Color) -> Option<Position> {
        let n = self.men.total();
        let mut squares = [0u8; MAX_SQUARES];
        if slot >= self.size()
            || !self.placement(slot, &mut squares[..n])
            || self.slot(&squares[..n]) != Some(slot)
        {
            return None;
        }
        let setup = setup_of(&squares[..n], &self.men_order(), turn);
        Position::from_setup(setup, Validation::Lenient).ok()
    }

    /// Calls `f(slot, squares)` for every slot whose placement is its own (see
    /// [`Layout::placement`]), in slot order: `squares` as [`Layout::slot`] reads them.
    pub fn for_each_placement(&self, f: &mut dyn FnMut(u64, &[u8])) {
        let mut squares = [0u8; MAX_SQUARES];
        self.visit(0, 0, 0, &mut squares, f);
    }

    /// The digits from the `d`th (outermost first) on, under the slot prefix `prefix`, the
    /// squares of the digits before in `squares` and `occupied`.
    fn visit(
        &self,
        d: usize,
        prefix: u64,
        occupied: u64,
        squares: &mut [u8; MAX_SQUARES],
        f: &mut dyn FnMut(u64, &[u8]),
    ) {
        let n = self.men.total();
        let Some(&digit) = self.digits.get(d) else {
            // Both kings on the diagonal: a placement may have a smaller transposed twin.
            let (wk, bk) = (squares[0], squares[1]);
            let ambiguous = !self.pawns && wk & 7 == wk >> 3 && bk & 7 == bk >> 3;
            if !ambiguous || self.slot(&squares[..n]) == Some(prefix) {
                f(prefix, &squares[..n]);
            }
            return;
        };
        if digit == 0 {
            for (number, &(wk, bk)) in self.kings.iter().enumerate() {
                let kings = 1u64 << wk | 1u64 << bk;
                if occupied & kings != 0 {
                    continue;
                }
                squares[0] = wk;
                squares[1] = bk;
                let slot = prefix * self.radix[0] + number as u64;
                self.visit(d + 1, slot, occupied | kings, squares, f);
            }
            return;
        }
        let g = digit - 1;
        let group = self.groups[g];
        let at = 2 + self.groups[..g].iter().map(|g| g.count).sum::<usize>();
        let offset = if group.role == Role::Pawn { 8 } else { 0 };
        let domain = group.domain();
        // Sets in colex order: their combinatorial numbers 0, 1, 2, ...
        let mut set = [0u8; 4];
        for (i, s) in set[..group.count].iter_mut().enumerate() {
            *s = i as u8;
        }
        let mut number = 0u64;
        loop {
            let mut occ = occupied;
            let mut free = true;
            for (i, &s) in set[..group.count].iter().enumerate() {
                let sq = s + offset;
                squares[at + i] = sq;
                free &= occ & 1u64 << sq == 0;
                occ |= 1u64 << sq;
            }
            if free {
                self.visit(d + 1, prefix * group.size + number, occ, squares, f);
            }
            number += 1;
            // The next set in colex order.
            let mut i = 0;
            while i < group.count {
                let limit = if i + 1 < group.count {
                    set[i + 1]
                } else {
                    domain
                };
                if set[i] + 1 < limit {
                    set[i] += 1;
                    for (j, s) in set[..i].iter_mut().enumerate() {
                        *s = j as u8;
                    }
                    break;
                }
                i += 1;
            }
            if i == group.count {
                break;
            }
        }
        debug_assert_eq!(number, group.size);
    }
}

/// The position of a placement with `turn` to move: `squares` holds White's king, Black's king,
/// then the other men, each of the kind `order` gives (as [`Layout::slot`] and the generator's
/// configs list them); no castling rights, no en-passant square.
pub(crate) fn setup_of(squares: &[u8], order: &[(Color, Role)], turn: Color) -> Setup {
    let mut board = Board::empty();
    let mut put = |sq: u8, color, role| {
        board.set(Square::new_masked(sq), Some(Piece::new(color, role)));
    };
    put(squares[0], Color::White, Role::King);
    put(squares[1], Color::Black, Role::King);
    for (&sq, &(color, role)) in squares[2..].iter().zip(order) {
        put(sq, color, role);
    }
    Setup {
        board,
        turn,
        castling: CastlingRights::NONE,
        ep_square: None,
        halfmoves: 0,
        fullmoves: 1,
    }
}

/// Whether a kings' pair is in the canonical form (see the module's documentation).
fn canonical_kings(pawns: bool, wk: u8, bk: u8) -> bool {
    let (wx, wy, bx, by) = (wk & 7, wk >> 3, bk & 7, bk >> 3);
    if pawns {
        wx <= 3
    } else {
        wx <= 3 && wy <= wx && (wx != wy || by <= bx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn layout(name: &str) -> Layout {
        Layout::new(name.parse().expect(name))
    }

    #[test]
    fn kings_pairs_are_the_published_counts() {
        // 462 pairs of kings without pawns and 1,806 with (the counts Nalimov's and Syzygy's
        // indexes start from).
        assert_eq!(layout("KQvK").kings_pairs(), 462);
        assert_eq!(layout("KPvK").kings_pairs(), 1_806);
    }

    /// Every placement of `name`'s men (up to four), by brute force: its slot, and its class
    /// under the symmetries (the smallest of its images as a number), computed without the
    /// layout.
    fn check_against_brute_force(name: &str) {
        let layout = layout(name);
        let n = layout.men().total();
        let order = layout.men_order();
        let symmetries: Vec<Symmetry> = if layout.men().has_pawns() {
            vec![Symmetry::IDENTITY, Symmetry::MIRROR_FILES]
        } else {
            Symmetry::ALL.to_vec()
        };
        let mut classes: std::collections::HashMap<u32, u64> = Default::default();
        let mut slots = HashSet::new();
        let mut squares = [0u8; 4];
        let mut back = [0u8; 4];
        for code in 0..64u32.pow(n as u32) {
            for (i, s) in squares[..n].iter_mut().enumerate() {
                *s = (code >> (6 * i) & 63) as u8;
            }
            let squares = &squares[..n];
            let occupied = squares.iter().fold(0u64, |bb, &s| bb | 1 << s);
            let pawns_ok = order
                .iter()
                .zip(&squares[2..])
                .all(|(&(_, role), &s)| role != Role::Pawn || (8..56).contains(&s));
            let valid = occupied.count_ones() as usize == n
                && pawns_ok
                && !adjacent_or_same(squares[0], squares[1]);
            let slot = layout.slot(squares);
            assert_eq!(slot.is_some(), valid, "{name} {squares:?}");
            let Some(slot) = slot else { continue };
            // The class: identical men as a sorted set, then the smallest image.
            let class = symmetries
                .iter()
                .map(|s| {
                    let mut image = [0u8; 4];
                    for (i, &q) in squares.iter().enumerate() {
                        image[i] = s.apply(q);
                    }
                    let mut at = 2;
                    for g in &layout.groups {
                        image[at..at + g.count].sort_unstable();
                        at += g.count;
                    }
                    image[..n]
                        .iter()
                        .fold(0u32, |code, &q| code << 6 | u32::from(q))
                })
                .min()
                .expect("a symmetry");
            // One slot a class, and one class a slot.
            match classes.get(&class) {
                Some(&known) => assert_eq!(known, slot, "{name} {squares:?}"),
                None => {
                    assert!(slots.insert(slot), "{name}: slot {slot} of two classes");
                    classes.insert(class, slot);
                    // The slot's placement gives the slot back.
                    assert!(layout.placement(slot, &mut back[..n]));
                    assert_eq!(layout.slot(&back[..n]), Some(slot), "{name} {squares:?}");
                    assert!(slot < layout.size());
                }
            }
        }
        assert!(!classes.is_empty());
    }

    #[test]
    fn visiting_placements_meets_every_own_slot_once_in_order() {
        for name in ["KQvK", "KPvK", "KRRvK", "KPvKP", "KBNvK", "KRPvK", "KRvKP"] {
            let layout = layout(name);
            let n = layout.men().total();
            let mut want = Vec::new();
            let mut back = [0u8; 5];
            for slot in 0..layout.size() {
                if layout.placement(slot, &mut back[..n]) && layout.slot(&back[..n]) == Some(slot) {
                    want.push((slot, back[..n].to_vec()));
                }
            }
            let mut got = Vec::new();
            layout.for_each_placement(&mut |slot, squares| got.push((slot, squares.to_vec())));
            assert_eq!(got, want, "{name}");
        }
    }

    #[test]
    fn one_slot_for_each_placement_up_to_symmetry() {
        for name in ["KQvK", "KPvK", "KRRvK", "KPvKP", "KPPvK"] {
            check_against_brute_force(name);
        }
    }
}
