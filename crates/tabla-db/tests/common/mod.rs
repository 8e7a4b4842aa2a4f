//! What the explorer's and the search's tests share: the engine they run with, importing a
//! reference's files, reading a reference and its filters.

#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use tabla_db::{Database, Filters, ImportOptions, QueryOptions, Side, YearMonth, import};

pub fn query() -> QueryOptions {
    QueryOptions {
        threads: 2,
        memory: 256 << 20,
        spill_dir: None,
    }
}

pub fn import_all(db: &Path, inputs: Vec<PathBuf>) -> Database {
    let options = ImportOptions {
        db: db.to_owned(),
        inputs,
        max_ply: Some(50),
        query: query(),
    };
    import(&options, &tabla_convert::NoProgress).expect("import");
    Database::open_with(db, &query()).expect("open")
}

pub fn filters(v: &Value) -> Filters {
    let month = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .map(|m| YearMonth::parse(m).expect("month"))
    };
    Filters {
        rating: v.get("rating").map(|r| {
            let end = |i: usize| r[i].as_i64().map(|x| x as i32);
            (end(0), end(1))
        }),
        speeds: v
            .get("speed")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|s| s.as_str().expect("speed").to_owned())
                    .collect()
            })
            .unwrap_or_default(),
        since: month("since"),
        until: month("until"),
        player: v.get("player").and_then(Value::as_str).map(str::to_owned),
        player_match: None,
        text: None,
        color: v.get("color").and_then(Value::as_str).map(|c| match c {
            "white" => Side::White,
            _ => Side::Black,
        }),
    }
}

pub fn reference(name: &str) -> Value {
    let path = tabla_testdata::testdata_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("reference JSON")
}

pub fn pgn_files(dir: &Path, names: &Value) -> Vec<PathBuf> {
    names
        .as_array()
        .expect("files")
        .iter()
        .map(|n| dir.join(n.as_str().expect("name")))
        .collect()
}
