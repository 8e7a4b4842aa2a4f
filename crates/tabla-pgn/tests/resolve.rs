//! The move reader replay uses (the core's `Position::parse_san_bytes`, lenient) on positions
//! from real games: every legal move, in the forms people write (canonical SAN, without check
//! signs, with a spurious or missing `x`, fully disambiguated, the long form, UCI), resolves to
//! that very move; and the errors have the kinds a hand-checked position calls for.

mod common;

use tabla::{Move, Position, SanError, SanMode};

fn resolve(pos: &Position, text: &str) -> Result<Move, SanError> {
    pos.parse_san_bytes(text.as_bytes(), SanMode::Lenient)
}

fn forms(pos: &Position, mv: Move) -> Vec<String> {
    let san = pos.san(mv);
    let bare = san.trim_end_matches(['+', '#']).to_owned();
    let mut forms = vec![san.clone(), bare.clone(), pos.long(mv), pos.uci(mv)];
    if mv.castling_side().is_some() {
        return forms;
    }
    forms.push(bare.replace('x', ""));
    if !bare.contains('x') && bare.len() > 2 && mv.promotion().is_none() {
        let (head, tail) = bare.split_at(bare.len() - 2);
        forms.push(format!("{head}x{tail}"));
    }
    if mv.role() != tabla::Role::Pawn {
        forms.push(format!(
            "{}{}{}",
            &bare[..1],
            mv.from(),
            &bare[bare.len() - 2..]
        ));
    }
    forms
}

#[test]
fn every_spelling_of_every_legal_move_in_testdata_positions() {
    let checked = every_spelling_resolves(common::testdata().files());
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn every_spelling_of_every_legal_move_in_corpus_positions() {
    if let Some(corpus) = common::corpus() {
        let checked = every_spelling_resolves(corpus.files());
        assert!(checked > 100_000, "{checked}");
    }
}

/// Checks every spelling of every legal move in every fifth position of the games of master
/// play, annotated games and puzzles among `files`; returns how many spellings it checked.
fn every_spelling_resolves(files: Vec<(String, Vec<u8>)>) -> usize {
    let mut checked = 0;
    for (name, bytes) in files {
        if ![
            "world_matches.pgn",
            "chess-informant-sample.pgn",
            "tactics.pgn",
        ]
        .contains(&name.as_str())
        {
            continue;
        }
        for game in common::read_all(&bytes) {
            let Some(start) = game.start.clone() else {
                continue;
            };
            let positions =
                std::iter::once(start).chain(game.mainline().map(|n| n.position.clone()));
            for (i, pos) in positions.enumerate() {
                // Every fifth position keeps the test quick; they are varied enough.
                if i % 5 != 0 {
                    continue;
                }
                for &mv in pos.legal_moves().iter() {
                    for form in forms(&pos, mv) {
                        assert_eq!(resolve(&pos, &form), Ok(mv), "{form:?} in {pos}");
                        checked += 1;
                    }
                }
            }
        }
    }
    checked
}

#[test]
fn errors_by_kind() {
    // White: king e1, rooks a1 and h1 (castling rights), knights c3 (pinned by the b4 bishop)
    // and g1; Black: king e8, bishop b4.
    let pos = Position::from_fen("4k3/8/8/8/1b6/2N5/8/R3K1NR w KQ - 0 1").expect("valid");
    let illegal = |text: &str| SanError::Illegal {
        text: text.to_owned(),
    };
    let syntax = |text: &str| SanError::Syntax {
        text: text.to_owned(),
    };
    // The pinned knight cannot move; no knight reaches d2 but the pinned one.
    for text in ["Nd5", "Nc3e2", "Nd1", "Ncd1"] {
        assert_eq!(resolve(&pos, text), Err(illegal(text)), "{text}");
    }
    // The queen side is free and unattacked (the knight shields e1 from the bishop); the g1
    // knight stands in the king side's way.
    assert_eq!(
        resolve(&pos, "O-O-O").map(|m| m.to()),
        Ok(tabla::Square::A1)
    );
    for text in ["O-O", "Qd1", "e5", "Kg1", "exd5"] {
        assert_eq!(resolve(&pos, text), Err(illegal(text)), "{text}");
    }
    for text in ["Zz", "N", "", "a9", "Nf3e", "Rb1x"] {
        assert_eq!(resolve(&pos, text), Err(syntax(text)), "{text}");
    }
    assert_eq!(
        resolve(&pos, "Ne2").map(|m| m.from()),
        Ok(tabla::Square::G1)
    );
    // Bytes that are not UTF-8 are not a move.
    assert!(matches!(
        pos.parse_san_bytes(b"N\xe9f3", SanMode::Lenient),
        Err(SanError::Syntax { .. })
    ));
    // Two free knights reach d2: ambiguous, with both candidates.
    let two = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").expect("valid");
    match resolve(&two, "Nd2") {
        Err(SanError::Ambiguous { candidates, .. }) => assert_eq!(candidates, ["Nbd2", "Nfd2"]),
        other => panic!("{other:?}"),
    }
}
