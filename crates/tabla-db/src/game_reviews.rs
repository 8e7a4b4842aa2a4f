//! The review figures a game list shows beside each game (`review` of [`GameRef`]): the row of
//! `review_games` of one engine configuration, chosen when a game was reviewed by several.
//!
//! The choice: the configuration asked for (a server asks for its own engine's, the one its
//! reviews write), else the most recent configuration that reviewed the game (the one whose
//! latest part was written last: part names start with their run's start time). A review that
//! failed (its `error` set) is not shown.

use crate::game_refs::GameRef;
use crate::review_figures::{GameReview, SideMarks};
use crate::review_tables::{REVIEW_DIR, parts, subdirs};
use crate::values::{float_at, floats, int_at, ints, str_at, strings};
use crate::{Database, DbError};
use std::collections::HashMap;

/// How a review ranks among a game's: the preferred configuration's first, then the most
/// recent (the name of its configuration's latest part).
type Rank<'a> = (bool, Option<&'a str>);

impl Database {
    /// Fills the `review` of each of `games` from `review_games`: the row of `preferred`
    /// (a configuration's name and a rules' name, as the `engine` and `rules` columns hold
    /// them) when the game has one, else of the configuration that reviewed it last; `None`
    /// for a game without a review (or only failed ones).
    pub fn add_reviews(
        &self,
        games: &mut [GameRef],
        preferred: Option<(&str, &str)>,
    ) -> Result<(), DbError> {
        let ids: Vec<i64> = games.iter().filter_map(|g| g.id.parse().ok()).collect();
        if ids.is_empty() {
            return Ok(());
        }
        let recency = self.review_recency()?;
        let list: Vec<String> = ids.iter().map(i64::to_string).collect();
        let batches = self.session().collect(&format!(
            "SELECT game_id, engine, rules, white_accuracy, black_accuracy, white_acpl, \
             black_acpl, white_inaccuracies, white_mistakes, white_blunders, \
             black_inaccuracies, black_mistakes, black_blunders FROM review_games \
             WHERE error IS NULL AND game_id IN ({})",
            list.join(", ")
        ))?;
        // Per game, the chosen review and its rank (the preferred first, then by recency).
        let mut chosen: HashMap<i64, (Rank<'_>, GameReview)> = HashMap::new();
        let rank = |review: &GameReview| -> Rank<'_> {
            let key = (review.engine.clone(), review.rules.clone());
            (
                preferred == Some((review.engine.as_str(), review.rules.as_str())),
                recency.get(&key).map(String::as_str),
            )
        };
        for batch in &batches {
            let id = ints(batch, "game_id")?;
            let [engine, rules] = ["engine", "rules"].map(|c| strings(batch, c));
            let (engine, rules) = (engine?, rules?);
            let [wa, ba] = ["white_accuracy", "black_accuracy"].map(|c| floats(batch, c));
            let (wa, ba) = (wa?, ba?);
            let side = |color: &str, i: usize| -> Result<SideMarks, DbError> {
                let at = |what: &str| -> Result<Option<i64>, DbError> {
                    Ok(int_at(&ints(batch, &format!("{color}_{what}"))?, i))
                };
                Ok(SideMarks {
                    acpl: at("acpl")?,
                    inaccuracies: at("inaccuracies")?.unwrap_or(0),
                    mistakes: at("mistakes")?.unwrap_or(0),
                    blunders: at("blunders")?.unwrap_or(0),
                })
            };
            for i in 0..batch.num_rows() {
                let Some(game) = int_at(&id, i) else { continue };
                let review = GameReview {
                    engine: str_at(&engine, i).unwrap_or_default(),
                    rules: str_at(&rules, i).unwrap_or_default(),
                    white_accuracy: float_at(&wa, i),
                    black_accuracy: float_at(&ba, i),
                    white: side("white", i)?,
                    black: side("black", i)?,
                };
                let better = match chosen.get(&game) {
                    None => true,
                    Some((held, _)) => rank(&review) > *held,
                };
                if better {
                    chosen.insert(game, (rank(&review), review));
                }
            }
        }
        let mut chosen: HashMap<i64, GameReview> =
            chosen.into_iter().map(|(id, (_, r))| (id, r)).collect();
        for game in games.iter_mut() {
            game.review = game.id.parse().ok().and_then(|id| chosen.remove(&id));
        }
        Ok(())
    }

    /// Each configuration and rules of the reviews, with the name of its latest part (which
    /// starts with its run's start time in microseconds: a later run's name is greater).
    fn review_recency(&self) -> Result<HashMap<(String, String), String>, DbError> {
        let mut out = HashMap::new();
        for config in subdirs(&self.dir().join(REVIEW_DIR))? {
            for rules in subdirs(&config)? {
                let latest = parts(&rules.join("games"))?
                    .iter()
                    .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .max();
                let name = |p: &std::path::Path| {
                    p.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default()
                };
                if let Some(latest) = latest {
                    out.insert((name(&config), name(&rules)), latest);
                }
            }
        }
        Ok(out)
    }
}
