//! One game as the tables need it, filled by a [`ReplayVisitor`] from the replay: tags, the
//! mainline's UCI moves, its final FEN, the first error, and the positions when asked for.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::ops::Range;
use tabla::{Move, Position};
use tabla_pgn::{
    GameStart, Location, Outcome, PgnError, RawTag, ReplayVisitor, SanToken, Skip, decode_text,
};

/// Text kept in one buffer and cut by ranges, so a game costs no allocation per tag or move.
#[derive(Clone, Debug, Default)]
pub(crate) struct Arena {
    pub text: String,
}

/// The most text one game's arena holds: past it the game is cut (see [`GameRecord::cut`]), so
/// offsets fit in `u32` and a batch's strings fit Arrow's `i32` offsets.
pub(crate) const MAX_ARENA: usize = 1 << 30;

impl Arena {
    /// Appends `s`; `None` (and nothing appended) when the arena would outgrow [`MAX_ARENA`].
    fn push(&mut self, s: &str) -> Option<Range<u32>> {
        if self.text.len() + s.len() > MAX_ARENA {
            return None;
        }
        let start = self.text.len() as u32;
        self.text.push_str(s);
        Some(start..self.text.len() as u32)
    }

    pub fn get(&self, range: &Range<u32>) -> &str {
        &self.text[range.start as usize..range.end as usize]
    }
}

/// The positions of a game's mainline, ply 0 first.
#[derive(Clone, Debug, Default)]
pub(crate) struct Positions {
    pub zobrist: Vec<u64>,
    /// [`Position::wide_key`] per ply.
    pub key: Vec<u128>,
    /// Whether the game stands in this position for the first time (by [`Position::wide_key`]).
    pub first: Vec<bool>,
    /// The keys met so far in this game.
    seen: HashSet<u128>,
    /// FEN, SAN and UCI per ply (SAN and UCI empty at ply 0).
    pub fen: Vec<Range<u32>>,
    pub san: Vec<Range<u32>>,
    pub uci: Vec<Range<u32>>,
    pub text: Arena,
}

impl Positions {
    fn clear(&mut self) {
        self.zobrist.clear();
        self.key.clear();
        self.first.clear();
        self.seen.clear();
        self.fen.clear();
        self.san.clear();
        self.uci.clear();
        self.text.text.clear();
    }

    pub fn len(&self) -> usize {
        self.zobrist.len()
    }
}

/// A game read and replayed.
#[derive(Clone, Debug, Default)]
pub(crate) struct GameRecord {
    /// Where the game's first token is, in the reader's coordinates.
    pub start: Location,
    /// Tag names and decoded values, in file order.
    pub tags: Vec<(Range<u32>, Range<u32>)>,
    pub tag_text: Arena,
    /// The mainline's moves in UCI, as played.
    pub uci: Vec<Range<u32>>,
    pub uci_text: Arena,
    /// The position after the last mainline move played; empty when there is no start position.
    pub final_fen: Option<String>,
    /// Why replay stopped early, if it did (see [`Recorder`]).
    pub error: Option<String>,
    /// What was repaired or left out while reading, in the order met.
    pub warnings: Vec<String>,
    /// The result, as [`tabla_pgn::game_result`] decides it from the `Result` tag and the
    /// termination marker (the `result` column and the positions' `outcome`).
    pub result: Outcome,
    /// The game was too large to keep whole: tags, moves or positions past [`MAX_ARENA`]
    /// bytes of text were dropped.
    pub cut: bool,
    pub positions: Positions,
}

impl GameRecord {
    pub fn tag_pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags
            .iter()
            .map(|(n, v)| (self.tag_text.get(n), self.tag_text.get(v)))
    }

    pub fn uci_moves(&self) -> impl Iterator<Item = &str> {
        self.uci.iter().map(|r| self.uci_text.get(r))
    }
}

/// The [`ReplayVisitor`] filling a [`GameRecord`]. The tables hold the mainline only (the
/// variations' text stays in `movetext`); variations are replayed for their warnings, as
/// `tabla pgn check` does, and nothing else of them is kept.
///
/// The `error` column takes the error that ended the mainline when there is one (an illegal,
/// ambiguous or unreadable move, an unplayable start: [`tabla_pgn::Severity::Error`]); the
/// `warnings` column every other problem met (a tag or character repaired or skipped...).
#[derive(Debug)]
pub(crate) struct Recorder {
    record: GameRecord,
    /// Keep positions up to this ply; `None` for no positions at all.
    positions_to: Option<u32>,
    /// Keep each position's FEN and SAN (the full positions table), not only its keys.
    text: bool,
    ply: u32,
    /// How deep in variations the replay is (0: the mainline).
    depth: u32,
    last: Option<Position>,
    /// The SAN of the move being played, between `before_move` and `after_move`.
    pending_san: String,
    pending_uci: String,
}

impl Recorder {
    /// A recorder; `positions_to` is the last ply whose position is kept (`None`: none kept),
    /// with its FEN and SAN when `text`.
    pub fn new(positions_to: Option<u32>, text: bool) -> Recorder {
        Recorder {
            record: GameRecord::default(),
            positions_to,
            text,
            ply: 0,
            depth: 0,
            last: None,
            pending_san: String::new(),
            pending_uci: String::new(),
        }
    }

    /// The game just read.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    fn keep_position(&self) -> bool {
        self.positions_to.is_some_and(|to| self.ply <= to)
    }

    fn push_position(&mut self, pos: &Position, with_move: bool) {
        let p = &mut self.record.positions;
        // A FEN, SAN and UCI take well under 256 bytes.
        if p.text.text.len() + 256 > MAX_ARENA {
            self.record.cut = true;
            return;
        }
        p.zobrist.push(pos.zobrist());
        let key = pos.wide_key();
        p.key.push(key);
        p.first.push(p.seen.insert(key));
        let start = p.text.text.len() as u32;
        if self.text {
            pos.write_fen(&mut p.text.text);
        }
        p.fen.push(start..p.text.text.len() as u32);
        let (san, uci) = if with_move {
            (self.pending_san.as_str(), self.pending_uci.as_str())
        } else {
            ("", "")
        };
        let san = p.text.push(san).unwrap_or(0..0);
        p.san.push(san);
        let uci = p.text.push(uci).unwrap_or(0..0);
        p.uci.push(uci);
    }

    /// The error as a deterministic text: the line counts from the game's first line, so it
    /// does not depend on where a thread started reading.
    fn describe(&self, error: &PgnError) -> String {
        let line = error.location.line.saturating_sub(self.record.start.line) + 1;
        let mut text = format!("{}:{}", line, error.location.column);
        if let Some(n) = error.move_number {
            let _ = write!(text, ", move {n}");
        }
        if !error.token.is_empty() {
            let _ = write!(text, ": {:?}", error.token);
        }
        let _ = write!(text, ": {}", error.kind);
        text
    }
}

impl ReplayVisitor for Recorder {
    type Output = ();

    fn begin_game(&mut self, start: GameStart) {
        let r = &mut self.record;
        r.start = start.location;
        r.tags.clear();
        r.tag_text.text.clear();
        r.uci.clear();
        r.uci_text.text.clear();
        r.final_fen = None;
        r.error = None;
        r.warnings.clear();
        r.result = Outcome::Unknown;
        r.cut = false;
        r.positions.clear();
        self.ply = 0;
        self.depth = 0;
        self.last = None;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        let r = &mut self.record;
        let name = decode_text(name);
        let value = value.decode();
        if r.tag_text.text.len() + name.len() + value.len() > MAX_ARENA {
            r.cut = true;
            return;
        }
        let name = r.tag_text.push(&name).unwrap_or(0..0);
        let value = r.tag_text.push(&value).unwrap_or(0..0);
        r.tags.push((name, value));
    }

    fn start_position(&mut self, pos: &Position) {
        self.last = Some(pos.clone_without_history());
        if self.keep_position() {
            self.push_position(pos, false);
        }
    }

    fn before_move(&mut self, pos: &Position, mv: Move, _token: SanToken<'_>) {
        if self.depth > 0 {
            return;
        }
        self.pending_uci.clear();
        self.pending_san.clear();
        pos.write_uci(mv, &mut self.pending_uci);
        if mv.is_null() {
            self.pending_san.push_str("--");
        } else {
            if self.text && self.positions_to.is_some_and(|to| self.ply < to) {
                self.pending_san.push_str(&pos.san_without_suffix(mv));
            }
        }
        let r = &mut self.record;
        match r.uci_text.push(&self.pending_uci) {
            Some(uci) => r.uci.push(uci),
            None => r.cut = true,
        }
    }

    fn after_move(&mut self, pos: &Position) {
        if self.depth > 0 {
            return;
        }
        self.ply += 1;
        if self.keep_position() {
            if self.text {
                self.pending_san.push_str(pos.check_suffix());
            }
            self.push_position(pos, true);
        }
        match &mut self.last {
            Some(last) => *last = pos.clone_without_history(),
            None => self.last = Some(pos.clone_without_history()),
        }
    }

    fn begin_variation(&mut self) -> Skip {
        self.depth += 1;
        Skip(false)
    }

    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn error(&mut self, error: PgnError) {
        let text = self.describe(&error);
        if error.is_warning() {
            self.record.warnings.push(text);
        } else if self.record.error.is_none() {
            self.record.error = Some(text);
        }
    }

    fn result(&mut self, result: Outcome) {
        self.record.result = result;
    }

    fn end_game(&mut self) {
        if let Some(last) = &self.last {
            let mut fen = self.record.final_fen.take().unwrap_or_default();
            fen.clear();
            last.write_fen(&mut fen);
            self.record.final_fen = Some(fen);
        }
    }
}
