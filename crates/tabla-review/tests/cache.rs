//! The evaluation cache's files: what a run writes another reads, many files merged into one,
//! a damaged file skipped with a warning, and a stored line that is not legal in the position
//! taken as absent.

use tabla::Position;
use tabla_analysis::Budget;
use tabla_review::{BestMove, COMPACT_AT, CacheConfig, Eval, EvalCache, PositionInfo};

fn config() -> CacheConfig {
    CacheConfig::new("Test engine 1", [("Hash", "16")], Budget::Nodes(1000))
}

/// The position after `moves` (UCI) from the start, and an evaluation whose line is legal there:
/// its first legal move.
fn position_and_info(moves: &[&str], cp: i32) -> (Position, PositionInfo) {
    let mut position = Position::startpos();
    for uci in moves {
        let mv = position.parse_uci(uci).expect("legal move");
        position.play(mv).expect("legal move");
    }
    let mv = position.legal_moves()[0];
    let info = PositionInfo {
        eval: Some(Eval::Cp(cp)),
        best: Some(BestMove {
            san: position.san(mv),
            uci: position.uci(mv),
        }),
        pv: vec![position.uci(mv)],
    };
    (position, info)
}

fn parquet_files(cache: &EvalCache) -> usize {
    let dir = cache.dir().expect("a cache on disk");
    std::fs::read_dir(dir)
        .expect("cache folder")
        .flatten()
        .filter(|f| {
            let name = f.file_name().to_string_lossy().into_owned();
            !name.starts_with('.') && name.ends_with(".parquet")
        })
        .count()
}

#[test]
fn many_files_are_merged_into_one_when_opened() {
    let root = tempfile::tempdir().expect("temporary directory");
    let knights = ["g1f3", "b1c3", "g1h3", "b1a3"];
    let mut written = Vec::new();
    // Two runs of 48 flushes, one file per flush, each with one position (a run merges its own
    // files only once it has written COMPACT_AT, and opening compacts only above COMPACT_AT).
    let mut dir = None;
    for (i, first) in knights.iter().enumerate() {
        let mut cache = match (i % 2, dir.take()) {
            (1, Some(cache)) => cache,
            _ => EvalCache::open(root.path(), &config()).expect("open"),
        };
        for (j, second) in [
            "g8f6", "b8c6", "g8h6", "b8a6", "e7e5", "d7d5", "c7c5", "a7a6",
        ]
        .iter()
        .enumerate()
        {
            for (k, third) in ["e2e4", "d2d4", "e2e3"].iter().enumerate() {
                let cp = (i * 100 + j * 10 + k) as i32;
                let (position, info) = position_and_info(&[first, second, third], cp);
                cache.insert(&position, &info);
                cache.flush().expect("flush");
                written.push((position, info));
            }
        }
        dir = Some(cache);
    }
    assert_eq!(written.len(), 96);
    let last = dir.expect("the second run");
    assert_eq!(parquet_files(&last), 96);
    const { assert!(96 > COMPACT_AT && 48 < COMPACT_AT) };
    let reopened = EvalCache::open(root.path(), &config()).expect("reopen");
    assert_eq!(parquet_files(&reopened), 1);
    assert_eq!(reopened.len(), 96);
    for (position, info) in &written {
        assert_eq!(reopened.get(position).as_ref(), Some(info));
    }
    // A configuration that differs in a budget has a folder of its own: nothing there.
    let other = CacheConfig::new("Test engine 1", [("Hash", "16")], Budget::Nodes(2000));
    assert!(
        EvalCache::open(root.path(), &other)
            .expect("open")
            .is_empty()
    );
}

#[test]
fn a_run_merges_its_own_files_every_compact_at_flushes() {
    let root = tempfile::tempdir().expect("temporary directory");
    let mut cache = EvalCache::open(root.path(), &config()).expect("open");
    let mut written = Vec::new();
    let firsts = [
        "g1f3", "b1c3", "g1h3", "b1a3", "e2e4", "d2d4", "c2c4", "a2a3",
    ];
    let seconds = [
        "g8f6", "b8c6", "g8h6", "b8a6", "e7e5", "d7d5", "c7c5", "a7a6", "h7h6", "b7b6",
    ];
    for (i, first) in firsts.iter().enumerate() {
        for (j, second) in seconds.iter().enumerate() {
            let (position, info) = position_and_info(&[first, second], (i * 10 + j) as i32);
            cache.insert(&position, &info);
            cache.flush().expect("flush");
            written.push((position, info));
        }
    }
    // 80 flushes: the first COMPACT_AT files merged into one when the last of them was written.
    assert_eq!(written.len(), 80);
    assert_eq!(parquet_files(&cache), 80 - COMPACT_AT + 1);
    let reopened = EvalCache::open(root.path(), &config()).expect("reopen");
    assert_eq!(reopened.len(), 80);
    for (position, info) in &written {
        assert_eq!(reopened.get(position).as_ref(), Some(info));
    }
}

#[test]
fn a_damaged_file_is_skipped_with_a_warning() {
    let root = tempfile::tempdir().expect("temporary directory");
    let mut cache = EvalCache::open(root.path(), &config()).expect("open");
    let (position, info) = position_and_info(&["e2e4"], 30);
    cache.insert(&position, &info);
    cache.flush().expect("flush");
    let dir = cache.dir().expect("on disk").to_owned();
    std::fs::write(dir.join("evals-damaged.parquet"), b"PAR1 not really").expect("write");
    let mut reopened = EvalCache::open(root.path(), &config()).expect("reopen");
    let warnings = reopened.take_warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("evals-damaged.parquet"),
        "{warnings:?}"
    );
    // The good file's evaluation is still there.
    assert_eq!(reopened.get(&position), Some(info));
}

#[test]
fn a_line_not_legal_in_the_position_is_not_an_answer() {
    let root = tempfile::tempdir().expect("temporary directory");
    let mut cache = EvalCache::open(root.path(), &config()).expect("open");
    let start = Position::startpos();
    let broken = PositionInfo {
        eval: Some(Eval::Cp(10)),
        best: Some(BestMove {
            san: "e5".into(),
            uci: "e2e5".into(),
        }),
        pv: vec!["e2e5".into()],
    };
    cache.insert(&start, &broken);
    assert_eq!(cache.get(&start), None);
    // A legal best move with a line that goes wrong later is not an answer either.
    let mut after = Position::startpos();
    after
        .play(after.parse_uci("d2d4").expect("legal"))
        .expect("legal");
    let line = PositionInfo {
        eval: Some(Eval::Mate(3)),
        best: Some(BestMove {
            san: "Nf6".into(),
            uci: "g8f6".into(),
        }),
        pv: vec!["g8f6".into(), "d4d6".into()],
    };
    cache.insert(&after, &line);
    assert_eq!(cache.get(&after), None);
}

#[test]
fn in_memory_keeps_nothing_on_disk() {
    let mut cache = EvalCache::in_memory();
    let (position, info) = position_and_info(&["e2e4", "c7c5"], -5);
    cache.insert(&position, &info);
    assert_eq!(cache.unflushed(), 1);
    cache.flush().expect("nothing to write");
    assert_eq!((cache.dir(), cache.unflushed()), (None, 0));
    assert_eq!(cache.get(&position), Some(info));
}
