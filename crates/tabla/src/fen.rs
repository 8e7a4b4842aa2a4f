//! FEN: parsing into an unvalidated [`Setup`] (the writer is in `fen_write.rs`).

use crate::castling::back_rank;
use crate::{Board, CastlingRights, Color, File, Piece, Rank, Role, Square};
use std::str::FromStr;

/// A FEN syntax error: one variant per field and cause, each with the offending text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// The input is empty or only white space.
    #[error("empty FEN")]
    Empty,
    /// Not 4 to 6 space-separated fields.
    #[error(
        "FEN has {}, expected 4 to 6 (placement, side, castling, en passant[, halfmove clock[, fullmove number]])",
        crate::plural(.found, "field")
    )]
    FieldCount {
        /// How many fields were found.
        found: usize,
    },
    /// The placement does not have 8 ranks separated by `/`.
    #[error("placement {text:?} has {}, expected 8 separated by '/'", crate::plural(.found, "rank"))]
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
    /// The halfmove clock is not a whole number from 0 to `u32::MAX`.
    #[error("halfmove clock {text:?} is not a whole number from 0 to 4294967295")]
    HalfmoveClock {
        /// The field.
        text: String,
    },
    /// The fullmove number is not a whole number from 0 to `u32::MAX`.
    #[error("fullmove number {text:?} is not a whole number from 0 to 4294967295")]
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
