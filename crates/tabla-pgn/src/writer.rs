//! Writing games in the PGN export format.

use crate::{Comment, Game, Line, Node};
use tabla::Color;

/// The Seven Tag Roster, in its export order, with the value written when a tag is missing.
const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Choices for [`write_game_with`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Movetext lines are at most this many columns (a single longer token gets a line of its
    /// own). The export format asks for fewer than 80.
    pub max_line: usize,
    /// Write the Seven Tag Roster even when tags are missing (`?`, `????.??.??`, the result).
    pub fill_roster: bool,
    /// Write comments.
    pub comments: bool,
    /// Write NAGs.
    pub nags: bool,
    /// Write variations.
    pub variations: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            max_line: 79,
            fill_roster: true,
            comments: true,
            nags: true,
            variations: true,
        }
    }
}

/// A game in the export format with the default options: the Seven Tag Roster first and in
/// order, the other tags as read, movetext wrapped below 80 columns, canonical SAN, move
/// numbers with `N...` where Black's move follows a comment or a variation, NAGs as `$n`, the
/// result ([`Game::result`], in standard form) both as the `Result` tag and as the termination
/// marker, and a blank line after the game.
///
/// ```
/// use tabla_pgn::{Reader, write_game};
/// let pgn = "[White \"A\"]\n1.e4 c5!? {Sicilian} (1...e5 2.Nf3) 2.Nf3 1-0";
/// let game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
/// assert_eq!(write_game(&game), "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n\
///     [Round \"?\"]\n[White \"A\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n\
///     1. e4 c5 $5 { Sicilian } ( 1... e5 2. Nf3 ) 2. Nf3 1-0\n\n");
/// ```
pub fn write_game(game: &Game) -> String {
    write_game_with(game, &WriteOptions::default())
}

/// A game in the export format with the given options.
pub fn write_game_with(game: &Game, options: &WriteOptions) -> String {
    let mut out = String::new();
    write_tags(game, options, &mut out);
    out.push('\n');
    let mut text = Movetext {
        out,
        column: 0,
        separate: false,
        options: *options,
    };
    text.line(&game.moves);
    // The tag and the marker both say the result decided (`Game::result`), in standard form.
    text.token(game.result());
    let mut out = text.out;
    out.push_str("\n\n");
    out
}

fn write_tags(game: &Game, options: &WriteOptions, out: &mut String) {
    let is_roster = |name: &str| SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == name);
    for (name, default) in SEVEN_TAG_ROSTER {
        let value = match game.tag(name) {
            Some(_) if name == "Result" => game.result(),
            Some(v) => v,
            None if !options.fill_roster => continue,
            None if name == "Result" => game.result(),
            None => default,
        };
        write_tag(name, value, out);
    }
    for (name, value) in &game.tags {
        if !is_roster(name) {
            write_tag(name, value, out);
        }
    }
}

fn write_tag(name: &str, value: &str, out: &mut String) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push_str("\"]\n");
}

/// Movetext being laid out in lines.
struct Movetext {
    out: String,
    column: usize,
    /// The next token needs a separator (every one but the first of a line after a `;`
    /// comment or the first of the movetext).
    separate: bool,
    options: WriteOptions,
}

impl Movetext {
    /// Writes a token, after a space or on a new line when it would pass the line limit.
    fn token(&mut self, token: &str) {
        let width = token.chars().count();
        if self.separate {
            if self.column + 1 + width > self.options.max_line {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        self.out.push_str(token);
        self.column += width;
        self.separate = true;
    }

    fn comment(&mut self, comment: &Comment) {
        if !self.options.comments {
            return;
        }
        let text = comment.to_string();
        if text.contains('}') {
            // A brace comment cannot hold `}`; a `;` comment can, up to the end of its line.
            self.token(&format!("; {text}"));
            self.out.push('\n');
            self.column = 0;
            self.separate = false;
            return;
        }
        // Split at single spaces, so that a line break stands for exactly one space (the reader
        // reads line ends in comments as spaces).
        // A line starting with `[` and a letter would end the comment when read back (see
        // the reader), so such a word stays on the line of the word before it.
        let mut words: Vec<String> = vec!["{".to_owned()];
        if !text.is_empty() {
            for word in text.split(' ') {
                let looks_like_tag = word.starts_with('[')
                    && word[1..].starts_with(|c: char| c.is_ascii_alphabetic());
                match words.last_mut() {
                    Some(last) if looks_like_tag => {
                        last.push(' ');
                        last.push_str(word);
                    }
                    _ => words.push(word.to_owned()),
                }
            }
        }
        words.push("}".to_owned());
        for word in &words {
            self.token(word);
        }
    }

    fn line(&mut self, line: &Line) {
        let mut number_needed = true;
        for node in &line.nodes {
            self.node(node, &mut number_needed);
        }
        for comment in &line.comments {
            self.comment(comment);
        }
    }

    fn node(&mut self, node: &Node, number_needed: &mut bool) {
        for comment in &node.comments_before {
            self.comment(comment);
            *number_needed = true;
        }
        if self.options.nags {
            for nag in &node.nags_before {
                self.token(&nag.to_string());
            }
        }
        let after = &node.position;
        let mover = !after.turn();
        let number = if mover == Color::Black {
            after.fullmoves().saturating_sub(1)
        } else {
            after.fullmoves()
        };
        if mover == Color::White {
            self.token(&format!("{number}."));
        } else if *number_needed {
            self.token(&format!("{number}..."));
        }
        self.token(&node.san);
        *number_needed = false;
        if self.options.nags {
            for nag in &node.nags {
                self.token(&nag.to_string());
            }
        }
        if self.options.comments && !node.comments_after.is_empty() {
            for comment in &node.comments_after {
                self.comment(comment);
            }
            *number_needed = true;
        }
        if self.options.variations {
            for variation in &node.variations {
                self.token("(");
                self.line(variation);
                self.token(")");
                *number_needed = true;
            }
        }
    }
}
