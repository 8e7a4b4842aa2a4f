//! `tabla convert` through the real binary, its Parquet files read back with the parquet crate.
//! Expectations: python-chess's replay of the PGN files of testdata/pgn and of the corpus, when
//! it is there (`testdata/pgn_reference.tsv`, `testdata/corpus_pgn_reference.tsv`), the Polyglot
//! keys published with the book format (hgm.nubati.net/book_format.html), and the files' own date
//! tags (counted with grep).

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Int64Type, UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use common::{PgnSet, tabla};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// `testdata/pgn/<name>`.
fn pgn_data(name: &str) -> PathBuf {
    common::testdata().dir.join(name)
}

/// A fresh output directory for one test.
fn out_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("convert-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn utf8(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Per file of testdata/pgn: (plies, final FEN) of each game, from python-chess.
fn reference() -> BTreeMap<String, Vec<common::Expected>> {
    common::testdata().reference()
}

/// python-chess writes the en-passant square only when a capture is legal, tabla after every
/// double push: compare the other fields.
fn without_ep(fen: &str) -> String {
    let v: Vec<&str> = fen.split(' ').collect();
    format!("{} {} {} {} {}", v[0], v[1], v[2], v[4], v[5])
}

/// Every complete Parquet file under `dir` with the values of its `year=`/`month=` directories
/// (0 for Hive's default partition, an unknown date).
fn parquet_files(dir: &Path) -> Vec<(PathBuf, u32, u32)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable output directory") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                let part = |i: usize, key: &str| {
                    let name = path
                        .ancestors()
                        .nth(i)
                        .and_then(Path::file_name)
                        .expect("partition directory")
                        .to_string_lossy();
                    let value = name.strip_prefix(key).expect("a key=value directory");
                    value.parse().unwrap_or(0)
                };
                let (month, year) = (part(1, "month="), part(2, "year="));
                found.push((path, year, month));
            }
        }
    }
    found.sort();
    found
}

fn batches(path: &Path) -> Vec<RecordBatch> {
    let file = std::fs::File::open(path).expect("parquet file");
    ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("parquet metadata")
        .build()
        .expect("parquet reader")
        .map(|batch| batch.expect("record batch"))
        .collect()
}

/// One row of the games table (the columns these tests look at).
#[derive(Debug)]
struct GameRow {
    game_id: u64,
    event: Option<String>,
    utc_date: Option<i32>,
    uci: Vec<String>,
    plies: u32,
    final_fen: Option<String>,
    error: Option<String>,
    /// The year and month of the file's `year=`/`month=` directories.
    partition: (u32, u32),
}

fn games(out: &Path) -> Vec<GameRow> {
    let mut rows = Vec::new();
    for (path, year, month) in parquet_files(&out.join("games")) {
        assert!(
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("part-")),
            "{}",
            path.display()
        );
        for batch in batches(&path) {
            let col = |name: &str| batch.column_by_name(name).expect(name).clone();
            let (game_id, plies) = (col("game_id"), col("plies"));
            let game_id = game_id.as_primitive::<Int64Type>();
            let plies = plies.as_primitive::<UInt32Type>();
            let (event, fen, error) = (col("event"), col("final_fen"), col("error"));
            let text = |array: &dyn Array, i: usize| {
                let array = array.as_string::<i32>();
                array.is_valid(i).then(|| array.value(i).to_owned())
            };
            let utc_date = col("utc_date");
            let utc_date = utc_date.as_primitive::<Date32Type>();
            let uci = col("uci");
            let uci = uci.as_list::<i32>();
            for i in 0..batch.num_rows() {
                let moves = uci.value(i);
                let moves = moves.as_string::<i32>();
                rows.push(GameRow {
                    game_id: game_id.value(i) as u64,
                    event: text(&event, i),
                    utc_date: utc_date.is_valid(i).then(|| utc_date.value(i)),
                    uci: (0..moves.len())
                        .map(|j| moves.value(j).to_owned())
                        .collect(),
                    plies: plies.value(i),
                    final_fen: text(&fen, i),
                    error: text(&error, i),
                    partition: (year, month),
                });
            }
        }
    }
    rows
}

/// One row of the positions table.
#[derive(Debug)]
struct PositionRow {
    zobrist: u64,
    game_id: u64,
    ply: u32,
    fen: String,
    uci: Option<String>,
}

/// The positions, file by file (each file is sorted on its own).
fn positions(out: &Path) -> Vec<Vec<PositionRow>> {
    let mut files = Vec::new();
    for (path, _, _) in parquet_files(&out.join("positions")) {
        let mut rows = Vec::new();
        for batch in batches(&path) {
            let col = |name: &str| batch.column_by_name(name).expect(name).clone();
            let (zobrist, game_id, ply) = (col("zobrist"), col("game_id"), col("ply"));
            let zobrist = zobrist.as_primitive::<UInt64Type>();
            let game_id = game_id.as_primitive::<Int64Type>();
            let ply = ply.as_primitive::<UInt32Type>();
            let (fen, uci) = (col("fen"), col("uci"));
            let (fen, uci) = (fen.as_string::<i32>(), uci.as_string::<i32>());
            for i in 0..batch.num_rows() {
                rows.push(PositionRow {
                    zobrist: zobrist.value(i),
                    game_id: game_id.value(i) as u64,
                    ply: ply.value(i),
                    fen: fen.value(i).to_owned(),
                    uci: uci.is_valid(i).then(|| uci.value(i).to_owned()),
                });
            }
        }
        files.push(rows);
    }
    files
}

/// (plies, final FEN without the en-passant field) of each game, sorted, to compare as multisets.
fn sorted_endings<'a>(games: impl IntoIterator<Item = (u32, &'a str)>) -> Vec<(u32, String)> {
    let mut endings: Vec<(u32, String)> = games
        .into_iter()
        .map(|(plies, fen)| (plies, without_ep(fen)))
        .collect();
    endings.sort();
    endings
}

#[test]
fn every_testdata_file_converts_to_python_chess_replay() {
    converts_to_python_chess_replay(&common::testdata(), "testdata");
}

#[test]
fn every_corpus_file_converts_to_python_chess_replay() {
    if let Some(corpus) = common::corpus() {
        converts_to_python_chess_replay(&corpus, "corpus");
    }
}

fn converts_to_python_chess_replay(set: &PgnSet, name: &str) {
    let reference = set.reference();
    let out = out_dir(name);
    let mut args = vec!["convert".to_owned()];
    args.extend(reference.keys().map(|f| common::pgn_arg(set, f)));
    args.extend(["--out", utf8(&out), "--threads", "2"].map(str::to_owned));
    let run = tabla(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(run.code, 0, "{}", run.stderr);

    let expected = sorted_endings(
        reference
            .values()
            .flatten()
            .map(|g| (g.plies, g.fen.as_str())),
    );
    let rows = games(&out);
    assert_eq!(
        run.last_line(),
        format!(
            "games {}, errors 0, warnings 0, positions 0, files {}",
            expected.len(),
            { parquet_files(&out.join("games")).len() }
        )
    );
    assert!(rows.iter().all(|g| g.error.is_none()));
    assert!(rows.iter().all(|g| g.uci.len() == g.plies as usize));
    let got = sorted_endings(
        rows.iter()
            .map(|g| (g.plies, g.final_fen.as_deref().expect("a final FEN"))),
    );
    assert_eq!(got, expected);
    let mut ids: Vec<u64> = rows.iter().map(|g| g.game_id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), rows.len(), "game ids are distinct");
    assert!(!out.join("positions").exists());
}

#[test]
fn games_are_partitioned_by_the_month_of_their_date_tags() {
    // `grep -c '^\[UTCDate "2025.05'` gives 80 for the lichess file (all its games), and
    // `grep -c '^\[Date "2025.06'` 60 for the TWIC file (all its games, which have no UTCDate).
    let out = out_dir("partitions");
    let lichess = pgn_data("lichess_db_1000k.pgn");
    let twic = pgn_data("twic1599_1000k.pgn");
    let run = tabla(&["convert", utf8(&lichess), utf8(&twic), "--out", utf8(&out)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut per_partition: BTreeMap<(u32, u32), usize> = BTreeMap::new();
    for game in games(&out) {
        *per_partition.entry(game.partition).or_default() += 1;
    }
    assert_eq!(
        per_partition,
        BTreeMap::from([((2025, 5), 80), ((2025, 6), 60)])
    );
}

#[test]
fn numbered_games_on_one_thread_follow_the_inputs() {
    // The 80 games of the lichess file (its partition 2025-05, as above), then the 60 of the
    // TWIC file (2025-06): numbered from 7 in that order, each number once.
    let out = out_dir("numbered");
    let lichess = pgn_data("lichess_db_1000k.pgn");
    let twic = pgn_data("twic1599_1000k.pgn");
    let run = tabla(&[
        "convert",
        utf8(&lichess),
        utf8(&twic),
        "--out",
        utf8(&out),
        "--threads",
        "1",
        "--number-games",
        "7",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut ids: Vec<(u64, (u32, u32))> = games(&out)
        .into_iter()
        .map(|g| (g.game_id, g.partition))
        .collect();
    ids.sort_unstable();
    let want: Vec<(u64, (u32, u32))> = (7..147)
        .map(|id| (id, if id < 87 { (2025, 5) } else { (2025, 6) }))
        .collect();
    assert_eq!(ids, want);
}

#[test]
fn positions_carry_polyglot_keys_up_to_max_ply() {
    const MAX_PLY: u32 = 8;
    let out = out_dir("positions");
    let lichess = pgn_data("lichess_db_1000k.pgn");
    let run = tabla(&[
        "convert",
        utf8(&lichess),
        "--out",
        utf8(&out),
        "--positions",
        "--max-ply",
        &MAX_PLY.to_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);

    // One row per position from the start (ply 0) to the last move or MAX_PLY.
    let reference = &reference()["lichess_db_1000k.pgn"];
    let expected_rows: u64 = reference
        .iter()
        .map(|g| u64::from(g.plies.min(MAX_PLY)) + 1)
        .sum();
    assert_eq!(
        run.last_line(),
        format!(
            "games {}, errors 0, warnings 0, positions {expected_rows}, files {}",
            reference.len(),
            parquet_files(&out.join("games")).len() + parquet_files(&out.join("positions")).len()
        )
    );

    // Published Polyglot keys of the positions after these moves.
    let published: [(&[&str], u64); 3] = [
        (&[], 0x463b_9618_1691_fc9c),
        (&["e2e4"], 0x823c_9b50_fd11_4196),
        (&["e2e4", "d7d5"], 0x0756_b944_61c5_0fb0),
    ];
    let games: HashMap<u64, GameRow> = games(&out).into_iter().map(|g| (g.game_id, g)).collect();
    let mut rows = 0;
    let mut checked_keys = [0; 3];
    for file in positions(&out) {
        assert!(
            file.windows(2).all(|w| w[0].zobrist <= w[1].zobrist),
            "a positions file is sorted by zobrist"
        );
        for pos in file {
            rows += 1;
            let game = &games[&pos.game_id];
            assert!(pos.ply <= MAX_PLY.min(game.plies));
            // The move that led to the position is the game's move at that ply.
            let ply = pos.ply as usize;
            assert_eq!(pos.uci, ply.checked_sub(1).map(|i| game.uci[i].clone()));
            if pos.ply == game.plies {
                assert_eq!(Some(&pos.fen), game.final_fen.as_ref());
            }
            for (i, (moves, key)) in published.iter().enumerate() {
                if game.uci.len() >= moves.len()
                    && game.uci[..moves.len()] == **moves
                    && ply == moves.len()
                {
                    assert_eq!(pos.zobrist, *key, "after {moves:?}: {}", pos.fen);
                    checked_keys[i] += 1;
                }
            }
        }
    }
    assert_eq!(rows, expected_rows);
    // Every game has a start position; `grep -c '^1\. e4 d5'` finds 8 lichess games opening
    // 1.e4 d5.
    assert_eq!(checked_keys[0], reference.len());
    assert_eq!(checked_keys[2], 8);
}

#[test]
fn a_damaged_game_is_kept_with_its_error() {
    let pgn = "[Event \"one\"]\n[UTCDate \"2024.02.29\"]\n\n1. e4 e5 2. Nf3 *\n\n\
               [Event \"two\"]\n[UTCDate \"2024.02.29\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
               [Event \"three\"]\n[UTCDate \"2024.02.29\"]\n\n1. d4 d5 *\n";
    let input = common::scratch_file("convert-damaged.pgn", pgn);
    let out = out_dir("damaged");
    let run = tabla(&[
        "convert",
        utf8(&input),
        "--out",
        utf8(&out),
        "--threads",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.last_line(),
        "games 3, errors 1, warnings 0, positions 0, files 1"
    );
    let mut rows = games(&out);
    rows.sort_by(|a, b| a.event.cmp(&b.event));
    let summary: Vec<(Option<&str>, Vec<&str>, bool)> = rows
        .iter()
        .map(|g| {
            let uci = g.uci.iter().map(String::as_str).collect();
            (g.event.as_deref(), uci, g.error.is_some())
        })
        .collect();
    assert_eq!(
        summary,
        [
            (Some("one"), vec!["e2e4", "e7e5", "g1f3"], false),
            (Some("three"), vec!["d2d4", "d7d5"], false),
            (Some("two"), vec!["e2e4", "e7e5"], true),
        ]
    );
    let error = rows[2].error.as_deref().unwrap_or_default();
    assert!(error.contains("Ke3"), "{error}");
    // 2024-02-29 is day 19,782 after 1970-01-01 (`date -d 2024-02-29 +%s` / 86400).
    assert!(rows.iter().all(|g| g.utc_date == Some(19_782)));
    assert!(rows.iter().all(|g| g.partition == (2024, 2)));
}

#[test]
fn standard_input_converts_like_the_file() {
    let out = out_dir("stdin");
    let text = std::fs::read(pgn_data("lichess_db_1000k.pgn")).expect("testdata PGN");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabla"))
        .args(["convert", "-", "--out", utf8(&out), "--threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabla binary runs");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&text));
    let output = child.wait_with_output().expect("tabla finishes");
    writer
        .join()
        .expect("writer thread")
        .expect("stdin written");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let reference = &reference()["lichess_db_1000k.pgn"];
    let expected = sorted_endings(reference.iter().map(|g| (g.plies, g.fen.as_str())));
    let rows = games(&out);
    let got = sorted_endings(
        rows.iter()
            .map(|g| (g.plies, g.final_fen.as_deref().expect("a final FEN"))),
    );
    assert_eq!(got, expected);
}

#[test]
fn bad_input_and_usage_exit_with_status_2() {
    let out = out_dir("bad");
    let lichess = pgn_data("lichess_db_1000k.pgn");
    let missing = common::scratch_file("convert-present.pgn", "").with_file_name("no-such.pgn");

    let run = tabla(&["convert", utf8(&missing), "--out", utf8(&out)]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot open"), "{}", run.stderr);
    assert!(run.stderr.contains("no-such.pgn"), "{}", run.stderr);

    // Two inputs named alike would give their games the same ids.
    let copy = common::scratch_file("lichess_db_1000k.pgn", "1. e4 *\n");
    let run = tabla(&["convert", utf8(&lichess), utf8(&copy), "--out", utf8(&out)]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("same file name"), "{}", run.stderr);

    let run = tabla(&["convert", "-", "-", "--out", utf8(&out)]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("standard input"), "{}", run.stderr);

    // The output directory cannot be a file.
    let file = common::scratch_file("convert-not-a-directory", "");
    let run = tabla(&["convert", utf8(&lichess), "--out", utf8(&file)]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot create"), "{}", run.stderr);

    // Usage: --max-ply needs --positions, threads cannot be 0, --out and an input are needed.
    for args in [
        vec![
            "convert",
            utf8(&lichess),
            "--out",
            utf8(&out),
            "--max-ply",
            "4",
        ],
        vec![
            "convert",
            utf8(&lichess),
            "--out",
            utf8(&out),
            "--threads",
            "0",
        ],
        vec!["convert", utf8(&lichess)],
        vec!["convert", "--out", utf8(&out)],
    ] {
        let run = tabla(&args);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.starts_with("error:"), "{args:?}: {}", run.stderr);
    }
}

/// The rows of every Parquet file of `out/games`.
fn game_rows(out: &Path) -> usize {
    parquet_files(&out.join("games"))
        .iter()
        .flat_map(|(path, _, _)| batches(path))
        .map(|b| b.num_rows())
        .sum()
}

#[test]
fn converting_the_same_content_again_adds_nothing_unless_forced() {
    let out = out_dir("again");
    let lichess = pgn_data("lichess_db_1000k.pgn");
    let first = tabla(&["convert", utf8(&lichess), "--out", utf8(&out)]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let games = game_rows(&out);
    assert!(games > 0);
    assert!(out.join(tabla_convert::INPUTS_RECORD).is_file());

    // The same file, and the same bytes under another name (given twice, too): skipped and
    // said so, with the earlier name; no row added.
    let copy = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("again-renamed.pgn");
    std::fs::copy(&lichess, &copy).expect("copy");
    for args in [
        vec![utf8(&lichess)],
        vec![utf8(&copy)],
        vec![utf8(&copy), utf8(&lichess)],
    ] {
        let mut argv = vec!["convert"];
        argv.extend(&args);
        argv.extend(["--out", utf8(&out)]);
        let run = tabla(&argv);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stderr.contains("skipped"), "{}", run.stderr);
        assert!(
            run.stderr.contains("lichess_db_1000k.pgn"),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains("nothing converted"), "{}", run.stderr);
        assert_eq!(game_rows(&out), games, "{args:?}");
    }

    // A new file with one already converted: the new one only.
    let tactics = pgn_data("tactics.pgn");
    let run = tabla(&[
        "convert",
        utf8(&lichess),
        utf8(&tactics),
        "--out",
        utf8(&out),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("nothing converted"), "{}", run.stderr);
    let with_tactics = game_rows(&out);
    assert!(with_tactics > games);

    // --force converts it again: its games are there twice.
    let run = tabla(&["convert", utf8(&lichess), "--out", utf8(&out), "--force"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(game_rows(&out), with_tactics + games);
}

/// `game_id` → `result` of every game `tabla convert` wrote into `out`.
fn results(out: &Path) -> BTreeMap<u64, Option<String>> {
    let mut rows = BTreeMap::new();
    for (path, _, _) in parquet_files(&out.join("games")) {
        for batch in batches(&path) {
            let col = |name: &str| batch.column_by_name(name).expect(name).clone();
            let (game_id, result) = (col("game_id"), col("result"));
            let game_id = game_id.as_primitive::<Int64Type>();
            let result = result.as_string::<i32>();
            for i in 0..batch.num_rows() {
                let value = result.is_valid(i).then(|| result.value(i).to_owned());
                rows.insert(game_id.value(i) as u64, value);
            }
        }
    }
    rows
}

/// One result per game (issue 55): `tabla convert`'s `result` column is, game by game, the
/// game tree's `Game::result` (tabla_pgn::game_result), in standard form, over every file of
/// testdata/pgn, testdata/results (every spelling by hand) and the corpus. On one thread with
/// numbered ids the games come in the order of the inputs, so the n-th game read is id n.
#[test]
fn every_games_result_is_the_game_trees() {
    let mut sets = vec![
        ("pgn", common::testdata().dir),
        ("results", common::testdata().dir.with_file_name("results")),
    ];
    // (`corpus()` says when the corpus is skipped, and fails under TABLA_REQUIRE_CORPUS=1.)
    if let Some(corpus) = tabla_testdata::corpus() {
        sets.push(("corpus", corpus.dir));
    }
    for (name, dir) in sets {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("a folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect();
        paths.sort();
        let mut want = Vec::new();
        for path in &paths {
            let bytes = std::fs::read(path).expect("read");
            for game in tabla_pgn::Reader::new(&bytes[..]).games() {
                let result = game.expect("a game").result();
                assert!(["1-0", "0-1", "1/2-1/2", "*"].contains(&result));
                want.push(result.to_owned());
            }
        }
        let out = out_dir(&format!("results-{name}"));
        let mut args = vec!["convert", "--out", utf8(&out), "--threads", "1"];
        args.extend(["--number-games", "1"]);
        args.extend(paths.iter().map(|p| utf8(p)));
        let run = tabla(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let got = results(&out);
        assert_eq!(got.len(), want.len(), "{name}: games");
        for (i, (id, result)) in got.iter().enumerate() {
            assert_eq!(*id, i as u64 + 1, "{name}: ids");
            assert_eq!(
                result.as_deref(),
                Some(want[i].as_str()),
                "{name}: game {id}"
            );
        }
    }
}
