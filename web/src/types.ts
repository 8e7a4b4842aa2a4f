// The API's JSON answers, as crates/tabla-web/README.md describes them. Kept by hand, and checked
// against the API's real answers by crates/tabla-web/tests/types_ts.rs: change both together.

export interface MoveNotations {
  san: string;
  lan: string;
  uci: string;
}

export interface PositionJson {
  fen: string;
  turn: 'white' | 'black';
  status: string;
  check: boolean;
  legal_moves: MoveNotations[];
}

/** `GET /api/position`: the position, and with `moves` the line that reached it. */
export interface PositionLineJson extends PositionJson {
  /** With `moves`: the moves played from the FEN asked for, as numbered SAN ("1. e4 e5 2. Nf3"). */
  line?: string;
}

export interface PlayedJson extends PositionJson {
  played: MoveNotations;
}

/** tabla's one score type (Rust's `tabla_pgn::Eval`): an evaluation from White's point of view,
 * as PGN's `[%eval]`, reviews, live analysis and suggestions give it: centipawns or full moves to
 * mate (negative: Black mates). */
export type Eval = { cp: number } | { mate: number };

export interface PgnMove {
  san: string;
  lan: string;
  uci: string;
  fen: string;
  comments_before?: string[];
  comments: string[];
  nags: number[];
  clock?: number;
  emt?: number;
  eval?: Eval;
  shapes?: string[];
  variations: PgnMove[][];
}

/** A game as `tabla_pgn::game_json` writes it (`POST /api/pgn`). */
export interface PgnGame {
  tags: Record<string, string>;
  result: string;
  start_fen: string | null;
  moves: PgnMove[];
  error: string | null;
  warnings: string[];
}

/** `POST /api/pgn`: every game of the text. */
export interface PgnGames {
  games: PgnGame[];
}

/** `POST /api/pgn/game`: one game, and its PGN written back by the server (export format). */
export interface PgnGameWithText extends PgnGame {
  pgn: string;
}

/** One game of `POST /api/pgn/index`: where it is in the text, and what the list shows. */
export interface PgnIndexGame {
  /** Place in the text, from 0. */
  index: number;
  /** Byte range in the text sent: start inclusive, end exclusive. */
  start: number;
  end: number;
  /** Line and column of `start`, from 1. */
  line: number;
  column: number;
  /** Event, Site, Date, Round, White, Black (those the game has). */
  tags: Record<string, string>;
  result: string;
  plies: number;
  error: string | null;
  warnings: string[];
}

/** `POST /api/pgn/index`. */
export interface PgnIndex {
  games: PgnIndexGame[];
  /** Games with an error. */
  errors: number;
  /** Warnings over all games. */
  warnings: number;
  bytes: number;
}

/** A move and the value of the position after it, for the side then to move. */
export interface ProbeMove {
  san: string;
  uci: string;
  dtm: number;
  plies: number | null;
  mate: boolean;
}

/** `GET /api/kbnk`: the endgame tables' answer for a position (`/api/tb`'s without the ending). */
export interface ProbeJson {
  fen: string;
  turn: 'white' | 'black';
  dtm: number;
  plies: number | null;
  status: 'win' | 'loss' | 'draw' | 'checkmate' | 'stalemate';
  stalemate: boolean;
  best: { san: string; uci: string } | null;
  moves: ProbeMove[];
}

/** `GET /api/tb`: the endgame tables' answer (the object of `/api/kbnk`) and the ending. */
export interface TbJson extends ProbeJson {
  /** The men on the board, White's first: `KQvKR`, `KvKBN`. */
  material: string;
}

/** `GET /api/suggest`: the engine's move after a search of `movetime` ms. */
export interface SuggestJson {
  /** The position searched (canonical FEN). */
  fen: string;
  best: MoveNotations;
  /** Its score, White's point of view. */
  score: Eval;
  depth: number;
  /** The principal variation, from `best` on. */
  pv: MoveNotations[];
  /** The principal variation as numbered SAN: "40. Bh6 Qd1 41. Qxf7+". */
  line: string;
  nodes: number;
  movetime: number;
  /** The engine that searched, by the name it gives: "Stockfish 15.1", "tabla 0.1.0". */
  engine: string;
}

/** `GET /api/engine`: the engine of live analysis and game reviews. */
export interface EngineJson {
  /** Its name as it gives it: "Stockfish 15.1", "tabla 0.1.0". */
  name: string;
  /** Its program's path, or "in process" for tabla's own. */
  path: string;
  /** Live analyses running now. */
  running: number;
  /** The most at once (more are answered 429). */
  limit: number;
  /** The most lines one analysis may ask for. */
  max_multipv: number;
}

/** One line of a live analysis. */
export interface LiveLineJson {
  multipv: number;
  eval: Eval;
  /** White's winning chances in percent (lichess's formula), for the evaluation bar. */
  win: number;
  /** Only a bound of the score was known. */
  bound?: 'lower' | 'upper';
  depth: number;
  seldepth: number | null;
  moves: MoveNotations[];
  /** The moves as numbered SAN: "40. Bh6 Qd1 41. Qxf7+". */
  line: string;
}

/** An event of `GET /api/analyse` (`lines` while the engine searches, `done` at its end). */
export interface AnalyseJson {
  fen: string;
  lines: LiveLineJson[];
  nodes: number | null;
  nps: number | null;
  elapsed_ms: number;
  done: boolean;
  /** Why the analysis failed (on the `done` event). */
  error?: string;
  /** The engine that searches, by the name it gives. */
  engine: string;
}

/** Every error answer, with a 4xx status (5xx only when the server fails). */
export interface ApiErrorJson {
  error: string;
  /** `GET /api/tb`: the ending whose table is not built (as built: `KQvKR`). */
  missing?: string;
  /** `GET /api/tb`: the command that builds it where the server reads its tables. */
  command?: string;
}

// ---- the game database (`tabla serve --db DIR`)

/** A table's size on disk. */
export interface DbTableSize {
  table: string;
  files: number;
  bytes: number;
}

/** `GET /api/db` with a database: what it holds. */
export interface DbInfo {
  /** The database directory. */
  db: string;
  schema_version: number;
  /** Plies of each game the explorer counts. */
  max_ply: number;
  batches: number;
  games: number;
  errors: number;
  warnings: number;
  positions: number;
  input_bytes: number;
  table_bytes: DbTableSize[];
  /** The games the opening explorer counts, and why it leaves the others out. */
  explorer: DbExplorerCounted;
}

/** `DbInfo.explorer`: games counted (a result and a move), the others by reason. */
export interface DbExplorerCounted {
  counted: number;
  left_out: { reason: string; games: number }[];
}

/** `GET /api/db` without a database: how to make one and serve it. */
export interface DbAbsent {
  db: null;
  hint: string;
}

/** `GET /api/db`. */
export type DbStatusJson = DbInfo | DbAbsent;

/** A game in the database's lists. */
export interface DbGameRef {
  /** The id `GET /api/db/game/{id}` takes. */
  id: string;
  white: string | null;
  black: string | null;
  result: string | null;
  white_elo: number | null;
  black_elo: number | null;
  /** YYYY-MM-DD, `??` for unknown parts. */
  date: string;
  event: string | null;
  /** The ply at which the game reached the position asked about (0 in `/api/db/games`). */
  ply: number;
  /** Its review from `review_games` in `/api/db/games` and `/api/db/search` (absent when not reviewed, and in the explorer's lists). */
  review?: DbGameReview;
}

/** One side's average centipawn loss and marks in a reviewed game. */
export interface DbSideMarks {
  acpl: number | null;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
}

/** A game's review as the lists show it: the server's configuration's, else the latest. */
export interface DbGameReview {
  /** The configuration (the `engine` column): `from-evals` or the evaluation cache's folder. */
  engine: string;
  rules: string;
  /** 0 to 100; null without a judged move. */
  white_accuracy: number | null;
  black_accuracy: number | null;
  white: DbSideMarks;
  black: DbSideMarks;
}

/** What a run of `POST /api/db/review` counted. */
export interface DbReviewCounts {
  /** Games taken up (the batch being searched included). */
  games: number;
  positions: number;
  evaluated: number;
  from_cache: number;
  errors: number;
  /** Distinct positions left without an evaluation (an engine fault twice, a hang). */
  not_evaluated: number;
  /** The engine's faults: each killed its process, started again for the next search. */
  engine_faults: number;
}

/** How far a run of `POST /api/db/review` is: the counts so far, of `total` games to review. */
export interface DbReviewProgressCounts extends DbReviewCounts {
  /** Games to review: those selected, less those reviewed before. */
  total: number;
}

/** What a run of `POST /api/db/review` did: tabla-db's summary. */
export interface DbReviewSummaryCounts extends DbReviewCounts {
  engine: string;
  rules: string;
  /** Games the filters select. */
  selected: number;
  /** Of them, games reviewed before (skipped). */
  already: number;
  /** What the engine did wrong, one line each (a crash and its restart, a hang). */
  engine_notes: string[];
  /** Why the run stopped before its end: the engine hung (the games left wait for the next run). */
  hung: string | null;
}

/** A progress line of `POST /api/db/review`. */
export interface DbReviewProgress {
  progress: DbReviewProgressCounts;
}

/** The last line of `POST /api/db/review` when it ends. */
export interface DbReviewSummary {
  summary: DbReviewSummaryCounts;
}

/** A line of `POST /api/db/review`'s NDJSON. */
export type DbReviewLine = DbReviewProgress | DbReviewSummary | ApiErrorJson;

/** A move of the explorer: how often it was played from the position, and the results. */
export interface DbMoveStats {
  uci: string;
  san: string;
  games: number;
  white: number;
  draws: number;
  black: number;
  /** The mean of both players' Elo over its rated games. */
  avg_rating: number | null;
  /** YYYY-MM. */
  last_played: string | null;
}

/** `GET /api/db/explore`. */
export interface DbExplorerJson {
  fen: string;
  games: number;
  white: number;
  draws: number;
  black: number;
  /** Most played first. */
  moves: DbMoveStats[];
  top_games: DbGameRef[];
  recent_games: DbGameRef[];
}

/** A player's exact name as the tags hold it, and their games. */
export interface DbPlayerCount {
  name: string;
  games: number;
}

/** `GET /api/db/players?q=TEXT`: the names that contain TEXT in any case, most games first. */
export interface DbPlayersJson {
  players: DbPlayerCount[];
}

/** `GET /api/db/review/plan`: what `POST /api/db/review` with the same parameters would take up. */
export interface DbReviewPlanJson {
  /** Games selected (those reviewed before included: the review skips them). */
  games: number;
  positions: number;
  /** Engines run at once, one a core. */
  engines: number;
  /** At the measured rate; null when the budget has none (a depth). */
  positions_per_second: number | null;
  seconds: number | null;
  /** Where the rate comes from. */
  rate_from: string;
}

/** `GET /api/db/search` and `GET /api/db/games`: a page of the games that match. */
export interface DbGameList {
  /** Every game that matches, not only this page's. */
  total: number;
  games: DbGameRef[];
}

// ---- game reviews (`POST /api/review`)

/** lichess's marks: `?!`, `?`, `??`. */
export type Judgement = 'Inaccuracy' | 'Mistake' | 'Blunder';

/** One side's figures in a review. */
export interface SideReview {
  name: string | null;
  /** Game accuracy, 0 to 100; null without a judged move. */
  accuracy: number | null;
  /** Average centipawn loss. */
  acpl: number | null;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
}

/** One move of a review. */
export interface MoveReview {
  ply: number;
  san: string;
  uci: string;
  /** After the move; null after a mating move. */
  eval: Eval | null;
  /** The engine's choice before the move (unknown from evals). */
  best: { san: string; uci: string } | null;
  /** The engine's line before the move, in UCI. */
  pv: string[];
  /** White's win percentage after the move, 0 to 100. */
  win: number | null;
  judgement: Judgement | null;
  /** The move's accuracy, 0 to 100. */
  accuracy: number | null;
}

/** A game's review, as `tabla review --json` writes it (`tabla_review::Review`). */
export interface Review {
  white: SideReview;
  black: SideReview;
  moves: MoveReview[];
  error: string | null;
}

/** `POST /api/review?cached=1`, and the last line of an engine review. */
export interface ReviewAnswer {
  /** null when the cache lacks a position (`cached=1` only). */
  review: Review | null;
  /** The game annotated with the review, as `tabla review` writes it. */
  pgn: string | null;
  /** The engine's line before each move as numbered SAN ("" when unknown). */
  lines: string[];
  /** 'evals': from the game's own `[%eval]`s; 'engine': the engine's, searched or cached. */
  source: 'evals' | 'engine' | null;
  /** The engine and its budget; null from evals. */
  engine: string | null;
  /** The game's distinct positions, and how many the cache held. */
  positions: number;
  from_cache: number;
}

/** A progress line of an engine review. */
export interface ReviewProgress {
  progress: { positions: number; done: number; from_cache: number };
}

/** A line of `POST /api/review`'s NDJSON: progress, then the answer or an error. */
export type ReviewLine = ReviewProgress | ReviewAnswer | ApiErrorJson;
