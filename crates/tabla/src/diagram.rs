//! Diagrams of a position: a bordered `+-+-+` text grid and a Unicode board.

use crate::{File, Position, Rank, Square};

impl Position {
    /// The text diagram for debugging: a `+-+-+` grid with FEN letters and blanks for empty squares,
    /// rank 8 at the top.
    ///
    /// ```
    /// use tabla::Position;
    /// let text = Position::from_fen("8/8/8/8/8/kn1b4/2P5/K7 w - - 0 1").unwrap().text_diagram();
    /// assert_eq!(text.lines().nth(11), Some("|k|n| |b| | | | |"));
    /// ```
    pub fn text_diagram(&self) -> String {
        let border = "+-+-+-+-+-+-+-+-+\n";
        let mut s = String::from(border);
        for rank in Rank::ALL.into_iter().rev() {
            for file in File::ALL {
                s.push('|');
                s.push(
                    self.piece_at(Square::from_coords(file, rank))
                        .map_or(' ', |p| p.char()),
                );
            }
            s.push_str("|\n");
            s.push_str(border);
        }
        s
    }

    /// A Unicode diagram with chess symbols and coordinates, from White's side or flipped.
    pub fn unicode_diagram(&self, flipped: bool) -> String {
        let mut ranks: Vec<Rank> = Rank::ALL.into_iter().rev().collect();
        let mut files: Vec<File> = File::ALL.to_vec();
        if flipped {
            ranks.reverse();
            files.reverse();
        }
        let mut s = String::new();
        for &rank in &ranks {
            s.push(rank.char());
            for &file in &files {
                let sq = Square::from_coords(file, rank);
                s.push(' ');
                s.push(
                    self.piece_at(sq)
                        .map_or(if sq.is_light() { '·' } else { '∙' }, |p| p.unicode()),
                );
            }
            s.push('\n');
        }
        s.push(' ');
        for &file in &files {
            s.push(' ');
            s.push(file.char());
        }
        s.push('\n');
        s
    }
}
