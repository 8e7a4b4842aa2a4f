//! The `position` command: `startpos [moves ...]` or `fen <FEN> [moves ...]`, and why it can fail.

use super::clip;
use crate::info::CastlingNotation;
use std::fmt;
use tabla::{FenError, Move, Position, STARTPOS, UciMoveError, Validation};

/// Why a `position` command was not read; the session keeps its position then.
///
/// The message names the word, FEN or move at fault (clipped to 60 characters):
///
/// ```
/// use tabla_engine::uci::{PositionCommandError, parse_position};
/// let err = parse_position("startpos moves e2e4 e7e5 e1e3").unwrap_err();
/// assert!(matches!(err, PositionCommandError::Move { number: 3, .. }));
/// assert_eq!(
///     err.to_string(),
///     "position: move 3 (e1e3): \"e1e3\" is illegal in this position"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionCommandError {
    /// Nothing after `position`.
    MissingStart,
    /// The first word is neither `startpos` nor `fen`.
    UnknownStart {
        /// The word found.
        word: String,
    },
    /// The words after `fen` (up to `moves`) are not the FEN of a playable position.
    Fen {
        /// Those words, joined by single spaces.
        fen: String,
        /// Why the core rejected them: bad syntax or an illegal setup.
        error: FenError,
    },
    /// After `startpos`, a word other than `moves`.
    ExpectedMoves {
        /// The word found.
        word: String,
    },
    /// A move of the list that is not a UCI move, or not legal after the moves before it.
    Move {
        /// Its place in the list, from 1.
        number: usize,
        /// The move as written.
        text: String,
        /// Why it was rejected.
        error: UciMoveError,
    },
}

impl fmt::Display for PositionCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionCommandError::MissingStart => {
                write!(f, "position: expected `startpos` or `fen`")
            }
            PositionCommandError::UnknownStart { word } => {
                write!(
                    f,
                    "position: expected `startpos` or `fen`, not {:?}",
                    clip(word)
                )
            }
            PositionCommandError::Fen { fen, error } => {
                write!(f, "position: bad FEN {:?}: {error}", clip(fen))
            }
            PositionCommandError::ExpectedMoves { word } => {
                write!(f, "position: expected `moves`, not {:?}", clip(word))
            }
            PositionCommandError::Move {
                number,
                text,
                error,
            } => write!(f, "position: move {number} ({}): {error}", clip(text)),
        }
    }
}

/// The cause is part of the message (the UCI loop prints only the message), so `source` is
/// `None`; the typed cause is the variant's `error` field.
impl std::error::Error for PositionCommandError {}

/// Reads `startpos [moves ...]` or `fen <FEN> [moves ...]` (the words after `position`). The FEN
/// is read leniently (as perft suites need), but must give a playable position.
///
/// ```
/// use tabla_engine::uci::parse_position;
/// let pos = parse_position("startpos moves e2e4 e7e5 g1f3").unwrap();
/// assert_eq!(pos.to_fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
/// assert!(parse_position("startpos moves e2e5").is_err());
/// assert!(parse_position("fen 8/8/8 w - - 0 1").is_err());
/// ```
pub fn parse_position(rest: &str) -> Result<Position, PositionCommandError> {
    parse_position_with(rest, CastlingNotation::KingMove)
}

/// [`parse_position`] with castling moves read in `notation`. The FEN's castling field may be
/// `KQkq`, X-FEN or Shredder-FEN (`HAha`) either way. With [`CastlingNotation::KingMove`]
/// (`UCI_Chess960` off) a castling move may be written as the king's move (`e1g1`) or as king
/// takes rook (`e1h1`); with [`CastlingNotation::KingTakesRook`] (on) only as king takes rook, and
/// the king's move is an ordinary king move, so that a Chess960 king on b1 may step to c1 next to
/// its rook on a1:
///
/// ```
/// use tabla_engine::CastlingNotation;
/// use tabla_engine::uci::parse_position_with;
/// // Chess960 position 709 (RKBBQNNR) after 1. b3 b6 2. Bb2 Bb7 3. c3 c6 4. Bc2 Bc7.
/// let fen = "rk2qnnr/pbbppppp/1pp5/8/8/1PP5/PBBPPPPP/RK2QNNR w HAha - 2 5";
/// let kings_side = CastlingNotation::KingTakesRook;
/// let castled = parse_position_with(&format!("fen {fen} moves b1a1"), kings_side).unwrap();
/// // tabla writes X-FEN: `kq`, since Black's rooks are the outermost ones on their sides.
/// assert_eq!(castled.to_fen(), "rk2qnnr/pbbppppp/1pp5/8/8/1PP5/PBBPPPPP/2KRQNNR b kq - 3 5");
/// let stepped = parse_position_with(&format!("fen {fen} moves b1c1"), kings_side).unwrap();
/// assert_eq!(stepped.to_fen(), "rk2qnnr/pbbppppp/1pp5/8/8/1PP5/PBBPPPPP/R1K1QNNR b kq - 3 5");
/// ```
pub fn parse_position_with(
    rest: &str,
    notation: CastlingNotation,
) -> Result<Position, PositionCommandError> {
    let mut words = rest.split_whitespace();
    let pos = match words.next() {
        Some(STARTPOS) => Position::startpos(),
        Some("fen") => {
            let fen: Vec<&str> = words.by_ref().take_while(|w| *w != "moves").collect();
            let fen = fen.join(" ");
            let pos = match Position::from_fen_with(&fen, Validation::Lenient) {
                Ok(pos) => pos,
                Err(error) => return Err(PositionCommandError::Fen { fen, error }),
            };
            // `take_while` consumed "moves" already: what is left are the moves.
            return play_moves(pos, words, notation);
        }
        Some(other) => {
            return Err(PositionCommandError::UnknownStart {
                word: other.to_owned(),
            });
        }
        None => return Err(PositionCommandError::MissingStart),
    };
    match words.next() {
        None => Ok(pos),
        Some("moves") => play_moves(pos, words, notation),
        Some(other) => Err(PositionCommandError::ExpectedMoves {
            word: other.to_owned(),
        }),
    }
}

/// Plays `moves` (UCI notation, castling in `notation`) from `pos`, each checked for legality.
fn play_moves<'a>(
    mut pos: Position,
    moves: impl Iterator<Item = &'a str>,
    notation: CastlingNotation,
) -> Result<Position, PositionCommandError> {
    for (i, text) in moves.enumerate() {
        match parse_move(&pos, text, notation) {
            Ok(mv) => pos.play_unchecked(mv),
            Err(error) => {
                return Err(PositionCommandError::Move {
                    number: i + 1,
                    text: text.to_owned(),
                    error,
                });
            }
        }
    }
    Ok(pos)
}

/// Resolves one UCI move in `notation`.
fn parse_move(
    pos: &Position,
    text: &str,
    notation: CastlingNotation,
) -> Result<Move, UciMoveError> {
    let mv = pos.parse_uci(text)?;
    if notation == CastlingNotation::KingTakesRook
        && mv.castling_side().is_some()
        && notation.uci(mv) != text
    {
        // The king's move where it could castle: under Chess960 rules that is a plain king move.
        return pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| {
                m.castling_side().is_none() && m.promotion().is_none() && m.to_string() == text
            })
            .ok_or_else(|| UciMoveError::Illegal {
                text: text.to_owned(),
            });
    }
    Ok(mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabla::{ParseFenError, PositionProblem};

    #[test]
    fn nothing_after_position() {
        assert_eq!(parse_position(""), Err(PositionCommandError::MissingStart));
        assert_eq!(
            parse_position("   "),
            Err(PositionCommandError::MissingStart)
        );
        assert_eq!(
            PositionCommandError::MissingStart.to_string(),
            "position: expected `startpos` or `fen`"
        );
    }

    #[test]
    fn a_start_that_is_neither_startpos_nor_fen() {
        let err = parse_position("sideways moves e2e4").expect_err("an error");
        assert_eq!(
            err,
            PositionCommandError::UnknownStart {
                word: "sideways".to_owned()
            }
        );
        assert_eq!(
            err.to_string(),
            "position: expected `startpos` or `fen`, not \"sideways\""
        );
    }

    #[test]
    fn a_fen_with_three_ranks_is_a_syntax_error() {
        let err = parse_position("fen 8/8/8 w - - 0 1 moves e2e4").expect_err("an error");
        let PositionCommandError::Fen { fen, error } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(fen, "8/8/8 w - - 0 1");
        assert_eq!(
            *error,
            FenError::Syntax(ParseFenError::RankCount {
                text: "8/8/8".to_owned(),
                found: 3
            })
        );
        assert_eq!(
            err.to_string(),
            "position: bad FEN \"8/8/8 w - - 0 1\": placement \"8/8/8\" has 3 ranks, \
             expected 8 separated by '/'"
        );
    }

    #[test]
    fn a_fen_without_kings_is_an_illegal_setup() {
        // Well-formed FEN, but no king on either side: not playable even when read leniently.
        let err = parse_position("fen 8/8/8/8/8/8/8/8 w - - 0 1").expect_err("an error");
        let PositionCommandError::Fen { error, .. } = &err else {
            panic!("{err:?}");
        };
        let FenError::Invalid(problems) = error else {
            panic!("{error:?}");
        };
        assert!(problems.contains(PositionProblem::MissingKing));
        assert!(
            err.to_string()
                .starts_with("position: bad FEN \"8/8/8/8/8/8/8/8 w - - 0 1\": ")
        );
    }

    #[test]
    fn an_empty_fen() {
        let err = parse_position("fen moves e2e4").expect_err("an error");
        assert_eq!(
            err,
            PositionCommandError::Fen {
                fen: String::new(),
                error: FenError::Syntax(ParseFenError::Empty)
            }
        );
    }

    #[test]
    fn a_word_other_than_moves_after_startpos() {
        let err = parse_position("startpos e2e4").expect_err("an error");
        assert_eq!(
            err,
            PositionCommandError::ExpectedMoves {
                word: "e2e4".to_owned()
            }
        );
        assert_eq!(err.to_string(), "position: expected `moves`, not \"e2e4\"");
    }

    #[test]
    fn an_illegal_move_with_its_number() {
        // After 1. e4 e5 the king on e1 cannot jump to e3.
        let err = parse_position("startpos moves e2e4 e7e5 e1e3").expect_err("an error");
        assert_eq!(
            err,
            PositionCommandError::Move {
                number: 3,
                text: "e1e3".to_owned(),
                error: UciMoveError::Illegal {
                    text: "e1e3".to_owned()
                }
            }
        );
        assert_eq!(
            err.to_string(),
            "position: move 3 (e1e3): \"e1e3\" is illegal in this position"
        );
    }

    #[test]
    fn a_move_that_is_not_uci() {
        let err = parse_position("startpos moves e2e4 xyz").expect_err("an error");
        assert_eq!(
            err,
            PositionCommandError::Move {
                number: 2,
                text: "xyz".to_owned(),
                error: UciMoveError::Syntax {
                    text: "xyz".to_owned()
                }
            }
        );
    }

    #[test]
    fn moves_after_a_fen_are_checked_in_that_position() {
        // White king e1, black king e8, White to move: e1e2 is legal, then Black's e8e7 too,
        // and White's e2e4 is two squares: illegal.
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        let pos = parse_position(&format!("fen {fen} moves e1e2 e8e7")).expect("legal moves");
        assert_eq!(pos.to_fen(), "8/4k3/8/8/8/8/4K3/8 w - - 2 2");
        let err = parse_position(&format!("fen {fen} moves e1e2 e8e7 e2e4")).expect_err("an error");
        assert!(matches!(
            err,
            PositionCommandError::Move { number: 3, ref text, .. } if text == "e2e4"
        ));
    }

    #[test]
    fn long_words_are_clipped_in_the_message() {
        let word = "x".repeat(100);
        let err = parse_position(&word).expect_err("an error");
        assert_eq!(
            err.to_string(),
            format!(
                "position: expected `startpos` or `fen`, not \"{}...\"",
                "x".repeat(60)
            )
        );
    }

    #[test]
    fn the_uci_loop_answers_with_the_message_and_keeps_its_position() {
        let input =
            b"position startpos moves e2e4\nposition startpos moves e2e4 e7e5 e1e3\nd\nquit\n";
        let out =
            crate::uci::run(crate::Engine::new(), &input[..], Vec::new()).expect("no I/O error");
        let out = String::from_utf8(out).expect("UTF-8");
        assert!(
            out.lines().any(|l| l
                == "info string position: move 3 (e1e3): \"e1e3\" is illegal in this position; \
                    position unchanged"),
            "{out}"
        );
        // Still the position after 1. e4, the last one read.
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        assert!(
            out.lines().any(|l| l == format!("Fen: {after_e4}")),
            "{out}"
        );
    }

    #[test]
    fn under_chess960_castling_is_king_takes_rook_only() {
        let fen = "fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let chess960 = CastlingNotation::KingTakesRook;
        let standard = CastlingNotation::KingMove;
        let castled = "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1";
        for text in ["e1g1", "e1h1"] {
            let pos = parse_position_with(&format!("{fen} moves {text}"), standard).expect(text);
            assert_eq!(pos.to_fen(), castled, "{text}");
        }
        let pos = parse_position_with(&format!("{fen} moves e1h1"), chess960).expect("e1h1");
        assert_eq!(pos.to_fen(), castled);
        // The king's two-square move is no Chess960 move at all.
        assert_eq!(
            parse_position_with(&format!("{fen} moves e1g1"), chess960),
            Err(PositionCommandError::Move {
                number: 1,
                text: "e1g1".to_owned(),
                error: UciMoveError::Illegal {
                    text: "e1g1".to_owned()
                }
            })
        );
    }
}
