//! The review written into the game, as lichess's annotated PGN: an `[%eval]` after every move,
//! the marks as NAGs with lichess's comment, the engine's line as a variation, and each side's
//! figures in tags.

use crate::{
    Eval, INITIAL_EVAL, Judgement, MoveReview, Reason, Review, Rules, Verdict, judge_move,
};
use tabla::Position;
use tabla_pgn::{Comment, Game, Line, Nag, Node, write_game};

/// The tag of White's game accuracy (one decimal, `87.3`); `BlackAccuracy` is Black's.
pub const WHITE_ACCURACY_TAG: &str = "WhiteAccuracy";
/// The tag of Black's game accuracy.
pub const BLACK_ACCURACY_TAG: &str = "BlackAccuracy";
/// The tag of White's average centipawn loss (a whole number); `BlackACPL` is Black's.
pub const WHITE_ACPL_TAG: &str = "WhiteACPL";
/// The tag of Black's average centipawn loss.
pub const BLACK_ACPL_TAG: &str = "BlackACPL";

/// The most plies of the engine's line written as a variation (lichess's 20).
pub const MAX_VARIATION_PLIES: usize = 20;

/// Why a game could not be annotated with a review.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnnotateError {
    /// The review is of a game that could not be reviewed.
    #[error("not reviewed: {0}")]
    NotReviewed(String),
    /// The review is of another game.
    #[error(
        "the review does not fit the game: {detail}; annotate a game with the review made of it"
    )]
    OtherGame {
        /// Where they part.
        detail: String,
    },
}

/// The game annotated with its review, as lichess annotates an analysed game, beside the
/// annotator's own marks and words (docs/review.md, "Annotated PGN"):
///
/// - the game's own NAGs, comments and variations stay, in their order; only what an earlier
///   engine wrote goes: the `[%eval]`s, and the words of an earlier review (recognised by their
///   form, `(0.80 → 0.00) Inaccuracy. Bf2 was best.`);
/// - after every move the engine's evaluation `[%eval 0.17]` (White's point of view; none after
///   a mating move), in the move's first comment when that one opens with a command, as lichess
///   writes it (`{ [%eval 0.17] [%clk 0:05:00] }`), else as a comment of its own after the
///   others;
/// - a marked move gets lichess's comment after the game's own,
///   `{ (0.80 → 0.00) Inaccuracy. Bf2 was best. }` (the evaluations before and after with two
///   decimals, or `Mate in 3`; "Checkmate is now unavoidable." or "Lost forced checkmate
///   sequence." when a mate appeared or was lost; the engine's choice when it was another
///   move), and the engine's line (at most [`MAX_VARIATION_PLIES`]) after the game's
///   variations, unless one of them already plays it;
/// - a marked move gets the mark's NAG (`$6` inaccuracy, `$2` mistake, `$4` blunder) only when
///   it has no move assessment (`$1` to `$6`) of its own: a master's `5. e4!` stays `5. e4 $1`,
///   the engine's verdict then in the comment alone. A NAG cannot say who wrote it, so none is
///   taken off: a game reviewed again keeps the first review's NAG;
/// - each side's figures in the tags `WhiteAccuracy`, `BlackAccuracy` (one decimal) and
///   `WhiteACPL`, `BlackACPL`.
///
/// The comment's evaluation before the first move is lichess's 0.15 ([`INITIAL_EVAL`]).
///
/// ```
/// use tabla_pgn::{Reader, write_game};
/// use tabla_review::{Rules, annotate, from_evals};
///
/// let pgn = "[White \"A\"]\n\n1. e4 { [%eval 0.18] } 1... e5 { [%eval 0.21] } \
///            2. Qh5 { [%eval -0.9] [%clk 0:04:59] } 2... Nc6 { [%eval -0.8] } \
///            3. Bc4! { Bold } { [%eval -3.5] } *";
/// let game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
/// let review = from_evals(&game, Rules::Lichess);
/// // Line ends read as spaces.
/// let text = write_game(&annotate(&game, &review).unwrap()).replace('\n', " ");
/// assert!(
///     text.contains("2. Qh5 $2 { [%eval -0.9] [%clk 0:04:59] } { (0.21 → -0.90) Mistake. }"),
///     "{text}"
/// );
/// // The annotator's `!` stays; the engine's verdict is in the words.
/// assert!(
///     text.contains("3. Bc4 $1 { Bold } { (-0.80 → -3.50) Blunder. } { [%eval -3.5] }"),
///     "{text}"
/// );
/// ```
pub fn annotate(game: &Game, review: &Review) -> Result<Game, AnnotateError> {
    if let Some(error) = &review.error {
        return Err(AnnotateError::NotReviewed(error.clone()));
    }
    let nodes = game.mainline().len();
    if review.moves.len() != nodes {
        return Err(AnnotateError::OtherGame {
            detail: format!(
                "{} reviewed, {nodes} in the game",
                tabla::plural(review.moves.len(), "move")
            ),
        });
    }
    let start = game
        .start
        .as_ref()
        .ok_or_else(|| AnnotateError::NotReviewed("the game has no start position".into()))?;
    let mut annotated = game.clone();
    let mut before_position = start.clone_without_history();
    let mut before_eval = Some(INITIAL_EVAL);
    for (node, reviewed) in annotated.moves.nodes.iter_mut().zip(&review.moves) {
        if node.uci() != reviewed.uci {
            return Err(AnnotateError::OtherGame {
                detail: format!(
                    "ply {} is {} in the game, {} in the review",
                    reviewed.ply,
                    node.uci(),
                    reviewed.uci
                ),
            });
        }
        annotate_move(node, reviewed, before_eval, &before_position);
        before_eval = reviewed.eval;
        before_position = node.position.clone_without_history();
    }
    for (tag, value) in [
        (
            WHITE_ACCURACY_TAG,
            review.white.accuracy.map(|a| format!("{a:.1}")),
        ),
        (
            BLACK_ACCURACY_TAG,
            review.black.accuracy.map(|a| format!("{a:.1}")),
        ),
        (WHITE_ACPL_TAG, review.white.acpl.map(|a| a.to_string())),
        (BLACK_ACPL_TAG, review.black.acpl.map(|a| a.to_string())),
    ] {
        annotated.tags.retain(|(name, _)| name != tag);
        if let Some(value) = value {
            annotated.tags.push((tag.to_owned(), value));
        }
    }
    Ok(annotated)
}

/// [`annotate`], written in the PGN export format ([`tabla_pgn::write_game`]).
pub fn annotated_pgn(game: &Game, review: &Review) -> Result<String, AnnotateError> {
    annotate(game, review).map(|g| write_game(&g))
}

/// [`annotated_pgn`], or the game as it is ([`tabla_pgn::write_game`]) when it could not be
/// reviewed (`review.error`): what `tabla review` writes and Python's `annotated_pgn` gives, a
/// game for each game read.
pub fn annotated_pgn_or_game(game: &Game, review: &Review) -> Result<String, AnnotateError> {
    if review.error.is_some() {
        return Ok(write_game(game));
    }
    annotated_pgn(game, review)
}

/// One mainline move: its evaluation, mark, comment and line, beside what the game had.
fn annotate_move(node: &mut Node, reviewed: &MoveReview, before: Option<Eval>, from: &Position) {
    // Earlier evaluations and an earlier review's words go; the game's own comments stay.
    for comment in &mut node.comments_after {
        comment.eval = None;
        comment.eval_depth = None;
    }
    node.comments_after
        .retain(|c| !c.is_empty() && !is_review_comment(c));
    let mut eval_comment = None;
    if let Some(eval) = reviewed.eval {
        match node.comments_after.first_mut() {
            // lichess's form: the evaluation opens the comment of the clock.
            Some(first) if first.to_string().starts_with('[') => first.eval = Some(eval),
            _ => {
                eval_comment = Some(Comment {
                    eval: Some(eval),
                    ..Comment::default()
                })
            }
        }
    }
    if let Some(judgement) = reviewed.judgement {
        // The game's own assessment of the move stays and takes precedence: the engine's NAG
        // only where the move has none, its judgement always in the words.
        if !node.nags.iter().any(|n| is_move_assessment(*n)) {
            node.nags.insert(0, Nag(judgement.nag()));
        }
        let other_best = reviewed.best.as_ref().filter(|b| b.uci != reviewed.uci);
        node.comments_after.push(Comment {
            text: review_words(
                node,
                reviewed,
                judgement,
                before,
                other_best.map(|b| b.san.as_str()),
            ),
            ..Comment::default()
        });
        if let Some(best) = other_best {
            let pv: Vec<&str> = if reviewed.pv.is_empty() {
                vec![best.uci.as_str()]
            } else {
                reviewed.pv.iter().map(String::as_str).collect()
            };
            let line = variation(from, &pv);
            let known = node.variations.iter().any(|v| same_moves(v, &line));
            if !line.nodes.is_empty() && !known {
                node.variations.push(line);
            }
        }
    }
    node.comments_after.extend(eval_comment);
}

/// lichess's comment on a marked move: `(0.80 → 0.00) Inaccuracy. Bf2 was best.`
fn review_words(
    node: &Node,
    reviewed: &MoveReview,
    judgement: Judgement,
    before: Option<Eval>,
    other_best: Option<&str>,
) -> String {
    let mut text = String::new();
    let evals: Vec<String> = [before, reviewed.eval]
        .into_iter()
        .flatten()
        .filter_map(advice_eval)
        .collect();
    if !evals.is_empty() {
        text = format!("({}) ", evals.join(" → "));
    }
    // The words of the mark: lichess's own for a mate that appeared or was lost.
    let mover = !node.position.turn();
    let reason = match (before, reviewed.eval) {
        (Some(b), Some(a)) => judge_move(b, a, mover, Rules::Lichess).map(|v| v.reason),
        _ => None,
    };
    text.push_str(
        Verdict {
            judgement,
            reason: reason.unwrap_or(Reason::Advantage),
        }
        .words(),
    );
    text.push('.');
    if let Some(best) = other_best {
        text.push_str(&format!(" {best} was best."));
    }
    text
}

/// Whether a NAG assesses the move itself: `$1` to `$6` (`!`, `?`, `!!`, `??`, `!?`, `?!`).
fn is_move_assessment(nag: Nag) -> bool {
    (1..=6).contains(&nag.0)
}

/// Whether a comment holds a review's words as [`annotate`] and lichess write them (the
/// evaluations in brackets, then the verdict, then perhaps the better move:
/// `(0.80 → 0.00) Inaccuracy. Bf2 was best.`), so that a game reviewed again gets the new words
/// in their place rather than both.
fn is_review_comment(comment: &Comment) -> bool {
    if comment.clock.is_some()
        || comment.emt.is_some()
        || comment.eval.is_some()
        || !comment.shapes.is_empty()
    {
        return false;
    }
    let Some((evals, words)) = comment
        .text
        .strip_prefix('(')
        .and_then(|rest| rest.split_once(") "))
    else {
        return false;
    };
    let Some((from, to)) = evals.split_once(" → ") else {
        return false;
    };
    let is_eval = |e: &str| {
        e.strip_prefix("Mate in ")
            .unwrap_or(e)
            .parse::<f64>()
            .is_ok()
    };
    if !is_eval(from) || !is_eval(to) {
        return false;
    }
    let verdicts = [
        Judgement::Inaccuracy.name(),
        Judgement::Mistake.name(),
        Judgement::Blunder.name(),
        "Checkmate is now unavoidable",
        "Lost forced checkmate sequence",
    ];
    verdicts.iter().any(|verdict| {
        let Some(rest) = words
            .strip_prefix(verdict)
            .and_then(|r| r.strip_prefix('.'))
        else {
            return false;
        };
        rest.is_empty()
            || rest
                .strip_prefix(' ')
                .and_then(|r| r.strip_suffix(" was best."))
                .is_some_and(|san| !san.is_empty() && !san.contains(' '))
    })
}

/// Whether two lines play the same moves (the engine's line already in the game).
fn same_moves(a: &Line, b: &Line) -> bool {
    a.nodes.len() == b.nodes.len() && a.nodes.iter().zip(&b.nodes).all(|(x, y)| x.mv == y.mv)
}

/// An evaluation as lichess's comment shows it: pawns with two decimals, or `Mate in 3`.
fn advice_eval(eval: Eval) -> Option<String> {
    match eval {
        Eval::Cp(cp) => {
            let sign = if cp < 0 { "-" } else { "" };
            let abs = cp.unsigned_abs();
            Some(format!("{sign}{}.{:02}", abs / 100, abs % 100))
        }
        Eval::Mate(0) => None,
        Eval::Mate(n) => Some(format!("Mate in {}", n.unsigned_abs())),
    }
}

/// The engine's line from `from`, as far as its moves are legal, at most
/// [`MAX_VARIATION_PLIES`].
fn variation(from: &Position, pv: &[&str]) -> Line {
    let mut position = from.clone_without_history();
    let mut line = Line::default();
    for uci in pv.iter().take(MAX_VARIATION_PLIES) {
        let Ok(mv) = position.parse_uci(uci) else {
            break;
        };
        let Ok(node) = Node::played(&position, mv) else {
            break;
        };
        position = node.position.clone_without_history();
        line.nodes.push(node);
    }
    line
}
