// The PGN browser's state and its pure transitions: the PGN loaded (its index, or one game of the
// game database), the game open, the position shown (in the game, or moves past it played from
// the explorer), the notation, the engine's suggestion; and what the page derives from them (the
// game list and its filter, the move list's layout, the URL). No DOM here: pgn-page.ts and its
// panels render what this holds, and tests/unit/pgn-state.test.ts checks it under Node.

import { fenFields, moveLabel } from './fen';
import { type MoveNode, type Tree, buildTree, lineEnd, moveNumber } from './pgn-tree';
import type { PgnGameWithText, PgnIndex, PgnIndexGame } from './types';

/** The most games the list shows at once (a filter narrows the rest). */
export const MAX_LISTED = 1000;

export interface PgnState {
  /** The PGN loaded: a Blob (the chosen File, or the pasted text), never one string in the heap. */
  readonly source: Blob | null;
  /** Its games, as `POST /api/pgn/index` gives them. */
  readonly entries: readonly PgnIndexGame[];
  /** The game selected in the list, from 0. */
  readonly gameIndex: number;
  /** The game open, with its moves (null while it is asked for). */
  readonly game: PgnGameWithText | null;
  /** The open game as a tree of positions. */
  readonly tree: Tree | null;
  /** The position shown: a node of `tree`. */
  readonly current: MoveNode | null;
  /** Moves in the long form (`e2-e4`) rather than SAN. */
  readonly long: boolean;
  /** The engine's move for the position shown (UCI), drawn as an arrow; forgotten on a move. */
  readonly suggested: string | null;
  /** The game database's id of the game open (opened over the PGN loaded, whose games stay in
   * the list), null when the open game is one of the PGN's. */
  readonly dbGame: string | null;
  /** Moves played from the explorer past `current` that the game does not have: the board
   * shows the last of them; null when it shows `current`. */
  readonly excursion: Excursion | null;
}

/** A move played past the game: UCI, SAN, and the FEN after it. */
export interface PlayedMove {
  uci: string;
  san: string;
  fen: string;
}

/** Moves played away from the game, from the position `from` of it. */
export interface Excursion {
  readonly from: MoveNode;
  readonly moves: readonly PlayedMove[];
}

/** Nothing loaded yet. */
export function initialState(long: boolean): PgnState {
  return { source: null, entries: [], gameIndex: 0, game: null, tree: null, current: null, long, suggested: null, dbGame: null, excursion: null };
}

/** `i` as a game of the list: within 0 .. games - 1. */
export function clampGame(state: PgnState, i: number): number {
  return Math.max(0, Math.min(i, state.entries.length - 1));
}

/** A text and its index loaded: game `first` (clamped) selected, no game open yet. */
export function loaded(state: PgnState, source: Blob, index: PgnIndex, first: number): PgnState {
  const next = { ...state, source, entries: index.games, game: null, tree: null, current: null, suggested: null, dbGame: null, excursion: null };
  return { ...next, gameIndex: clampGame(next, first) };
}

/**
 * The game `id` of the game database open at the node `nodeId` (the start when null or not in
 * the game), over the PGN loaded: its games stay in the list, and the one selected there stays
 * the one to go back to.
 */
export function openedDbGame(state: PgnState, id: string, game: PgnGameWithText, nodeId: string | null): PgnState {
  return { ...opened(state, state.gameIndex, game, nodeId), dbGame: id };
}

/** Whether row `i` of the list is the game open (none is while a game of the database is). */
export function isOpenRow(state: PgnState, i: number): boolean {
  return state.dbGame === null && i === state.gameIndex;
}

/** The list entry of a game read alone (its whole text, `bytes` long): where its review reads it. */
export function dbEntry(game: PgnGameWithText, bytes: number): PgnIndexGame {
  const tags: Record<string, string> = {};
  for (const name of ['Event', 'Site', 'Date', 'Round', 'White', 'Black']) {
    if (game.tags[name] !== undefined) tags[name] = game.tags[name];
  }
  return { index: 0, start: 0, end: bytes, line: 1, column: 1, tags, result: game.result, plies: game.moves.length, error: game.error, warnings: game.warnings };
}

/** Game `i` selected, while its moves are asked for. */
export function selected(state: PgnState, i: number): PgnState {
  return { ...state, gameIndex: i };
}

/** Game `i` open at the node `nodeId` (the start when null or not in the game). */
export function opened(state: PgnState, i: number, game: PgnGameWithText, nodeId: string | null): PgnState {
  const tree = buildTree(game);
  const current = (nodeId !== null && tree.byId.get(nodeId)) || tree.root;
  return { ...state, gameIndex: i, game, tree, current, suggested: null, excursion: null, dbGame: null };
}

/** The position `node` of the game shown (the suggestion forgotten when it is another one, the
 * moves past the game left); `state` itself when there is no node or no game. */
export function moveTo(state: PgnState, node: MoveNode | null): PgnState {
  if (!node || !state.tree) return state;
  const same = node === state.current && !state.excursion;
  return { ...state, current: node, suggested: same ? state.suggested : null, excursion: null };
}

/** The FEN of the position on the board: the last move past the game, else the game's. */
export function shownFen(state: PgnState): string | null {
  const moves = state.excursion?.moves;
  return moves?.length ? moves[moves.length - 1].fen : (state.current?.fen ?? null);
}

/** The game's own move `uci` from the position shown (its next move or a variation's first),
 * when the board shows a position of the game: where an explorer move leads within the game. */
export function gameMove(state: PgnState, uci: string): MoveNode | null {
  const next = state.current?.next;
  if (state.excursion || !next) return null;
  return [next, ...next.variations.map((v) => v[0])].find((n) => n.move?.uci === uci) ?? null;
}

/** `move` played past the game from the position shown. */
export function playedOff(state: PgnState, move: PlayedMove): PgnState {
  if (!state.current) return state;
  const excursion = state.excursion ?? { from: state.current, moves: [] };
  return { ...state, excursion: { from: excursion.from, moves: [...excursion.moves, move] }, suggested: null };
}

/** The moves past the game as numbered SAN ("12... Nf6 13. Bg5"), '' when there are none. */
export function excursionLine(state: PgnState): string {
  const ex = state.excursion;
  if (!ex) return '';
  const words: string[] = [];
  let before = ex.from.fen;
  ex.moves.forEach((m, i) => {
    if (i === 0 || fenFields(before).turn === 'white') words.push(moveLabel(before));
    words.push(m.san);
    before = m.fen;
  });
  return words.join(' ');
}

/** Where a step leads: on the game as `stepTarget` says, or past it back one move (`prev`) or
 * nowhere (`next`); `first` and `last` go back to the game. */
export function stepped(state: PgnState, step: Step): PgnState {
  const ex = state.excursion;
  if (ex && step === 'prev') {
    const moves = ex.moves.slice(0, -1);
    return { ...state, excursion: moves.length ? { from: ex.from, moves } : null, suggested: null };
  }
  if (ex && step === 'next') return state;
  return moveTo(state, stepTarget(state, step));
}

/** The notation switched between SAN and the long form. */
export function toggledNotation(state: PgnState): PgnState {
  return { ...state, long: !state.long };
}

/** The engine's move for the position shown (null: none). */
export function withSuggestion(state: PgnState, uci: string | null): PgnState {
  return { ...state, suggested: uci };
}

/** The move controls: the start, one move back or on, the end of the line. */
export type Step = 'first' | 'prev' | 'next' | 'last';

/** Where a step goes from the position shown (null: nowhere). */
export function stepTarget(state: PgnState, step: Step): MoveNode | null {
  const { tree, current } = state;
  switch (step) {
    case 'first':
      return tree?.root ?? null;
    case 'prev':
      return current?.prev ?? null;
    case 'next':
      return current?.next ?? null;
    case 'last':
      return current ? lineEnd(current) : null;
  }
}

/** Where Play starts from when it is not the position shown: the start, when a line's end is
 * shown (null: play from here). */
export function playRestart(state: PgnState): MoveNode | null {
  const { tree, current } = state;
  return tree && current && current !== tree.root && !current.next ? tree.root : null;
}

/** What a key does on the page (null: nothing). */
export function keyAction(key: string): Step | 'flip' | null {
  return KEYS.get(key) ?? null;
}

const KEYS = new Map<string, Step | 'flip'>([
  ['ArrowRight', 'next'],
  ['ArrowLeft', 'prev'],
  ['ArrowUp', 'first'],
  ['Home', 'first'],
  ['ArrowDown', 'last'],
  ['End', 'last'],
  ['f', 'flip'],
]);

// ---- the game list

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A game's row: number, White, Black, result, event, date. */
export function listCells(g: PgnIndexGame, i: number): string[] {
  return [String(i + 1), g.tags.White ?? '?', g.tags.Black ?? '?', g.result, g.tags.Event ?? '', g.tags.Date ?? ''];
}

/** The games whose row holds every word of `filter` (any case): the first `max` of them, and
 * how many match. */
export function filterGames(entries: readonly PgnIndexGame[], filter: string, max = MAX_LISTED): { shown: number[]; matching: number } {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown: number[] = [];
  let matching = 0;
  entries.forEach((g, i) => {
    const hay = listCells(g, i).join(' ').toLowerCase();
    if (!words.every((w) => hay.includes(w))) return;
    matching++;
    if (shown.length < max) shown.push(i);
  });
  return { shown, matching };
}

/** The line under the list. */
export function listNote(matching: number, total: number, max = MAX_LISTED): string {
  return matching > max ? `Showing ${max} of ${matching} games: filter to narrow.` : `${matching} of ${plural(total, 'game')}.`;
}

/** What a load says once the index has come. */
export function loadSummary(index: PgnIndex): string {
  const errors = index.errors ? `, ${index.errors} with errors` : '';
  const warnings = index.warnings ? `, ${plural(index.warnings, 'warning')}` : '';
  return `${plural(index.games.length, 'game')} loaded${errors}${warnings}.`;
}

/** The request for a game of the index: `POST path` with the bytes `start..end` of the text. */
export function gameRequest(e: PgnIndexGame): { path: string; start: number; end: number } {
  const query = new URLSearchParams({ index: String(e.index), start: String(e.start), line: String(e.line), column: String(e.column) });
  return { path: `/api/pgn/game?${query}`, start: e.start, end: e.end };
}

// ---- the game open

/** The heading ("White – Black  result") and its tooltip (event, site, date). */
export function gameTitle(g: PgnGameWithText): { text: string; tooltip: string } {
  const t = g.tags;
  return {
    text: `${t.White ?? '?'} – ${t.Black ?? '?'}  ${g.result}`,
    tooltip: [t.Event, t.Site, t.Date].filter((x) => x && x !== '?').join(', '),
  };
}

/** The file name a game downloads as: `White-Black.pgn`, safe characters only. */
export function downloadName(tags: Record<string, string>): string {
  return `${`${tags.White ?? 'white'}-${tags.Black ?? 'black'}`.replace(/[^A-Za-z0-9_-]+/g, '_')}.pgn`;
}

/**
 * One cell of the mainline's grid, two moves a row after their number: a move number, a move,
 * a gap (an empty half-row, `…` for White's missing move), the comments before a move or the
 * comments and variations after it (each on a row of its own), and the result.
 */
export type Cell =
  | { kind: 'number'; text: string }
  | { kind: 'move'; node: MoveNode }
  | { kind: 'gap'; text: string }
  | { kind: 'before'; node: MoveNode }
  | { kind: 'after'; node: MoveNode }
  | { kind: 'result'; text: string };

/** The mainline as grid cells: a comment or variation closes the row, and the move after it
 * gets its number again (with `…` for Black). */
export function mainlineCells(tree: Tree, game: PgnGameWithText | null): Cell[] {
  const cells: Cell[] = [];
  let column = 0; // 0: the next cell starts a row
  const closeRow = () => {
    if (column === 1) cells.push({ kind: 'gap', text: '' });
    column = 0;
  };
  for (const node of tree.mainline) {
    const m = node.move;
    if (!m) continue;
    if ((m.comments_before ?? []).length) {
      closeRow();
      cells.push({ kind: 'before', node });
    }
    const { number, white } = moveNumber(node);
    if (white) {
      cells.push({ kind: 'number', text: `${number}.` }, { kind: 'move', node });
      column = 1;
    } else {
      if (column === 0) cells.push({ kind: 'number', text: `${number}.` }, { kind: 'gap', text: '…' });
      cells.push({ kind: 'move', node });
      column = 0;
    }
    if (m.comments.length || node.variations.length) {
      closeRow();
      cells.push({ kind: 'after', node });
    }
  }
  if (game) cells.push({ kind: 'result', text: game.error ? `(stopped: ${game.error})` : game.result });
  return cells;
}

/** In a variation written as running text, whether move `i` needs its number: White's moves,
 * the first one, and any after a comment or a variation. */
export function needsNumber(nodes: readonly MoveNode[], i: number): boolean {
  if (i === 0 || moveNumber(nodes[i]).white) return true;
  const before = nodes[i - 1];
  return (before.move?.comments.length ?? 0) > 0 || before.variations.length > 0;
}

// ---- the URL

/** What a page address asks for (`?game=2&ply=14v1.3`, `?db=8675309&ply=12`): the game of
 * the PGN (`first`, from 0; `game` as written, null when absent), or the game database's game,
 * and the position id. */
export interface AddressQuery {
  first: number;
  game: string | null;
  db: string | null;
  ply: string | null;
}

export function fromQuery(search: string): AddressQuery {
  const params = new URLSearchParams(search);
  const game = params.get('game');
  const asked = Number(game);
  return { first: Number.isInteger(asked) && asked >= 1 ? asked - 1 : 0, game, db: params.get('db') || null, ply: params.get('ply') };
}

/**
 * What the address asked for that is not there, once `state` shows what could be shown: a game
 * beyond the PGN's (or not a number), a position the game open does not have. `name` is the
 * PGN's in the messages. Empty when everything asked for is shown.
 */
export function addressMisses(query: AddressQuery, state: PgnState, name: string): string[] {
  const misses: string[] = [];
  if (query.db === null && query.game !== null && state.entries.length) {
    const n = Number(query.game);
    if (!Number.isInteger(n) || n < 1 || n > state.entries.length) {
      misses.push(`There is no game ${JSON.stringify(query.game)} in ${name} (${plural(state.entries.length, 'game')}): showing game ${state.gameIndex + 1}.`);
    }
  }
  if (query.ply !== null && state.current && state.current.id !== query.ply) {
    const which = state.dbGame !== null ? `Game ${state.dbGame} of the database` : `Game ${state.gameIndex + 1}`;
    misses.push(`${which} has no position ${JSON.stringify(query.ply)}: showing its start.`);
  }
  return misses;
}

/** The address's query for the position shown (null: none shown): the game's place in the
 * PGN, or its id in the game database. */
export function toQuery(state: PgnState): { game?: number; db?: string; ply: string } | null {
  if (!state.current) return null;
  return state.dbGame !== null ? { db: state.dbGame, ply: state.current.id } : { game: state.gameIndex + 1, ply: state.current.id };
}
