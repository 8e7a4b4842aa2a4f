//! The sample games the browser opens with.

/// Two famous games (Anderssen–Kieseritzky 1851, Morphy–Duke Karl/Count Isouard 1858) with
/// comments, NAGs and variations, shown before the user loads a PGN.
pub const SAMPLE_PGN: &str = include_str!("sample.pgn");
