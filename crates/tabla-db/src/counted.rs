//! Which games the opening explorer counts, and why it leaves the others out, for `tabla db
//! info`: read from the `games` table (`result`, `plies`), by the explorer's rule
//! (sql/explorer.sql: a game counts at the positions it played a move from, when its result is
//! 1-0, 0-1 or 1/2-1/2).

use crate::DbError;
use crate::session::Session;
use crate::values::{int_at, ints, str_at, strings};
use serde::Serialize;
use tabla_pgn::Outcome;

/// The games the explorer counts and those it leaves out.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Counted {
    /// Games the explorer counts.
    pub counted: u64,
    /// The games left out, by reason, most first.
    pub left_out: Vec<LeftOut>,
}

/// Games the explorer leaves out for one reason.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LeftOut {
    /// Why: `result unknown (*)`, `no move played`, `no result`, `result "1/2" as an older
    /// import stored it (import the file again to count these)`, or `result "…" is not a result`.
    pub reason: String,
    /// How many games.
    pub games: u64,
}

/// Why a game with this stored result and this many mainline moves is left out; `None` when the
/// explorer counts it.
fn left_out_because(result: Option<&str>, plies: i64) -> Option<String> {
    if plies <= 0 {
        return Some("no move played".to_owned());
    }
    let Some(text) = result else {
        return Some("no result".to_owned());
    };
    // tabla convert writes the standard form; the counting of the positions' `outcome` has
    // always taken it with spaces around.
    match Outcome::from_text(text.trim()) {
        Some(Outcome::Unknown) => Some("result unknown (*)".to_owned()),
        Some(_) => None,
        None => Some(match Outcome::read_lenient(text) {
            Some(read) => format!(
                "result {text:?} as an older import stored it, read as {} (import the file \
                 again to count these)",
                read.outcome
            ),
            None => format!("result {text:?} is not a result"),
        }),
    }
}

/// Counts the database's games by [`left_out_because`].
pub(crate) fn count(session: &Session) -> Result<Counted, DbError> {
    let batches = session.collect(
        "SELECT result, CAST(CASE WHEN plies > 0 THEN 1 ELSE 0 END AS BIGINT) AS moved, \
         COUNT(*) AS games FROM games GROUP BY result, moved",
    )?;
    let mut counted = Counted::default();
    for batch in &batches {
        let (result, moved, games) = (
            strings(batch, "result")?,
            ints(batch, "moved")?,
            ints(batch, "games")?,
        );
        for i in 0..batch.num_rows() {
            let n = int_at(&games, i).unwrap_or(0).max(0) as u64;
            let reason = left_out_because(
                str_at(&result, i).as_deref(),
                int_at(&moved, i).unwrap_or(0),
            );
            match reason {
                None => counted.counted += n,
                Some(reason) => match counted.left_out.iter_mut().find(|l| l.reason == reason) {
                    Some(l) => l.games += n,
                    None => counted.left_out.push(LeftOut { reason, games: n }),
                },
            }
        }
    }
    counted
        .left_out
        .sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.reason.cmp(&b.reason)));
    Ok(counted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons() {
        assert_eq!(left_out_because(Some("1-0"), 3), None);
        assert_eq!(left_out_because(Some("1/2-1/2"), 1), None);
        assert_eq!(
            left_out_because(Some("*"), 3).as_deref(),
            Some("result unknown (*)")
        );
        assert_eq!(
            left_out_because(Some("1-0"), 0).as_deref(),
            Some("no move played")
        );
        assert_eq!(left_out_because(None, 2).as_deref(), Some("no result"));
        assert!(left_out_because(Some("1/2"), 2).is_some_and(|r| r.contains("older import")));
        assert!(left_out_because(Some("?"), 2).is_some_and(|r| r.contains("not a result")));
    }
}
