//! The positions table: Polyglot keys against the published test vectors, SAN and UCI of the
//! move that led to each position, the ply limit, and files sorted by key with row-group
//! statistics that let a lookup skip row groups.

mod common;

use common::*;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::statistics::Statistics;
use std::collections::BTreeMap;
use tabla_convert::{Limits, PositionsTable};

/// The Polyglot book format's test vectors: the keys after 1. e4 d5 2. e5 f5 3. Ke2 Kf7.
const POLYGLOT: [(&str, u64, &str); 7] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        0x463b_9618_1691_fc9c,
        "",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        0x823c_9b50_fd11_4196,
        "e4",
    ),
    (
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
        0x0756_b944_61c5_0fb0,
        "d5",
    ),
    (
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
        0x662f_afb9_65db_29d4,
        "e5",
    ),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        0x22a4_8b5a_8e47_ff78,
        "f5",
    ),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 1 3",
        0x652a_607c_a3f2_42c1,
        "Ke2",
    ),
    (
        "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 2 4",
        0x00fd_d303_c946_bdd9,
        "Kf7",
    ),
];

#[test]
fn keys_fens_and_moves_match_the_polyglot_test_vectors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("polyglot.pgn");
    std::fs::write(
        &path,
        "[Event \"Polyglot\"]\n\n1. e4 d5 2. e5 f5 3. Ke2 Kf7 *\n",
    )
    .expect("write");
    let uci = ["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"];
    for (max_ply, rows) in [(None, 7), (Some(3), 4), (Some(0), 1)] {
        let out = dir.path().join(format!("out{rows}"));
        let mut opts = options(std::slice::from_ref(&path), &out, 1);
        opts.positions = PositionsTable::Full;
        opts.max_ply = max_ply;
        let summary = run(&opts, &Limits::default());
        assert_eq!(summary.positions, rows as u64);
        let game = &read_games(&out)[0];
        assert_eq!(game.plies, 6, "the games table has the whole game");
        let mut got: Vec<PositionRow> = read_positions(&out)
            .into_iter()
            .flat_map(|(_, rows)| rows)
            .collect();
        got.sort_by_key(|r| r.ply);
        assert_eq!(got.len(), rows);
        for (ply, row) in got.iter().enumerate() {
            let (fen, key, san) = POLYGLOT[ply];
            assert_eq!(row.ply as usize, ply);
            assert_eq!(row.game_id, game.game_id);
            assert_eq!(row.zobrist, key, "ply {ply}: key");
            assert_eq!(row.fen, fen, "ply {ply}: fen");
            let expected_move = (ply > 0).then(|| (san.to_owned(), uci[ply - 1].to_owned()));
            let got_move = row.san.clone().zip(row.uci.clone());
            assert_eq!(got_move, expected_move, "ply {ply}: move");
        }
    }
}

#[test]
fn positions_files_are_sorted_by_key_and_their_statistics_skip_row_groups() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let mut opts = options(
        &[
            testdata().dir.join("lichess_db_1000k.pgn"),
            testdata().dir.join("twic1599_1000k.pgn"),
        ],
        &out,
        2,
    );
    opts.positions = PositionsTable::Full;
    opts.max_ply = Some(30);
    // Small files and row groups, so that there are many of each (about 4,300 positions).
    let limits = Limits {
        positions_per_worker: 1_000,
        positions_per_row_group: 25,
        ..Limits::default()
    };
    let summary = run(&opts, &limits);
    let games = read_games(&out);
    let expected: u64 = games
        .iter()
        .filter(|g| g.final_fen.is_some())
        .map(|g| u64::from(g.plies.min(30)) + 1)
        .sum();
    assert_eq!(summary.positions, expected);
    let files = read_positions(&out);
    assert!(files.len() >= 4, "several positions files: {}", files.len());
    let mut per_game: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
    let mut total = 0;
    // The position after 1. e4 e5, and how many rows hold it.
    let key = 0x0844_931a_6ef4_b9a0u64;
    let mut with_key = 0;
    let (mut groups, mut candidates, mut matched) = (0, 0, 0);
    for (path, rows) in &files {
        let keys: Vec<(u64, u64, u32)> =
            // game_id sorts as the signed number the column holds.
            rows.iter().map(|r| (r.zobrist, r.game_id as i64 as u64 ^ (1 << 63), r.ply)).collect();
        assert!(
            keys.windows(2).all(|w| w[0] < w[1]),
            "{} is sorted",
            path.display()
        );
        for r in rows {
            per_game.entry(r.game_id).or_default().push(r.ply);
        }
        total += rows.len();
        with_key += rows.iter().filter(|r| r.zobrist == key).count();

        let reader = SerializedFileReader::new(std::fs::File::open(path).expect("open"))
            .expect("parquet footer");
        let meta = reader.metadata();
        let mut previous_max = None;
        let mut first_row = 0usize;
        for g in meta.row_groups() {
            let Some(Statistics::Int64(stats)) = g.column(0).statistics() else {
                panic!("{}: zobrist statistics", path.display());
            };
            // UInt64 is stored as INT64; the statistics hold the unsigned bit patterns.
            let min = *stats.min_opt().expect("min") as u64;
            let max = *stats.max_opt().expect("max") as u64;
            let n = g.num_rows() as usize;
            assert!(n <= 25, "row groups of at most 25 rows");
            assert_eq!(min, rows[first_row].zobrist);
            assert_eq!(max, rows[first_row + n - 1].zobrist);
            assert!(
                previous_max.is_none_or(|p| p <= min),
                "row groups in key order"
            );
            previous_max = Some(max);
            groups += 1;
            if (min..=max).contains(&key) {
                candidates += 1;
                matched += rows[first_row..first_row + n]
                    .iter()
                    .filter(|r| r.zobrist == key)
                    .count();
            }
            first_row += n;
        }
    }
    assert_eq!(total as u64, expected);
    // Every game has plies 0..=min(plies, 30), once each.
    for g in games.iter().filter(|g| g.final_fen.is_some()) {
        let plies = per_game.remove(&g.game_id).unwrap_or_default();
        let mut sorted = plies.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            (0..=g.plies.min(30)).collect::<Vec<_>>(),
            "plies of a game"
        );
    }
    assert!(per_game.is_empty(), "no positions of unknown games");
    // The statistics find every row with the key while reading few row groups.
    let expected_with_key = games
        .iter()
        .filter(|g| g.uci.starts_with(&["e2e4".to_owned(), "e7e5".to_owned()]))
        .count();
    assert!(expected_with_key > 10, "the sample has 1. e4 e5 games");
    assert_eq!(with_key, expected_with_key, "rows after 1. e4 e5");
    assert_eq!(matched, with_key, "row-group statistics never hide a match");
    assert!(
        candidates * 10 <= groups,
        "{candidates} of {groups} row groups to read for one key"
    );
}

#[test]
fn wide_keys_next_moves_and_first_visits() {
    // A game that repeats the start position (1. Nf3 Nf6 2. Ng1 Ng8) and goes on.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("repeat.pgn");
    std::fs::write(
        &path,
        "[Event \"Repeat\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. e4 e5 1-0\n\n[Event \"Two\"]\n\n1. d4 *\n",
    )
    .expect("write");
    let full_out = dir.path().join("full");
    let mut opts = options(std::slice::from_ref(&path), &full_out, 1);
    opts.positions = PositionsTable::Full;
    run(&opts, &Limits::default());
    let mut full: Vec<PositionRow> = read_positions(&full_out)
        .into_iter()
        .flat_map(|(_, rows)| rows)
        .collect();
    full.sort_by_key(|r| (r.game_id, r.ply));
    let mut by_game: BTreeMap<u64, Vec<&PositionRow>> = BTreeMap::new();
    for row in &full {
        by_game.entry(row.game_id).or_default().push(row);
    }
    for rows in by_game.values() {
        let mut seen = std::collections::HashSet::new();
        for (i, row) in rows.iter().enumerate() {
            // The key is the position's own, read back from its FEN.
            let pos = tabla::Position::from_fen(&row.fen).expect("fen");
            assert_eq!(row.key, pos.wide_key() >> 32 << 32, "{}", row.fen);
            // The next move is the move that led to the next position.
            assert_eq!(row.next_uci, rows.get(i + 1).and_then(|n| n.uci.clone()));
            assert_eq!(row.first, seen.insert(row.key));
        }
    }
    let repeat = by_game
        .values()
        .find(|rows| rows.len() == 7)
        .expect("the repeating game");
    let firsts: Vec<bool> = repeat.iter().map(|r| r.first).collect();
    assert_eq!(firsts, [true, true, true, true, false, true, true]);

    // The keys-only table holds the same rows without zobrist, FEN, SAN and UCI, sorted by key.
    let keys_out = dir.path().join("keys");
    let mut opts = options(std::slice::from_ref(&path), &keys_out, 1);
    opts.positions = PositionsTable::Keys;
    run(&opts, &Limits::default());
    let files = parquet_files(&keys_out.join("positions"));
    let mut keyed = Vec::new();
    for file in &files {
        let mut in_file = Vec::new();
        for batch in read_batches(file) {
            let schema = batch.schema();
            let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
            assert_eq!(
                names,
                [
                    "key_hi",
                    "key_lo",
                    "game_id",
                    "ply",
                    "next_uci",
                    "first",
                    "outcome",
                    "elo_sum",
                    "speed",
                    "played_on"
                ]
            );
            let int = |name: &str| {
                batch
                    .column_by_name(name)
                    .expect(name)
                    .as_any()
                    .downcast_ref::<arrow_array::Int64Array>()
                    .expect("Int64")
                    .clone()
            };
            let (hi, lo, id) = (int("key_hi"), int("key_lo"), int("game_id"));
            for i in 0..batch.num_rows() {
                in_file.push((hi.value(i), lo.value(i), id.value(i)));
            }
        }
        assert!(
            in_file.windows(2).all(|w| w[0] <= w[1]),
            "sorted by (key_hi, key_lo, game_id)"
        );
        keyed.extend(
            in_file
                .into_iter()
                .map(|(hi, lo, id)| (tabla::zobrist::key_from_columns(hi, lo), id as u64)),
        );
    }
    keyed.sort();
    let mut want: Vec<(u128, u64)> = full.iter().map(|r| (r.key, r.game_id)).collect();
    want.sort();
    assert_eq!(keyed, want);
}

#[test]
fn positions_repeat_their_games_outcome_elo_sum_speed_and_date() {
    // Values worked out by hand from the tags: 0-1 is -1; 1500 + 1620; 180+2 is 180 + 80 s,
    // blitz; UTCDate wins over Date. The second game: `*`, one Elo, no time control, a year.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("facts.pgn");
    std::fs::write(
        &path,
        "[Event \"A\"]\n[Date \"2020.01.01\"]\n[UTCDate \"2024.03.09\"]\n[Result \"0-1\"]\n\
         [WhiteElo \"1500\"]\n[BlackElo \"1620\"]\n[TimeControl \"180+2\"]\n\n1. e4 e5 0-1\n\n\
         [Event \"B\"]\n[Date \"1988\"]\n[Result \"*\"]\n[WhiteElo \"2000\"]\n\n1. d4 *\n",
    )
    .expect("write");
    let out = dir.path().join("out");
    let mut opts = options(std::slice::from_ref(&path), &out, 1);
    opts.positions = PositionsTable::Keys;
    run(&opts, &Limits::default());
    let mut rows = Vec::new();
    for file in parquet_files(&out.join("positions")) {
        for batch in read_batches(&file) {
            let ints = |name: &str| {
                batch
                    .column_by_name(name)
                    .expect(name)
                    .as_any()
                    .downcast_ref::<arrow_array::Int32Array>()
                    .expect("Int32")
                    .clone()
            };
            let speed = batch
                .column_by_name("speed")
                .expect("speed")
                .as_any()
                .downcast_ref::<arrow_array::StringArray>()
                .expect("Utf8")
                .clone();
            let ply = batch
                .column_by_name("ply")
                .expect("ply")
                .as_any()
                .downcast_ref::<arrow_array::UInt32Array>()
                .expect("UInt32")
                .clone();
            let (outcome, elo, played) = (ints("outcome"), ints("elo_sum"), ints("played_on"));
            use arrow_array::Array;
            let get = |a: &arrow_array::Int32Array, i: usize| a.is_valid(i).then(|| a.value(i));
            for i in 0..batch.num_rows() {
                rows.push((
                    get(&played, i),
                    ply.value(i),
                    get(&outcome, i),
                    get(&elo, i),
                    speed.is_valid(i).then(|| speed.value(i).to_owned()),
                ));
            }
        }
    }
    rows.sort();
    let a = |ply| {
        (
            Some(20240309),
            ply,
            Some(-1),
            Some(3120),
            Some("blitz".to_owned()),
        )
    };
    let b = |ply| (Some(19880000), ply, None, None, None);
    assert_eq!(rows, [b(0), b(1), a(0), a(1), a(2)]);
}

#[test]
fn numbered_ids_are_dense_and_name_the_same_games_and_positions() {
    // Two inputs on two threads: numbered from 1,000, each game keeps its content and its
    // positions, and the ids are exactly 1,000 to 999 + games, each once.
    let dir = tempfile::tempdir().expect("temp dir");
    let inputs = [
        testdata().dir.join("lichess_db_1000k.pgn"),
        testdata().dir.join("twic1599_1000k.pgn"),
    ];
    let convert = |ids: tabla_convert::GameIds, name: &str| {
        let out = dir.path().join(name);
        let mut opts = options(&inputs, &out, 2);
        opts.positions = PositionsTable::Full;
        opts.game_ids = ids;
        run(&opts, &Limits::default());
        let games = read_games(&out);
        // Each game's content, with its positions (ply, key, next move) found through its id.
        let mut positions: BTreeMap<u64, Vec<(u32, u128, Option<String>)>> = BTreeMap::new();
        for row in read_positions(&out).into_iter().flat_map(|(_, rows)| rows) {
            positions
                .entry(row.game_id)
                .or_default()
                .push((row.ply, row.key, row.next_uci));
        }
        let mut ids: Vec<u64> = games.iter().map(|g| g.game_id).collect();
        ids.sort_unstable();
        let mut by_content: Vec<_> = games
            .into_iter()
            .map(|g| {
                let mut rows = positions.remove(&g.game_id).unwrap_or_default();
                rows.sort();
                (g.movetext, g.uci, g.error, g.partition, rows)
            })
            .collect();
        by_content.sort();
        // No position row names a game that is not in `games`.
        assert!(positions.is_empty(), "{name}: positions of unknown games");
        (ids, by_content)
    };
    let (placed_ids, placed) = convert(tabla_convert::GameIds::FromPlace, "placed");
    let (numbered_ids, numbered) = convert(
        tabla_convert::GameIds::Numbered { first: 1_000 },
        "numbered",
    );
    assert!(placed.len() > 100, "{} games", placed.len());
    assert_eq!(numbered, placed);
    let want: Vec<u64> = (1_000..1_000 + placed.len() as u64).collect();
    assert_eq!(numbered_ids, want);
    assert_ne!(placed_ids, want);
}
