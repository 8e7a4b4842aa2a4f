//! FEN: parsing into an unvalidated [`Setup`], and writing a position back.

use crate::castling::back_rank;
use crate::{Bitboard, Board, CastlingRights, Color, File, Piece, Position, Rank, Role, Square};
use std::fmt;
use std::str::FromStr;

/// A FEN syntax error: one variant per field and cause, each with the offending text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// The input is empty or only white space.
    #[error("empty FEN")]
    Empty,
    /// Not 4 to 6 space-separated fields.
    #[error(
        "FEN has {found} fields, expected 4 to 6 (placement, side, castling, en passant[, halfmove clock[, fullmove number]])"
    )]
    FieldCount {
        /// How many fields were found.
        found: usize,
    },
    /// The placement does not have 8 ranks separated by `/`.
    #[error("placement {text:?} has {found} ranks, expected 8 separated by '/'")]
    RankCount {
        /// The placement field.
        text: String,
        /// How many ranks were found.
        found: usize,
    },
    /// A rank describes more than 8 squares.
    #[error("rank {rank} ({text:?}) describes more than 8 squares")]
    RankTooLong {
        /// The rank, 8 for the first one written.
        rank: u8,
        /// That rank's text.
        text: String,
    },
    /// A rank describes fewer than 8 squares.
    #[error("rank {rank} ({text:?}) describes fewer than 8 squares")]
    RankTooShort {
        /// The rank, 8 for the first one written.
        rank: u8,
        /// That rank's text.
        text: String,
    },
    /// A character that is neither a piece letter nor a digit 1-8 (or a `0`/`9` digit).
    #[error("rank {rank} has {ch:?}, which is not a piece letter (PNBRQK, pnbrqk) or a digit 1-8")]
    PieceLetter {
        /// The rank, 8 for the first one written.
        rank: u8,
        /// The character.
        ch: char,
    },
    /// The side to move is not `w` or `b`.
    #[error("side to move {text:?} is not 'w' or 'b'")]
    Side {
        /// The field.
        text: String,
    },
    /// The castling field is not `-` or a set of `KQkq` / file letters, each at most once.
    #[error(
        "castling field {text:?} is not '-' or letters from KQkq (or files A-H/a-h), each once"
    )]
    Castling {
        /// The field.
        text: String,
    },
    /// The en-passant field is not `-` or a square on rank 3 or 6.
    #[error("en-passant field {text:?} is not '-' or a square on rank 3 or 6")]
    EnPassant {
        /// The field.
        text: String,
    },
    /// The halfmove clock is not a non-negative number.
    #[error("halfmove clock {text:?} is not a number from 0 up")]
    HalfmoveClock {
        /// The field.
        text: String,
    },
    /// The fullmove number is not a non-negative number.
    #[error("fullmove number {text:?} is not a number from 0 up")]
    FullmoveNumber {
        /// The field.
        text: String,
    },
}

/// A position as written in a FEN, not yet validated: anything that parses, legal or not.
///
/// ```
/// use tabla::{Setup, Square};
/// let setup: Setup = "8/8/8/8/8/kn1b4/2P5/K7 w - - 0 0".parse().unwrap();
/// assert_eq!(setup.fullmoves, 0); // as written; a Position makes it 1
/// assert!(setup.board.piece_at(Square::A1).is_some());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The placement.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The castling rights (rook squares; `K`/`Q` resolve to the outermost rook, or to the
    /// corner square when there is none, which validation then reports).
    pub castling: CastlingRights,
    /// The en-passant square as written.
    pub ep_square: Option<Square>,
    /// The halfmove clock (0 when the field is missing).
    pub halfmoves: u32,
    /// The fullmove number as written (1 when the field is missing).
    pub fullmoves: u32,
}

impl Setup {
    /// Parses a FEN: 4 to 6 fields separated by any white space.
    pub fn from_fen(fen: &str) -> Result<Setup, ParseFenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if fields.is_empty() {
            return Err(ParseFenError::Empty);
        }
        if !(4..=6).contains(&fields.len()) {
            return Err(ParseFenError::FieldCount {
                found: fields.len(),
            });
        }
        let board = parse_placement(fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            text => {
                return Err(ParseFenError::Side {
                    text: text.to_owned(),
                });
            }
        };
        let castling = parse_castling(fields[2], &board)?;
        let ep_square = match fields[3] {
            "-" => None,
            text => match Square::from_ascii(text.as_bytes()) {
                Some(sq) if matches!(sq.rank(), Rank::Third | Rank::Sixth) => Some(sq),
                _ => {
                    return Err(ParseFenError::EnPassant {
                        text: text.to_owned(),
                    });
                }
            },
        };
        let halfmoves = match fields.get(4) {
            None => 0,
            Some(text) => parse_number(text).ok_or_else(|| ParseFenError::HalfmoveClock {
                text: (*text).to_owned(),
            })?,
        };
        let fullmoves = match fields.get(5) {
            None => 1,
            Some(text) => parse_number(text).ok_or_else(|| ParseFenError::FullmoveNumber {
                text: (*text).to_owned(),
            })?,
        };
        Ok(Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmoves,
            fullmoves,
        })
    }
}

impl FromStr for Setup {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Setup, ParseFenError> {
        Setup::from_fen(s)
    }
}

fn parse_number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_placement(text: &str) -> Result<Board, ParseFenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseFenError::RankCount {
            text: text.to_owned(),
            found: ranks.len(),
        });
    }
    let mut board = Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank_no = 8 - i as u8;
        let rank = Rank::new(7 - i as u8).unwrap_or(Rank::First);
        let mut file = 0u32;
        let too_long = || ParseFenError::RankTooLong {
            rank: rank_no,
            text: (*rank_text).to_owned(),
        };
        for ch in rank_text.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d;
                if file > 8 {
                    return Err(too_long());
                }
            } else if let Some(piece) = Piece::from_char(ch) {
                let f = File::new(file as u8).ok_or_else(too_long)?;
                board.set(Square::from_coords(f, rank), Some(piece));
                file += 1;
            } else {
                return Err(ParseFenError::PieceLetter { rank: rank_no, ch });
            }
        }
        if file < 8 {
            return Err(ParseFenError::RankTooShort {
                rank: rank_no,
                text: (*rank_text).to_owned(),
            });
        }
    }
    Ok(board)
}

fn parse_castling(text: &str, board: &Board) -> Result<CastlingRights, ParseFenError> {
    let err = || ParseFenError::Castling {
        text: text.to_owned(),
    };
    let mut rights = CastlingRights::NONE;
    if text == "-" {
        return Ok(rights);
    }
    for ch in text.chars() {
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = back_rank(color);
        let rook = Piece::new(color, Role::Rook);
        let king_file = File::ALL.into_iter().find(|&f| {
            board.piece_at(Square::from_coords(f, rank)) == Some(Piece::new(color, Role::King))
        });
        let rook_on = |f: File| board.piece_at(Square::from_coords(f, rank)) == Some(rook);
        let sq = match ch.to_ascii_lowercase() {
            'k' => {
                let outer = File::ALL
                    .into_iter()
                    .rev()
                    .take_while(|&f| Some(f) != king_file)
                    .find(|&f| rook_on(f));
                Square::from_coords(outer.unwrap_or(File::H), rank)
            }
            'q' => {
                let outer = File::ALL
                    .into_iter()
                    .take_while(|&f| Some(f) != king_file)
                    .find(|&f| rook_on(f));
                Square::from_coords(outer.unwrap_or(File::A), rank)
            }
            c @ 'a'..='h' => Square::from_coords(File::from_char(c).ok_or_else(err)?, rank),
            _ => return Err(err()),
        };
        if rights.contains(sq) {
            return Err(err());
        }
        rights = rights.with(sq);
    }
    Ok(rights)
}

/// How the en-passant field is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum EnPassantMode {
    /// After every double pawn push, as the PGN standard's FEN section says (the default).
    #[default]
    Always,
    /// Only when an en-passant capture is legal (as lichess and python-chess write it).
    Legal,
}

impl Position {
    /// The FEN, with the en-passant square after every double push ([`EnPassantMode::Always`]).
    ///
    /// Castling is written `KQkq` where the rook is the outermost one on its side, else with the
    /// rook's file letter (X-FEN), so Chess960 positions round-trip.
    pub fn to_fen(&self) -> String {
        self.fen_with(EnPassantMode::Always)
    }

    /// The FEN with the chosen en-passant convention.
    ///
    /// ```
    /// use tabla::{EnPassantMode, Position};
    /// let mut pos = Position::startpos();
    /// pos.play(pos.parse_san("e4").unwrap());
    /// assert_eq!(pos.fen_with(EnPassantMode::Legal), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// ```
    pub fn fen_with(&self, mode: EnPassantMode) -> String {
        let mut s = self.board_fen();
        s.push(' ');
        s.push(self.turn().char());
        s.push(' ');
        s.push_str(&self.castling_fen());
        s.push(' ');
        let ep = match mode {
            EnPassantMode::Always => self.ep_square(),
            EnPassantMode::Legal => self.legal_ep_square(),
        };
        match ep {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmoves(), self.fullmoves()));
        s
    }

    /// The placement field alone.
    pub fn board_fen(&self) -> String {
        board_fen(self.board())
    }

    /// The castling field alone.
    pub fn castling_fen(&self) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            let king = self.king(color);
            let ours = self.pieces(color, Role::Rook);
            let mut rooks: Vec<Square> =
                self.castling_rights().rooks_of(color).into_iter().collect();
            rooks.sort_by_key(|sq| std::cmp::Reverse(sq.file()));
            for rook in rooks {
                let king_side = rook.file() > king.file();
                let beyond = ours
                    & Bitboard::rank(rook.rank())
                    & Bitboard(if king_side {
                        !0u64 << rook.index() << 1
                    } else {
                        (1u64 << rook.index()) - 1
                    });
                let letter = if beyond.is_empty() {
                    if king_side { 'k' } else { 'q' }
                } else {
                    rook.file().char()
                };
                s.push(if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

/// The placement field of a board.
pub fn board_fen(board: &Board) -> String {
    let mut s = String::with_capacity(64);
    for rank in Rank::ALL.into_iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match board.piece_at(Square::from_coords(file, rank)) {
                Some(p) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(p.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank != Rank::First {
            s.push('/');
        }
    }
    s
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}
