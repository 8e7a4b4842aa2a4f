// The PGN browser's page: its panels put together, and what happens on a load, on opening a game
// and on a move. What it shows is held in one PgnState (pgn-state.ts), changed only by that
// module's transitions, here; the panels draw the state they are given:
// - pgn-board.ts: the board, its shapes and the FEN;
// - pgn-navigation.ts: the moves toolbar, Play and the keys;
// - pgn-game-header.ts: the game's title, damage and warnings;
// - pgn-move-list.ts and pgn-move-info.ts: the moves, and the details of the move shown;
// - pgn-game-list.ts: the games of the PGN, with a filter;
// - pgn-loader.ts: the Load PGN box; pgn-requests.ts: the questions to the server;
// - review-report.ts, live-panel.ts and explorer.ts: the review, the engine and (with a game
//   database, `tabla serve --db`) the opening explorer, which follows the board; a game of the
//   database opens here (`?db=ID&ply=N`) over the PGN loaded, as a new history entry (Back
//   returns to the game before it; the PGN's games stay in the list).
// What the address asks for and is not there (a game, a position) is said above the board.

import { explorerPanel } from './explorer';
import { gameHeader } from './pgn-game-header';
import { gameList } from './pgn-game-list';
import { loader } from './pgn-loader';
import { moveInfo } from './pgn-move-info';
import { moveList } from './pgn-move-list';
import { navigation } from './pgn-navigation';
import { pgnBoard } from './pgn-board';
import { dbGameSource, fetchDbGame, fetchGame, fetchIndex, fetchPlayed, fetchSample, gameSource } from './pgn-requests';
import {
  type AddressQuery,
  type PgnState,
  addressMisses,
  clampGame,
  downloadName,
  fromQuery,
  gameMove,
  initialState,
  loadSummary,
  loaded,
  moveTo,
  opened,
  openedDbGame,
  playedOff,
  selected,
  shownFen,
  toQuery,
  toggledNotation,
  withSuggestion,
} from './pgn-state';
import type { MoveNode } from './pgn-tree';
import { reviewPanel } from './review-report';
import { forgetPgn, recallPgn, rememberPgn } from './store';
import { livePanel } from './live-panel';
import type { PgnGameWithText, PgnIndex } from './types';
import { h, message, pushQuery, setQuery } from './util';

export function pgnPage(root: HTMLElement): void {
  let state: PgnState = initialState(localStorage.getItem('tabla.notation') === 'long');
  const current = () => state;
  /** Counts game requests, so that a late answer for a game no longer wanted is dropped. */
  let opening = 0;
  /** Counts loads, likewise. */
  let loading = 0;
  /** The PGN loaded: its name and what its load said, for when the list's game is back. */
  let listName = '';
  let listSummary = '';

  // ---- the panels
  const header = gameHeader();
  const board = pgnBoard(current, (node) => report.shapes(node));
  const nav = navigation({ current, update, go, flip: () => board.flip() });
  const info = moveInfo(go);
  const live = livePanel({
    onBest: (uci) => {
      state = withSuggestion(state, uci);
      board.drawShapes(state);
    },
    onPlay: (moves) => void playMoves(moves),
    orientation: () => board.orientation(),
  });
  const report = reviewPanel(
    (i) => go(i === 0 ? (state.tree?.root ?? null) : (state.tree?.mainline[i - 1] ?? null)),
    () => {
      moves.render(state);
      board.drawShapes(state);
    },
  );
  const moves = moveList({
    current,
    pick: (id) => {
      if (state.tree) go(state.tree.byId.get(id) ?? null);
    },
    toggleNotation: () => {
      state = toggledNotation(state);
      localStorage.setItem('tabla.notation', state.long ? 'long' : 'san');
      moves.render(state);
    },
    decorate: (list) => report.markMoves(list),
  });
  const explorer = explorerPanel(
    (uci) => void playExplorerMove(uci),
    (g) => void openDbGame(g.id, String(g.ply), true),
  );
  const games = gameList(current, (i) => void selectGame(i, null));
  /** What the address asked for that is not there. */
  const notice = h('div', { class: 'url-notice', id: 'url-notice' });
  const load = loader({
    load: (blob, name) => loadPgn(blob, name, true),
    loadSample: async () => {
      await forgetPgn();
      await loadPgn(await fetchSample(), 'sample games', false);
    },
  });

  root.append(
    h(
      'div',
      { class: 'layout' },
      h(
        'div',
        { class: 'col-board' },
        header.title,
        notice,
        header.banner,
        board.fenBar,
        h('div', { class: 'board-wrap' }, live.bar, board.el),
        nav.el,
        header.warnings,
        info.el,
        live.el,
        explorer.el,
      ),
      h('div', { class: 'col-side' }, report.el, moves.el, games.el, load.el),
    ),
  );

  // ---- loading and opening games

  /**
   * Loads a PGN: its index first (the list and the status line), then the game `first` (from 0)
   * at the node `nodeId` (only listed, not opened, when `open` is false). `remember` keeps the
   * PGN for the next visit. `false` when nothing was loaded (an error, or no game), `true` when
   * it was or a later load took over.
   */
  async function loadPgn(blob: Blob, name: string, remember: boolean, first = 0, nodeId: string | null = null, open = true): Promise<boolean> {
    load.say(message(blob.size > 1_000_000 ? `Reading ${name} (${(blob.size / 1e6).toFixed(1)} MB)…` : 'Reading…'));
    const ticket = ++loading;
    let index: PgnIndex;
    try {
      index = await fetchIndex(blob);
    } catch (e) {
      if (ticket !== loading) return true;
      load.say(message((e as Error).message, 'error'));
      return false;
    }
    if (ticket !== loading) return true;
    if (index.games.length === 0) {
      load.say(message('No game found in this text.', 'error'));
      return false;
    }
    state = loaded(state, blob, index, first);
    listName = name;
    listSummary = loadSummary(index);
    load.say(message(listSummary, 'ok'));
    games.clearFilter();
    games.render(state);
    if (open) await showGame(state.gameIndex, fetchGame(state, state.gameIndex), nodeId);
    if (remember) void rememberPgn(blob, name);
    return true;
  }

  /** Opens game `index` (from 0) of the list at the node `nodeId` (the start when null). */
  async function selectGame(index: number, nodeId: string | null): Promise<void> {
    if (!state.entries.length) return;
    const i = clampGame(state, index);
    await showGame(i, fetchGame(state, i), nodeId);
  }

  /** Shows game `i` once `answer` brings it, unless another game was asked for meanwhile. */
  async function showGame(i: number, answer: Promise<PgnGameWithText>, nodeId: string | null): Promise<void> {
    const ticket = ++opening;
    nav.pause();
    notice.replaceChildren();
    if (state.dbGame !== null && listSummary) load.say(message(listSummary, 'ok'));
    state = selected(state, i);
    games.markSelected(state);
    moves.setBusy(true);
    let g: PgnGameWithText;
    try {
      g = await answer;
    } catch (e) {
      if (ticket !== opening) return;
      moves.setBusy(false);
      header.unreadable(i, (e as Error).message);
      return;
    }
    if (ticket !== opening) return;
    state = opened(state, i, g, nodeId);
    present(g, gameSource(state, i));
  }

  /** Draws the game just opened (`source`: where its review reads it). */
  function present(g: PgnGameWithText, source: { path: string; body: Blob }): void {
    report.open(g, { query: source.path.split('?')[1] ?? '', body: source.body, fileName: downloadName(g.tags).replace(/\.pgn$/, '-review.pgn') });
    games.markSelected(state);
    header.render(state);
    moves.render(state);
    renderPosition();
    moves.setBusy(false);
  }

  /**
   * Opens the game `id` of the game database at the node `nodeId` (a ply of its mainline) over
   * the PGN loaded (its games stay in the list); `push` makes it a new history entry. The
   * server's reason when it could not be read, else null (also when another game was asked
   * for meanwhile).
   */
  async function openDbGame(id: string, nodeId: string | null, push: boolean): Promise<string | null> {
    const ticket = ++opening;
    nav.pause();
    notice.replaceChildren();
    moves.setBusy(true);
    load.say(message(`Reading game ${id} of the database…`));
    let g: PgnGameWithText;
    try {
      g = await fetchDbGame(id);
    } catch (e) {
      const why = (e as Error).message;
      if (ticket !== opening) return null;
      moves.setBusy(false);
      load.say(message(`Game ${id} of the database: ${why}`, 'error'));
      return why;
    }
    if (ticket !== opening) return null;
    state = openedDbGame(state, id, g, nodeId);
    if (push) pushQuery(toQuery(state) ?? { db: id });
    load.say(message(`Game ${id} of the database${listName ? ` (the games of ${listName} stay in the list)` : ''}.`, 'ok'));
    present(g, dbGameSource(g));
    return null;
  }

  /**
   * Shows what the address asks for (at the start, and on Back and Forward) and says above the
   * board what of it is not there. `shown`: the PGN's game asked for is shown already.
   */
  async function followAddress(query: AddressQuery, shown: boolean): Promise<void> {
    const misses: string[] = [];
    let asked = query;
    if (query.db !== null) {
      const why = await openDbGame(query.db, query.ply, false);
      if (why !== null) {
        await selectGame(query.first, null);
        misses.push(`The address asks for game ${query.db} of the database, which cannot be shown: ${why}. Showing game ${state.gameIndex + 1} of ${listName} instead.`);
        asked = { ...query, ply: null };
      }
    } else if (!shown) {
      await selectGame(query.first, query.ply);
    }
    misses.push(...addressMisses(asked, state, listName));
    notice.replaceChildren(...misses.map((m) => message(m, 'error')));
  }

  // ---- moving on the board

  /** Shows the position `node` of the game, when there is one. */
  function go(node: MoveNode | null): void {
    update(moveTo(state, node));
  }

  /** Shows the position of `next` (the live analysis follows it). */
  function update(next: PgnState): void {
    if (next === state) return;
    state = next;
    renderPosition();
  }

  /** Moves of an engine line, one after the other (each the game's own when it has it). */
  async function playMoves(uciMoves: string[]): Promise<void> {
    for (const uci of uciMoves) await playExplorerMove(uci);
  }

  /** An explorer move: the game's own when it has it, else a move past the game. */
  async function playExplorerMove(uci: string): Promise<void> {
    nav.pause();
    const inGame = gameMove(state, uci);
    if (inGame) {
      go(inGame);
      return;
    }
    const fen = shownFen(state);
    if (!fen) return;
    try {
      const p = await fetchPlayed(fen, uci);
      if (shownFen(state) !== fen) return;
      update(playedOff(state, { uci, san: p.played.san, fen: p.fen }));
    } catch (e) {
      info.error((e as Error).message);
    }
  }

  /** The board, the FEN, the move marked in the list, the move's details and the address. */
  function renderPosition(): void {
    const node = state.current;
    const fen = shownFen(state);
    if (!node || !fen) return;
    board.show(state);
    moves.markCurrent(state);
    report.show(state.excursion ? null : node);
    info.render(state);
    explorer.show(fen);
    live.setTarget({ fen });
    const query = toQuery(state);
    if (query) setQuery(query);
  }

  // Back and Forward: the game and position of that entry.
  window.addEventListener('popstate', () => void followAddress(fromQuery(location.search), false));

  // ---- start: the stored PGN or the sample, then the game (or the database's) and ply from the URL.
  void (async () => {
    const query = fromQuery(location.search);
    const open = query.db === null;
    const stored = await recallPgn();
    let ok = false;
    if (stored) {
      ok = await loadPgn(stored.blob, stored.name, false, query.first, query.ply, open);
      if (ok) void load.showInBox(stored.blob);
    }
    if (!ok) await loadPgn(await fetchSample(), 'sample games', false, query.first, query.ply, open);
    await followAddress(query, open);
  })();
}
