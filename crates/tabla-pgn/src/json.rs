//! A game as a JSON object (one line of NDJSON for `tabla pgn json`).

use crate::{Eval, Game, Line, Node, PgnError, Shape};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// Tags as a JSON object in the order written (a repeated name keeps its first value).
struct Tags<'a>(&'a Game);

impl Serialize for Tags<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for (name, value) in self.0.distinct_tags() {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct JsonGame<'a> {
    tags: Tags<'a>,
    result: &'a str,
    start_fen: Option<String>,
    moves: Vec<JsonMove<'a>>,
    error: Option<String>,
    warnings: Vec<String>,
}

#[derive(Serialize)]
struct JsonMove<'a> {
    san: &'a str,
    lan: String,
    uci: String,
    fen: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    comments_before: Vec<&'a str>,
    comments: Vec<&'a str>,
    nags: Vec<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    emt: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    eval: Option<Eval>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    shapes: Vec<Shape>,
    variations: Vec<Vec<JsonMove<'a>>>,
}

fn json_line(line: &Line) -> Vec<JsonMove<'_>> {
    line.nodes.iter().map(json_move).collect()
}

fn json_move(node: &Node) -> JsonMove<'_> {
    let after = &node.comments_after;
    JsonMove {
        san: &node.san,
        lan: node.long(),
        uci: node.uci(),
        fen: node.fen(),
        comments_before: node.comment_texts_before().collect(),
        comments: node.comment_texts().collect(),
        nags: node.nags.iter().map(|n| n.0).collect(),
        clock: node.clock().map(|d| d.as_secs_f64()),
        emt: node.emt().map(|d| d.as_secs_f64()),
        eval: node.eval(),
        shapes: after
            .iter()
            .flat_map(|c| c.shapes.iter().copied())
            .collect(),
        variations: node.variations.iter().map(json_line).collect(),
    }
}

/// The game as one line of JSON (no line end): `tags` (an object, in the order written), `result`,
/// `start_fen` (`null` when the tags give no playable start), `moves` (each with `san`, `lan` in
/// the long form, `uci`, `fen` after the move, `comments`, `nags`, `clock` and `emt` in seconds,
/// `eval` as `{"cp": n}` or `{"mate": n}` (White's view, [`crate::Eval`]), `shapes` as `"Ge2e4"`,
/// and `variations`, lists of moves of the same shape), `error` (`null`, or the message of the
/// error that stopped the game early) and `warnings` (a list of what was repaired or cut short,
/// each as `tabla pgn check` prints it: `warning: game 1, 1:40, ...`).
///
/// ```
/// use tabla_pgn::{Reader, game_json};
/// let pgn = "[White \"A\"]\n\n1. e4 { [%clk 0:05:00] [%eval 0.17] } 1... e5 2. Ke3 *";
/// let game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
/// let line = game_json(&game);
/// assert!(line.starts_with(r#"{"tags":{"White":"A"},"result":"*","start_fen":"#));
/// let json: serde_json::Value = serde_json::from_str(&line).unwrap();
/// assert_eq!(json["moves"][0]["lan"], "e2-e4");
/// assert_eq!(json["moves"][0]["clock"], 300.0);
/// assert_eq!(json["moves"][0]["eval"]["cp"], 17);
/// assert_eq!(json["moves"].as_array().unwrap().len(), 2);
/// assert!(json["error"].as_str().unwrap().contains("illegal"));
/// assert_eq!(json["warnings"].as_array().unwrap().len(), 0);
/// ```
pub fn game_json(game: &Game) -> String {
    let value = JsonGame {
        tags: Tags(game),
        result: game.result(),
        start_fen: game.start.as_ref().map(tabla::Position::to_fen),
        moves: json_line(&game.moves),
        error: game.error().map(|e| e.to_string()),
        warnings: game.warnings().map(PgnError::report).collect(),
    };
    // Only strings, numbers and lists: serialising cannot fail.
    serde_json::to_string(&value).unwrap_or_default()
}
