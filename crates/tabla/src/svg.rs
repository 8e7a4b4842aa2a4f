//! SVG diagrams of a position: squares, coordinates, pieces drawn as vector glyphs, last-move
//! and check highlights, marks and arrows.
//!
//! The output is one self-contained SVG 1.1 document (no fonts needed for the pieces, no
//! external references), the same bytes for the same input. Every element carries a `class`
//! naming what it is (`square light e4`, `piece white knight g1`, `arrow`, ...) so that a page
//! can restyle it with CSS.
//!
//! ```
//! use tabla::{Position, Square, SvgOptions};
//!
//! let mut pos = Position::startpos();
//! let mv = pos.parse_san("e4").unwrap();
//! pos.play(mv).unwrap();
//! let svg = pos.svg(
//!     &SvgOptions::new()
//!         .size(360)
//!         .last_move(mv)
//!         .arrow(Square::G8, Square::F6, "#15781b"),
//! );
//! assert!(svg.starts_with("<svg "));
//! assert_eq!(svg.matches("class=\"piece ").count(), 32);
//! ```

use std::fmt::Write as _;

use crate::{Bitboard, Board, Color, File, Move, Piece, Position, Rank, Role, Square, attacks};

/// Side of one square in the drawing's own units (the `viewBox`); `size` scales the whole.
const SQUARE: i32 = 100;
/// Width of the frame holding the coordinates, in the same units.
const MARGIN: i32 = 30;

/// When to draw the red marker under a king in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CheckMark {
    /// Work it out from what is drawn: [`Position::svg`] marks the king of the side to move when
    /// it is in check; [`board_svg`], which knows no side to move, marks every king attacked by
    /// an enemy piece.
    #[default]
    Auto,
    /// Never draw the marker.
    Hidden,
    /// Draw the marker on this square, whatever stands there.
    At(Square),
}

/// An arrow from the centre of one square to the centre of another (a ring when both are the
/// same square).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// Where the arrow starts.
    pub from: Square,
    /// Where its head points.
    pub to: Square,
    /// Any SVG colour: `"#15781b"`, `"rgb(0,48,136)"`, `"red"`.
    pub color: String,
}

/// How [`Position::svg`] and [`board_svg`] draw a board. Start from [`SvgOptions::new`] (the
/// defaults) and chain the setters.
///
/// ```
/// use tabla::{CheckMark, Square, SvgOptions};
/// let options = SvgOptions::new()
///     .size(480)
///     .flipped(true)
///     .coordinates(false)
///     .last_move_squares(Square::E7, Square::E5)
///     .check(CheckMark::Hidden)
///     .arrow(Square::E2, Square::E4, "#003088")
///     .mark(Square::D5, "#882020")
///     .square_colors("#f0e6d2", "#8b6b4a");
/// # let _ = options;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    size: u32,
    flipped: bool,
    coordinates: bool,
    last_move: Option<(Square, Square)>,
    check: CheckMark,
    arrows: Vec<Arrow>,
    marks: Vec<(Square, String)>,
    fills: Vec<(Square, String)>,
    light: String,
    dark: String,
    light_last_move: String,
    dark_last_move: String,
    frame: String,
    coordinate_color: String,
    title: Option<String>,
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions {
            size: 400,
            flipped: false,
            coordinates: true,
            last_move: None,
            check: CheckMark::Auto,
            arrows: Vec::new(),
            marks: Vec::new(),
            fills: Vec::new(),
            light: "#ecdcbf".into(),
            dark: "#a8805c".into(),
            light_last_move: "#d4d88a".into(),
            dark_last_move: "#a6a84e".into(),
            frame: "#3a3633".into(),
            coordinate_color: "#e8e2d6".into(),
            title: None,
        }
    }
}

impl SvgOptions {
    /// The defaults: 400 px, White at the bottom, coordinates shown, check marked
    /// automatically, no last move, arrows or marks.
    pub fn new() -> SvgOptions {
        SvgOptions::default()
    }

    /// Width and height of the image in pixels (the drawing scales to it).
    pub fn size(mut self, px: u32) -> SvgOptions {
        self.size = px;
        self
    }

    /// `true` draws the board from Black's side: `a1` at the top right.
    pub fn flipped(mut self, flipped: bool) -> SvgOptions {
        self.flipped = flipped;
        self
    }

    /// Whether to draw the frame with the file letters and rank numbers.
    pub fn coordinates(mut self, shown: bool) -> SvgOptions {
        self.coordinates = shown;
        self
    }

    /// Highlights the squares a move left and reached. For castling (stored king-takes-rook)
    /// these are the king's squares, `e1` and `g1` in standard chess.
    pub fn last_move(self, mv: Move) -> SvgOptions {
        self.last_move_squares(mv.from(), mv.king_to())
    }

    /// Highlights two squares as the last move's origin and destination.
    pub fn last_move_squares(mut self, from: Square, to: Square) -> SvgOptions {
        self.last_move = Some((from, to));
        self
    }

    /// When to draw the check marker (default [`CheckMark::Auto`]).
    pub fn check(mut self, check: CheckMark) -> SvgOptions {
        self.check = check;
        self
    }

    /// Adds an arrow (drawn above the pieces, in the order added, at 80% opacity).
    pub fn arrow(mut self, from: Square, to: Square, color: impl Into<String>) -> SvgOptions {
        self.arrows.push(Arrow {
            from,
            to,
            color: color.into(),
        });
        self
    }

    /// Adds several arrows.
    pub fn arrows(mut self, arrows: impl IntoIterator<Item = Arrow>) -> SvgOptions {
        self.arrows.extend(arrows);
        self
    }

    /// Marks a square with a coloured ring (drawn under the pieces).
    pub fn mark(mut self, square: Square, color: impl Into<String>) -> SvgOptions {
        self.marks.push((square, color.into()));
        self
    }

    /// Paints a square in its own colour, over the last-move highlight.
    pub fn fill(mut self, square: Square, color: impl Into<String>) -> SvgOptions {
        self.fills.push((square, color.into()));
        self
    }

    /// Colours of the light and dark squares.
    pub fn square_colors(
        mut self,
        light: impl Into<String>,
        dark: impl Into<String>,
    ) -> SvgOptions {
        self.light = light.into();
        self.dark = dark.into();
        self
    }

    /// Colours of light and dark squares highlighted as the last move.
    pub fn last_move_colors(
        mut self,
        light: impl Into<String>,
        dark: impl Into<String>,
    ) -> SvgOptions {
        self.light_last_move = light.into();
        self.dark_last_move = dark.into();
        self
    }

    /// Colours of the coordinate frame and of its letters and numbers.
    pub fn frame_colors(mut self, frame: impl Into<String>, text: impl Into<String>) -> SvgOptions {
        self.frame = frame.into();
        self.coordinate_color = text.into();
        self
    }

    /// A `<title>` for the image (screen readers and tooltips show it).
    pub fn title(mut self, title: impl Into<String>) -> SvgOptions {
        self.title = Some(title.into());
        self
    }
}

impl Position {
    /// This position as an SVG image; with [`CheckMark::Auto`] the king of the side to move is
    /// marked when it is in check.
    ///
    /// ```
    /// use tabla::{Position, SvgOptions};
    /// let pos = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
    /// let svg = pos.svg(&SvgOptions::new());
    /// assert!(svg.contains("class=\"check e1\""));
    /// ```
    pub fn svg(&self, options: &SvgOptions) -> String {
        let check = match options.check {
            CheckMark::Auto if self.is_check() => Bitboard::from_square(self.king(self.turn())),
            CheckMark::Auto | CheckMark::Hidden => Bitboard::EMPTY,
            CheckMark::At(sq) => Bitboard::from_square(sq),
        };
        render(self.board(), check, options)
    }
}

/// Any board as an SVG image, legal or not (a [`Setup`](crate::Setup)'s board, a puzzle
/// diagram). With [`CheckMark::Auto`] every king attacked by an enemy piece is marked.
///
/// ```
/// use tabla::{Board, Setup, SvgOptions, board_svg};
/// let setup = Setup::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
/// let svg = board_svg(&setup.board, &SvgOptions::new().coordinates(false));
/// assert_eq!(svg.matches("<use ").count(), 3);
/// assert_eq!(board_svg(&Board::empty(), &SvgOptions::new()).matches("<use ").count(), 0);
/// ```
pub fn board_svg(board: &Board, options: &SvgOptions) -> String {
    let check = match options.check {
        CheckMark::Auto => attacked_kings(board),
        CheckMark::Hidden => Bitboard::EMPTY,
        CheckMark::At(sq) => Bitboard::from_square(sq),
    };
    render(board, check, options)
}

/// Kings standing on a square some enemy piece attacks.
fn attacked_kings(board: &Board) -> Bitboard {
    let occupied: Bitboard = board.pieces().map(|(sq, _)| sq).collect();
    let mut attacked = [Bitboard::EMPTY; 2];
    for (sq, piece) in board.pieces() {
        attacked[piece.color.index()] |= attacks::attacks(piece.color, piece.role, sq, occupied);
    }
    board
        .pieces()
        .filter(|(sq, p)| p.role == Role::King && attacked[(!p.color).index()].contains(*sq))
        .map(|(sq, _)| sq)
        .collect()
}

fn render(board: &Board, check: Bitboard, o: &SvgOptions) -> String {
    let margin = if o.coordinates { MARGIN } else { 0 };
    let full = 8 * SQUARE + 2 * margin;
    // Top-left corner of a square in drawing units.
    let corner = |sq: Square| -> (i32, i32) {
        let (col, row) = if o.flipped {
            (7 - sq.file().index(), sq.rank().index())
        } else {
            (sq.file().index(), 7 - sq.rank().index())
        };
        (
            margin + i32::from(col) * SQUARE,
            margin + i32::from(row) * SQUARE,
        )
    };

    let mut s = String::with_capacity(16 * 1024);
    // `fmt::Write` for `String` never fails, so the results of `write!` are ignored throughout.
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
         version=\"1.1\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {full} {full}\">",
        size = o.size
    );
    if let Some(title) = &o.title {
        let _ = writeln!(s, "<title>{}</title>", escape(title));
    }

    // Only the glyphs in use are defined, so an empty board carries no piece definitions.
    s.push_str("<defs>\n");
    for color in Color::ALL {
        for role in Role::KING_FIRST {
            let piece = Piece::new(color, role);
            if board.pieces().any(|(_, p)| p == piece) {
                write_glyph(&mut s, piece);
            }
        }
    }
    if check.any() {
        s.push_str(
            "<radialGradient id=\"tabla-check\" r=\"0.5\">\
             <stop offset=\"0\" stop-color=\"#ff1f1f\" stop-opacity=\"1\"/>\
             <stop offset=\"0.45\" stop-color=\"#e00000\" stop-opacity=\"0.8\"/>\
             <stop offset=\"1\" stop-color=\"#a00000\" stop-opacity=\"0\"/>\
             </radialGradient>\n",
        );
    }
    s.push_str("</defs>\n");

    if o.coordinates {
        let _ = writeln!(
            s,
            "<rect class=\"frame\" x=\"0\" y=\"0\" width=\"{full}\" height=\"{full}\" fill=\"{}\"/>",
            escape(&o.frame)
        );
    }

    for sq in display_order(o.flipped) {
        let (x, y) = corner(sq);
        let shade = if sq.is_light() { "light" } else { "dark" };
        let in_last_move = o.last_move.is_some_and(|(a, b)| sq == a || sq == b);
        let fill = o.fills.iter().rev().find(|(f, _)| *f == sq);
        let color = match (fill, in_last_move, sq.is_light()) {
            (Some((_, c)), _, _) => c,
            (None, true, true) => &o.light_last_move,
            (None, true, false) => &o.dark_last_move,
            (None, false, true) => &o.light,
            (None, false, false) => &o.dark,
        };
        let extra = if in_last_move { " lastmove" } else { "" };
        let _ = writeln!(
            s,
            "<rect class=\"square {shade} {sq}{extra}\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" \
             height=\"{SQUARE}\" fill=\"{}\"/>",
            escape(color)
        );
    }

    for sq in check {
        let (x, y) = corner(sq);
        let _ = writeln!(
            s,
            "<rect class=\"check {sq}\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" \
             fill=\"url(#tabla-check)\"/>"
        );
    }

    for (sq, color) in &o.marks {
        let (x, y) = corner(*sq);
        let _ = writeln!(
            s,
            "<circle class=\"mark {sq}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" \
             stroke=\"{}\" stroke-width=\"7\" opacity=\"0.85\"/>",
            x + SQUARE / 2,
            y + SQUARE / 2,
            SQUARE / 2 - 6,
            escape(color)
        );
    }

    if o.coordinates {
        write_coordinates(&mut s, o, margin, &corner);
    }

    for sq in display_order(o.flipped) {
        if let Some(piece) = board.piece_at(sq) {
            let (x, y) = corner(sq);
            let (color, role) = (piece.color.name(), piece.role.name());
            let _ = writeln!(
                s,
                "<use class=\"piece {color} {role} {sq}\" xlink:href=\"#tabla-{color}-{role}\" \
                 x=\"{x}\" y=\"{y}\"/>"
            );
        }
    }

    for arrow in &o.arrows {
        write_arrow(&mut s, arrow, &corner);
    }

    s.push_str("</svg>\n");
    s
}

/// Squares from the top-left of the picture, row by row, so the document reads like the board.
fn display_order(flipped: bool) -> impl Iterator<Item = Square> {
    (0..64u8).map(move |i| {
        let (row, col) = (i / 8, i % 8);
        let (file, rank) = if flipped {
            (7 - col, row)
        } else {
            (col, 7 - row)
        };
        Square::new_masked(rank * 8 + file)
    })
}

fn write_coordinates(
    s: &mut String,
    o: &SvgOptions,
    margin: i32,
    corner: &impl Fn(Square) -> (i32, i32),
) {
    let fill = escape(&o.coordinate_color);
    // The baseline sits a little below the middle of the frame so the glyphs look centred.
    let baseline = |middle: i32| middle + 7;
    let far = margin + 8 * SQUARE + margin / 2;
    let near = margin / 2;
    for file in File::ALL {
        let (x, _) = corner(Square::from_coords(file, Rank::First));
        let cx = x + SQUARE / 2;
        for y in [near, far] {
            let _ = writeln!(
                s,
                "<text class=\"coord file {file}\" x=\"{cx}\" y=\"{}\" fill=\"{fill}\" \
                 {TEXT_STYLE}>{file}</text>",
                baseline(y)
            );
        }
    }
    for rank in Rank::ALL {
        let (_, y) = corner(Square::from_coords(File::A, rank));
        let cy = baseline(y + SQUARE / 2);
        for x in [near, far] {
            let _ = writeln!(
                s,
                "<text class=\"coord rank {rank}\" x=\"{x}\" y=\"{cy}\" fill=\"{fill}\" \
                 {TEXT_STYLE}>{rank}</text>"
            );
        }
    }
}

const TEXT_STYLE: &str = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" \
                          font-size=\"20\" font-weight=\"bold\" text-anchor=\"middle\"";

/// One arrow as a single filled polygon: shaft and head together, so overlapping arrows do not
/// show a seam where the two parts meet.
fn write_arrow(s: &mut String, arrow: &Arrow, corner: &impl Fn(Square) -> (i32, i32)) {
    let centre = |sq: Square| {
        let (x, y) = corner(sq);
        (f64::from(x + SQUARE / 2), f64::from(y + SQUARE / 2))
    };
    let (x0, y0) = centre(arrow.from);
    let (x1, y1) = centre(arrow.to);
    let color = escape(&arrow.color);
    let (dx, dy) = (x1 - x0, y1 - y0);
    let length = dx.hypot(dy);
    if length < 1.0 {
        let _ = writeln!(
            s,
            "<circle class=\"arrow {}-{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" \
             stroke=\"{color}\" stroke-width=\"9\" opacity=\"0.8\"/>",
            arrow.from,
            arrow.to,
            num(x0),
            num(y0),
            SQUARE / 2 - 8
        );
        return;
    }
    let unit = f64::from(SQUARE);
    let (shaft, head_width, head_length) = (0.16 * unit, 0.44 * unit, 0.4 * unit);
    // The tip stops short of the centre so the target piece stays readable.
    let tip_back = 0.12 * unit;
    let (ux, uy) = (dx / length, dy / length);
    let (nx, ny) = (-uy, ux);
    let tip = length - tip_back;
    let neck = (tip - head_length).max(0.0);
    let point =
        |along: f64, across: f64| (x0 + ux * along + nx * across, y0 + uy * along + ny * across);
    let points = [
        point(0.0, shaft / 2.0),
        point(neck, shaft / 2.0),
        point(neck, head_width / 2.0),
        point(tip, 0.0),
        point(neck, -head_width / 2.0),
        point(neck, -shaft / 2.0),
        point(0.0, -shaft / 2.0),
    ];
    let _ = write!(
        s,
        "<polygon class=\"arrow {}-{}\" points=\"",
        arrow.from, arrow.to
    );
    for (i, (x, y)) in points.iter().enumerate() {
        let sep = if i == 0 { "" } else { " " };
        let _ = write!(s, "{sep}{},{}", num(*x), num(*y));
    }
    let _ = writeln!(s, "\" fill=\"{color}\" opacity=\"0.8\"/>");
}

/// A coordinate with at most two decimals, never `-0`, so output is short and stable.
fn num(x: f64) -> String {
    let rounded = (x * 100.0).round() / 100.0 + 0.0;
    format!("{rounded}")
}

/// Text made safe for both element content and double-quoted attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids outright are dropped rather than producing a broken file.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// A piece drawn in a 100 x 100 box: outlined shapes filled in the piece's colour, back to
/// front, then detail strokes in the contrasting colour.
struct Glyph {
    shapes: &'static [&'static str],
    details: &'static [&'static str],
}

const BASE: &str = "M24 88 L76 88 L76 81 L24 81 Z";

fn glyph(role: Role) -> Glyph {
    match role {
        Role::Pawn => Glyph {
            shapes: &[
                "M28 88 L72 88 L72 83 C72 77 66 75 60 73 L40 73 C34 75 28 77 28 83 Z",
                "M40 73 C43 64 45 57 45 50 L55 50 C55 57 57 64 60 73 Z",
                "M37 50 A13 4.5 0 1 0 63 50 A13 4.5 0 1 0 37 50 Z",
                "M38 34 A12 12 0 1 0 62 34 A12 12 0 1 0 38 34 Z",
            ],
            details: &[],
        },
        Role::Rook => Glyph {
            shapes: &[
                BASE,
                "M29 81 L71 81 L71 74 L29 74 Z",
                "M35 74 L37 42 L63 42 L65 74 Z",
                "M30 43 L30 19 L39 19 L39 26 L46 26 L46 19 L54 19 L54 26 L61 26 L61 19 \
                 L70 19 L70 43 Z",
            ],
            details: &["M31 36 L69 36"],
        },
        Role::Bishop => Glyph {
            shapes: &[
                BASE,
                "M34 81 L66 81 L62 70 L38 70 Z",
                "M50 19 C33 31 31 52 38 68 L62 68 C69 52 67 31 50 19 Z",
                "M35 69 A15 4 0 1 0 65 69 A15 4 0 1 0 35 69 Z",
                "M45 16 A5 5 0 1 0 55 16 A5 5 0 1 0 45 16 Z",
            ],
            details: &["M57 33 L46 49"],
        },
        Role::Knight => Glyph {
            shapes: &[
                BASE,
                "M32 81 C30 70 37 62 46 56 C40 56 34 58 29 62 C25 65 19 61 20 57 L22 50 \
                 C26 40 33 31 41 24 L41 13 L49 20 L54 13 L58 21 C72 29 79 52 73 81 Z",
            ],
            details: &[
                "M35 35 A3 3 0 1 0 41 35 A3 3 0 1 0 35 35 Z",
                "M24 53 L28 52",
                "M62 28 C70 40 71 58 67 77",
            ],
        },
        Role::Queen => Glyph {
            shapes: &[
                BASE,
                "M29 81 L71 81 L69 73 L31 73 Z",
                "M31 73 L22 38 L33 58 L35 30 L44 54 L50 26 L56 54 L65 30 L67 58 L78 38 L69 73 Z",
                "M18 37 A4 4 0 1 0 26 37 A4 4 0 1 0 18 37 Z",
                "M31 29 A4 4 0 1 0 39 29 A4 4 0 1 0 31 29 Z",
                "M46 24 A4 4 0 1 0 54 24 A4 4 0 1 0 46 24 Z",
                "M61 29 A4 4 0 1 0 69 29 A4 4 0 1 0 61 29 Z",
                "M74 37 A4 4 0 1 0 82 37 A4 4 0 1 0 74 37 Z",
            ],
            details: &["M33 66 L67 66"],
        },
        Role::King => Glyph {
            shapes: &[
                BASE,
                "M47 12 L53 12 L53 19 L60 19 L60 25 L53 25 L53 42 L47 42 L47 25 L40 25 \
                 L40 19 L47 19 Z",
                "M41 52 C40 38 60 38 59 52 Z",
                "M32 73 C19 63 19 44 34 44 C42 44 47 51 50 59 C53 51 58 44 66 44 \
                 C81 44 81 63 68 73 Z",
                "M30 81 L70 81 L68 73 L32 73 Z",
            ],
            details: &["M33 66 L67 66"],
        },
    }
}

fn write_glyph(s: &mut String, piece: Piece) {
    // White pieces are white with a dark outline; black pieces dark with light inner lines, so
    // both read on either square colour.
    let (fill, outline, detail) = match piece.color {
        Color::White => ("#ffffff", "#1c1c1c", "#1c1c1c"),
        Color::Black => ("#1c1c1c", "#000000", "#e8e8e8"),
    };
    let g = glyph(piece.role);
    let _ = write!(
        s,
        "<g id=\"tabla-{}-{}\" fill=\"{fill}\" stroke=\"{outline}\" stroke-width=\"3\" \
         stroke-linejoin=\"round\" stroke-linecap=\"round\">",
        piece.color.name(),
        piece.role.name()
    );
    for d in g.shapes {
        let _ = write!(s, "<path d=\"{d}\"/>");
    }
    for d in g.details {
        let _ = write!(s, "<path d=\"{d}\" fill=\"none\" stroke=\"{detail}\"/>");
    }
    s.push_str("</g>\n");
}
