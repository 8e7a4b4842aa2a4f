//! Reading what a UCI engine prints: one line into a [`Message`], `info` lines into their
//! fields. Unknown `info` fields are skipped; a known field without a valid value is an error.

use crate::analysis::Line;
use std::time::Duration;
use tabla_engine::{Score, ScoreBound};

/// One line from an engine.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Message<'a> {
    /// `id name …` or `id author …`.
    Id { field: &'a str, value: &'a str },
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `option name …`: the text after `option`.
    Option(&'a str),
    /// `bestmove m [ponder p]`: the move as written (`(none)` and `0000` for none).
    BestMove(&'a str),
    /// `info …`.
    Info(Info<'a>),
    /// An empty line, or a command a GUI may ignore (`copyprotection`, `registration`).
    Ignorable,
}

/// The fields of an `info` line that an analysis uses.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Info<'a> {
    pub(crate) depth: Option<u32>,
    pub(crate) seldepth: Option<u32>,
    pub(crate) multipv: Option<usize>,
    pub(crate) score: Option<(Score, ScoreBound)>,
    pub(crate) nodes: Option<u64>,
    pub(crate) nps: Option<u64>,
    pub(crate) time_ms: Option<u64>,
    /// The moves as written; checked against the position by the caller.
    pub(crate) pv: Vec<&'a str>,
}

impl Info<'_> {
    /// The line this `info` reports, with `pv` (its moves checked legal by the caller); `None`
    /// without a score (a progress line: `currmove`, `hashfull`, ...).
    pub(crate) fn line(&self, pv: Vec<tabla::Move>) -> Option<Line> {
        let (score, bound) = self.score?;
        Some(Line {
            multipv: self.multipv.unwrap_or(1),
            score,
            bound,
            depth: self.depth.unwrap_or(0),
            seldepth: self.seldepth,
            nodes: self.nodes,
            nps: self.nps,
            time: self.time_ms.map(Duration::from_millis),
            pv,
        })
    }
}

/// `info` fields with one value that an analysis does not use.
const SKIPPED_WITH_ONE_VALUE: &[&str] = &[
    "currmove",
    "currmovenumber",
    "hashfull",
    "tbhits",
    "sbhits",
    "cpuload",
];

/// Reads one line; `Err` says what is wrong with it (the caller quotes the line).
pub(crate) fn parse(line: &str) -> Result<Message<'_>, String> {
    let line = line.trim();
    let (command, rest) = match line.split_once(char::is_whitespace) {
        Some((command, rest)) => (command, rest.trim_start()),
        None => (line, ""),
    };
    match command {
        "" | "copyprotection" | "registration" => Ok(Message::Ignorable),
        "uciok" => Ok(Message::UciOk),
        "readyok" => Ok(Message::ReadyOk),
        "option" => Ok(Message::Option(rest)),
        "id" => {
            let (field, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            Ok(Message::Id {
                field,
                value: value.trim(),
            })
        }
        "bestmove" => match rest.split_whitespace().next() {
            Some(mv) => Ok(Message::BestMove(mv)),
            None => Err("bestmove without a move".to_owned()),
        },
        "info" => parse_info(rest).map(Message::Info),
        _ => Err(format!("{command:?} is no UCI engine command")),
    }
}

fn parse_info(text: &str) -> Result<Info<'_>, String> {
    let mut info = Info::default();
    let mut words = text.split_whitespace().peekable();
    while let Some(word) = words.next() {
        match word {
            "depth" => info.depth = Some(number(word, words.next())?),
            "seldepth" => info.seldepth = Some(number(word, words.next())?),
            "nodes" => info.nodes = Some(number(word, words.next())?),
            "nps" => info.nps = Some(number(word, words.next())?),
            "time" => info.time_ms = Some(number(word, words.next())?),
            "multipv" => {
                let rank: usize = number(word, words.next())?;
                if rank == 0 {
                    return Err("multipv 0 (lines count from 1)".to_owned());
                }
                info.multipv = Some(rank);
            }
            "score" => {
                let value = match words.next() {
                    Some("cp") => Score::Cp(number("score cp", words.next())?),
                    Some("mate") => Score::Mate(number("score mate", words.next())?),
                    other => {
                        return Err(format!(
                            "score followed by {:?}, not cp or mate",
                            other.unwrap_or("nothing")
                        ));
                    }
                };
                let mut bound = ScoreBound::Exact;
                while let Some(&word @ ("lowerbound" | "upperbound")) = words.peek() {
                    let this = if word == "lowerbound" {
                        ScoreBound::Lower
                    } else {
                        ScoreBound::Upper
                    };
                    if bound != ScoreBound::Exact && bound != this {
                        return Err("a score both lowerbound and upperbound".to_owned());
                    }
                    bound = this;
                    words.next();
                }
                info.score = Some((value, bound));
            }
            "pv" => {
                while let Some(&mv) = words.peek()
                    && looks_like_move(mv)
                {
                    info.pv.push(mv);
                    words.next();
                }
            }
            // Free text to the end of the line.
            "string" => break,
            "wdl" => {
                for _ in 0..3 {
                    words.next();
                }
            }
            "refutation" | "currline" => {
                while words
                    .peek()
                    .is_some_and(|w| looks_like_move(w) || w.bytes().all(|b| b.is_ascii_digit()))
                {
                    words.next();
                }
            }
            _ if SKIPPED_WITH_ONE_VALUE.contains(&word) => {
                words.next();
            }
            // A field this reader does not know: its words are skipped one by one until a
            // known field.
            _ => {}
        }
    }
    Ok(info)
}

fn number<T: std::str::FromStr>(field: &str, value: Option<&str>) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("{field} without a value"))?;
    value
        .parse()
        .map_err(|_| format!("{field} {value:?} is not a number in range"))
}

/// The shape of a UCI move ([`tabla::UciMove`]), or the null move `0000`.
fn looks_like_move(word: &str) -> bool {
    word == "0000" || tabla::UciMove::parse(word).is_some()
}

/// What tabla makes of one line a UCI engine writes, searching from `position`: the line read
/// ([`parse`]); an `option` line's declaration, an `info` line's score turned to White's view
/// and its principal variation replayed move by move until a move is not legal, as the UCI
/// client does. For the fuzz target `uci_info` (`fuzz/`): any text must end in a value or an
/// error, never a panic.
#[cfg(fuzzing)]
pub fn fuzz_engine_line(position: &tabla::Position, line: &str) {
    match parse(line) {
        Ok(Message::Option(text)) => {
            if let Some(option) = crate::uci_option::UciOption::parse(text) {
                let _ = option.check_value(text);
            }
        }
        Ok(Message::Info(info)) => {
            if let Some(line) = info.line(Vec::new()) {
                let _ = line.eval(position.turn()).to_string();
            }
            let mut walk = position.clone_without_history();
            for text in &info.pv {
                match walk.parse_uci(text) {
                    Ok(mv) => walk.play_unchecked(mv),
                    Err(_) => break,
                }
            }
        }
        Ok(Message::BestMove(text)) => {
            let _ = position.parse_uci(text);
        }
        Ok(_) | Err(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(line: &str) -> Info<'_> {
        match parse(line) {
            Ok(Message::Info(info)) => info,
            other => panic!("{line:?}: {other:?}"),
        }
    }

    #[test]
    fn a_stockfish_info_line() {
        let line = "info depth 12 seldepth 17 multipv 2 score cp -35 upperbound nodes 123456 \
                    nps 987654 hashfull 31 tbhits 0 time 125 pv e7e5 g1f3 b8c6";
        let info = info(line);
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.seldepth, Some(17));
        assert_eq!(info.multipv, Some(2));
        assert_eq!(info.score, Some((Score::Cp(-35), ScoreBound::Upper)));
        assert_eq!(info.nodes, Some(123_456));
        assert_eq!(info.nps, Some(987_654));
        assert_eq!(info.time_ms, Some(125));
        assert_eq!(info.pv, ["e7e5", "g1f3", "b8c6"]);
    }

    #[test]
    fn mates_bounds_and_unknown_fields() {
        let mate = info("info depth 3 score mate -2 lowerbound wdl 0 0 1000 pv a1a8");
        assert_eq!(mate.score, Some((Score::Mate(-2), ScoreBound::Lower)));
        assert_eq!(mate.pv, ["a1a8"]);
        // Unknown fields are skipped whatever they hold; `string` is text to the end.
        let unknown = info("info foo 1 2 bar depth 4 string depth x score nothing");
        assert_eq!(unknown.depth, Some(4));
        assert_eq!(unknown.score, None);
        let current = info("info depth 5 currmove e2e4 currmovenumber 1");
        assert_eq!((current.depth, current.pv.len()), (Some(5), 0));
        // A pv ends at the first word that is no move.
        assert_eq!(info("info pv e2e4 e7e5 nodes 7").pv, ["e2e4", "e7e5"]);
        assert_eq!(info("info pv e2e4 e7e5 nodes 7").nodes, Some(7));
    }

    #[test]
    fn malformed_known_fields_are_errors() {
        for (line, problem) in [
            ("info depth x", "depth \"x\""),
            ("info depth", "depth without a value"),
            ("info score 35", "not cp or mate"),
            ("info score cp", "score cp without a value"),
            ("info score cp 3.5", "score cp \"3.5\""),
            ("info score cp 1 lowerbound upperbound", "both"),
            ("info multipv 0", "multipv 0"),
            ("info nodes -5", "nodes \"-5\""),
            ("bestmove", "without a move"),
            ("Segmentation fault", "\"Segmentation\" is no UCI"),
        ] {
            let error = parse(line).expect_err(line);
            assert!(error.contains(problem), "{line:?}: {error}");
        }
    }

    #[test]
    fn other_messages() {
        assert_eq!(parse("uciok"), Ok(Message::UciOk));
        assert_eq!(parse("  readyok \r"), Ok(Message::ReadyOk));
        assert_eq!(parse(""), Ok(Message::Ignorable));
        assert_eq!(
            parse("id name Stockfish 15.1"),
            Ok(Message::Id {
                field: "name",
                value: "Stockfish 15.1"
            })
        );
        assert_eq!(
            parse("bestmove e2e4 ponder e7e5"),
            Ok(Message::BestMove("e2e4"))
        );
        assert_eq!(
            parse("option name Hash type spin default 16 min 1 max 1024"),
            Ok(Message::Option(
                "name Hash type spin default 16 min 1 max 1024"
            ))
        );
    }
}
