//! Building the game tree from replay events.

use crate::{
    Comment, ErrorKind, Game, GameStart, Line, Location, Nag, Node, Outcome, PgnError, RawComment,
    RawTag, ReplayVisitor, Replayer, SanToken, Skip, Visitor,
};
use tabla::{Move, Position};

/// A line under construction and what waits for its next move.
#[derive(Debug, Default)]
struct OpenLine {
    line: Line,
    comments: Vec<Comment>,
    nags: Vec<Nag>,
    /// A variation was closed since the last move: comments now go before the next move.
    after_variation: bool,
}

impl OpenLine {
    fn close(mut self) -> Line {
        self.line.comments.append(&mut self.comments);
        self.line
    }
}

fn empty_game() -> Game {
    Game {
        number: 0,
        location: Location::default(),
        tags: Vec::new(),
        start: None,
        moves: Line::default(),
        outcome: None,
        problems: Vec::new(),
    }
}

/// The [`ReplayVisitor`] that builds a [`Game`].
#[derive(Debug, Default)]
pub struct TreeBuilder {
    game: Option<Game>,
    lines: Vec<OpenLine>,
    pending: Option<(Move, String, String)>,
    /// Nodes to reserve for the next mainline: the last one's length (games in a file are
    /// alike), so that a mainline's nodes are rarely moved as it grows.
    mainline_hint: usize,
}

impl TreeBuilder {
    fn game(&mut self) -> &mut Game {
        self.game.get_or_insert_with(empty_game)
    }

    fn top(&mut self) -> &mut OpenLine {
        if self.lines.is_empty() {
            let mut mainline = OpenLine::default();
            mainline.line.nodes.reserve(self.mainline_hint);
            self.lines.push(mainline);
        }
        let last = self.lines.len() - 1;
        &mut self.lines[last]
    }
}

impl ReplayVisitor for TreeBuilder {
    type Output = Game;

    fn begin_game(&mut self, start: GameStart) {
        self.game = None;
        self.lines.clear();
        let game = self.game();
        game.number = start.number;
        game.location = start.location;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        let name = crate::decode_text(name).into_owned();
        let value = value.decode().into_owned();
        self.game().tags.push((name, value));
    }

    fn start_position(&mut self, pos: &Position) {
        self.game().start = Some(pos.clone_without_history());
    }

    fn before_move(&mut self, pos: &Position, mv: Move, token: SanToken<'_>) {
        let san = if mv.is_null() {
            "--".to_owned()
        } else {
            pos.san_without_suffix(mv)
        };
        self.pending = Some((mv, san, token.as_str().into_owned()));
    }

    fn after_move(&mut self, pos: &Position) {
        let Some((mv, mut san, san_written)) = self.pending.take() else {
            return;
        };
        if !mv.is_null() {
            san.push_str(pos.check_suffix());
        }
        let top = self.top();
        top.after_variation = false;
        top.line.nodes.push(Node {
            mv,
            san_written,
            san,
            comments_before: std::mem::take(&mut top.comments),
            nags_before: std::mem::take(&mut top.nags),
            nags: Vec::new(),
            comments_after: Vec::new(),
            variations: Vec::new(),
            position: pos.clone_without_history(),
        });
    }

    fn nag(&mut self, nag: Nag) {
        let top = self.top();
        match top.line.nodes.last_mut() {
            Some(node) => node.nags.push(nag),
            None => top.nags.push(nag),
        }
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        let comment = Comment::parse(&comment.decode());
        let top = self.top();
        match top.line.nodes.last_mut() {
            Some(node) if !top.after_variation => node.comments_after.push(comment),
            _ => top.comments.push(comment),
        }
    }

    fn begin_variation(&mut self) -> Skip {
        self.top();
        self.lines.push(OpenLine::default());
        Skip(false)
    }

    fn end_variation(&mut self) {
        if self.lines.len() < 2 {
            return;
        }
        let Some(child) = self.lines.pop() else {
            return;
        };
        let top = self.top();
        if let Some(node) = top.line.nodes.last_mut() {
            node.variations.push(child.close());
            top.after_variation = true;
        }
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.game().outcome = Some(outcome);
    }

    fn error(&mut self, error: PgnError) {
        self.game().problems.push(error);
    }

    fn end_game(&mut self) -> Game {
        // Close variations left open by an error path, then the mainline.
        while self.lines.len() > 1 {
            self.end_variation();
        }
        let mainline = self.lines.pop().map(OpenLine::close).unwrap_or_default();
        self.mainline_hint = mainline.nodes.len().min(MAX_MAINLINE_HINT);
        let mut game = self.game.take().unwrap_or_else(empty_game);
        game.moves = mainline;
        game
    }
}

/// The most nodes reserved for a mainline ahead of its moves.
const MAX_MAINLINE_HINT: usize = 512;

/// How deep variations may nest in a [`Game`] tree. Trees are walked (written, compared,
/// dropped) recursively, so the depth is bounded to keep those walks within any thread's stack;
/// real games stay far below it.
pub const MAX_TREE_DEPTH: usize = 256;

/// A [`Visitor`] that reads each game into a [`Game`] tree, replaying it with legality.
/// Variations nested deeper than [`MAX_TREE_DEPTH`] are skipped with
/// [`ErrorKind::VariationTooDeep`].
///
/// ```
/// use tabla_pgn::{GameTree, Reader};
/// let pgn = "1. e4 e5 2. Nf3 (2. Bc4 $1 {Bishop's opening}) 2... Nc6 *";
/// let game = Reader::new(pgn.as_bytes()).read_game(&mut GameTree::new()).unwrap().unwrap();
/// let nf3 = &game.moves.nodes[2];
/// assert_eq!(nf3.long(), "Ng1-f3");
/// let bc4 = &nf3.variations[0].nodes[0];
/// assert_eq!((bc4.san.as_str(), bc4.nags[0].0), ("Bc4", 1));
/// assert_eq!(bc4.comments_after[0].text, "Bishop's opening");
/// assert_eq!(bc4.fen(), "rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2");
/// ```
#[derive(Debug)]
pub struct GameTree {
    replayer: Replayer<TreeBuilder>,
}

impl Default for GameTree {
    fn default() -> GameTree {
        GameTree::new()
    }
}

impl GameTree {
    /// A tree builder.
    pub fn new() -> GameTree {
        GameTree {
            replayer: Replayer::new(TreeBuilder::default()).with_max_depth(MAX_TREE_DEPTH),
        }
    }
}

impl Visitor for GameTree {
    type Output = Game;

    fn begin_game(&mut self, start: GameStart) {
        self.replayer.begin_game(start);
    }
    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        self.replayer.tag(name, value);
    }
    fn end_tags(&mut self) -> Skip {
        self.replayer.end_tags()
    }
    fn san(&mut self, san: SanToken<'_>) {
        self.replayer.san(san);
    }
    fn null_move(&mut self, token: SanToken<'_>) {
        self.replayer.null_move(token);
    }
    fn nag(&mut self, nag: Nag) {
        self.replayer.nag(nag);
    }
    fn comment(&mut self, comment: RawComment<'_>) {
        self.replayer.comment(comment);
    }
    fn begin_variation(&mut self, location: Location) -> Skip {
        self.replayer.begin_variation(location)
    }
    fn end_variation(&mut self) {
        self.replayer.end_variation();
    }
    fn outcome(&mut self, outcome: Outcome) {
        self.replayer.outcome(outcome);
    }
    fn syntax_error(&mut self, kind: ErrorKind, token: &[u8], location: Location) {
        self.replayer.syntax_error(kind, token, location);
    }
    fn end_game(&mut self) -> Game {
        self.replayer.end_game()
    }
}
