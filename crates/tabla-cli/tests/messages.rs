//! What `tabla` says to people when something is wrong or counted: no message repeats itself
//! ("Illegal position: illegal position: …"), every file that cannot be read is named, and a
//! count of one is singular ("1 game", not "1 games").

mod common;

use common::{Run, scratch_file, tabla};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The phrase (one word or more) that `message` says twice back to back around a `: `, as in
/// "Illegal position: illegal position: no king" or "a.pgn: a.pgn: Not a directory", or two
/// words or more that open both sides of a `: ` ("the game was not reviewed: the game could
/// not…"): a wrapper that says again what the error it wraps begins with. Words compare in any
/// case, without the quotes and brackets around them.
fn repeated_phrase(message: &str) -> Option<String> {
    let words = |part: &str| -> Vec<String> {
        part.split_whitespace()
            .map(|w| {
                w.trim_matches(|c: char| "\"'`,.;()[]".contains(c))
                    .to_lowercase()
            })
            .collect()
    };
    let parts: Vec<&str> = message.split(": ").collect();
    for pair in parts.windows(2) {
        let (before, after) = (words(pair[0]), words(pair[1]));
        for n in 1..=before.len().min(after.len()) {
            let tail = &before[before.len() - n..];
            if tail == &after[..n] && tail.iter().any(|w| !w.is_empty()) {
                return Some(tail.join(" "));
            }
            // "the game was not reviewed: the game could not be read": the same opening words.
            if n >= 2 && before[..n] == after[..n] {
                return Some(before[..n].join(" "));
            }
        }
    }
    None
}

/// Every line of what `run` printed, on both streams.
fn lines(run: &Run) -> impl Iterator<Item = &str> {
    run.stderr.lines().chain(run.stdout.lines())
}

/// Asserts that no line of `run` (of `tabla args`) says a phrase twice.
fn assert_says_each_thing_once(args: &[&str], run: &Run) {
    for line in lines(run) {
        assert_eq!(
            repeated_phrase(line),
            None,
            "`tabla {}` repeats itself: {line}",
            args.join(" ")
        );
    }
}

/// A scratch directory of this test binary's run.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn arg(path: &std::path::Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// Runs `tabla args`, killed after `limit` (for `tabla serve`, which runs until stopped when it
/// starts): `None` when it had to be killed.
fn tabla_within(args: &[&str], limit: Duration) -> Option<Run> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabla"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabla binary runs");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().expect("output");
    Some(Run {
        code: output.status.code().expect("an exit status"),
        stdout: String::from_utf8(output.stdout).expect("UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8"),
    })
}

#[test]
fn the_check_sees_a_repeated_phrase() {
    for repeated in [
        "Illegal position: illegal position: a side has no king",
        "error: SQL: SQL error: ParserError(\"Expected: an SQL statement\")",
        "error: opening the endgame tables in x.pgn: x.pgn: Not a directory (os error 20)",
        "error: --engine-option \"foo\": \"foo\" is not an engine option",
        "the game was not reviewed: the game could not be read to its end",
    ] {
        assert!(repeated_phrase(repeated).is_some(), "{repeated}");
    }
    for once in [
        "error: invalid FEN \"8/8/8/8/8/8/8/K7 w - - 0 1\": illegal position: a side has no king",
        "game 1, 1:1: \"8/8 w\": invalid FEN tag: FEN has 2 fields",
        "error: cannot open d: a directory, not a PGN file",
        "games 1, moves 2, errors 1, warnings 0",
    ] {
        assert_eq!(repeated_phrase(once), None, "{once}");
    }
}

#[test]
fn bad_input_is_refused_in_words_said_once() {
    let illegal = [
        "8/8/8/8/8/8/8/K7 w - - 0 1",                               // no king
        "8/8/8/8/8/8/1k6/KQ6 w - - 0 1",                            // the side not to move in check
        "k7/8/8/8/8/8/8/K6P w - - 0 1",                             // a pawn on the back rank
        "hello world",                                              // not FEN
        "8/8/8/8/8/8/8/8",                                          // one field
        "8/8/8/8 w - - 0 1",                                        // four ranks
        "k7/8/8/8/8/8/8/K7 x - - 0 1",                              // no side to move
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", // bad castling
    ];
    let bad_tag = scratch_file(
        "messages-bad-fen-tag.pgn",
        &illegal
            .iter()
            .map(|fen| format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n1. e4 *\n\n"))
            .collect::<String>(),
    );
    let suite = scratch_file(
        "messages-bad-fens.epd",
        &illegal
            .iter()
            .map(|fen| format!("{fen} ;D1 20\n"))
            .collect::<String>(),
    );
    let batch = scratch_file("messages-bad-fens.txt", &illegal.join("\n"));
    for fen in illegal {
        for command in [
            &["fen", fen][..],
            &["go", fen, "--depth", "1"],
            &["perft", fen, "1"],
            &["tb", "probe", fen],
            &["tb", "line", fen],
            &["kbnk", "probe", fen],
        ] {
            let run = tabla(command);
            assert_eq!(run.code, 2, "tabla {command:?}: {}", run.stderr);
            assert_says_each_thing_once(command, &run);
        }
    }
    let good = scratch_file("messages-good.pgn", "1. e4 e5 *\n");
    for command in [
        &["pgn", "check", arg(&bad_tag)][..],
        &["pgn", "json", arg(&bad_tag)],
        &["pgn", "fmt", arg(&bad_tag)],
        &["pgn", "fen", arg(&bad_tag)],
        &["review", arg(&bad_tag), "--no-cache", "--depth", "1"],
        &["perft", "--epd", arg(&suite)],
        &["tb", "probe", "--batch", arg(&batch)],
        &[
            "review",
            arg(&good),
            "--engine",
            "/bin/true",
            "--engine-option",
            "foo",
        ],
        &["review", arg(&good), "--engine", "/no/such/engine"],
    ] {
        let run = tabla(command);
        assert!(
            !run.stdout.is_empty() || !run.stderr.is_empty(),
            "tabla {command:?} said nothing"
        );
        assert_says_each_thing_once(command, &run);
    }
    // `tabla serve` with a file for its tables' directory fails before it listens.
    let command = ["serve", "--port", "0", "--tb-dir", arg(&good)];
    let run = tabla_within(&command, Duration::from_secs(120)).expect("serve refuses a file");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains(arg(&good)), "{}", run.stderr);
    assert_says_each_thing_once(&command, &run);
    let command = ["serve", "--port", "0", "--engine", "/no/such/engine"];
    let run = tabla_within(&command, Duration::from_secs(120)).expect("serve refuses the engine");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_says_each_thing_once(&command, &run);
    assert!(
        !run.stderr
            .contains("starting the engine: could not start the engine"),
        "{}",
        run.stderr
    );
}

#[cfg(feature = "db")]
#[test]
fn the_database_refuses_bad_input_in_words_said_once() {
    let dir = scratch_dir("messages-db");
    let db = dir.join("games.db");
    let _ = std::fs::remove_dir_all(&db);
    let pgn = scratch_file(
        "messages-db.pgn",
        "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    );
    let run = tabla(&["db", "import", arg(&pgn), "--db", arg(&db)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let db = arg(&db);
    for command in [
        &["db", "sql", "--db", db, "SELEC 1"][..],
        &["db", "sql", "--db", db, "SELECT nosuch FROM games"],
        &["db", "sql", "--db", db, "DROP TABLE games"],
        &[
            "db",
            "explore",
            "--db",
            db,
            "--fen",
            "8/8/8/8/8/8/8/K7 w - - 0 1",
        ],
        &["db", "search", "--db", db, "--fen", "hello"],
        &["db", "search", "--db", db, "--moves", "e4 e4"],
        &["db", "search", "--db", db, "--material", "KXvK"],
        &["db", "explore", "--db", db, "--since", "1999-13"],
    ] {
        let run = tabla(command);
        assert_eq!(run.code, 2, "tabla {command:?}: {}", run.stderr);
        assert_says_each_thing_once(command, &run);
    }
}

/// The commands that read a file, each given a directory and a missing file: each says which
/// path it could not read.
#[test]
fn every_command_names_the_path_it_cannot_read() {
    let dir = scratch_dir("messages-a-directory");
    let missing = dir.join("no-such-file.pgn");
    let plain = scratch_file("messages-plain-file", "not a directory\n");
    let good = scratch_file("messages-one-game.pgn", "1. e4 e5 *\n");
    let out = scratch_dir("messages-out").join("convert");
    let out = arg(&out);
    let mut commands: Vec<Vec<&str>> = Vec::new();
    for path in [arg(&dir), arg(&missing)] {
        for c in [
            vec!["pgn", "check", path],
            vec!["pgn", "fen", path],
            vec!["pgn", "json", path],
            vec!["pgn", "fmt", path],
            vec!["convert", path, "--out", out],
            vec!["review", path, "--from-evals"],
            vec!["perft", "--epd", path],
            vec!["tb", "probe", "--batch", path],
            vec!["kbnk", "probe", "--batch", path],
        ] {
            commands.push(c);
        }
    }
    commands.push(vec![
        "review",
        arg(&good),
        "--from-evals",
        "--out",
        arg(&dir),
    ]);
    commands.push(vec!["convert", arg(&good), "--out", arg(&plain)]);
    commands.push(vec![
        "tb",
        "probe",
        "--dir",
        arg(&plain),
        "8/8/8/8/8/2k5/8/R3K3 w - - 0 1",
    ]);
    commands.push(vec!["tb", "build", "KRvK", "--dir", arg(&plain)]);
    for command in &commands {
        let run = tabla(command);
        let named = command
            .iter()
            .rev()
            .find(|a| [arg(&dir), arg(&missing), arg(&plain)].contains(a))
            .expect("a path");
        assert_eq!(run.code, 2, "tabla {command:?}: {}", run.stderr);
        assert!(
            run.stderr.contains(named),
            "tabla {}: the error does not name {named}: {}",
            command.join(" "),
            run.stderr
        );
        assert_says_each_thing_once(command, &run);
    }
}

#[cfg(feature = "db")]
#[test]
fn the_database_names_the_path_it_cannot_read() {
    let dir = scratch_dir("messages-db-directory");
    let missing = dir.join("no-such-file.pgn");
    let plain = scratch_file("messages-db-plain-file", "not a directory\n");
    let db = dir.join("new.db");
    let _ = std::fs::remove_dir_all(&db);
    for (command, named) in [
        (
            &["db", "import", arg(&missing), "--db", arg(&db)][..],
            &missing,
        ),
        (&["db", "import", arg(&dir), "--db", arg(&db)], &dir),
        (&["db", "info", "--db", arg(&plain)], &plain),
        (&["db", "info", "--db", arg(&missing)], &missing),
        (&["db", "explore", "--db", arg(&dir)], &dir),
    ] {
        let run = tabla(command);
        let named = arg(named);
        assert_eq!(run.code, 2, "tabla {command:?}: {}", run.stderr);
        assert!(
            run.stderr.contains(named),
            "tabla {command:?}: {}",
            run.stderr
        );
        assert_says_each_thing_once(command, &run);
    }
    for db in [&missing, &plain] {
        let command = ["serve", "--port", "0", "--db", arg(db)];
        let run = tabla_within(&command, Duration::from_secs(60)).expect("serve refuses it");
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains(arg(db)), "{}", run.stderr);
        assert_says_each_thing_once(&command, &run);
    }
}

/// "1 games", "1 fields", "1 errors" in any line of `run`.
fn plural_of_one(run: &Run) -> Option<&str> {
    lines(run).find(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        words.windows(2).any(|w| {
            w[0].trim_start_matches('(') == "1"
                && w[1].len() > 3
                && w[1].trim_end_matches([',', ')', ':', ';']).ends_with('s')
                && !["s", "s,", "s)", "nodes/s"].contains(&w[1])
        })
    })
}

#[test]
fn a_count_of_one_is_singular() {
    let one_error = scratch_file("messages-one-error.pgn", "1. e4 e5 2. Ke3 *\n");
    let one_game = scratch_file("messages-one-game-of-moves.pgn", "1. e4 e5 *\n");
    let tb = scratch_dir("messages-tb");
    let out = scratch_dir("messages-convert-one").join("out");
    let _ = std::fs::remove_dir_all(&out);
    let mate_in_one = "k7/8/1K6/8/8/8/7Q/8 w - - 0 1";
    let runs = [
        (
            vec!["pgn", "fen", arg(&one_error)],
            "1 game stopped early, 0 warnings",
        ),
        (vec!["fen", "8/8/8/8/8/8/8/8"], "FEN has 1 field,"),
        (vec!["fen", "8 w - - 0 1"], "has 1 rank,"),
        (
            vec!["tb", "line", "--dir", arg(&tb), mate_in_one],
            "1. Qh8# (1 ply)",
        ),
        (
            vec!["tb", "probe", "--dir", arg(&tb), mate_in_one],
            "(mates in 1 move, 1 ply)",
        ),
        (
            vec![
                "convert",
                arg(&one_game),
                "--out",
                arg(&out),
                "--threads",
                "1",
            ],
            "on 1 thread:",
        ),
    ];
    for (command, says) in &runs {
        let run = tabla(command);
        assert!(
            run.stdout.contains(says) || run.stderr.contains(says),
            "tabla {}: not {says:?}: {}{}",
            command.join(" "),
            run.stdout,
            run.stderr
        );
        assert_eq!(plural_of_one(&run), None, "tabla {command:?}");
    }
}

#[cfg(feature = "db")]
#[test]
fn the_database_counts_one_in_the_singular() {
    let dir = scratch_dir("messages-db-one");
    let db = dir.join("one.db");
    let _ = std::fs::remove_dir_all(&db);
    let pgn = scratch_file(
        "messages-db-one.pgn",
        "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    let db = arg(&db);
    let runs = [
        (
            vec!["db", "import", arg(&pgn), "--db", db, "--threads", "1"],
            "on 1 thread,",
        ),
        (
            vec!["db", "search", "--db", db, "--moves", "f3 e5 g4"],
            "1 game\n",
        ),
        (
            vec!["db", "explore", "--db", db, "--moves", "f3 e5"],
            "1 game: ",
        ),
        (vec!["db", "export", "--db", db], "exported 1 game\n"),
        (vec!["db", "info", "--db", db], "games           1\n"),
    ];
    for (command, says) in &runs {
        let run = tabla(command);
        assert_eq!(run.code, 0, "tabla {command:?}: {}", run.stderr);
        assert!(
            run.stdout.contains(says) || run.stderr.contains(says),
            "tabla {}: not {says:?}: {}{}",
            command.join(" "),
            run.stdout,
            run.stderr
        );
        assert_eq!(plural_of_one(&run), None, "tabla {command:?}");
    }
}
