//! sql/review.sql and sql/review_games.sql (the engine review in SQL, which
//! crates/tabla-db/spark/spark_review.py runs on Spark) run on DataFusion over the positions `tabla
//! convert` writes and an `evals` table, against tabla_review::judge on the same evaluations: every
//! move's evaluation, engine's choice, win percentage, judgement and accuracy, and every side's
//! accuracy, ACPL and marks.
//!
//! The games: testdata/review/lichess-evals.pgn (lichess's evaluations in `[%eval]` comments), and
//! a few made for the rules SQL must follow (a checkmate, a stalemate, games from set-up
//! positions with either side first, a game whose evaluations miss one position). A position's
//! evaluation is its first game's `[%eval]`, else a number drawn from its key (centipawns within
//! ±1500, sometimes a mate, so that every branch of the rules is taken); positions without a
//! legal move are stored as the evaluation step stores them (mate 0, cp 0). One position in three
//! has the engine's choice set to the move its first game played there (such a move is not
//! marked), one in three another move.

use datafusion::arrow::array::{Array, Float64Array, Int32Array, Int64Array, StringArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::datasource::MemTable;
use datafusion::prelude::SessionContext;
use std::collections::{BTreeMap, HashMap};
use std::num::NonZeroUsize;
use std::sync::Arc;
use tabla::Position;
use tabla_convert::{GameIds, Input, NoProgress, Options, PositionsTable, convert_to_arrow};
use tabla_pgn::Eval;
use tabla_pgn::{Game, Reader};
use tabla_review::{BestMove, Mainline, Review, Rules, evals_schema, judge};

/// Games made for the rules: tag `Event` names them.
const MADE: &str = r#"
[Event "mate"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "fool's mate"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "stalemate"]
[FEN "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"]

1. Qf7 1/2-1/2

[Event "black first"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"]

40... Kd7 41. e4 Ke6 42. Kf2 Ke5 43. Kf3 Kd4 44. Kf4 Kd3 45. e5 *

[Event "missing"]
[FEN "8/8/8/8/3k4/8/8/K1Q5 w - - 0 1"]

1. Qc2 Ke3 2. Qd1 Kf2 3. Qd2+ Kf3 *
"#;

type Key = (i64, i64);

#[derive(Clone, Debug)]
struct Entry {
    eval: Option<Eval>,
    best: Option<String>,
    pv: String,
}

fn key(position: &Position) -> Key {
    tabla::zobrist::key_columns(position.wide_key())
}

/// A number drawn from a key (splitmix64).
fn draw(key: Key) -> u64 {
    let mut z = (key.0 as u64) ^ (key.1 as u64).rotate_left(32) ^ 0x9e37_79b9_7f4a_7c15;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The evaluations of every game's positions, each position's from its first game.
fn evaluations(games: &[Game]) -> HashMap<Key, Entry> {
    let mut evals = HashMap::new();
    for game in games {
        let start = game
            .start
            .as_ref()
            .unwrap_or_else(|| panic!("{:?}: no start position", game.tags));
        let from_usual_start = *start == Position::startpos();
        let nodes: Vec<_> = game.mainline().collect();
        let positions = std::iter::once(start).chain(nodes.iter().map(|n| &n.position));
        for (i, position) in positions.enumerate() {
            let k = key(position);
            if evals.contains_key(&k) {
                continue;
            }
            let comments = match i {
                0 => nodes.first().map(|n| &n.comments_before),
                _ => Some(&nodes[i - 1].comments_after),
            };
            let commented = comments.and_then(|c| c.iter().find_map(|c| c.eval));
            let r = draw(k);
            let eval = if position.is_checkmate() {
                Eval::Mate(0)
            } else if position.is_stalemate() {
                Eval::Cp(0)
            } else if let Some(eval) = commented {
                eval
            } else if i == 0 && from_usual_start {
                // No row: the review counts 15 centipawns.
                continue;
            } else if game.tag("Event") == Some("missing") && i == 4 {
                continue;
            } else if r.is_multiple_of(16) {
                let moves = 1 + ((r >> 8) % 6) as i32;
                Eval::Mate(if (r >> 16).is_multiple_of(2) {
                    moves
                } else {
                    -moves
                })
            } else {
                Eval::Cp(((r >> 8) % 3001) as i32 - 1500)
            };
            let best = match ((r >> 32) % 3, nodes.get(i)) {
                (_, None) => None,
                (0, Some(next)) => Some(next.uci()),
                (1, Some(next)) => Some(if next.uci() == "a1a2" { "h1h2" } else { "a1a2" }.into()),
                _ => None,
            };
            let pv = best.clone().unwrap_or_default();
            evals.insert(
                k,
                Entry {
                    eval: Some(eval),
                    best,
                    pv,
                },
            );
        }
    }
    evals
}

/// The `evals` table of `evals_schema()`.
fn evals_batch(evals: &HashMap<Key, Entry>) -> RecordBatch {
    let rows: BTreeMap<&Key, &Entry> = evals.iter().collect();
    let cp: Int32Array = rows
        .values()
        .map(|e| match e.eval {
            Some(Eval::Cp(cp)) => Some(cp),
            _ => None,
        })
        .collect();
    let mate: Int32Array = rows
        .values()
        .map(|e| match e.eval {
            Some(Eval::Mate(n)) => Some(n),
            _ => None,
        })
        .collect();
    RecordBatch::try_new(
        evals_schema(),
        vec![
            Arc::new(Int64Array::from_iter_values(rows.keys().map(|k| k.0))),
            Arc::new(Int64Array::from_iter_values(rows.keys().map(|k| k.1))),
            Arc::new(cp),
            Arc::new(mate),
            Arc::new(StringArray::from_iter(
                rows.values().map(|e| e.best.clone()),
            )),
            Arc::new(StringArray::from_iter_values(
                rows.values().map(|e| e.pv.clone()),
            )),
        ],
    )
    .expect("evals batch")
}

/// tabla_review's review of a game from the same evaluations.
fn rust_review(game: &Game, evals: &HashMap<Key, Entry>) -> Review {
    let mut line = Mainline::from_game(game).expect("a mainline");
    let start = game.start.as_ref().expect("a start position");
    let positions = std::iter::once(start).chain(game.mainline().map(|n| &n.position));
    for (info, position) in line.positions.iter_mut().zip(positions) {
        if let Some(entry) = evals.get(&key(position)) {
            info.eval = entry.eval;
            info.best = entry.best.as_ref().map(|uci| BestMove {
                san: uci.clone(),
                uci: uci.clone(),
            });
            info.pv = entry.pv.split_whitespace().map(str::to_owned).collect();
        }
    }
    judge(&line, Rules::Lichess)
}

/// One column of a query's result, every batch's, as `T`'s arrays after a cast to `to`.
fn column<A: Array + Clone + 'static>(
    batches: &[RecordBatch],
    name: &str,
    to: &DataType,
) -> Vec<A> {
    batches
        .iter()
        .map(|b| {
            let c = b
                .column_by_name(name)
                .unwrap_or_else(|| panic!("no column {name}"));
            let c = cast(c, to).unwrap_or_else(|e| panic!("{name}: {e}"));
            c.as_any().downcast_ref::<A>().expect("cast").clone()
        })
        .collect()
}

fn ints(batches: &[RecordBatch], name: &str) -> Vec<Option<i64>> {
    column::<Int64Array>(batches, name, &DataType::Int64)
        .iter()
        .flat_map(|a| a.iter())
        .collect()
}

fn floats(batches: &[RecordBatch], name: &str) -> Vec<Option<f64>> {
    column::<Float64Array>(batches, name, &DataType::Float64)
        .iter()
        .flat_map(|a| a.iter())
        .collect()
}

fn strings(batches: &[RecordBatch], name: &str) -> Vec<Option<String>> {
    column::<StringArray>(batches, name, &DataType::Utf8)
        .iter()
        .flat_map(|a| a.iter().map(|s| s.map(str::to_owned)).collect::<Vec<_>>())
        .collect()
}

fn close(what: &str, sql: Option<f64>, rust: Option<f64>) {
    match (sql, rust) {
        (Some(a), Some(b)) => assert!((a - b).abs() < 1e-6, "{what}: SQL {a}, Rust {b}"),
        (a, b) => assert_eq!(a, b, "{what}"),
    }
}

/// The query of a file of sql/, its header's comment lines left out.
fn query(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sql")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    text.lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn review_sql_gives_tabla_reviews_figures() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let lichess = tabla_testdata::testdata_dir()
        .join("review")
        .join("lichess-evals.pgn");
    let mut text = std::fs::read_to_string(&lichess).expect("lichess-evals.pgn");
    text.push_str(MADE);
    let pgn = dir.path().join("review.pgn");
    std::fs::write(&pgn, &text).expect("write the PGN");
    let games: Vec<Game> = Reader::new(text.as_bytes())
        .games()
        .map(|g| g.expect("readable"))
        .collect();
    assert_eq!(games.len(), 42);

    // On one thread, games are numbered 1, 2, ... in the file's order.
    let options = Options {
        inputs: vec![Input::Path(pgn)],
        out_dir: dir.path().into(),
        positions: PositionsTable::Full,
        max_ply: None,
        threads: NonZeroUsize::MIN,
        game_ids: GameIds::Numbered { first: 1 },
    };
    let (_, tables) = convert_to_arrow(&options, &NoProgress).expect("convert");
    let evals = evaluations(&games);

    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let (moves, figures) = runtime.block_on(async {
        let ctx = SessionContext::new();
        let positions = MemTable::try_new(tables.positions[0].schema(), vec![tables.positions])
            .expect("positions table");
        ctx.register_table("positions", Arc::new(positions))
            .expect("register positions");
        ctx.register_batch("evals", evals_batch(&evals))
            .expect("register evals");
        let moves = ctx
            .sql(&query("review.sql"))
            .await
            .expect("review.sql plans");
        ctx.register_table("review_moves", moves.clone().into_view())
            .expect("register review_moves");
        let moves = moves.collect().await.expect("review.sql runs");
        let figures = ctx
            .sql(&query("review_games.sql"))
            .await
            .expect("review_games.sql plans")
            .collect()
            .await
            .expect("review_games.sql runs");
        (moves, figures)
    });

    // SQL's moves by game, in ply order.
    let game_ids = ints(&moves, "game_id");
    let plies = ints(&moves, "ply");
    let (mover, san, uci) = (
        strings(&moves, "mover"),
        strings(&moves, "san"),
        strings(&moves, "uci"),
    );
    let (cp, mate, best, pv) = (
        ints(&moves, "cp"),
        ints(&moves, "mate"),
        strings(&moves, "best"),
        strings(&moves, "pv"),
    );
    let (win, accuracy, judgement) = (
        floats(&moves, "win"),
        floats(&moves, "accuracy"),
        strings(&moves, "judgement"),
    );
    let mut by_game: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
    for (row, id) in game_ids.iter().enumerate() {
        by_game.entry(id.expect("game_id")).or_default().push(row);
    }
    for rows in by_game.values_mut() {
        rows.sort_by_key(|&r| plies[r]);
    }
    let figure_ids = ints(&figures, "game_id");
    let figure_row: HashMap<i64, usize> = figure_ids
        .iter()
        .enumerate()
        .map(|(row, id)| (id.expect("game_id"), row))
        .collect();
    let side_figures = |side: &str| {
        (
            floats(&figures, &format!("{side}_accuracy")),
            ints(&figures, &format!("{side}_acpl")),
            ints(&figures, &format!("{side}_inaccuracies")),
            ints(&figures, &format!("{side}_mistakes")),
            ints(&figures, &format!("{side}_blunders")),
        )
    };
    let sides = [side_figures("white"), side_figures("black")];

    let (mut checked_moves, mut marks, mut left_out) = (0, 0, 0);
    // Moves marked with a mate before or after them, and moves the engine chose (not marked).
    let (mut mate_marks, mut agreed) = (0, 0);
    for (i, game) in games.iter().enumerate() {
        let id = i as i64 + 1;
        let name = format!(
            "game {id} ({})",
            game.tag("Site").or(game.tag("Event")).unwrap_or("?")
        );
        let review = rust_review(game, &evals);
        if review.error.is_some() {
            left_out += 1;
            assert!(!by_game.contains_key(&id), "{name}: SQL reviewed it");
            assert!(!figure_row.contains_key(&id), "{name}: SQL has figures");
            continue;
        }
        let rows = by_game.get(&id).map(Vec::as_slice).unwrap_or_default();
        assert_eq!(rows.len(), review.moves.len(), "{name}: moves");
        let mut before = None;
        for (&r, m) in rows.iter().zip(&review.moves) {
            let what = format!("{name}, ply {}", m.ply);
            assert_eq!(plies[r], Some(i64::from(m.ply)), "{what}");
            let white = m.ply % 2 == 1;
            assert_eq!(
                mover[r].as_deref(),
                Some(if white { "white" } else { "black" }),
                "{what}"
            );
            assert_eq!(san[r].as_deref(), Some(m.san.as_str()), "{what}");
            assert_eq!(uci[r].as_deref(), Some(m.uci.as_str()), "{what}");
            let (want_cp, want_mate) = match m.eval {
                Some(Eval::Cp(c)) => (Some(i64::from(c)), None),
                Some(Eval::Mate(n)) => (None, Some(i64::from(n))),
                None => (None, None),
            };
            assert_eq!((cp[r], mate[r]), (want_cp, want_mate), "{what}: eval");
            assert_eq!(best[r], m.best.as_ref().map(|b| b.uci.clone()), "{what}");
            let want_pv = (!m.pv.is_empty()).then(|| m.pv.join(" "));
            assert_eq!(pv[r].clone().filter(|p| !p.is_empty()), want_pv, "{what}");
            close(&format!("{what}: win"), win[r], m.win);
            close(&format!("{what}: accuracy"), accuracy[r], m.accuracy);
            assert_eq!(
                judgement[r].as_deref(),
                m.judgement.map(|j| j.name()),
                "{what}: judgement"
            );
            marks += usize::from(m.judgement.is_some());
            let around = [before, m.eval];
            let with_mate = around.iter().any(|e| matches!(e, Some(Eval::Mate(_))));
            mate_marks += usize::from(m.judgement.is_some() && with_mate);
            before = m.eval;
            agreed += usize::from(m.best.as_ref().is_some_and(|b| b.uci == m.uci));
            checked_moves += 1;
        }
        let row = *figure_row
            .get(&id)
            .unwrap_or_else(|| panic!("{name}: no figures"));
        let pairs = [
            ("White", &review.white, &sides[0]),
            ("Black", &review.black, &sides[1]),
        ];
        for (colour, side, figures) in pairs {
            let what = format!("{name}, {colour}");
            close(&format!("{what}: accuracy"), figures.0[row], side.accuracy);
            assert_eq!(figures.1[row], side.acpl.map(i64::from), "{what}: ACPL");
            assert_eq!(
                (figures.2[row], figures.3[row], figures.4[row]),
                (
                    Some(i64::from(side.inaccuracies)),
                    Some(i64::from(side.mistakes)),
                    Some(i64::from(side.blunders))
                ),
                "{what}: marks"
            );
        }
    }
    // Every game but the one missing an evaluation; thousands of moves, hundreds marked.
    assert_eq!(left_out, 1);
    assert_eq!(by_game.len(), games.len() - 1);
    println!(
        "{checked_moves} moves, {marks} marked ({mate_marks} around a mate), {agreed} the engine's choice"
    );
    assert!(
        checked_moves > 2_000 && marks > 200,
        "{checked_moves} moves, {marks} marks"
    );
    assert!(
        mate_marks > 10 && agreed > 500,
        "{mate_marks} mate marks, {agreed} agreed"
    );
}
