//! Chess functions for `tabla db sql`, so that chess questions stay short:
//!
//! | function | gives |
//! |---|---|
//! | `fen_after(uci, n)` | the FEN after the first `n` moves of a `uci` list (the `games` table's column), from the standard start; the whole list when it is shorter; null when a move cannot be played (a game set up from a `FEN` tag) |
//! | `fen_key_hi(fen)`, `fen_key_lo(fen)` | the two halves of the position's wide key, as the `positions` and `explorer` tables' `key_hi` and `key_lo` hold them; null for a FEN that cannot be read |
//!
//! ```text
//! tabla db sql --db games.db "SELECT COUNT(*) FROM positions
//!   WHERE key_hi = fen_key_hi('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1')
//!     AND key_lo = fen_key_lo('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1')"
//! ```

use arrow_array::builder::{Int64Builder, StringBuilder};
use arrow_array::{Array, ArrayRef, Int64Array, ListArray, StringArray};
use arrow_schema::{DataType, Field};
use datafusion::arrow::compute::cast;
use datafusion::error::DataFusionError;
use datafusion::logical_expr::{ColumnarValue, Volatility, create_udf};
use datafusion::prelude::SessionContext;
use std::sync::Arc;
use tabla::Position;
use tabla::zobrist::key_columns;

/// Registers the functions with a session.
pub(crate) fn register(ctx: &SessionContext) {
    ctx.register_udf(create_udf(
        "fen_after",
        vec![
            DataType::List(Arc::new(Field::new("item", DataType::Utf8, false))),
            DataType::Int64,
        ],
        DataType::Utf8,
        Volatility::Immutable,
        Arc::new(fen_after),
    ));
    for (name, half) in [("fen_key_hi", 0), ("fen_key_lo", 1)] {
        ctx.register_udf(create_udf(
            name,
            vec![DataType::Utf8],
            DataType::Int64,
            Volatility::Immutable,
            Arc::new(move |args: &[ColumnarValue]| fen_key(args, half)),
        ));
    }
}

fn arrays(args: &[ColumnarValue]) -> Result<Vec<ArrayRef>, DataFusionError> {
    ColumnarValue::values_to_arrays(args)
}

fn fen_after(args: &[ColumnarValue]) -> Result<ColumnarValue, DataFusionError> {
    let arrays = arrays(args)?;
    let (Some(lists), Some(counts)) = (arrays.first(), arrays.get(1)) else {
        return Err(DataFusionError::Plan(
            "fen_after(uci, n) takes two arguments".to_owned(),
        ));
    };
    let lists = lists
        .as_any()
        .downcast_ref::<ListArray>()
        .ok_or_else(|| DataFusionError::Plan("fen_after: uci must be a list".to_owned()))?;
    let counts = cast(counts, &DataType::Int64)?;
    let counts = counts
        .as_any()
        .downcast_ref::<Int64Array>()
        .ok_or_else(|| DataFusionError::Plan("fen_after: n must be an integer".to_owned()))?;
    let mut out = StringBuilder::new();
    for row in 0..lists.len() {
        if lists.is_null(row) || counts.is_null(row) {
            out.append_null();
            continue;
        }
        let moves = lists.value(row);
        let Some(moves) = moves.as_any().downcast_ref::<StringArray>() else {
            out.append_null();
            continue;
        };
        let n = counts.value(row).clamp(0, moves.len() as i64) as usize;
        let mut pos = Position::startpos();
        let mut ok = true;
        for i in 0..n {
            let text = moves.value(i);
            if text == "0000" {
                pos.play_null();
            } else if let Ok(mv) = pos.parse_uci(text) {
                pos.play_unchecked(mv);
            } else {
                ok = false;
                break;
            }
        }
        if ok {
            out.append_value(pos.to_fen());
        } else {
            out.append_null();
        }
    }
    Ok(ColumnarValue::Array(Arc::new(out.finish())))
}

fn fen_key(args: &[ColumnarValue], half: usize) -> Result<ColumnarValue, DataFusionError> {
    let arrays = arrays(args)?;
    let fens = arrays
        .first()
        .ok_or_else(|| DataFusionError::Plan("fen_key_hi/lo(fen) take one argument".to_owned()))?;
    let fens = cast(fens, &DataType::Utf8)?;
    let fens = fens
        .as_any()
        .downcast_ref::<StringArray>()
        .ok_or_else(|| DataFusionError::Plan("fen_key_hi/lo: fen must be text".to_owned()))?;
    let mut out = Int64Builder::new();
    for row in 0..fens.len() {
        let key = (!fens.is_null(row))
            .then(|| Position::from_fen(fens.value(row).trim()).ok())
            .flatten()
            .map(|pos| key_columns(pos.wide_key()));
        out.append_option(key.map(|(hi, lo)| if half == 0 { hi } else { lo }));
    }
    Ok(ColumnarValue::Array(Arc::new(out.finish())))
}
