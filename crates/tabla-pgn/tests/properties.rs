//! Property tests: random games with random annotations survive read -> write -> read, and the
//! writer is a fixed point; random bytes never panic the reader.

mod common;

use common::{dump_game, dump_moves, read_all};
use proptest::prelude::*;
use tabla::Position;
use tabla_pgn::write_game;

/// One step of a random game: which legal move, and what to hang on it.
#[derive(Clone, Debug)]
struct Step {
    choice: usize,
    nag: Option<u8>,
    comment: Option<String>,
    variation: Option<usize>,
}

fn step() -> impl Strategy<Value = Step> {
    (
        any::<usize>(),
        proptest::option::weighted(0.2, any::<u8>()),
        proptest::option::weighted(0.2, "[a-zA-Z0-9 .,!?%:#+()\\[\\]-]{0,30}"),
        proptest::option::weighted(0.15, any::<usize>()),
    )
        .prop_map(|(choice, nag, comment, variation)| Step {
            choice,
            nag,
            comment,
            variation,
        })
}

/// PGN movetext for a random walk, with one-move variations hung on some moves.
fn movetext(steps: &[Step]) -> String {
    let mut pos = Position::startpos();
    let mut text = String::new();
    for s in steps {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[s.choice % moves.len()];
        let number = if pos.turn() == tabla::Color::White {
            format!("{}. ", pos.fullmoves())
        } else {
            format!("{}... ", pos.fullmoves())
        };
        text.push_str(&number);
        text.push_str(&pos.san(mv));
        if let Some(n) = s.nag {
            text.push_str(&format!(" ${n}"));
        }
        if let Some(c) = &s.comment {
            text.push_str(&format!(" {{{c}}}"));
        }
        if let Some(v) = s.variation {
            let alt = moves[v % moves.len()];
            text.push_str(&format!(" ({number}{} {{alt}})", pos.san(alt)));
        }
        text.push(' ');
        pos.play(mv).expect("a legal move");
    }
    text.push('*');
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_annotated_games_round_trip(steps in proptest::collection::vec(step(), 0..60)) {
        let pgn = format!("[Event \"random\"]\n\n{}\n", movetext(&steps));
        let first = read_all(pgn.as_bytes());
        prop_assert_eq!(first.len(), 1);
        prop_assert!(first[0].problems.is_empty(), "{:?}\n{}", first[0].problems, pgn);
        let written = write_game(&first[0]);
        let second = read_all(written.as_bytes());
        prop_assert_eq!(second.len(), 1);
        prop_assert_eq!(dump_moves(&second[0]), dump_moves(&first[0]));
        prop_assert_eq!(write_game(&second[0]), written);
    }

    #[test]
    fn random_bytes_read_the_same_in_ranges(bytes in proptest::collection::vec(any::<u8>(), 0..400), cut in 0usize..400) {
        let games: Vec<String> = read_all(&bytes).iter().map(dump_game).collect();
        let cut = (cut % (bytes.len() + 1)) as u64;
        let mut ranged = Vec::new();
        for (start, end) in [(0, cut), (cut, bytes.len() as u64)] {
            let mut reader = tabla_pgn::Reader::range(std::io::Cursor::new(&bytes), start, end)
                .expect("in memory");
            ranged.extend(reader.games().map(|g| dump_game(&g.expect("in memory"))));
        }
        prop_assert_eq!(ranged, games);
    }
}
