//! One test per error kind: the typed error, its game number, line:column, move number and
//! token, and that reading goes on after it.

use tabla::Color;
use tabla_pgn::{ErrorKind, Game, MoveNumber, PgnError, Reader};

fn read_all(pgn: &str) -> Vec<Game> {
    Reader::new(pgn.as_bytes())
        .games()
        .collect::<Result<_, _>>()
        .expect("in-memory reads do not fail")
}

fn only_error(game: &Game) -> &PgnError {
    assert_eq!(game.problems.len(), 1, "{:?}", game.problems);
    &game.problems[0]
}

fn sans(game: &Game) -> Vec<&str> {
    game.mainline().map(|n| n.san.as_str()).collect()
}

#[test]
fn not_a_move() {
    let games = read_all("[Event \"x\"]\n\n1. e4 e5 2. Nf9 Nc6 3. Nf3 *\n");
    let e = only_error(&games[0]);
    assert_eq!(e.kind, ErrorKind::NotAMove);
    assert_eq!((e.game, e.location.line, e.location.column), (1, 3, 13));
    assert_eq!(e.token, "Nf9");
    assert_eq!(
        e.move_number,
        Some(MoveNumber {
            number: 2,
            turn: Color::White
        })
    );
    // The mainline ends at the error; nothing before it is lost.
    assert_eq!(sans(&games[0]), ["e4", "e5"]);
    assert_eq!(games[0].outcome, Some(tabla_pgn::Outcome::Unknown));
}

#[test]
fn illegal_move_with_location_and_display() {
    let games = read_all("1. e4 e5\r\n2. Nf3 Nc6\r\n3. Bb5 Ke6 4. O-O *");
    let e = only_error(&games[0]);
    assert_eq!(e.kind, ErrorKind::IllegalMove);
    assert_eq!((e.location.line, e.location.column), (3, 8));
    assert_eq!(
        e.to_string(),
        "game 1, 3:8, move 3...: \"Ke6\": illegal move in this position"
    );
    assert_eq!(sans(&games[0]), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
}

#[test]
fn ambiguous_move() {
    // Knights on c3 and g1 both reach e2.
    let games = read_all("1. Nc3 a6 2. e3 a5 3. Ne2 *");
    let e = only_error(&games[0]);
    let ErrorKind::AmbiguousMove { candidates } = &e.kind else {
        panic!("expected an ambiguous move, got {e}");
    };
    let mut candidates = candidates.clone();
    candidates.sort();
    assert_eq!(candidates, ["Nce2", "Nge2"]);
    assert_eq!(e.token, "Ne2");
    assert_eq!(sans(&games[0]).len(), 4);
}

#[test]
fn null_move_in_check() {
    let games = read_all("1. e4 e5 2. Qh5 Nc6 3. Qxf7+ -- *");
    let e = only_error(&games[0]);
    assert_eq!(e.kind, ErrorKind::NullMoveInCheck);
    assert_eq!(e.token, "--");
    assert_eq!(sans(&games[0]).len(), 5);
}

#[test]
fn unknown_variant_skips_only_that_game() {
    let pgn = "[Variant \"Atomic\"]\n\n1. e4 d5 2. exd5 *\n\n[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. e4 *\n";
    let games = read_all(pgn);
    assert_eq!(games.len(), 2);
    let e = only_error(&games[0]);
    assert_eq!(
        e.kind,
        ErrorKind::UnknownVariant {
            variant: "Atomic".into()
        }
    );
    assert!(e.to_string().contains("unsupported variant \"Atomic\""));
    assert!(games[0].start.is_none() && games[0].moves.nodes.is_empty());
    assert!(games[1].problems.is_empty());
    assert_eq!(sans(&games[1]), ["e4"]);
}

#[test]
fn invalid_fen() {
    let games = read_all("[SetUp \"1\"]\n[FEN \"8/8/8 w - -\"]\n\n1. e4 *\n\n1. d4 *");
    let e = only_error(&games[0]);
    assert!(matches!(e.kind, ErrorKind::InvalidFen { .. }), "{e}");
    assert_eq!(e.token, "8/8/8 w - -");
    assert_eq!(games.len(), 2);
    assert_eq!(sans(&games[1]), ["d4"]);
    // A FEN that parses but is not a legal setup (no black king).
    let games = read_all("[FEN \"8/8/8/8/8/8/8/K7 w - - 0 1\"]\n\n*");
    assert!(matches!(
        only_error(&games[0]).kind,
        ErrorKind::InvalidFen { .. }
    ));
}

#[test]
fn malformed_tags_keep_the_rest() {
    let pgn = "[Event \"unterminated]\n[White]\n[Black \"B\"]\n\n1. e4 *";
    let games = read_all(pgn);
    assert_eq!(games.len(), 1);
    let kinds: Vec<_> = games[0].problems.iter().map(|e| &e.kind).collect();
    assert_eq!(kinds, [&ErrorKind::MalformedTag, &ErrorKind::MalformedTag]);
    assert_eq!(games[0].problems[1].location.line, 2);
    assert_eq!(games[0].tag("Black"), Some("B"));
    assert_eq!(sans(&games[0]), ["e4"]);
}

#[test]
fn unterminated_comment_keeps_its_text() {
    let games = read_all("1. e4 e5 { never\nclosed");
    let e = only_error(&games[0]);
    assert_eq!(e.kind, ErrorKind::UnterminatedComment);
    assert_eq!((e.location.line, e.location.column), (1, 10));
    assert_eq!(
        games[0].moves.nodes[1].comments_after[0].text,
        "never closed"
    );
}

#[test]
fn a_comment_left_open_does_not_swallow_the_next_games() {
    let games = read_all("[Event \"1\"]\n\n1. e4 {open\nstill open\n[Event \"2\"]\n\n1. d4 *");
    assert_eq!(games.len(), 2);
    let e = only_error(&games[0]);
    assert_eq!(e.kind, ErrorKind::UnterminatedComment);
    assert_eq!(
        games[0].moves.nodes[0].comments_after[0].text,
        "open still open"
    );
    assert_eq!(games[1].tag("Event"), Some("2"));
    assert_eq!(games[1].location.line, 5);
    assert_eq!(sans(&games[1]), ["d4"]);
}

#[test]
fn unmatched_parenthesis() {
    let games = read_all("1. e4 ) e5 *");
    let e = only_error(&games[0]);
    assert_eq!(e.kind, ErrorKind::UnmatchedParenthesis);
    assert_eq!(e.location.column, 7);
    assert_eq!(sans(&games[0]), ["e4", "e5"]);
}

#[test]
fn unclosed_variation_ends_at_the_next_game() {
    let games = read_all("1. e4 (1. d4 d5 *\n\n[Event \"2\"]\n\n1. c4 *");
    assert_eq!(games.len(), 2);
    let e = only_error(&games[0]);
    assert_eq!(e.kind, ErrorKind::UnclosedVariation);
    let variation = &games[0].moves.nodes[0].variations[0];
    assert_eq!(variation.nodes.len(), 2);
    assert_eq!(sans(&games[1]), ["c4"]);
}

#[test]
fn variation_without_move() {
    let games = read_all("( 1. d4 ) 1. e4 *");
    let e = only_error(&games[0]);
    assert_eq!(e.kind, ErrorKind::VariationWithoutMove);
    assert_eq!(e.location.column, 1);
    assert_eq!(sans(&games[0]), ["e4"]);
}

#[test]
fn invalid_nags() {
    let games = read_all("1. e4 $256 e5 !!! 2. Nf3 $ *");
    let kinds: Vec<_> = games[0]
        .problems
        .iter()
        .map(|e| (&e.kind, e.token.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (&ErrorKind::InvalidNag, "$256"),
            (&ErrorKind::InvalidNag, "!!!"),
            (&ErrorKind::InvalidNag, "$")
        ]
    );
    assert_eq!(sans(&games[0]), ["e4", "e5", "Nf3"]);
}

#[test]
fn unexpected_character() {
    let games = read_all("1. e4 } e5 \" 2. Nf3 *");
    let kinds: Vec<_> = games[0]
        .problems
        .iter()
        .map(|e| (&e.kind, e.token.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (&ErrorKind::UnexpectedCharacter, "}"),
            (&ErrorKind::UnexpectedCharacter, "\"")
        ]
    );
    assert_eq!(sans(&games[0]), ["e4", "e5", "Nf3"]);
}

#[test]
fn token_too_long_is_skipped() {
    let pgn = format!("1. e4 {{{}}} e5 2. Nf3 *\n\n1. d4 *", "x".repeat(5000));
    let mut reader = Reader::with_max_buffer(pgn.as_bytes(), 1024);
    let games: Vec<Game> = reader.games().collect::<Result<_, _>>().expect("reads");
    let e = only_error(&games[0]);
    assert_eq!(e.kind, ErrorKind::TokenTooLong { limit: 1024 });
    assert_eq!(sans(&games[0]), ["e4", "e5", "Nf3"]);
    assert_eq!(sans(&games[1]), ["d4"]);
    assert_eq!(reader.buffer_capacity(), 1024);
}

#[test]
fn an_error_in_a_variation_ends_only_the_variation() {
    let games = read_all("1. e4 e5 (1... c5 2. Ke3 Nc6 (2... d6) 3. d4) 2. Nf3 Nc6 *");
    let e = only_error(&games[0]);
    assert_eq!((e.kind.clone(), e.depth), (ErrorKind::IllegalMove, 1));
    assert_eq!(sans(&games[0]), ["e4", "e5", "Nf3", "Nc6"]);
    let variation = &games[0].moves.nodes[1].variations[0];
    assert_eq!(variation.nodes.len(), 1, "the variation stops at its error");
    // A warning: the mainline is whole, and the text says that only the variation stopped.
    assert!(e.is_warning() && games[0].error().is_none());
    assert_eq!(
        e.to_string(),
        "game 1, 1:22, move 2.: \"Ke3\": illegal move in this position; \
         the variation stops there, the mainline goes on"
    );
}

#[test]
fn a_damaged_game_does_not_hide_the_games_after_it() {
    let pgn = "[Event \"1\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
               [Event \"2\"]\n\n1. d4 d5 2. Qxd5 { } ( 2. c4 ) 2... Nf6 } ) $999 0-1\n\n\
               [Event \"3\"]\n\n1. c4 e5 2. Nc3 1/2-1/2\n";
    let games = read_all(pgn);
    assert_eq!(games.len(), 3);
    assert!(games[0].problems.is_empty() && games[2].problems.is_empty());
    assert_eq!(sans(&games[0]), ["e4", "e5", "Nf3"]);
    assert_eq!(sans(&games[1]), ["d4", "d5"]);
    assert_eq!(games[1].problems[0].kind, ErrorKind::IllegalMove);
    assert_eq!(games[1].problems[0].game, 2);
    assert_eq!(games[1].problems[0].location.line, 7);
    assert_eq!(sans(&games[2]), ["c4", "e5", "Nc3"]);
    assert_eq!(games[2].tag("Event"), Some("3"));
    assert_eq!(games[2].outcome, Some(tabla_pgn::Outcome::Draw));
}
