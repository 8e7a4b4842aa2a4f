//! The fast SAN path agrees with the core's parser on every legal move of positions from real
//! games, in the forms people write: canonical SAN, without check signs, with a spurious or
//! missing `x`, fully disambiguated, and the long form.

mod common;

use tabla::Position;
use tabla_pgn::resolve_san;

fn forms(pos: &Position, mv: tabla::Move) -> Vec<String> {
    let san = pos.san(mv);
    let bare = san.trim_end_matches(['+', '#']).to_owned();
    let mut forms = vec![san.clone(), bare.clone(), pos.long(mv), pos.uci(mv)];
    forms.push(bare.replace('x', ""));
    if !bare.contains('x') && bare.len() > 2 {
        let (head, tail) = bare.split_at(bare.len() - 2);
        forms.push(format!("{head}x{tail}"));
    }
    if mv.role() != tabla::Role::Pawn && mv.castling_side().is_none() {
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
fn agrees_with_the_core_on_corpus_positions() {
    let mut checked = 0;
    for (name, bytes) in common::corpus() {
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
                        assert_eq!(
                            resolve_san(&pos, form.as_bytes()),
                            pos.parse_san(&form),
                            "{form:?} in {pos}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn agrees_on_errors_too() {
    let pos = Position::from_fen("4k3/8/8/8/1b6/2N5/8/R3K1NR w KQ - 0 1").expect("valid");
    for text in [
        "Nd2", "Ne2", "Nc3e2", "Kg1", "O-O-O", "Qd1", "e5", "Rb1x", "Zz", "N", "", "a9", "exd5",
    ] {
        assert_eq!(
            resolve_san(&pos, text.as_bytes()),
            pos.parse_san(text),
            "{text:?}"
        );
    }
}
