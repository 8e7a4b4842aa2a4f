//! SVG diagrams, checked as documents: every output goes through a strict XML reader written
//! here (well-formedness, entity decoding), and the expectations come from the FEN text and the
//! board geometry (square `a1` bottom left, 100 units per square, a 30-unit frame when
//! coordinates are shown), never from the renderer itself.

use tabla::{Board, CheckMark, Position, Setup, Square, SvgOptions, board_svg};

// ---- A small, strict XML reader ----------------------------------------------------------------

#[derive(Debug)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    children: Vec<Node>,
}

#[derive(Debug)]
enum Node {
    Element(Element),
    Text(String),
}

impl Element {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn num(&self, name: &str) -> f64 {
        let v = self
            .attr(name)
            .unwrap_or_else(|| panic!("{} has no {name}", self.name));
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a number"))
    }

    fn classes(&self) -> Vec<&str> {
        self.attr("class")
            .map_or(Vec::new(), |c| c.split_ascii_whitespace().collect())
    }

    fn has_class(&self, class: &str) -> bool {
        self.classes().contains(&class)
    }

    fn text(&self) -> String {
        self.children
            .iter()
            .map(|c| match c {
                Node::Text(t) => t.clone(),
                Node::Element(e) => e.text(),
            })
            .collect()
    }

    fn descendants(&self) -> Vec<&Element> {
        let mut out = Vec::new();
        for child in &self.children {
            if let Node::Element(e) = child {
                out.push(e);
                out.extend(e.descendants());
            }
        }
        out
    }

    /// Descendants whose first class is `kind` (`square`, `piece`, `arrow`, ...).
    fn of_kind(&self, kind: &str) -> Vec<&Element> {
        self.descendants()
            .into_iter()
            .filter(|e| e.classes().first() == Some(&kind))
            .collect()
    }
}

struct Reader<'a> {
    s: &'a str,
    pos: usize,
}

fn parse_xml(s: &str) -> Result<Element, String> {
    let mut r = Reader { s, pos: 0 };
    r.skip_misc()?;
    if r.rest().starts_with("<?xml") {
        r.pos += r.rest().find("?>").ok_or("unterminated XML declaration")? + 2;
    }
    r.skip_misc()?;
    let root = r.element()?;
    r.skip_misc()?;
    if r.pos != s.len() {
        return Err(format!("content after the root element at byte {}", r.pos));
    }
    Ok(root)
}

impl<'a> Reader<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }

    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start_matches([' ', '\t', '\n', '\r']).len();
    }

    fn skip_misc(&mut self) -> Result<(), String> {
        loop {
            self.skip_ws();
            if self.rest().starts_with("<!--") {
                let end = self.rest().find("-->").ok_or("unterminated comment")?;
                self.pos += end + 3;
            } else {
                return Ok(());
            }
        }
    }

    fn name(&mut self) -> Result<String, String> {
        let rest = self.rest();
        let len = rest
            .char_indices()
            .find(|&(i, c)| {
                !(c.is_ascii_alphabetic()
                    || c == '_'
                    || c == ':'
                    || (i > 0 && (c.is_ascii_digit() || c == '-' || c == '.')))
            })
            .map_or(rest.len(), |(i, _)| i);
        if len == 0 {
            return Err(format!("expected a name at byte {}", self.pos));
        }
        self.pos += len;
        Ok(rest[..len].to_string())
    }

    fn expect(&mut self, token: &str) -> Result<(), String> {
        if self.rest().starts_with(token) {
            self.pos += token.len();
            Ok(())
        } else {
            Err(format!("expected {token:?} at byte {}", self.pos))
        }
    }

    fn element(&mut self) -> Result<Element, String> {
        self.expect("<")?;
        let name = self.name()?;
        let mut attrs: Vec<(String, String)> = Vec::new();
        loop {
            let before = self.pos;
            self.skip_ws();
            if self.rest().starts_with("/>") {
                self.pos += 2;
                return Ok(Element {
                    name,
                    attrs,
                    children: Vec::new(),
                });
            }
            if self.rest().starts_with('>') {
                self.pos += 1;
                break;
            }
            if self.pos == before {
                return Err(format!(
                    "attributes must be separated by space at byte {}",
                    self.pos
                ));
            }
            let attr = self.name()?;
            self.skip_ws();
            self.expect("=")?;
            self.skip_ws();
            let quote = self.rest().chars().next().ok_or("end of input in a tag")?;
            if quote != '"' && quote != '\'' {
                return Err(format!("unquoted value for {attr}"));
            }
            self.pos += 1;
            let end = self
                .rest()
                .find(quote)
                .ok_or_else(|| format!("unterminated value for {attr}"))?;
            let raw = &self.rest()[..end];
            if raw.contains('<') {
                return Err(format!("'<' in the value of {attr}"));
            }
            let value = decode(raw)?;
            self.pos += end + 1;
            if attrs.iter().any(|(n, _)| *n == attr) {
                return Err(format!("attribute {attr} repeated on <{name}>"));
            }
            attrs.push((attr, value));
        }
        let mut children = Vec::new();
        loop {
            let rest = self.rest();
            if rest.is_empty() {
                return Err(format!("<{name}> is never closed"));
            }
            if rest.starts_with("</") {
                self.pos += 2;
                let closing = self.name()?;
                if closing != name {
                    return Err(format!("<{name}> closed by </{closing}>"));
                }
                self.skip_ws();
                self.expect(">")?;
                return Ok(Element {
                    name,
                    attrs,
                    children,
                });
            } else if rest.starts_with("<!--") {
                self.skip_misc()?;
            } else if rest.starts_with('<') {
                children.push(Node::Element(self.element()?));
            } else {
                let end = rest.find('<').unwrap_or(rest.len());
                let raw = &rest[..end];
                if raw.contains("]]>") {
                    return Err("']]>' in text".into());
                }
                children.push(Node::Text(decode(raw)?));
                self.pos += end;
            }
        }
    }
}

/// Decodes the five predefined entities and character references; any other `&` is an error.
fn decode(raw: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let semi = rest[amp..]
            .find(';')
            .ok_or_else(|| format!("bare '&' in {raw:?}"))?;
        let entity = &rest[amp + 1..amp + semi];
        let c = match entity {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let code = if let Some(hex) = entity.strip_prefix("#x") {
                    u32::from_str_radix(hex, 16).ok()
                } else if let Some(dec) = entity.strip_prefix('#') {
                    dec.parse().ok()
                } else {
                    None
                };
                code.and_then(char::from_u32)
                    .ok_or_else(|| format!("unknown entity &{entity};"))?
            }
        };
        out.push(c);
        rest = &rest[amp + semi + 1..];
    }
    out.push_str(rest);
    if let Some(c) = out
        .chars()
        .find(|&c| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r'))
    {
        return Err(format!("control character {:?}", c));
    }
    Ok(out)
}

#[test]
fn the_reader_rejects_broken_documents() {
    for bad in [
        "<svg><rect></svg>",
        "<svg a=\"1\" a=\"2\"/>",
        "<svg a=\"x < y\"/>",
        "<svg>fish & chips</svg>",
        "<svg a=1/>",
        "<svg/><svg/>",
        "<svg a=\"1\"b=\"2\"/>",
    ] {
        assert!(parse_xml(bad).is_err(), "accepted {bad:?}");
    }
    let ok = doc("<svg a='&lt;&#65;'><t>x&amp;y</t></svg>");
    assert_eq!(ok.attr("a"), Some("<A"));
    assert_eq!(ok.text(), "x&y");
}

// ---- Expectations from the FEN text ---------------------------------------------------------------

/// The pieces of a FEN's placement field as (square name, FEN letter), read without tabla.
fn fen_pieces(fen: &str) -> Vec<(String, char)> {
    let placement = fen.split(' ').next().unwrap_or_default();
    let mut out = Vec::new();
    for (row, rank_text) in placement.split('/').enumerate() {
        let rank = 8 - row;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as u8;
            } else {
                out.push((format!("{}{}", (b'a' + file) as char, rank), c));
                file += 1;
            }
        }
    }
    out.sort();
    out
}

fn letter(color: &str, role: &str) -> char {
    let c = match role {
        "pawn" => 'p',
        "knight" => 'n',
        "bishop" => 'b',
        "rook" => 'r',
        "queen" => 'q',
        "king" => 'k',
        other => panic!("unknown role class {other}"),
    };
    if color == "white" {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

/// Top-left corner of a square by hand: files left to right and rank 8 at the top, or the
/// mirror image when flipped.
fn corner(square: &str, flipped: bool, margin: f64) -> (f64, f64) {
    let b = square.as_bytes();
    let (file, rank) = (f64::from(b[0] - b'a'), f64::from(b[1] - b'1'));
    let (col, row) = if flipped {
        (7.0 - file, rank)
    } else {
        (file, 7.0 - rank)
    };
    (margin + col * 100.0, margin + row * 100.0)
}

const FENS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
    "8/8/8/8/8/kn1b4/2P5/K7 w - - 0 1",
];

fn doc(svg: &str) -> Element {
    parse_xml(svg).unwrap_or_else(|e| panic!("not well-formed: {e}\n{svg}"))
}

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn svg_of(fen: &str, options: &SvgOptions) -> Element {
    doc(&position(fen).svg(options))
}

/// The diagram of a bare board, read from a FEN without validating it as a position.
fn board_of(fen: &str) -> Element {
    let setup = Setup::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    doc(&board_svg(&setup.board, &SvgOptions::new()))
}

fn square<'a>(root: &'a Element, name: &str) -> &'a Element {
    root.of_kind("square")
        .into_iter()
        .find(|s| s.has_class(name))
        .unwrap_or_else(|| panic!("no square {name}"))
}

fn polygon_points(e: &Element) -> Vec<(f64, f64)> {
    e.attr("points")
        .expect("a polygon has points")
        .split(' ')
        .map(|p| {
            let (x, y) = p.split_once(',').expect("points are x,y pairs");
            (
                x.parse().expect("x is a number"),
                y.parse().expect("y is a number"),
            )
        })
        .collect()
}

// ---- Tests ------------------------------------------------------------------------------------------

#[test]
fn documents_are_well_formed_svg_with_a_view_box_and_resolved_references() {
    let variants = [
        SvgOptions::new(),
        SvgOptions::new().flipped(true).coordinates(false).size(256),
        SvgOptions::new()
            .arrow(Square::E2, Square::E4, "#15781b")
            .arrow(Square::G1, Square::G1, "red")
            .mark(Square::D5, "blue")
            .fill(Square::A1, "#ffcc00")
            .last_move_squares(Square::A2, Square::A3)
            .title("Board & <friends>"),
    ];
    for fen in FENS {
        for options in &variants {
            let root = svg_of(fen, options);
            assert_eq!(root.name, "svg");
            assert_eq!(root.attr("xmlns"), Some("http://www.w3.org/2000/svg"));
            assert_eq!(root.attr("version"), Some("1.1"));
            let view_box: Vec<f64> = root
                .attr("viewBox")
                .expect("a viewBox")
                .split(' ')
                .map(|v| v.parse().expect("viewBox numbers"))
                .collect();
            assert_eq!(view_box.len(), 4);
            assert_eq!(root.attr("width"), root.attr("height"));

            let ids: Vec<&str> = root
                .descendants()
                .iter()
                .filter_map(|e| e.attr("id"))
                .collect();
            for e in root.descendants() {
                for (name, value) in &e.attrs {
                    let target = if name == "xlink:href" {
                        value.strip_prefix('#')
                    } else {
                        value
                            .strip_prefix("url(#")
                            .and_then(|v| v.strip_suffix(')'))
                    };
                    if let Some(id) = target {
                        assert!(ids.contains(&id), "{fen}: dangling reference {value}");
                    }
                }
            }
            // Everything drawn lies inside the view box.
            for rect in root.descendants().into_iter().filter(|e| e.name == "rect") {
                assert!(rect.num("x") >= 0.0 && rect.num("y") >= 0.0);
                assert!(rect.num("x") + rect.num("width") <= view_box[2]);
                assert!(rect.num("y") + rect.num("height") <= view_box[3]);
            }
        }
    }
}

#[test]
fn size_sets_the_pixel_dimensions_and_coordinates_set_the_frame() {
    let root = svg_of(FENS[0], &SvgOptions::new().size(333));
    assert_eq!(root.attr("width"), Some("333"));
    assert_eq!(root.attr("viewBox"), Some("0 0 860 860"));
    let root = svg_of(FENS[0], &SvgOptions::new().coordinates(false));
    assert_eq!(root.attr("viewBox"), Some("0 0 800 800"));
}

#[test]
fn sixty_four_squares_in_alternating_colours() {
    let root = svg_of(
        FENS[1],
        &SvgOptions::new().square_colors("#111111", "#222222"),
    );
    let squares = root.of_kind("square");
    assert_eq!(squares.len(), 64);
    let mut names: Vec<&str> = squares.iter().map(|s| s.classes()[2]).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 64);
    for sq in squares {
        let name = sq.classes()[2].as_bytes();
        // a1 is dark: a square is dark when file + rank (both from 0) is even.
        let dark = (name[0] - b'a' + name[1] - b'1').is_multiple_of(2);
        assert_eq!(sq.has_class("dark"), dark);
        assert_eq!(sq.has_class("light"), !dark);
        assert_eq!(
            sq.attr("fill"),
            Some(if dark { "#222222" } else { "#111111" })
        );
        assert_eq!((sq.num("width"), sq.num("height")), (100.0, 100.0));
    }
}

#[test]
fn pieces_match_the_fen_and_stand_on_their_squares() {
    for fen in FENS {
        for flipped in [false, true] {
            let root = svg_of(fen, &SvgOptions::new().flipped(flipped));
            let mut drawn: Vec<(String, char)> = root
                .of_kind("piece")
                .into_iter()
                .map(|p| {
                    let c = p.classes();
                    let (x, y) = corner(c[3], flipped, 30.0);
                    assert_eq!((p.num("x"), p.num("y")), (x, y), "{fen}: {}", c[3]);
                    let href = p.attr("xlink:href").expect("a piece refers to its glyph");
                    assert!(href.contains(c[1]) && href.contains(c[2]), "{href}");
                    (c[3].to_string(), letter(c[1], c[2]))
                })
                .collect();
            drawn.sort();
            assert_eq!(drawn, fen_pieces(fen), "{fen}");
        }
    }
}

#[test]
fn boards_from_any_setup_draw_every_piece() {
    // Three white kings and no black one: no position, but a diagram all the same.
    let fen = "8/8/3K4/8/1K6/8/5K2/8 w - - 0 1";
    let root = board_of(fen);
    assert_eq!(root.of_kind("piece").len(), 3);
    assert!(root.of_kind("check").is_empty());

    let root = doc(&board_svg(&Board::empty(), &SvgOptions::new()));
    assert!(root.of_kind("piece").is_empty());
    assert_eq!(root.of_kind("square").len(), 64);
}

#[test]
fn coordinates_label_every_file_and_rank_only_when_enabled() {
    let root = svg_of(FENS[0], &SvgOptions::new());
    let labels: Vec<String> = root
        .descendants()
        .into_iter()
        .filter(|e| e.name == "text")
        .map(|e| e.text())
        .collect();
    for label in [
        "a", "b", "c", "d", "e", "f", "g", "h", "1", "2", "3", "4", "5", "6", "7", "8",
    ] {
        // Once on each side of the board.
        assert_eq!(labels.iter().filter(|l| *l == label).count(), 2, "{label}");
    }
    assert_eq!(labels.len(), 32);

    // Each file letter sits over its own column; each rank number beside its own row.
    for flipped in [false, true] {
        let root = svg_of(FENS[0], &SvgOptions::new().flipped(flipped));
        for text in root.of_kind("coord") {
            let label = text.text();
            let (x, y) = if text.has_class("file") {
                corner(&format!("{label}1"), flipped, 30.0)
            } else {
                corner(&format!("a{label}"), flipped, 30.0)
            };
            if text.has_class("file") {
                assert_eq!(text.num("x"), x + 50.0, "file {label} flipped {flipped}");
            } else {
                let cy = text.num("y");
                assert!(cy > y && cy < y + 100.0, "rank {label} flipped {flipped}");
            }
        }
    }

    let root = svg_of(FENS[0], &SvgOptions::new().coordinates(false));
    assert!(root.descendants().iter().all(|e| e.name != "text"));
    assert!(root.of_kind("frame").is_empty());
}

#[test]
fn flipping_puts_a1_at_the_top_right() {
    let at = |root: &Element, name: &str| {
        let sq = square(root, name);
        (sq.num("x"), sq.num("y"))
    };
    let plain = svg_of(FENS[0], &SvgOptions::new().coordinates(false));
    assert_eq!(at(&plain, "a1"), (0.0, 700.0));
    assert_eq!(at(&plain, "h8"), (700.0, 0.0));
    assert_eq!(at(&plain, "a8"), (0.0, 0.0));
    let flipped = svg_of(FENS[0], &SvgOptions::new().coordinates(false).flipped(true));
    assert_eq!(at(&flipped, "a1"), (700.0, 0.0));
    assert_eq!(at(&flipped, "h8"), (0.0, 700.0));
    assert_eq!(at(&flipped, "h1"), (0.0, 0.0));
    // The white king starts on e1: bottom row from White's side, top row from Black's.
    let king = |root: &Element| {
        let k = root
            .of_kind("piece")
            .into_iter()
            .find(|p| p.has_class("white") && p.has_class("king"))
            .expect("a white king");
        (k.num("x"), k.num("y"))
    };
    assert_eq!(king(&plain), (400.0, 700.0));
    assert_eq!(king(&flipped), (300.0, 0.0));
}

#[test]
fn arrows_one_element_each_pointing_at_their_target() {
    let options = SvgOptions::new()
        .coordinates(false)
        .arrow(Square::E2, Square::E4, "#15781b")
        .arrow(Square::G1, Square::F3, "#003088")
        .arrow(Square::D4, Square::D4, "#882020");
    let root = svg_of(FENS[0], &options);
    let arrows = root.of_kind("arrow");
    assert_eq!(arrows.len(), 3);
    assert_eq!(
        svg_of(FENS[0], &SvgOptions::new()).of_kind("arrow").len(),
        0
    );

    // e2-e4 from White's side runs straight up the e-file (centre x = 450), from the centre of
    // e2 (y = 650) towards the centre of e4 (y = 450).
    let points = polygon_points(arrows[0]);
    let tip = points
        .iter()
        .copied()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("points");
    assert_eq!(tip.0, 450.0);
    assert!(tip.1 >= 450.0 && tip.1 < 500.0, "tip {tip:?}");
    let tail = points.iter().map(|p| p.1).fold(f64::MIN, f64::max);
    assert_eq!(tail, 650.0);
    assert!(points.iter().all(|p| (p.0 - 450.0).abs() < 50.0));
    assert_eq!(arrows[0].attr("fill"), Some("#15781b"));

    // An arrow from a square to itself is a ring around it (d4's centre: 350, 450).
    assert_eq!(arrows[2].name, "circle");
    assert_eq!((arrows[2].num("cx"), arrows[2].num("cy")), (350.0, 450.0));

    // Flipped, e2-e4 points down the picture.
    let root = svg_of(FENS[0], &options.flipped(true));
    let ys: Vec<f64> = polygon_points(root.of_kind("arrow")[0])
        .into_iter()
        .map(|p| p.1)
        .collect();
    assert_eq!(ys.iter().copied().fold(f64::MAX, f64::min), 150.0);
    assert!(ys.iter().copied().fold(f64::MIN, f64::max) > 300.0);
}

#[test]
fn last_move_highlights_its_two_squares() {
    let mut pos = Position::startpos();
    let mv = pos.parse_san("e4").expect("e4 is legal");
    pos.play(mv).expect("a legal move");
    for flipped in [false, true] {
        let root = doc(&pos.svg(&SvgOptions::new().last_move(mv).flipped(flipped)));
        let mut lit: Vec<(&str, f64, f64)> = root
            .of_kind("square")
            .into_iter()
            .filter(|s| s.has_class("lastmove"))
            .map(|s| (s.classes()[2], s.num("x"), s.num("y")))
            .collect();
        lit.sort_by(|a, b| a.0.cmp(b.0));
        let expect = |sq| {
            let (x, y) = corner(sq, flipped, 30.0);
            (sq, x, y)
        };
        assert_eq!(lit, vec![expect("e2"), expect("e4")]);
        // Highlighted squares change colour; their neighbours keep theirs.
        let fill = |name: &str| square(&root, name).attr("fill").map(str::to_string);
        // e2 and c2 are both light, e4 and c4 both dark.
        assert_ne!(fill("e2"), fill("c2"));
        assert_ne!(fill("e4"), fill("c4"));
    }
    let none = doc(&pos.svg(&SvgOptions::new()));
    assert!(
        none.of_kind("square")
            .iter()
            .all(|s| !s.has_class("lastmove"))
    );

    // Castling is stored king-takes-rook; the highlight shows where the king went (g1).
    let mut pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let castle = pos.parse_san("O-O").expect("O-O is legal");
    pos.play(castle).expect("a legal move");
    let root = doc(&pos.svg(&SvgOptions::new().last_move(castle)));
    let mut lit: Vec<&str> = root
        .of_kind("square")
        .into_iter()
        .filter(|s| s.has_class("lastmove"))
        .map(|s| s.classes()[2])
        .collect();
    lit.sort();
    assert_eq!(lit, ["e1", "g1"]);
}

#[test]
fn check_marker_only_on_a_king_in_check() {
    let checks = |root: &Element| -> Vec<String> {
        let mut v: Vec<String> = root
            .of_kind("check")
            .into_iter()
            .map(|c| c.classes()[1].to_string())
            .collect();
        v.sort();
        v
    };
    // Scholar's mate: Black's king on e8 is in check.
    let mate = svg_of(FENS[3], &SvgOptions::new());
    assert_eq!(checks(&mate), ["e8"]);
    let (x, y) = corner("e8", false, 30.0);
    let marker = mate.of_kind("check")[0];
    assert_eq!((marker.num("x"), marker.num("y")), (x, y));
    // Drawn under the king: the marker comes before the pieces in paint order.
    let order: Vec<&str> = mate
        .descendants()
        .into_iter()
        .filter_map(|e| e.classes().first().copied())
        .collect();
    let first_piece = order.iter().position(|c| *c == "piece").expect("pieces");
    let marker_at = order.iter().position(|c| *c == "check").expect("a marker");
    assert!(marker_at < first_piece);

    // The knight-check position: the knight on b3 checks the king on a1.
    assert_eq!(checks(&svg_of(FENS[4], &SvgOptions::new())), ["a1"]);
    for fen in [FENS[0], FENS[1], FENS[2]] {
        assert!(checks(&svg_of(fen, &SvgOptions::new())).is_empty(), "{fen}");
    }
    assert!(
        checks(&svg_of(
            FENS[3],
            &SvgOptions::new().check(CheckMark::Hidden)
        ))
        .is_empty()
    );
    assert_eq!(
        checks(&svg_of(
            FENS[0],
            &SvgOptions::new().check(CheckMark::At(Square::D4))
        )),
        ["d4"]
    );
    // A king giving check by a knight: e1 attacked by the knight on f3.
    let root = svg_of("4k3/8/8/8/8/5n2/8/4K3 w - - 0 1", &SvgOptions::new());
    assert_eq!(checks(&root), ["e1"]);

    // A bare board has no side to move: every attacked king is marked, here both.
    let board = board_of("4k3/8/8/8/8/8/8/R3K2r w - - 0 1");
    assert_eq!(checks(&board), ["e1"]);
    let root = board_of("4k3/8/8/8/8/8/8/r3K2R w - - 0 1");
    assert_eq!(checks(&root), ["e1"]);
    let root = board_of("R3k3/8/8/8/8/8/8/4K2r w - - 0 1");
    assert_eq!(checks(&root), ["e1", "e8"]);
    // A blocked line is no check.
    let root = board_of("4k3/8/8/8/8/8/8/4K1Nr w - - 0 1");
    assert!(checks(&root).is_empty());
}

#[test]
fn user_text_is_escaped_not_injected() {
    let title = "Fischer–Spassky <1972> & \"game 6\" 'Reykjavík'";
    let colour = "red\" onload=\"alert(1)";
    let root = svg_of(
        FENS[0],
        &SvgOptions::new()
            .title(title)
            .arrow(Square::E2, Square::E4, colour)
            .mark(Square::E5, "<blue>")
            .fill(Square::A1, "&x"),
    );
    let title_el = root
        .descendants()
        .into_iter()
        .find(|e| e.name == "title")
        .expect("a title");
    assert_eq!(title_el.text(), title);
    let arrow = root.of_kind("arrow")[0];
    assert_eq!(arrow.attr("fill"), Some(colour));
    assert!(
        root.descendants()
            .iter()
            .all(|e| e.attr("onload").is_none())
    );
    assert_eq!(root.of_kind("mark")[0].attr("stroke"), Some("<blue>"));
    let a1 = square(&root, "a1");
    assert_eq!(a1.attr("fill"), Some("&x"));
}

#[test]
fn marks_and_fills_land_on_their_squares() {
    let root = svg_of(
        FENS[0],
        &SvgOptions::new()
            .coordinates(false)
            .mark(Square::D5, "#882020")
            .mark(Square::H1, "#882020")
            .fill(Square::C3, "#ffcc00"),
    );
    let marks = root.of_kind("mark");
    assert_eq!(marks.len(), 2);
    assert_eq!((marks[0].num("cx"), marks[0].num("cy")), (350.0, 350.0));
    assert_eq!((marks[1].num("cx"), marks[1].num("cy")), (750.0, 750.0));
    let c3 = square(&root, "c3");
    assert_eq!(c3.attr("fill"), Some("#ffcc00"));
}
