//! The position: the 0x88 board and the state around it, make and unmake, attack queries.

use crate::attacks;
use crate::zobrist;
use crate::{
    Bitboard, Board, CastlingRights, CastlingSide, Color, Move, MoveKind, Piece, Role, Square,
};

/// A move [`Position::play`] refused: it is not legal in the position (which is left as it was).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is not a legal move in {fen}")]
pub struct IllegalMoveError {
    /// The move, written as in UCI (`0000` for the null move).
    pub mv: Move,
    /// The position's FEN.
    pub fen: String,
}

/// What [`Position::unmake`] needs to restore: the move and the state it destroyed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    mv: Move,
    castling: CastlingRights,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
}

/// A legal chess position with its history of moves played on it.
///
/// The 0x88 [`Board`] is the source of truth for the placement; bitboards by colour and role, the
/// king squares and the Zobrist key are kept beside it and updated incrementally by
/// [`Position::play`] and [`Position::undo`]. A `Position` can only be built through validation
/// ([`Position::from_fen`], [`Position::from_setup`]), so move generation never sees an illegal
/// setup.
///
/// ```
/// use tabla::Position;
/// let mut pos = Position::startpos();
/// let e4 = pos.parse_san("e4").unwrap();
/// pos.play(e4).unwrap();
/// assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
/// pos.undo();
/// assert_eq!(pos, Position::startpos());
/// ```
#[derive(Debug)]
pub struct Position {
    board: Board,
    by_color: [Bitboard; 2],
    /// Indexed by `Role as usize` (1 to 6); entries 0 and 7 stay empty.
    by_role: [Bitboard; 8],
    kings: [Square; 2],
    turn: Color,
    castling: CastlingRights,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
    history: Vec<Undo>,
}

/// A clone copies the history too. `clone_from` keeps the target's history buffer, so a reader
/// that resets one position for game after game does not allocate it again each time.
impl Clone for Position {
    fn clone(&self) -> Position {
        let mut pos = self.clone_without_history();
        pos.history.clone_from(&self.history);
        pos
    }

    fn clone_from(&mut self, source: &Position) {
        let mut history = std::mem::take(&mut self.history);
        history.clone_from(&source.history);
        *self = source.clone_without_history();
        self.history = history;
    }
}

/// Positions are equal when placement, side to move, castling rights, the recorded en-passant
/// square and both clocks are equal; the history does not count.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep_square == other.ep_square
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
    }
}

impl Eq for Position {}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        let board = Board::standard();
        Position::from_parts(board, Color::White, CastlingRights::STANDARD, None, 0, 1)
    }

    /// Builds a position from parts that validation has already accepted.
    pub(crate) fn from_parts(
        board: Board,
        turn: Color,
        castling: CastlingRights,
        ep_square: Option<Square>,
        halfmoves: u32,
        fullmoves: u32,
    ) -> Position {
        let mut pos = Position {
            board: Board::empty(),
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 8],
            kings: [Square::E1, Square::E8],
            turn,
            castling,
            ep_square,
            halfmoves,
            fullmoves,
            key: 0,
            history: Vec::new(),
        };
        for (sq, piece) in board.pieces() {
            pos.put(sq, piece);
        }
        pos.key = pos.compute_key();
        pos
    }

    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.board.set(sq, Some(piece));
        let bb = Bitboard::from_square(sq);
        self.by_color[piece.color.index()] |= bb;
        self.by_role[piece.role as usize] |= bb;
        if piece.role == Role::King {
            self.kings[piece.color.index()] = sq;
        }
    }

    #[inline]
    fn remove(&mut self, sq: Square, piece: Piece) {
        self.board.set(sq, None);
        let bb = Bitboard::from_square(sq);
        self.by_color[piece.color.index()] ^= bb;
        self.by_role[piece.role as usize] ^= bb;
    }

    // ---- Accessors -------------------------------------------------------------------------

    /// The 0x88 board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights.
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant square as recorded: set after every double pawn push, whether or not a
    /// capture is possible (see [`Position::legal_ep_square`]).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The en-passant square only when an en-passant capture is legal.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        // Only a pawn that attacks the square can take there: without one, no move to test.
        let takers = attacks::pawn_attacks(!self.turn, ep) & self.pieces(self.turn, Role::Pawn);
        if takers.is_empty() {
            return None;
        }
        self.legal_moves()
            .iter()
            .any(|m| m.is_en_passant())
            .then_some(ep)
    }

    /// Half-moves since the last capture or pawn move.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The full-move number, starting at 1 and incremented after Black's move.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The plies played since the standard start, as the move number and the side to move
    /// tell them: 0 at the start, 1 after `1. e4`, 79 in a game from a FEN with Black to play
    /// his 40th move. A game's moves are numbered from here (reviews, Python's `ply`).
    ///
    /// ```
    /// use tabla::Position;
    /// assert_eq!(Position::startpos().ply(), 0);
    /// let pos = Position::from_fen("8/8/4k3/8/8/4K3/8/8 b - - 3 40").unwrap();
    /// assert_eq!(pos.ply(), 79);
    /// ```
    pub fn ply(&self) -> u32 {
        self.fullmoves
            .saturating_sub(1)
            .saturating_mul(2)
            .saturating_add(u32::from(self.turn == Color::Black))
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// Squares occupied by `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares occupied by pieces of `role`, either colour.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }

    /// Squares occupied by `color`'s pieces of `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role as usize]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The Polyglot-compatible Zobrist key, kept incrementally.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.key
    }

    /// The moves played on this position since it was set up, oldest first.
    pub fn moves_played(&self) -> impl DoubleEndedIterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    // ---- Attacks ---------------------------------------------------------------------------

    /// Pieces of either colour attacking `sq`, with `occupied` as the blockers.
    #[inline]
    pub fn attackers_with(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rq = self.by_role(Role::Rook) | self.by_role(Role::Queen);
        let bq = self.by_role(Role::Bishop) | self.by_role(Role::Queen);
        (attacks::rook_attacks(sq, occupied) & rq)
            | (attacks::bishop_attacks(sq, occupied) & bq)
            | (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (attacks::pawn_attacks(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
    }

    /// Pieces of `by` attacking `sq`.
    #[inline]
    pub fn attackers(&self, sq: Square, by: Color) -> Bitboard {
        self.attackers_with(sq, self.occupied()) & self.by_color(by)
    }

    /// `true` when a piece of `by` attacks `sq` (whatever stands there).
    ///
    /// ```
    /// use tabla::{Color, Position, Square};
    /// let pos = Position::startpos();
    /// assert!(pos.is_attacked(Square::F3, Color::White));
    /// assert!(!pos.is_attacked(Square::E4, Color::White));
    /// ```
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers(sq, by).any()
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers(self.king(self.turn), !self.turn)
    }

    /// `true` when the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    // ---- Zobrist ---------------------------------------------------------------------------

    /// The en-passant part of the Polyglot key: only when a pawn of the side to move stands beside
    /// the pawn that just advanced two squares (plain shifts: this runs on every move after a
    /// double push).
    #[inline]
    fn ep_key(&self) -> u64 {
        let Some(ep) = self.ep_square else {
            return 0;
        };
        let ep_bb = Bitboard::from_square(ep).0;
        let pushed = match self.turn {
            Color::White => ep_bb >> 8,
            Color::Black => ep_bb << 8,
        };
        let beside = (pushed << 1 & !Bitboard::file(crate::File::A).0)
            | (pushed >> 1 & !Bitboard::file(crate::File::H).0);
        if beside & self.pieces(self.turn, Role::Pawn).0 != 0 {
            zobrist::en_passant_key(ep.file())
        } else {
            0
        }
    }

    /// Computes the Zobrist key from scratch (the incremental one must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for (sq, piece) in self.board.pieces() {
            key ^= zobrist::piece_key(piece, sq);
        }
        key ^= zobrist::castling_flags_key(self.castling.flags(self.kings));
        key ^= self.ep_key();
        if self.turn == Color::White {
            key ^= zobrist::white_to_move_key();
        }
        key
    }

    // ---- Make / unmake ---------------------------------------------------------------------

    /// Plays `mv` if it is legal here, recording it in the history; otherwise leaves the
    /// position as it was and says so. For moves known to be legal (from
    /// [`Position::legal_moves`] or a parser), [`Position::play_unchecked`] skips the check.
    ///
    /// ```
    /// use tabla::{Move, Position};
    /// let mut pos = Position::startpos();
    /// let e4 = pos.parse_uci("e2e4").unwrap();
    /// pos.play(e4).unwrap();
    /// // The same move again is Black's turn, and White's pawn is no longer on e2.
    /// let err = pos.play(e4).unwrap_err();
    /// assert_eq!(err.to_string(), "e2e4 is not a legal move in rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    /// assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    /// assert!(pos.play(Move::NULL).is_err());
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if mv.is_null() || !self.is_legal(mv) {
            return Err(IllegalMoveError {
                mv,
                fen: self.to_fen(),
            });
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move the caller knows to be legal (one from [`Position::legal_moves`] or a
    /// parser), recording it in the history, without checking it: for hot paths. An illegal move
    /// leaves the position in an unspecified (but memory-safe) state; debug builds panic on it.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(
            self.is_legal(mv),
            "play_unchecked: {mv} is illegal in {self}"
        );
        let undo = self.make(mv);
        self.history.push(undo);
    }

    /// Plays a legal move without checking it (as [`Position::play_unchecked`]) and without
    /// recording it in the history: the caller keeps the returned [`Undo`] and passes it to
    /// [`Position::unmake`]. Search and perft use this pair; repetition
    /// detection sees only moves made with [`Position::play`].
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            mv,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            key: self.key,
        };
        self.apply(mv);
        undo
    }

    /// Plays a legal move with no way back: for copy-make callers (perft) that keep the parent.
    #[inline(always)]
    pub(crate) fn apply(&mut self, mv: Move) {
        let us = self.turn;
        let color_bit = us as u8;
        let from = mv.from();
        let to = mv.to();
        let role_bits = mv.role_bits();
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        let mut key = self.key ^ zobrist::white_to_move_key();
        if self.ep_square.is_some() {
            key ^= self.ep_key();
            self.ep_square = None;
        }
        // Saturating: a FEN may carry any u32 clock, and undo restores the saved values anyway.
        self.halfmoves = self.halfmoves.saturating_add(1);

        // Castling rights change only when a king moves or a right-holding rook's square is left
        // or entered; the flags depend on each rook's side of its own (pre-move) king.
        if ((self.castling.rooks() | self.by_role[Role::King as usize]) & (from_bb | to_bb)).any()
            && !self.castling.is_empty()
        {
            let old = self.castling.flags(self.kings);
            let mut rights = self.castling.without(from).without(to);
            if role_bits == Role::King as u8 {
                rights = rights.without_color(us);
            }
            self.castling = rights;
            key ^= zobrist::castling_flags_key(old ^ rights.flags(self.kings));
        }

        let code = role_bits << 1 | color_bit;
        match mv.kind() {
            MoveKind::Normal | MoveKind::DoublePush => {
                let capture_bits = mv.capture_bits();
                if capture_bits != 0 {
                    let captured = capture_bits << 1 | (color_bit ^ 1);
                    self.by_color[(color_bit ^ 1) as usize] ^= to_bb;
                    self.by_role[(capture_bits & 7) as usize] ^= to_bb;
                    key ^= zobrist::code_key(captured, to);
                    self.halfmoves = 0;
                }
                let promotion_bits = mv.promotion_bits();
                let landing_bits = if promotion_bits != 0 {
                    promotion_bits
                } else {
                    role_bits
                };
                let landing = landing_bits << 1 | color_bit;
                self.board.set_code(from, 0);
                self.board.set_code(to, landing);
                self.by_color[color_bit as usize] ^= from_bb | to_bb;
                self.by_role[(role_bits & 7) as usize] ^= from_bb;
                self.by_role[(landing_bits & 7) as usize] ^= to_bb;
                key ^= zobrist::code_key(code, from) ^ zobrist::code_key(landing, to);
                if role_bits == Role::Pawn as u8 {
                    self.halfmoves = 0;
                    if mv.kind() == MoveKind::DoublePush {
                        self.ep_square = Some(Square::new_masked((from as u8 + to as u8) / 2));
                    }
                } else if role_bits == Role::King as u8 {
                    self.kings[color_bit as usize] = to;
                }
            }
            MoveKind::Castle => key ^= self.make_castle(mv),
            MoveKind::EnPassant => {
                key ^= self.make_en_passant(mv);
                self.halfmoves = 0;
            }
        }
        self.fullmoves = self.fullmoves.saturating_add(color_bit as u32);
        self.turn = !us;
        if self.ep_square.is_some() {
            key ^= self.ep_key();
        }
        self.key = key;
    }

    /// Passes the move to the other side (a "null move", `--` in PGN). Not legal in check by the
    /// rules of chess; callers decide whether to allow it.
    pub fn play_null(&mut self) {
        self.history.push(Undo {
            mv: Move::NULL,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            key: self.key,
        });
        let mut key = self.key ^ self.ep_key() ^ zobrist::white_to_move_key();
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        key ^= self.ep_key();
        self.key = key;
    }

    /// Takes back the last move played (or null move); returns it, or `None` when there is none.
    pub fn undo(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        self.unmake(undo);
        Some(undo.mv)
    }

    /// Takes back a move made with [`Position::make`] (the last one made).
    #[inline]
    pub fn unmake(&mut self, undo: Undo) {
        let mv = undo.mv;
        let us = !self.turn;
        let color_bit = us as u8;
        self.turn = us;
        self.castling = undo.castling;
        self.ep_square = undo.ep_square;
        self.halfmoves = undo.halfmoves;
        self.fullmoves = undo.fullmoves;
        self.key = undo.key;
        let from = mv.from();
        let to = mv.to();
        match mv.kind() {
            MoveKind::Normal | MoveKind::DoublePush => {
                let role_bits = mv.role_bits();
                if role_bits == 0 {
                    return; // the null move
                }
                let from_bb = Bitboard::from_square(from);
                let to_bb = Bitboard::from_square(to);
                let promotion_bits = mv.promotion_bits();
                let landing_bits = if promotion_bits != 0 {
                    promotion_bits
                } else {
                    role_bits
                };
                self.by_color[color_bit as usize] ^= from_bb | to_bb;
                self.by_role[(role_bits & 7) as usize] ^= from_bb;
                self.by_role[(landing_bits & 7) as usize] ^= to_bb;
                self.board.set_code(from, role_bits << 1 | color_bit);
                let capture_bits = mv.capture_bits();
                if capture_bits != 0 {
                    self.by_color[(color_bit ^ 1) as usize] ^= to_bb;
                    self.by_role[(capture_bits & 7) as usize] ^= to_bb;
                    self.board.set_code(to, capture_bits << 1 | (color_bit ^ 1));
                } else {
                    self.board.set_code(to, 0);
                }
                if role_bits == Role::King as u8 {
                    self.kings[color_bit as usize] = from;
                }
            }
            MoveKind::Castle => self.unmake_castle(mv),
            MoveKind::EnPassant => self.unmake_en_passant(mv),
        }
    }

    /// Moves king and rook for castling; returns the key change. Out of line: rare, and keeping it
    /// out keeps `make` small.
    #[inline(never)]
    fn make_castle(&mut self, mv: Move) -> u64 {
        let us = self.turn;
        let side = mv.castling_side().unwrap_or(CastlingSide::KingSide);
        let king = Piece::new(us, Role::King);
        let rook = Piece::new(us, Role::Rook);
        let (from, to) = (mv.from(), mv.to());
        let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
        self.remove(from, king);
        self.remove(to, rook);
        self.put(king_to, king);
        self.put(rook_to, rook);
        zobrist::piece_key(king, from)
            ^ zobrist::piece_key(rook, to)
            ^ zobrist::piece_key(king, king_to)
            ^ zobrist::piece_key(rook, rook_to)
    }

    /// Plays an en-passant capture on the board; returns the key change.
    #[inline(never)]
    fn make_en_passant(&mut self, mv: Move) -> u64 {
        let us = self.turn;
        let (from, to) = (mv.from(), mv.to());
        let pawn = Piece::new(us, Role::Pawn);
        let captured = Piece::new(!us, Role::Pawn);
        let cap_sq = Square::from_coords(to.file(), from.rank());
        self.remove(cap_sq, captured);
        self.remove(from, pawn);
        self.put(to, pawn);
        zobrist::piece_key(captured, cap_sq)
            ^ zobrist::piece_key(pawn, from)
            ^ zobrist::piece_key(pawn, to)
    }

    /// Takes back castling (the side to move is already the castling side).
    #[inline(never)]
    fn unmake_castle(&mut self, mv: Move) {
        let us = self.turn;
        let side = mv.castling_side().unwrap_or(CastlingSide::KingSide);
        let king = Piece::new(us, Role::King);
        let rook = Piece::new(us, Role::Rook);
        self.remove(side.king_to(us), king);
        self.remove(side.rook_to(us), rook);
        self.put(mv.from(), king);
        self.put(mv.to(), rook);
    }

    /// Takes back an en-passant capture (the side to move is already the capturing side).
    #[inline(never)]
    fn unmake_en_passant(&mut self, mv: Move) {
        let us = self.turn;
        let (from, to) = (mv.from(), mv.to());
        let pawn = Piece::new(us, Role::Pawn);
        self.remove(to, pawn);
        self.put(from, pawn);
        self.put(
            Square::from_coords(to.file(), from.rank()),
            Piece::new(!us, Role::Pawn),
        );
    }

    /// How many times the current position occurred before in this position's history (same
    /// placement, side to move, castling and en-passant rights, compared by Zobrist key), looking
    /// back only as far as the last capture or pawn move.
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let reach = (self.halfmoves as usize).min(n);
        (2..=reach)
            .step_by(2)
            .filter(|&back| self.history[n - back].key == self.key)
            .count()
    }
}

impl Position {
    /// A copy with no move history: the board, side to move, castling rights, en passant square,
    /// clocks and key, and no moves to undo or count for repetition (cheaper to make than a
    /// clone; repetition counts start afresh).
    ///
    /// ```
    /// use tabla::Position;
    ///
    /// let mut pos = Position::default();
    /// let e4 = pos.parse_san("e4").unwrap();
    /// pos.play(e4).unwrap();
    /// let copy = pos.clone_without_history();
    /// assert_eq!(copy, pos);
    /// assert_eq!(copy.moves_played().count(), 0);
    /// ```
    pub fn clone_without_history(&self) -> Position {
        Position {
            board: self.board.clone(),
            by_color: self.by_color,
            by_role: self.by_role,
            kings: self.kings,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            key: self.key,
            history: Vec::new(),
        }
    }

    /// Forgets the moves played (they can no longer be undone or counted for repetition).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }
}
