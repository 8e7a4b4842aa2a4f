//! Perft suite files: positions with their published node counts, in the two common formats
//! (those of `testdata/perft/`):
//!
//! - EPD lines, `FEN ;D1 20 ;D2 400 ...` (perftsuite.epd);
//! - blocks of `id <name>`, `epd <FEN>` and `perft <depth> <nodes>` lines (tricky.perft).
//!
//! Blank lines and `#` comments are skipped. A malformed line becomes an error carrying its line
//! number, in file order among the positions, so one bad line does not hide the rest of the suite.
//!
//! ```
//! use tabla::{Position, Validation, perft_suite};
//! let text = "id start\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nperft 1 20\nperft 2 400\n";
//! for entry in perft_suite::parse(text) {
//!     let case = entry.expect("a well-formed suite");
//!     let pos = Position::from_fen_with(&case.fen, Validation::Lenient).unwrap();
//!     for &(depth, nodes) in &case.counts {
//!         assert_eq!(pos.clone().perft(depth), nodes, "{}", case.label());
//!     }
//! }
//! ```

/// One position of a suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The line of the FEN (1-based).
    pub line: usize,
    /// The block's `id`, when it has one.
    pub id: Option<String>,
    /// The FEN as written.
    pub fen: String,
    /// `(depth, nodes)` in the order written.
    pub counts: Vec<(u32, u64)>,
}

impl Case {
    /// The id when there is one, else the FEN.
    pub fn label(&self) -> &str {
        self.id.as_deref().unwrap_or(&self.fen)
    }
}

/// A malformed suite line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct SuiteError {
    /// The line (1-based).
    pub line: usize,
    /// What is wrong with it.
    pub problem: SuiteProblem,
}

/// What can be wrong with a suite line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SuiteProblem {
    /// An EPD count that is not `D<depth> <nodes>`.
    #[error("{text:?} is not a count: expected `D<depth> <nodes>`, such as `D3 8902`")]
    EpdCount {
        /// The text between semicolons.
        text: String,
    },
    /// A `perft` line that is not `perft <depth> <nodes>`.
    #[error("{text:?} is not a count: expected `perft <depth> <nodes>`, such as `perft 3 8902`")]
    PerftLine {
        /// The line.
        text: String,
    },
    /// A `perft` line with no `epd` line before it.
    #[error("`perft` line before any `epd` line")]
    PerftWithoutEpd,
    /// An `epd` line without a FEN.
    #[error("`epd` line without a position")]
    EmptyEpd,
    /// A position without any expected count.
    #[error("no perft counts for the position {fen:?}")]
    NoCounts {
        /// The FEN.
        fen: String,
    },
    /// A count deeper than [`crate::MAX_PERFT_DEPTH`].
    #[error("depth {depth} is deeper than perft goes (at most {max})", max = crate::MAX_PERFT_DEPTH)]
    TooDeep {
        /// The depth asked for.
        depth: u32,
    },
    /// A line that fits neither format.
    #[error(
        "{text:?} is not a perft suite line: expected `FEN ;D1 n ;D2 n ...`, `id`, `epd` or `perft`"
    )]
    Unknown {
        /// The line.
        text: String,
    },
}

/// A position, or the error of a malformed line.
pub type Entry = Result<Case, SuiteError>;

/// Reads a suite in either format (they may even be mixed), in file order.
pub fn parse(text: &str) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    // The entry of the `epd` block that `perft` lines add to.
    let mut open_block: Option<usize> = None;
    let mut pending_id: Option<String> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim_start_matches('\u{feff}').trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (keyword, rest) = trimmed
            .split_once(char::is_whitespace)
            .map_or((trimmed, ""), |(k, r)| (k, r.trim()));
        let error = |problem| Err(SuiteError { line, problem });
        match keyword {
            "id" => pending_id = Some(rest.to_owned()),
            "epd" => {
                close_block(&mut entries, open_block.take());
                if rest.is_empty() {
                    entries.push(error(SuiteProblem::EmptyEpd));
                    pending_id = None;
                    continue;
                }
                entries.push(Ok(Case {
                    line,
                    id: pending_id.take(),
                    fen: rest.to_owned(),
                    counts: Vec::new(),
                }));
                open_block = Some(entries.len() - 1);
            }
            "perft" => {
                let count = parse_count(rest).ok_or_else(|| SuiteProblem::PerftLine {
                    text: trimmed.to_owned(),
                });
                match (open_block.and_then(|i| entries.get_mut(i)), count) {
                    (Some(Ok(_)), Ok((depth, _))) if depth > crate::MAX_PERFT_DEPTH => {
                        entries.push(error(SuiteProblem::TooDeep { depth }));
                    }
                    (Some(Ok(case)), Ok(count)) => case.counts.push(count),
                    (None | Some(Err(_)), _) => entries.push(error(SuiteProblem::PerftWithoutEpd)),
                    (Some(Ok(_)), Err(problem)) => entries.push(error(problem)),
                }
            }
            _ if trimmed.contains(';') || keyword.contains('/') => {
                close_block(&mut entries, open_block.take());
                entries.push(parse_epd_line(trimmed, line, pending_id.take()));
            }
            _ => entries.push(error(SuiteProblem::Unknown {
                text: trimmed.to_owned(),
            })),
        }
    }
    close_block(&mut entries, open_block);
    entries
}

/// A block without counts becomes an error at its `epd` line.
fn close_block(entries: &mut [Entry], block: Option<usize>) {
    if let Some(entry) = block.and_then(|i| entries.get_mut(i))
        && let Ok(case) = entry
        && case.counts.is_empty()
    {
        *entry = Err(SuiteError {
            line: case.line,
            problem: SuiteProblem::NoCounts {
                fen: case.fen.clone(),
            },
        });
    }
}

/// `FEN ;D1 n ;D2 n ...`.
fn parse_epd_line(text: &str, line: usize, id: Option<String>) -> Entry {
    let mut parts = text.split(';');
    let fen = parts.next().unwrap_or_default().trim().to_owned();
    let mut counts = Vec::new();
    for part in parts.map(str::trim).filter(|p| !p.is_empty()) {
        let count = part
            .strip_prefix(['D', 'd'])
            .and_then(parse_count)
            .ok_or_else(|| SuiteError {
                line,
                problem: SuiteProblem::EpdCount {
                    text: part.to_owned(),
                },
            })?;
        if count.0 > crate::MAX_PERFT_DEPTH {
            return Err(SuiteError {
                line,
                problem: SuiteProblem::TooDeep { depth: count.0 },
            });
        }
        counts.push(count);
    }
    if counts.is_empty() {
        return Err(SuiteError {
            line,
            problem: SuiteProblem::NoCounts { fen },
        });
    }
    Ok(Case {
        line,
        id,
        fen,
        counts,
    })
}

/// `<depth> <nodes>`, nothing more.
fn parse_count(text: &str) -> Option<(u32, u64)> {
    let mut words = text.split_whitespace();
    let depth = words.next()?.parse().ok()?;
    let nodes = words.next()?.parse().ok()?;
    words.next().is_none().then_some((depth, nodes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MAX_PERFT_DEPTH;

    #[test]
    fn a_count_deeper_than_perft_goes_is_an_error_not_a_stack_overflow() {
        let too_deep = SuiteProblem::TooDeep { depth: 100_000 };
        let entries = parse("k7/8/8/8/8/8/8/K7 w - - 0 1 ;D1 3 ;D100000 5\n");
        assert_eq!(
            entries,
            vec![Err(SuiteError {
                line: 1,
                problem: too_deep.clone()
            })]
        );
        let entries = parse("epd k7/8/8/8/8/8/8/K7 w - - 0 1\nperft 1 3\nperft 100000 5\n");
        assert_eq!(entries.len(), 2);
        assert_eq!(
            entries[1],
            Err(SuiteError {
                line: 3,
                problem: too_deep
            })
        );
        assert!(
            parse(&format!(
                "k7/8/8/8/8/8/8/K7 w - - 0 1 ;D{MAX_PERFT_DEPTH} 1"
            ))[0]
                .is_ok()
        );
    }

    #[test]
    fn epd_lines() {
        let entries = parse("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3 ;D2 9\n\n# note\n");
        assert_eq!(
            entries,
            vec![Ok(Case {
                line: 1,
                id: None,
                fen: "8/8/8/8/8/8/8/K1k5 w - - 0 1".into(),
                counts: vec![(1, 3), (2, 9)],
            })]
        );
    }

    #[test]
    fn blocks() {
        let text = "# c\nid a\nepd 8/8/8/8/8/8/8/K1k5 w - -\nperft 1 3\nperft 2 9\n\nepd k7/8/8/8/8/8/8/K7 b - -\nperft 1 3\n";
        let entries = parse(text);
        assert_eq!(entries.len(), 2);
        let first = entries[0].as_ref().expect("first block");
        assert_eq!(
            (first.line, first.label(), &first.counts[..]),
            (3, "a", &[(1, 3), (2, 9)][..])
        );
        let second = entries[1].as_ref().expect("second block");
        assert_eq!(
            (second.line, second.label()),
            (7, "k7/8/8/8/8/8/8/K7 b - -")
        );
    }

    #[test]
    fn malformed_lines_carry_their_number() {
        let text = "perft 1 2\nepd\nepd 8/8/8 w - -\nperft one 2\nepd k7/8 w - -\nfoo bar\nK7 w - - ;D1\nk7 w - - ;D1 x\n8/8 w - - ;X1 3\n8/8 w - - 0 1\n";
        let lines: Vec<(usize, SuiteProblem)> = parse(text)
            .into_iter()
            .map(|e| {
                e.map(|c| c.line)
                    .map_err(|e| (e.line, e.problem))
                    .expect_err("malformed")
            })
            .collect();
        assert!(matches!(lines[0], (1, SuiteProblem::PerftWithoutEpd)));
        assert!(matches!(lines[1], (2, SuiteProblem::EmptyEpd)));
        // The block of line 3 keeps its place before the bad count inside it.
        assert!(matches!(lines[2], (3, SuiteProblem::NoCounts { .. })));
        assert!(matches!(lines[3], (4, SuiteProblem::PerftLine { .. })));
        assert!(matches!(lines[4], (5, SuiteProblem::NoCounts { .. })));
        assert!(matches!(lines[5], (6, SuiteProblem::Unknown { .. })));
        assert!(matches!(lines[6], (7, SuiteProblem::EpdCount { .. })));
        assert!(matches!(lines[7], (8, SuiteProblem::EpdCount { .. })));
        assert!(matches!(lines[8], (9, SuiteProblem::EpdCount { .. })));
        assert!(matches!(lines[9], (10, SuiteProblem::NoCounts { .. })));
        assert_eq!(lines.len(), 10);
    }

    #[test]
    fn error_message_names_the_line() {
        let err = parse("epd k7/8 w - -\nperft 1\n")
            .into_iter()
            .filter_map(Result::err)
            .find(|e| e.line == 2)
            .expect("an error on line 2");
        assert_eq!(
            err.to_string(),
            "line 2: \"perft 1\" is not a count: expected `perft <depth> <nodes>`, such as `perft 3 8902`"
        );
    }
}
