//! Converting PGN to Parquet: the same games, moves and final positions however the input is
//! cut (1, 2 and 8 threads; plain, pzstd and single-frame zstd), checked against python-chess's
//! reading of testdata/pgn and of the corpus (when it is there) and against tabla-pgn's
//! sequential reader; bad games kept with their
//! error; tags in their typed columns; partitions.

mod common;

use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tabla_convert::{ConvertError, Input, Limits, NoProgress, convert, game_id};
use tabla_pgn::Reader;

/// What must not depend on how the input was cut: everything but the id.
type Content = (
    String,
    Vec<String>,
    u32,
    Option<String>,
    Option<String>,
    Vec<String>,
    (String, String),
);

fn content(rows: &[GameRow]) -> Vec<Content> {
    let mut c: Vec<Content> = rows
        .iter()
        .map(|r| {
            (
                r.movetext.clone(),
                r.uci.clone(),
                r.plies,
                r.final_fen.clone(),
                r.error.clone(),
                r.warnings.clone(),
                r.partition.clone(),
            )
        })
        .collect();
    c.sort();
    c
}

fn assert_unique_ids(rows: &[GameRow], what: &str) {
    let mut ids: Vec<u64> = rows.iter().map(|r| r.game_id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), rows.len(), "{what}: game ids are unique");
}

/// For each game of a plain file read sequentially by tabla-pgn: its id (from the file name and
/// the game's offset, as documented) and its mainline in UCI.
fn sequential_games(path: &Path) -> Vec<(u64, Vec<String>)> {
    let name = path
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let bytes = std::fs::read(path).expect("PGN file");
    Reader::new(&bytes[..])
        .games()
        .map(|g| {
            let g = g.expect("in-memory reads do not fail");
            let id = game_id(&name, 0, g.location.offset).expect("small offsets");
            (id, g.mainline().map(|n| n.uci()).collect())
        })
        .collect()
}

#[test]
fn testdata_gives_the_same_games_on_1_2_and_8_threads_as_python_chess_reads_them() {
    same_games_as_python_chess(&testdata());
}

#[test]
fn corpus_gives_the_same_games_on_1_2_and_8_threads_as_python_chess_reads_them() {
    if let Some(corpus) = corpus() {
        same_games_as_python_chess(&corpus);
    }
}

fn same_games_as_python_chess(set: &PgnSet) {
    let files = set.paths();
    let reference = set.reference();
    let dir = tempfile::tempdir().expect("temp dir");
    let mut outputs = Vec::new();
    for threads in [1, 2, 8] {
        let out = dir.path().join(format!("t{threads}"));
        let summary = run(&options(&files, &out, threads), &Limits::default());
        let rows = read_games(&out);
        assert_eq!(
            summary.games as usize,
            rows.len(),
            "{threads} threads: summary"
        );
        assert_eq!(
            summary.input_bytes,
            files
                .iter()
                .map(|f| std::fs::metadata(f).expect("size").len())
                .sum::<u64>()
        );
        assert_unique_ids(&rows, &set.dir.to_string_lossy());
        outputs.push(rows);
    }
    assert_eq!(outputs[0], outputs[1], "1 and 2 threads");
    assert_eq!(outputs[0], outputs[2], "1 and 8 threads");
    let by_id: BTreeMap<u64, &GameRow> = outputs[0].iter().map(|r| (r.game_id, r)).collect();
    let mut total = 0;
    for path in &files {
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let expected = &reference[&name];
        let games = sequential_games(path);
        assert_eq!(games.len(), expected.len(), "{name}: games");
        for (n, ((id, uci), e)) in games.iter().zip(expected).enumerate() {
            let row = by_id
                .get(id)
                .unwrap_or_else(|| panic!("{name}: game {} missing", n + 1));
            let fen = row.final_fen.as_deref().unwrap_or_default();
            assert_eq!(
                (row.plies, fen, row.error.is_some()),
                (e.plies, e.fen.as_str(), e.errors > 0),
                "{name}: game {}",
                n + 1
            );
            assert_eq!(&row.uci, uci, "{name}: game {} moves", n + 1);
        }
        total += expected.len();
    }
    assert_eq!(outputs[0].len(), total, "no other rows");
}

/// `copies` copies of the lichess and TWIC game scores of testdata/pgn, one after the other, in
/// `dir`.
fn repeated_sample(dir: &Path, copies: usize) -> PathBuf {
    let mut text = Vec::new();
    for _ in 0..copies {
        for name in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
            text.extend(std::fs::read(testdata().dir.join(name)).expect("testdata file"));
            text.extend_from_slice(b"\n\n");
        }
    }
    let path = dir.join("sample.pgn");
    std::fs::write(&path, text).expect("write sample");
    path
}

#[test]
fn pzstd_and_zstd_files_give_the_same_games_however_they_are_cut() {
    // About 8 MB: pzstd -1 cuts it into frames of 2 MB.
    let copies = 70;
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = repeated_sample(dir.path(), copies);
    let multi = dir.path().join("multi.pgn.zst");
    // Level 1 has a small window, so pzstd cuts this input into several frames.
    pzstd(&[
        "-q",
        "-1",
        "-p",
        "2",
        "-f",
        plain.to_str().expect("utf-8 path"),
        "-o",
        multi.to_str().expect("utf-8 path"),
    ]);
    let frames = pzstd_frames(&multi);
    assert!(
        frames >= 4,
        "pzstd made {frames} frames; the test needs several"
    );
    // Renamed without `.zst`: compression is recognised by its magic bytes.
    let single = dir.path().join("single.pgn.compressed");
    zstd(&[
        "-q",
        "-f",
        plain.to_str().expect("utf-8 path"),
        "-o",
        single.to_str().expect("utf-8 path"),
    ]);

    let convert_one = |input: &PathBuf, threads: usize, tag: &str, limits: &Limits| {
        let out = dir.path().join(format!("{tag}-{threads}"));
        let summary = run(&options(std::slice::from_ref(input), &out, threads), limits);
        let rows = read_games(&out);
        assert_eq!(summary.games as usize, rows.len());
        assert_eq!(
            summary.input_bytes,
            std::fs::metadata(input).expect("size").len(),
            "{tag} on {threads} threads: input bytes"
        );
        assert_unique_ids(&rows, tag);
        rows
    };
    let defaults = Limits::default();
    let plain_rows = convert_one(&plain, 1, "plain", &defaults);
    let expected = content(&plain_rows);

    let reference = testdata().reference();
    let one_copy: Vec<(u32, String)> = ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"]
        .iter()
        .flat_map(|name| reference[*name].iter())
        .map(|e| (e.plies, e.fen.clone()))
        .collect();
    let mut expected_games: Vec<(u32, String)> =
        (0..copies).flat_map(|_| one_copy.iter().cloned()).collect();
    expected_games.sort();
    let mut got: Vec<(u32, String)> = plain_rows
        .iter()
        .map(|r| (r.plies, r.final_fen.clone().unwrap_or_default()))
        .collect();
    got.sort();
    assert_eq!(got, expected_games, "plain sample against python-chess");

    let pz: Vec<Vec<GameRow>> = [1, 2, 8]
        .iter()
        .map(|&t| convert_one(&multi, t, "pzstd", &defaults))
        .collect();
    assert_eq!(content(&pz[0]), expected, "pzstd on 1 thread");
    assert_eq!(pz[0], pz[1], "pzstd on 1 and 2 threads");
    assert_eq!(pz[0], pz[2], "pzstd on 1 and 8 threads");
    // Small chunks, so that every frame is cut into many that the workers share.
    let tiny = Limits {
        chunk_bytes: 4 << 10,
        ..Limits::default()
    };
    for threads in [2, 8] {
        let rows = convert_one(&multi, threads, "pzstd-chunks", &tiny);
        assert_eq!(rows, pz[0], "pzstd in small chunks on {threads} threads");
    }

    // Small chunks, so the decoding thread hands out many.
    let small = Limits {
        chunk_bytes: 64 << 10,
        ..Limits::default()
    };
    let one = convert_one(&single, 1, "zstd", &small);
    let two = convert_one(&single, 2, "zstd", &small);
    assert_eq!(content(&one), expected, "single-frame zstd on 1 thread");
    assert_eq!(one, two, "single-frame zstd on 1 and 2 threads");
    // A single frame: ids are frame 0 and the offset of the game in the text.
    let ids: std::collections::BTreeSet<u64> = one.iter().map(|r| r.game_id).collect();
    let text = std::fs::read(&plain).expect("sample");
    let mut reader = Reader::new(&text[..]);
    let mut n = 0;
    while let Some(offset) = reader.read_game(&mut StartOffset(0)).expect("reads") {
        let id = game_id("single.pgn.compressed", 0, offset).expect("small offsets");
        assert!(
            ids.contains(&id),
            "game at byte {offset} has the documented id"
        );
        n += 1;
    }
    assert_eq!(n, one.len());
}

/// A visitor giving the offset where each game starts.
struct StartOffset(u64);

impl tabla_pgn::Visitor for StartOffset {
    type Output = u64;
    fn begin_game(&mut self, start: tabla_pgn::GameStart) {
        self.0 = start.location.offset;
    }
    fn end_tags(&mut self) -> tabla_pgn::Skip {
        tabla_pgn::Skip(true)
    }
    fn end_game(&mut self) -> u64 {
        self.0
    }
}

#[test]
fn every_frame_cut_of_awkward_text_gives_the_same_games() {
    // Game starts the cut search must not be fooled by: a tag section after blank lines, a
    // comment in a tag section, a game without tags, a game starting mid-line, a malformed tag.
    let text: &[u8] = b"[Event \"1\"]\n[Site \"?\"]\n\n1. e4 e5 {c} 1-0\n\n\n\n[Event \"2\"]\n\n\
        [Site \"blank line inside the tags\"]\n\n1. d4 *\n\n[Event \"3\"]\n{a comment\nover lines}\n\
        [Site \"x\"]\n\n1. c4 0-1\n1. Nf3 *\n\n[Event \"4\"]\n[1p1/k \"c6 Nf6]\n\n1. e4 (1. d4 \
        d5 2.[Event \"5\"]\n[Site \"x\"]\n\n1. g3 *\n";
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = dir.path().join("awkward.pgn");
    std::fs::write(&plain, text).expect("write");
    let plain_rows = {
        let out = dir.path().join("plain");
        run(
            &options(std::slice::from_ref(&plain), &out, 1),
            &Limits::default(),
        );
        read_games(&out)
    };
    // Seven games: the comment over two lines ends game 3's tag section, so `[Site "x"]`
    // starts a game of its own (tabla-pgn's documented reading).
    assert_eq!(plain_rows.len(), 7);
    let expected = content(&plain_rows);
    // Cuts at every line start, and one byte on either side.
    let cuts = line_cuts(text);
    for (n, window) in cuts.windows(3).enumerate().step_by(2) {
        // Four frames cut at three points; two threads give two ranges.
        let path = dir.path().join(format!("cut{n}.pgn.zst"));
        let mut parts = vec![0];
        parts.extend_from_slice(window);
        parts.push(text.len());
        write_pzstd(&path, text, &parts);
        let out = dir.path().join(format!("cut{n}"));
        run(
            &options(std::slice::from_ref(&path), &out, 2),
            &Limits::default(),
        );
        let rows = read_games(&out);
        assert_eq!(content(&rows), expected, "frames cut at {window:?}");
        std::fs::remove_dir_all(&out).expect("clean up");
    }
}

/// The real-world case files of tabla-pgn (`tests/data/cases`: `[` lines inside comments, `1/2`,
/// unescaped quotes, junk between moves, a comment never closed).
fn case_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tabla-pgn/tests/data/cases");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("case directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .filter(|p| !p.to_string_lossy().ends_with(".closed.pgn"))
        .collect();
    files.sort();
    files
}

#[test]
fn real_world_cases_convert_as_the_reader_reads_them_on_1_and_2_threads_and_cut_anywhere() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = case_files();
    assert_eq!(files.len(), 5);
    let mut text = Vec::new();
    let mut expected = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).expect("case file");
        for game in Reader::new(&bytes[..]).games() {
            let game = game.expect("in memory");
            let uci: Vec<String> = game.mainline().map(|n| n.uci()).collect();
            expected.push((uci, game.error().is_some(), game.warnings().count()));
        }
        text.extend_from_slice(&bytes);
        text.extend_from_slice(b"\n");
    }
    expected.sort();
    let summarise = |rows: &[GameRow]| {
        let mut got: Vec<(Vec<String>, bool, usize)> = rows
            .iter()
            .map(|r| (r.uci.clone(), r.error.is_some(), r.warnings.len()))
            .collect();
        got.sort();
        got
    };
    let mut outputs = Vec::new();
    for threads in [1, 2] {
        let out = dir.path().join(format!("t{threads}"));
        let summary = run(&options(&files, &out, threads), &Limits::default());
        let rows = read_games(&out);
        assert_eq!(summarise(&rows), expected, "{threads} threads");
        assert_eq!(
            summary.warnings as usize,
            expected.iter().map(|e| e.2).sum::<usize>()
        );
        outputs.push(content(&rows));
    }
    assert_eq!(outputs[0], outputs[1]);
    // All the cases in one text, as pzstd frames cut at every line and one byte on either
    // side, read by two threads: the same games every time.
    let joined = dir.path().join("cases.pgn");
    std::fs::write(&joined, &text).expect("write");
    let whole = {
        let out = dir.path().join("joined");
        run(
            &options(std::slice::from_ref(&joined), &out, 1),
            &Limits::default(),
        );
        content(&read_games(&out))
    };
    let cuts = line_cuts(&text);
    for (n, window) in cuts.windows(2).enumerate() {
        let path = dir.path().join(format!("cut{n}.pgn.zst"));
        write_pzstd(&path, &text, &[0, window[0], window[1], text.len()]);
        let out = dir.path().join(format!("cut{n}"));
        run(
            &options(std::slice::from_ref(&path), &out, 2),
            &Limits::default(),
        );
        assert_eq!(
            content(&read_games(&out)),
            whole,
            "frames cut at {window:?}"
        );
        std::fs::remove_dir_all(&out).expect("clean up");
        std::fs::remove_file(&path).expect("clean up");
    }
}

/// Every line start of `text` and one byte on either side, inside the text, sorted.
fn line_cuts(text: &[u8]) -> Vec<usize> {
    let mut cuts: Vec<usize> = vec![];
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' {
            cuts.extend([i, i + 1, i + 2]);
        }
    }
    cuts.retain(|&c| c > 0 && c < text.len());
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// Writes `text` as pzstd does: one zstd frame per part, each after a skippable frame holding
/// its compressed size.
fn write_pzstd(path: &Path, text: &[u8], cuts: &[usize]) {
    let mut out = Vec::new();
    for pair in cuts.windows(2) {
        let frame = zstd::bulk::compress(&text[pair[0]..pair[1]], 1).expect("compress");
        out.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
        out.extend_from_slice(&4u32.to_le_bytes());
        out.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        out.extend_from_slice(&frame);
    }
    std::fs::write(path, out).expect("write pzstd file");
}

#[test]
fn a_damaged_game_is_kept_with_its_error_and_the_next_game_is_read() {
    let pgn = "[Event \"Damaged\"]\n[UTCDate \"2024.03.05\"]\n[WhiteElo \"1500\"]\n\
               [BlackElo \"?\"]\n[Opening \"Center Game\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
               [Event \"Next\"]\n[Date \"2023.??.??\"]\n[White \"Caf\u{e9}\"]\n\n1. d4 d5 1/2-1/2\n";
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("damaged.pgn");
    std::fs::write(&path, pgn).expect("write");
    let out = dir.path().join("out");
    let summary = run(&options(&[path], &out, 2), &Limits::default());
    assert_eq!((summary.games, summary.games_with_error), (2, 1));
    let rows = read_games(&out);
    let damaged = rows
        .iter()
        .find(|r| r.event.as_deref() == Some("Damaged"))
        .expect("the damaged game is kept");
    assert_eq!(damaged.uci, ["e2e4", "e7e5"]);
    assert_eq!(damaged.plies, 2);
    assert_eq!(
        damaged.final_fen.as_deref(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")
    );
    // Line 7 of the game, column 13 (after `1. e4 e5 2. `): the king cannot reach e3.
    assert_eq!(
        damaged.error.as_deref(),
        Some("7:13, move 2.: \"Ke3\": illegal move in this position")
    );
    assert_eq!(damaged.movetext, "1. e4 e5 2. Ke3 Nc6 *");
    // 2024-03-05 is day 19,787 of the Unix epoch (`date -d 2024-03-05 +%s` / 86400).
    assert_eq!(damaged.utc_date, Some(19_787));
    assert_eq!((damaged.white_elo, damaged.black_elo), (Some(1500), None));
    // The value that did not fit its column is kept in `tags`; Opening has its own column.
    assert_eq!(damaged.tags, [("BlackElo".to_owned(), "?".to_owned())]);
    assert_eq!(damaged.partition, ("year=2024".into(), "month=3".into()));

    let next = rows
        .iter()
        .find(|r| r.event.as_deref() == Some("Next"))
        .expect("the next game is read");
    assert_eq!(next.error, None);
    assert_eq!(next.uci, ["d2d4", "d7d5"]);
    assert_eq!(next.white.as_deref(), Some("Caf\u{e9}"));
    assert_eq!(next.date, None);
    assert_eq!(next.tags, [("Date".to_owned(), "2023.??.??".to_owned())]);
    assert_eq!(
        next.partition,
        (
            "year=2023".into(),
            "month=__HIVE_DEFAULT_PARTITION__".into()
        )
    );
}

#[test]
fn games_without_a_date_go_to_the_default_partition() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("undated.pgn");
    std::fs::write(&path, "[Event \"x\"]\n\n1. e4 *\n\n1. d4 *\n").expect("write");
    let out = dir.path().join("out");
    run(&options(&[path], &out, 1), &Limits::default());
    let rows = read_games(&out);
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert_eq!(
            row.partition,
            (
                "year=__HIVE_DEFAULT_PARTITION__".into(),
                "month=__HIVE_DEFAULT_PARTITION__".into()
            )
        );
    }
}

/// `games` games, the i-th dated in month `i % months` after January 2000, each a different
/// short mainline.
fn games_over_months(path: &Path, games: usize, months: usize) {
    let openings = ["e4 e5", "d4 d5", "c4 e5", "Nf3 d5", "e4 c5", "d4 Nf6"];
    let mut text = String::new();
    for i in 0..games {
        let month = i % months;
        let (year, month) = (2000 + month / 12, month % 12 + 1);
        let (w, b) = openings[i % openings.len()]
            .split_once(' ')
            .expect("two moves");
        text.push_str(&format!(
            "[Event \"E{i}\"]\n[Date \"{year}.{month:02}.01\"]\n[Result \"*\"]\n\n1. {w} {b} *\n\n"
        ));
    }
    std::fs::write(path, text).expect("write");
}

#[test]
fn games_spread_over_many_months_make_one_file_per_month_not_one_per_game() {
    // An archive of years, games in no order of date: before the fix every change of month
    // finished a file, so that 2,400 games over 120 months made about 2,400 files.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("archive.pgn");
    let (games, months) = (2_400, 120);
    games_over_months(&path, games, months);
    for (limits, most_files) in [
        // Everything fits the gathering budget: one file per month.
        (Limits::default(), months),
        // A budget of 64 KiB (about 500 of these games' text): the fullest month's rows go out
        // each time it is reached, at least the average of 120 months (about 4 games), so that
        // a file holds a few games, not one.
        (
            Limits {
                games_buffer_bytes: 64 << 10,
                ..Limits::default()
            },
            games / 4,
        ),
    ] {
        let out = dir
            .path()
            .join(format!("out-{}", limits.games_buffer_bytes));
        run(&options(std::slice::from_ref(&path), &out, 1), &limits);
        let files = parquet_files(&out.join("games"));
        assert!(
            files.len() <= most_files,
            "budget {}: {} files for {games} games over {months} months",
            limits.games_buffer_bytes,
            files.len()
        );
        let rows = read_games(&out);
        assert_eq!(rows.len(), games, "every game written");
        assert_unique_ids(&rows, "archive");
        let mut partitions: Vec<_> = rows.iter().map(|r| r.partition.clone()).collect();
        partitions.sort();
        partitions.dedup();
        assert_eq!(partitions.len(), months, "one partition per month");
        for row in &rows {
            let month: usize = row.partition.1["month=".len()..].parse().expect("month");
            let year: usize = row.partition.0["year=".len()..].parse().expect("year");
            let i: usize = row.event.as_deref().expect("event")[1..]
                .parse()
                .expect("number");
            assert_eq!(
                (year - 2000) * 12 + month - 1,
                i % months,
                "game {i}'s partition"
            );
        }
    }
}

#[test]
fn inputs_that_cannot_be_converted_get_typed_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let none = options(&[], &out, 1);
    assert!(matches!(
        convert(&none, &NoProgress),
        Err(ConvertError::NoInput)
    ));

    let a = dir.path().join("a");
    std::fs::create_dir_all(&a).expect("dir");
    let b = dir.path().join("b");
    std::fs::create_dir_all(&b).expect("dir");
    std::fs::write(a.join("x.pgn"), "1. e4 *").expect("write");
    std::fs::write(
        b.join("x.pgn.zst"),
        zstd::encode_all(&b"1. d4 *"[..], 1).expect("zstd"),
    )
    .expect("write");
    let same = options(&[a.join("x.pgn"), b.join("x.pgn.zst")], &out, 1);
    let error = convert(&same, &NoProgress).expect_err("same name");
    assert!(matches!(error, ConvertError::SameName { .. }), "{error}");

    let missing = options(&[dir.path().join("missing.pgn")], &out, 1);
    let error = convert(&missing, &NoProgress).expect_err("missing file");
    assert!(matches!(error, ConvertError::Open { .. }), "{error}");
    assert!(error.to_string().contains("missing.pgn"), "{error}");

    let mut two = options(&[], &out, 1);
    two.inputs = vec![Input::Stdin, Input::Stdin];
    assert!(matches!(
        convert(&two, &NoProgress),
        Err(ConvertError::StdinTwice)
    ));
}

#[test]
fn damaged_zstd_data_is_an_error_saying_which_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = repeated_sample(dir.path(), 1);
    let good = dir.path().join("good.pgn.zst");
    pzstd(&[
        "-q",
        "-f",
        plain.to_str().expect("utf-8"),
        "-o",
        good.to_str().expect("utf-8"),
    ]);
    let bytes = std::fs::read(&good).expect("read");
    // Truncated: the last frame's size hint points past the end.
    let truncated = dir.path().join("truncated.pgn.zst");
    std::fs::write(&truncated, &bytes[..bytes.len() - 100]).expect("write");
    // A byte changed inside a frame: its checksum (pzstd writes them) no longer matches.
    let mut flipped = bytes.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x55;
    let corrupt = dir.path().join("corrupt.pgn.zst");
    std::fs::write(&corrupt, flipped).expect("write");
    for (path, threads) in [
        (&truncated, 1),
        (&truncated, 2),
        (&corrupt, 1),
        (&corrupt, 2),
    ] {
        let out = dir.path().join("out");
        let error = convert(
            &options(std::slice::from_ref(path), &out, threads),
            &NoProgress,
        )
        .expect_err("damaged zstd");
        assert!(matches!(error, ConvertError::Zstd { .. }), "{error}");
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        assert!(error.to_string().contains(&name), "{error}");
        assert!(hidden_files(&out).is_empty(), "no temporary file left");
        for file in parquet_files(&out) {
            read_batches(&file);
        }
    }
}

#[test]
fn a_game_too_long_to_keep_is_cut_and_the_games_after_it_are_whole() {
    // 48 comments of 1 MiB: more than the movetext limit and than the tail the reader may have
    // read ahead, so the converter drops the middle of the game while reading it.
    let mut pgn = b"[Event \"huge\"]\n\n1. e4 ".to_vec();
    for _ in 0..48 {
        pgn.push(b'{');
        pgn.extend(std::iter::repeat_n(b'x', 1 << 20));
        pgn.extend_from_slice(b"}\n");
    }
    pgn.extend_from_slice(b"e5 *\n\n[Event \"after\"]\n\n1. d4 *\n\n[Event \"last\"]\n\n1. c4 *\n");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("huge.pgn");
    std::fs::write(&path, &pgn).expect("write");
    // One thread: on more, each range would first scan the huge game for a game start, which
    // is slow and tells nothing more.
    {
        let out = dir.path().join("out");
        let summary = run(
            &options(std::slice::from_ref(&path), &out, 1),
            &Limits::default(),
        );
        assert_eq!((summary.games, summary.games_with_error), (3, 1));
        let rows = read_games(&out);
        let huge = rows
            .iter()
            .find(|r| r.event.as_deref() == Some("huge"))
            .expect("huge");
        assert_eq!(huge.uci, ["e2e4", "e7e5"]);
        assert_eq!(
            huge.movetext.len(),
            (8 << 20) - b"[Event \"huge\"]\n\n".len()
        );
        assert!(huge.movetext.starts_with("1. e4 {xxx"));
        assert!(
            huge.error
                .as_deref()
                .is_some_and(|e| e.contains("too large")),
            "{:?}",
            huge.error
        );
        for (event, movetext, uci) in [("after", "1. d4 *", "d2d4"), ("last", "1. c4 *", "c2c4")] {
            let row = rows
                .iter()
                .find(|r| r.event.as_deref() == Some(event))
                .expect(event);
            assert_eq!(
                (row.movetext.as_str(), row.uci.as_slice()),
                (movetext, &[uci.to_owned()][..])
            );
            assert_eq!(row.error, None);
        }
    }
}

#[test]
fn a_stream_without_places_to_cut_is_read_whole_by_the_decoding_thread() {
    // Games without tags: the only sure game starts are tag lines, so nothing can be cut.
    let mut text = Vec::new();
    let games: [&[u8]; 2] = [
        b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *\n\n",
        b"1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Bd3 d5 6. Nf3 c5 7. O-O Nc6 8. a3 Bxc3 1-0\n\n",
    ];
    for i in 0..16_000 {
        text.extend_from_slice(games[i % 2]);
    }
    assert!(text.len() > 1 << 20);
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = dir.path().join("tagless.pgn");
    std::fs::write(&plain, &text).expect("write");
    let zst = dir.path().join("tagless.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(&text[..], 1).expect("compress")).expect("write");
    let expected = {
        let out = dir.path().join("plain");
        run(
            &options(std::slice::from_ref(&plain), &out, 2),
            &Limits::default(),
        );
        content(&read_games(&out))
    };
    assert_eq!(expected.len(), 16_000);
    // 64 KiB chunks: 1 MiB of text without a cut sends the decoder down the sequential path.
    let small = Limits {
        chunk_bytes: 64 << 10,
        ..Limits::default()
    };
    let out = dir.path().join("zst");
    let summary = run(&options(std::slice::from_ref(&zst), &out, 2), &small);
    assert_eq!(
        summary.input_bytes,
        std::fs::metadata(&zst).expect("size").len()
    );
    let rows = read_games(&out);
    assert_unique_ids(&rows, "tagless");
    assert_eq!(content(&rows), expected);
}

/// The game ids of a conversion in memory (all of it, or one slice), sorted.
fn arrow_ids(inputs: &[PathBuf], slice: Option<tabla_convert::Slice>) -> Vec<i64> {
    use arrow_array::Array;
    let options = tabla_convert::Options {
        inputs: inputs.iter().cloned().map(Input::Path).collect(),
        out_dir: PathBuf::new(),
        positions: tabla_convert::PositionsTable::None,
        max_ply: None,
        threads: std::num::NonZeroUsize::new(2).expect("2"),
        game_ids: tabla_convert::GameIds::FromPlace,
    };
    let (summary, tables) =
        tabla_convert::convert_slice_to_arrow(&options, slice, &NoProgress).expect("convert");
    assert!(summary.files.is_empty(), "nothing written");
    let mut ids = Vec::new();
    for batch in &tables.games {
        let column = batch
            .column_by_name("game_id")
            .expect("game_id")
            .as_any()
            .downcast_ref::<arrow_array::Int64Array>()
            .expect("Int64");
        assert_eq!(column.null_count(), 0);
        ids.extend(column.values().iter().copied());
    }
    assert_eq!(ids.len() as u64, summary.games);
    ids.sort_unstable();
    ids
}

#[test]
fn slices_of_a_conversion_hold_its_games_each_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = repeated_sample(dir.path(), 12);
    let text = std::fs::read(&plain).expect("read");
    // A pzstd file of five frames cut at line ends, and one zstd frame (decoded by one task).
    let cuts: Vec<usize> = (0..=5).map(|k| text.len() * k / 5).collect();
    let mut cuts: Vec<usize> = cuts
        .iter()
        .map(|&c| {
            text[c..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(text.len(), |i| c + i + 1)
        })
        .collect();
    cuts[0] = 0;
    cuts.dedup();
    let framed = dir.path().join("framed.pgn.zst");
    write_pzstd(&framed, &text, &cuts);
    let single = dir.path().join("single.pgn.zst");
    std::fs::write(&single, zstd::encode_all(&text[..], 1).expect("compress")).expect("write");
    let inputs = [plain, framed, single];
    let whole = arrow_ids(&inputs, None);
    assert!(whole.len() > 1_000);
    let mut deduped = whole.clone();
    deduped.dedup();
    assert_eq!(deduped.len(), whole.len(), "ids are unique");
    for parts in [1, 3, 7] {
        let mut union = Vec::new();
        let mut nonempty = 0;
        for part in 0..parts {
            let ids = arrow_ids(&inputs, Some(tabla_convert::Slice { part, parts }));
            nonempty += usize::from(!ids.is_empty());
            union.extend(ids);
        }
        union.sort_unstable();
        assert_eq!(union, whole, "{parts} parts");
        assert_eq!(nonempty, parts, "every one of {parts} parts has games");
    }
    let bad = tabla_convert::Slice { part: 3, parts: 3 };
    let options = tabla_convert::Options {
        inputs: vec![Input::Path(inputs[0].clone())],
        out_dir: PathBuf::new(),
        positions: tabla_convert::PositionsTable::None,
        max_ply: None,
        threads: std::num::NonZeroUsize::MIN,
        game_ids: tabla_convert::GameIds::FromPlace,
    };
    assert!(matches!(
        tabla_convert::convert_slice_to_arrow(&options, Some(bad), &NoProgress),
        Err(ConvertError::BadSlice { part: 3, parts: 3 })
    ));
}
