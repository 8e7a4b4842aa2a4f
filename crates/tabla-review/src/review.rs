//! The review of a game: every move judged, each side's figures, from a [`Mainline`] whose
//! positions are evaluated. The one function both the engine path and [`crate::from_evals`]
//! end in.

use crate::{
    BestMove, Ending, Eval, INITIAL_EVAL, Judgement, Mainline, ReviewError, Rules,
    average_centipawn_loss, game_accuracy, judge_move, move_accuracy, win_percent,
};
use serde::{Deserialize, Serialize};
use tabla::Color;

/// A game's review. Its JSON form:
/// `{"white": {...}, "black": {...}, "moves": [...], "error": null}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// White's figures.
    pub white: SideReview,
    /// Black's figures.
    pub black: SideReview,
    /// Every move of the mainline, in order (none when the game could not be reviewed).
    pub moves: Vec<MoveReview>,
    /// Why the game could not be reviewed, or `None`.
    pub error: Option<String>,
}

/// One side's figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideReview {
    /// The player's name (the `White` or `Black` tag).
    pub name: Option<String>,
    /// The game accuracy, 0 to 100 ([`crate::game_accuracy`]); `None` without a judged move.
    pub accuracy: Option<f64>,
    /// The average centipawn loss ([`crate::average_centipawn_loss`]).
    pub acpl: Option<u32>,
    /// How many of the side's moves are inaccuracies.
    pub inaccuracies: u32,
    /// How many are mistakes.
    pub mistakes: u32,
    /// How many are blunders.
    pub blunders: u32,
}

/// One move's review.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveReview {
    /// The ply of the move (the first move from the usual start is ply 1).
    pub ply: u32,
    /// The move in SAN.
    pub san: String,
    /// The move in UCI.
    pub uci: String,
    /// The evaluation of the position after the move, White's point of view (`[%eval]` after
    /// the move); `None` after a mating move.
    pub eval: Option<Eval>,
    /// The engine's choice in the position before the move, when known.
    pub best: Option<BestMove>,
    /// The engine's line from the position before the move, in UCI (empty when unknown).
    pub pv: Vec<String>,
    /// White's win percentage after the move ([`crate::win_percent`]).
    pub win: Option<f64>,
    /// The move's mark, if any.
    pub judgement: Option<Judgement>,
    /// The move's accuracy, 0 to 100 ([`crate::move_accuracy`]).
    pub accuracy: Option<f64>,
}

impl Review {
    /// The review of a game that could not be reviewed: the names, no moves, and why.
    pub fn failed(white: Option<String>, black: Option<String>, error: &ReviewError) -> Review {
        Review {
            white: SideReview {
                name: white,
                ..SideReview::default()
            },
            black: SideReview {
                name: black,
                ..SideReview::default()
            },
            moves: Vec::new(),
            error: Some(error.to_string()),
        }
    }

    /// The side's figures.
    pub fn side(&self, side: Color) -> &SideReview {
        side.fold(&self.white, &self.black)
    }
}

/// Reviews a mainline by lichess's rules ([`Rules`]).
///
/// - The position before the first move counts as [`INITIAL_EVAL`] (15 centipawns) when it has
///   no evaluation, as lichess counts it.
/// - Every position after a move needs an evaluation (else the review is [`Review::failed`],
///   naming the move), but the final one of a game that ends on the board: after a mate there
///   is nothing to evaluate, and, as lichess, the mating move gets no evaluation, win percentage,
///   mark or accuracy and is left out of the sides' figures (an evaluation given there is
///   ignored); a final stalemate counts as 0 centipawns when not evaluated (an engine's score).
/// - As lichess, a move is not marked when the engine's choice before it (`best`, compared in
///   UCI) is the move played: the evaluations of one search to the next then differ by the
///   engine's own noise, not by the move.
///
/// ```
/// use tabla_review::{Eval, Judgement, Mainline, PlayedMove, PositionInfo, Rules, judge};
///
/// let moves = ["e2e4", "f7f6", "d2d4", "g7g5", "d1h5"];
/// let evals = [None, Some(Eval::Cp(30)), Some(Eval::Cp(120)), Some(Eval::Cp(110)),
///              Some(Eval::Mate(1)), None];
/// let line = Mainline {
///     moves: moves.iter().zip(["e4", "f6", "d4", "g5", "Qh5#"])
///         .map(|(uci, san)| PlayedMove { san: san.into(), uci: uci.to_string() })
///         .collect(),
///     positions: evals.iter().map(|&eval| PositionInfo { eval, ..Default::default() }).collect(),
///     end: Some(tabla_review::Ending::Checkmate),
///     ..Default::default()
/// };
/// let review = judge(&line, Rules::Lichess);
/// assert_eq!(review.moves[1].judgement, Some(Judgement::Inaccuracy));
/// assert_eq!(review.moves[3].judgement, Some(Judgement::Blunder));
/// assert_eq!(review.moves[4].eval, None);
/// assert_eq!((review.black.inaccuracies, review.black.blunders), (1, 1));
/// ```
pub fn judge(line: &Mainline, rules: Rules) -> Review {
    match try_judge(line, rules) {
        Ok(review) => review,
        Err(error) => Review::failed(line.white.clone(), line.black.clone(), &error),
    }
}

/// [`judge`], its failure as an error.
fn try_judge(line: &Mainline, rules: Rules) -> Result<Review, ReviewError> {
    let n = line.moves.len();
    if line.positions.len() != n + 1 {
        return Err(ReviewError::PositionCount {
            moves: n,
            positions: line.positions.len(),
        });
    }
    // Step 1: the evaluation of every position, `None` only after a mating move.
    let mut evals = Vec::with_capacity(n + 1);
    evals.push(Some(line.positions[0].eval.unwrap_or(INITIAL_EVAL)));
    for i in 0..n {
        let last = i + 1 == n;
        let eval = match (line.positions[i + 1].eval, line.end) {
            _ if last && line.end == Some(Ending::Checkmate) => None,
            (Some(eval), _) => Some(eval),
            (None, Some(Ending::Stalemate)) if last => Some(Eval::Cp(0)),
            (None, _) => {
                return Err(ReviewError::MissingEval {
                    label: line.label(i),
                    ply: line.ply(i),
                });
            }
        };
        evals.push(eval);
    }
    // Step 2: each move, from the evaluations around it.
    let mut review = Review {
        white: SideReview {
            name: line.white.clone(),
            ..SideReview::default()
        },
        black: SideReview {
            name: line.black.clone(),
            ..SideReview::default()
        },
        moves: Vec::with_capacity(n),
        error: None,
    };
    for (i, played) in line.moves.iter().enumerate() {
        let mover = line.mover(i);
        let info = &line.positions[i];
        let engine_agreed = info.best.as_ref().is_some_and(|b| b.uci == played.uci);
        let (before, after) = (evals[i], evals[i + 1]);
        let mut entry = MoveReview {
            ply: line.ply(i),
            san: played.san.clone(),
            uci: played.uci.clone(),
            eval: after,
            best: info.best.clone(),
            pv: info.pv.clone(),
            ..MoveReview::default()
        };
        if let (Some(before), Some(after)) = (before, after) {
            entry.win = Some(win_percent(after));
            let for_mover = |eval| mover.fold(win_percent(eval), 100.0 - win_percent(eval));
            entry.accuracy = Some(move_accuracy(for_mover(before), for_mover(after)));
            if !engine_agreed {
                entry.judgement = judge_move(before, after, mover, rules).map(|v| v.judgement);
            }
        }
        let side = mover.fold(&mut review.white, &mut review.black);
        match entry.judgement {
            Some(Judgement::Inaccuracy) => side.inaccuracies += 1,
            Some(Judgement::Mistake) => side.mistakes += 1,
            Some(Judgement::Blunder) => side.blunders += 1,
            None => {}
        }
        review.moves.push(entry);
    }
    // Step 3: each side's figures, over the evaluated positions (all but after a mate).
    let evaluated: Vec<Eval> = evals.iter().flatten().copied().collect();
    let wins: Vec<f64> = evaluated.iter().map(|&e| win_percent(e)).collect();
    let first_mover = line.mover(0);
    let accuracy = game_accuracy(&wins, first_mover);
    let acpl = average_centipawn_loss(&evaluated, first_mover);
    review.white.accuracy = accuracy.white;
    review.black.accuracy = accuracy.black;
    review.white.acpl = acpl.white;
    review.black.acpl = acpl.black;
    Ok(review)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PlayedMove, PositionInfo};

    fn line(evals: &[Option<Eval>], end: Option<Ending>) -> Mainline {
        let ucis = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"];
        Mainline {
            white: Some("W".into()),
            black: Some("B".into()),
            start_ply: 0,
            moves: ucis[..evals.len() - 1]
                .iter()
                .map(|u| PlayedMove {
                    san: u.to_string(),
                    uci: u.to_string(),
                })
                .collect(),
            positions: evals
                .iter()
                .map(|&eval| PositionInfo {
                    eval,
                    ..PositionInfo::default()
                })
                .collect(),
            end,
        }
    }

    #[test]
    fn a_missing_eval_names_the_move() {
        let review = judge(
            &line(&[None, Some(Eval::Cp(20)), None, Some(Eval::Cp(20))], None),
            Rules::Lichess,
        );
        let error = review.error.expect("an error");
        assert!(
            error.contains("1... e7e5") && error.contains("ply 2"),
            "{error}"
        );
        assert!(review.moves.is_empty());
        assert_eq!(review.white.name.as_deref(), Some("W"));
        // The final position needs one too, unless the game ended there.
        let review = judge(
            &line(&[None, Some(Eval::Cp(20)), None], None),
            Rules::Lichess,
        );
        assert!(review.error.is_some());
        let review = judge(
            &line(&[None, Some(Eval::Cp(20)), None], Some(Ending::Stalemate)),
            Rules::Lichess,
        );
        assert_eq!(review.error, None);
        assert_eq!(review.moves[1].eval, Some(Eval::Cp(0)));
        let short = Mainline {
            positions: vec![PositionInfo::default()],
            ..line(&[None, Some(Eval::Cp(20))], None)
        };
        assert!(
            judge(&short, Rules::Lichess)
                .error
                .is_some_and(|e| e.contains("1 position for 1 move:"))
        );
    }

    #[test]
    fn start_counts_as_15_unless_evaluated() {
        // White's first move from 15 to -40: 0.1013 of winning chances, an inaccuracy.
        let review = judge(&line(&[None, Some(Eval::Cp(-40))], None), Rules::Lichess);
        assert_eq!(review.moves[0].judgement, Some(Judgement::Inaccuracy));
        let review = judge(
            &line(&[Some(Eval::Cp(0)), Some(Eval::Cp(-40))], None),
            Rules::Lichess,
        );
        assert_eq!(review.moves[0].judgement, None);
        assert_eq!(review.black.accuracy, None);
        assert_eq!(review.black.acpl, None);
        assert_eq!(review.white.acpl, Some(40));
    }

    #[test]
    fn the_engines_own_choice_is_not_marked() {
        let mut l = line(&[Some(Eval::Cp(0)), Some(Eval::Cp(-300))], None);
        l.positions[0].best = Some(BestMove {
            san: "e4".into(),
            uci: "e2e4".into(),
        });
        let review = judge(&l, Rules::Lichess);
        assert_eq!(review.moves[0].judgement, None);
        // Its accuracy still counts the loss.
        assert!(review.moves[0].accuracy.is_some_and(|a| a < 50.0));
        l.positions[0].best = Some(BestMove {
            san: "d4".into(),
            uci: "d2d4".into(),
        });
        let review = judge(&l, Rules::Lichess);
        assert_eq!(review.moves[0].judgement, Some(Judgement::Blunder));
        assert_eq!(
            review.moves[0].best.as_ref().map(|b| b.san.as_str()),
            Some("d4")
        );
    }

    #[test]
    fn json_shape() {
        // Black's 1... e5 lets White mate in 2; the engine wanted 1... d5.
        let mut l = line(&[None, Some(Eval::Cp(17)), Some(Eval::Mate(2))], None);
        l.positions[1].best = Some(BestMove {
            san: "d5".into(),
            uci: "d7d5".into(),
        });
        l.positions[1].pv = vec!["d7d5".into(), "e4d5".into()];
        let review = judge(&l, Rules::Lichess);
        let json = serde_json::to_value(&review).expect("json");
        let keys = |v: &serde_json::Value| -> Vec<String> {
            v.as_object().expect("object").keys().cloned().collect()
        };
        let mut top = keys(&json);
        top.sort();
        assert_eq!(top, ["black", "error", "moves", "white"]);
        let mut side = keys(&json["white"]);
        side.sort();
        assert_eq!(
            side,
            [
                "accuracy",
                "acpl",
                "blunders",
                "inaccuracies",
                "mistakes",
                "name"
            ]
        );
        let mut mv = keys(&json["moves"][1]);
        mv.sort();
        assert_eq!(
            mv,
            [
                "accuracy",
                "best",
                "eval",
                "judgement",
                "ply",
                "pv",
                "san",
                "uci",
                "win"
            ]
        );
        assert_eq!(json["moves"][1]["eval"], serde_json::json!({"mate": 2}));
        assert_eq!(json["moves"][1]["pv"], serde_json::json!(["d7d5", "e4d5"]));
        assert_eq!(json["moves"][0]["eval"], serde_json::json!({"cp": 17}));
        assert_eq!(
            json["moves"][1]["best"],
            serde_json::json!({"san": "d5", "uci": "d7d5"})
        );
        assert_eq!(json["moves"][1]["judgement"], "Blunder");
        assert_eq!(json["moves"][0]["best"], serde_json::Value::Null);
        assert_eq!(json["error"], serde_json::Value::Null);
        let back: Review = serde_json::from_value(json).expect("read back");
        assert_eq!(back, review);
    }
}
