//! A line of moves written as numbered SAN: `1. e4 e5 2. Nf3`, or `3... Nf6` when Black moves
//! first (python-chess calls it `variation_san`). The endgame lines, the engine's principal
//! variations and the web app's suggestions are all written by this one function.

use crate::{Color, IllegalMoveError, Move, Position};
use std::fmt::Write;

impl Position {
    /// The moves of `line`, played from this position, as numbered SAN with check and mate
    /// signs. Fails on the first move that is not legal where it is played.
    ///
    /// ```
    /// use tabla::Position;
    /// let mut pos = Position::startpos();
    /// let line: Vec<_> = ["e2e4", "e7e5", "g1f3"]
    ///     .iter()
    ///     .map(|uci| {
    ///         let mv = pos.parse_uci(uci).unwrap();
    ///         pos.play(mv).unwrap();
    ///         mv
    ///     })
    ///     .collect();
    /// let start = Position::startpos();
    /// assert_eq!(start.variation_san(&line).unwrap(), "1. e4 e5 2. Nf3");
    ///
    /// // From Black's move, the first number has three dots.
    /// let mut after_e4 = Position::startpos();
    /// after_e4.play(line[0]).unwrap();
    /// assert_eq!(after_e4.variation_san(&line[1..]).unwrap(), "1... e5 2. Nf3");
    ///
    /// // A move that cannot be played there is an error.
    /// assert!(start.variation_san(&line[1..]).is_err());
    /// ```
    pub fn variation_san(&self, line: &[Move]) -> Result<String, IllegalMoveError> {
        let mut out = String::with_capacity(line.len() * 7);
        self.write_variation_san(line, &mut out)?;
        Ok(out)
    }

    /// Appends the numbered SAN of `line` to `out` (see [`Position::variation_san`]). On an
    /// illegal move, what comes before it has been written (a line cut short, as a search's
    /// principal variation may be) and the error names the move.
    ///
    /// ```
    /// use tabla::{Move, Position};
    /// let pos = Position::startpos();
    /// let mut out = String::new();
    /// let line = [pos.parse_san("d4").unwrap(), Move::NULL];
    /// assert!(pos.write_variation_san(&line, &mut out).is_err());
    /// assert_eq!(out, "1. d4");
    /// ```
    pub fn write_variation_san(
        &self,
        line: &[Move],
        out: &mut String,
    ) -> Result<(), IllegalMoveError> {
        let mut pos = self.clone_without_history();
        for (i, &mv) in line.iter().enumerate() {
            if mv.is_null() || !pos.is_legal(mv) {
                return Err(IllegalMoveError {
                    mv,
                    fen: pos.to_fen(),
                });
            }
            if i > 0 {
                out.push(' ');
            }
            match pos.turn() {
                Color::White => {
                    let _ = write!(out, "{}. ", pos.fullmoves());
                }
                Color::Black if i == 0 => {
                    let _ = write!(out, "{}... ", pos.fullmoves());
                }
                Color::Black => {}
            }
            out.push_str(&pos.san_without_suffix(mv));
            pos.play_unchecked(mv);
            out.push_str(pos.check_suffix());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    /// Against python-chess 1.11.2: `Board(fen).variation_san([...])` for each case, with the
    /// moves given in UCI (an independent notation). python-chess writes `61...Ka7`; tabla puts a
    /// space after the dots, as PGN movetext (and python-chess's own PGN exporter) does.
    #[test]
    fn as_python_chess_writes_it() {
        for (fen, uci, expected) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "f2f3 e7e5 g2g4 d8h4",
                "1. f3 e5 2. g4 Qh4#",
            ),
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
                "h5f7",
                "4. Qxf7#",
            ),
            (
                "k7/8/2K5/8/8/8/8/1B4N1 b - - 40 61",
                "a8a7 g1f3 a7a8",
                "61...Ka7 62. Nf3 Ka8",
            ),
            (
                "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 20",
                "e8c8 e1g1",
                "20...O-O-O 21. O-O",
            ),
            ("8/P7/8/8/8/8/8/k6K w - - 0 70", "a7a8q", "70. a8=Q+"),
        ] {
            let start = Position::from_fen(fen).expect("test data");
            let mut pos = start.clone();
            let line: Vec<_> = uci
                .split(' ')
                .map(|text| {
                    let mv = pos.parse_uci(text).expect("test data");
                    pos.play(mv).expect("test data");
                    mv
                })
                .collect();
            let expected = expected.replace("...", "... ");
            assert_eq!(start.variation_san(&line), Ok(expected), "{fen}");
        }
    }
}
