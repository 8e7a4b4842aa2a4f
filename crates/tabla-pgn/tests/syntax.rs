//! The import rules and habits the reader honours, one by one, with hand-checked expectations.

mod common;

use common::read_all;
use std::time::Duration;
use tabla_pgn::{ErrorKind, Eval, MAX_TREE_DEPTH, Nag, Outcome, Reader, write_game};

fn sans(game: &tabla_pgn::Game) -> Vec<&str> {
    game.mainline().map(|n| n.san.as_str()).collect()
}

#[test]
fn tag_escapes_and_two_tags_on_a_line() {
    let games = read_all(
        br#"[Event "A \"quoted\" \\ back"] [Site "S"]
[White "W"]

1. e4 *"#,
    );
    let g = &games[0];
    assert_eq!(g.tag("Event"), Some(r#"A "quoted" \ back"#));
    assert_eq!(g.tag("Site"), Some("S"));
    assert_eq!(g.tag("White"), Some("W"));
    assert!(g.problems.is_empty());
    // And they are escaped again on output.
    assert!(write_game(g).contains(r#"[Event "A \"quoted\" \\ back"]"#));
}

#[test]
fn comments_of_every_kind_and_escape_lines() {
    let pgn = "%escaped line, ignored\n[Event \"x\"]\n\n1. e4 ; rest of line\n\
               e5 {spans\ntwo lines} 2. Nf3\n%another escape\n2... Nc6 *";
    let g = &read_all(pgn.as_bytes())[0];
    assert_eq!(sans(g), ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(g.moves.nodes[0].comments_after[0].text, "rest of line");
    assert_eq!(g.moves.nodes[1].comments_after[0].text, "spans two lines");
    assert!(g.problems.is_empty(), "{:?}", g.problems);
}

#[test]
fn move_numbers_missing_repeated_or_glued() {
    for pgn in [
        "e4 e5 Nf3 Nc6 *",
        "1. e4 1... e5 2. 2. Nf3 2... Nc6 *",
        "1.e4 e5 2.Nf3 2...Nc6 *",
        "1 e4 e5 2 Nf3 Nc6 *",
        "1. e4 e5 . 2. Nf3 .. Nc6 *",
    ] {
        let g = &read_all(pgn.as_bytes())[0];
        assert_eq!(sans(g), ["e4", "e5", "Nf3", "Nc6"], "{pgn}");
        assert!(g.problems.is_empty(), "{pgn}: {:?}", g.problems);
    }
}

#[test]
fn lenient_move_forms() {
    let pgn = "1. e2-e4 e7e5 2. Ng1f3 Nb8-c6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0 Be7 *";
    let g = &read_all(pgn.as_bytes())[0];
    assert_eq!(
        sans(g),
        [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"
        ]
    );
    assert_eq!(g.moves.nodes[0].san_written, "e2-e4");
    assert_eq!(g.moves.nodes[8].long(), "O-O");
}

#[test]
fn nags_and_suffix_glyphs() {
    let pgn = "1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! $10 4. Ba4 $255 $0 +- *";
    let g = &read_all(pgn.as_bytes())[0];
    let nags: Vec<Vec<u8>> = g
        .mainline()
        .map(|n| n.nags.iter().map(|n| n.0).collect())
        .collect();
    assert_eq!(
        nags,
        [
            vec![1],
            vec![2],
            vec![3],
            vec![4],
            vec![5],
            vec![6, 10],
            vec![255, 0, 18]
        ]
    );
    assert!(g.problems.is_empty());
    assert!(
        write_game(g)
            .contains("1. e4 $1 e5 $2 2. Nf3 $3 Nc6 $4 3. Bb5 $5 a6 $6 $10 4. Ba4 $255 $0 $18")
    );
}

#[test]
fn variations_nest_and_may_open_with_a_comment_or_nag() {
    let pgn = "1. e4 ( {Or} $140 1. d4 d5 ( 1... Nf6 2. c4 ( 2. Nf3 g6 ( 2... e6 ) ) ) 2. c4 ) \
               1... e5 ( 1... c5 ) *";
    let g = &read_all(pgn.as_bytes())[0];
    assert!(g.problems.is_empty(), "{:?}", g.problems);
    assert_eq!(sans(g), ["e4", "e5"]);
    let d4_line = &g.moves.nodes[0].variations[0];
    let d4 = &d4_line.nodes[0];
    assert_eq!(d4.san, "d4");
    assert_eq!(d4.comments_before[0].text, "Or");
    assert_eq!(d4.nags_before, [Nag(140)]);
    let nf6_line = &d4_line.nodes[1].variations[0];
    let nf3_line = &nf6_line.nodes[1].variations[0];
    let e6_line = &nf3_line.nodes[1].variations[0];
    assert_eq!(e6_line.nodes[0].san, "e6");
    assert_eq!(
        e6_line.nodes[0].fen(),
        "rnbqkb1r/pppp1ppp/4pn2/8/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 0 3"
    );
    assert_eq!(g.moves.nodes[1].variations[0].nodes[0].san, "c5");
}

#[test]
fn deep_nesting_is_read_and_bounded_in_trees() {
    // The visitor level reads any depth (it keeps its own stack, no recursion).
    let depth = 100_000;
    let pgn = format!("1. e4 {} *", "( 1. d4 ".repeat(depth) + &") ".repeat(depth));
    let mut reader = Reader::new(pgn.as_bytes());
    let summary = reader
        .read_game(&mut tabla_pgn::Replayer::new(tabla_pgn::Summarize::new(
            false,
        )))
        .expect("reads")
        .expect("a game");
    assert!(summary.problems.is_empty());
    assert_eq!(summary.plies, 1);
    // Trees stop at MAX_TREE_DEPTH, with an error, and can be written, compared and dropped.
    let g = &read_all(pgn.as_bytes())[0];
    assert_eq!(g.problems.len(), 1);
    assert_eq!(
        g.problems[0].kind,
        ErrorKind::VariationTooDeep {
            limit: MAX_TREE_DEPTH
        }
    );
    let mut line = &g.moves;
    let mut seen = 0;
    while let Some(v) = line.nodes.first().and_then(|n| n.variations.first()) {
        line = v;
        seen += 1;
    }
    assert_eq!(seen, MAX_TREE_DEPTH);
    let written = write_game(g);
    let again = &read_all(written.as_bytes())[0];
    assert_eq!(again.moves, g.moves);
    assert!(tabla_pgn::game_json(again).starts_with('{'));
}

#[test]
fn null_moves() {
    let g = &read_all(b"1. e4 -- 2. d4 Z0 3. c4 e5 *")[0];
    assert!(g.problems.is_empty(), "{:?}", g.problems);
    assert_eq!(sans(g), ["e4", "--", "d4", "--", "c4", "e5"]);
    assert_eq!(
        g.final_position().expect("start").to_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/2PPP3/8/PP3PPP/RNBQKBNR w KQkq e6 0 4"
    );
    assert_eq!(g.moves.nodes[1].uci(), "0000");
}

#[test]
fn results() {
    let games = read_all(b"1. e4 1-0 1. d4 0-1 1. c4 1/2-1/2 1. Nf3 * 1. g3");
    let outcomes: Vec<_> = games.iter().map(|g| g.outcome).collect();
    assert_eq!(
        outcomes,
        [
            Some(Outcome::WhiteWins),
            Some(Outcome::BlackWins),
            Some(Outcome::Draw),
            Some(Outcome::Unknown),
            None
        ]
    );
    assert_eq!(games[4].result(), "*");
}

#[test]
fn bom_crlf_and_latin1() {
    let mut pgn = b"\xef\xbb\xbf[Event \"Dortmund\"]\r\n[White \"M\xfcller\"]\r\n\r\n1. e4 {Sch\xf6n} e5 *\r\n".to_vec();
    pgn.extend_from_slice(
        "[Event \"UTF-8\"]\r\n[White \"M\u{fc}ller\"]\r\n\r\n1. d4 *\r\n".as_bytes(),
    );
    let games = read_all(&pgn);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("Dortmund"));
    assert_eq!(games[0].tag("White"), Some("M\u{fc}ller"));
    assert_eq!(games[0].moves.nodes[0].comments_after[0].text, "Sch\u{f6}n");
    assert_eq!(games[1].tag("White"), Some("M\u{fc}ller"));
    assert_eq!(games[0].location.line, 1);
    assert_eq!(games[1].location.line, 5);
}

#[test]
fn tags_only_and_movetext_only() {
    let games = read_all(b"[Event \"tags only\"]\n\n\n1. e4 e5 *\n");
    assert_eq!(games.len(), 1, "one game: tags then movetext");
    let games = read_all(b"[Event \"A\"]\n[Result \"*\"]\n\n*\n\n[Event \"B\"]\n\n");
    assert_eq!(games.len(), 2);
    assert!(games[1].moves.nodes.is_empty() && games[1].outcome.is_none());
    assert_eq!(
        games[1].final_position().map(|p| p.to_fen()).as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
    let games = read_all(b"1. e4 e5 2. Nf3\n");
    assert_eq!(
        (games.len(), games[0].tags.len(), sans(&games[0]).len()),
        (1, 0, 3)
    );
}

#[test]
fn setup_and_fen_start_positions() {
    let pgn = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 41. e4 *";
    let g = &read_all(pgn.as_bytes())[0];
    assert!(g.problems.is_empty(), "{:?}", g.problems);
    assert_eq!(sans(g), ["Kd7", "e4"]);
    assert_eq!(
        g.final_position().expect("start").to_fen(),
        "8/3k4/8/8/4P3/8/8/4K3 b - e3 0 41"
    );
    let written = write_game(g);
    assert!(written.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]"));
    assert!(written.contains("40... Kd7 41. e4 *"), "{written}");
}

#[test]
fn comment_commands() {
    let pgn = "1. e4 { [%eval 0.17] [%clk 0:05:00] } 1... e5 { [%emt 0:00:03] Good [%eval #-3] } \
               2. Nf3 { [%csl Gd4,Re5][%cal Ge2e4] arrows } *";
    let g = &read_all(pgn.as_bytes())[0];
    let c0 = &g.moves.nodes[0].comments_after[0];
    assert_eq!(
        (c0.eval, c0.clock),
        (Some(Eval::Cp(17)), Some(Duration::from_secs(300)))
    );
    let c1 = &g.moves.nodes[1].comments_after[0];
    assert_eq!(
        (c1.emt, c1.eval),
        (Some(Duration::from_secs(3)), Some(Eval::Mate(-3)))
    );
    assert_eq!(c1.text, "Good");
    let c2 = &g.moves.nodes[2].comments_after[0];
    assert_eq!(c2.shapes.len(), 3);
    assert_eq!(c2.text, "arrows");
}

#[test]
fn text_evaluations_and_ep_marks() {
    let g = &read_all(b"1. e4 d5 2. e5 f5 3. exf6 e.p. += 3... Nxf6 -/+ *")[0];
    assert!(g.problems.is_empty(), "{:?}", g.problems);
    assert_eq!(sans(g), ["e4", "d5", "e5", "f5", "exf6", "Nxf6"]);
    assert_eq!(g.moves.nodes[4].nags, [Nag(14)]);
    assert_eq!(g.moves.nodes[5].nags, [Nag(17)]);
}

#[test]
fn games_without_blank_lines_between() {
    let games = read_all(b"[Event \"1\"]\n1. e4 *\n[Event \"2\"]\n1. d4\n[Event \"3\"]\n1. c4 *");
    let events: Vec<_> = games.iter().map(|g| g.tag("Event")).collect();
    assert_eq!(events, [Some("1"), Some("2"), Some("3")]);
    assert_eq!(sans(&games[1]), ["d4"]);
}

#[test]
fn a_comment_over_several_lines_ends_the_tag_section() {
    let games = read_all(b"[Event \"1\"]\n{note\nover lines}\n[Site \"x\"]\n\n1. e4 *");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("1"));
    assert_eq!(games[0].moves.comments[0].text, "note over lines");
    assert_eq!(games[1].tag("Site"), Some("x"));
    // On one line, the tags go on.
    let games = read_all(b"[Event \"1\"]\n{note}\n[Site \"x\"]\n\n1. e4 *");
    assert_eq!(games.len(), 1);
}

#[test]
fn comments_after_the_result_belong_to_the_game() {
    let games = read_all(b"1. e4 e5 1-0 {White resigned? No: a note}\n\n[Event \"2\"]\n1. d4 *");
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].moves.nodes[1].comments_after[0].text,
        "White resigned? No: a note"
    );
}

#[test]
fn empty_and_blank_inputs_have_no_games() {
    for input in [
        &b""[..],
        b"\n\n  \r\n",
        b"\xef\xbb\xbf",
        b"% only an escape line\n",
    ] {
        let mut reader = Reader::new(input);
        assert!(reader.games().next().is_none(), "{input:?}");
    }
}

#[test]
fn garbage_never_panics_and_always_ends() {
    // Every prefix of a tricky text, and some binary noise.
    let tricky = "[Event \"x\\\"]\n[\n{ ( ) ; $ $9999 !!! 1-0 0-0-0 Z0 -- \u{221e} e8=Q+ [% ]\" \\";
    for end in 0..=tricky.len() {
        if tricky.is_char_boundary(end) {
            let _ = read_all(&tricky.as_bytes()[..end]);
        }
    }
    let noise: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let _ = read_all(&noise);
}
