// The PGN browser's page: the DOM, the requests and the events. What it shows is held in a
// PgnState (pgn-state.ts), changed only by that module's transitions; this file renders it. With
// a game database (`tabla serve --db`), the opening explorer follows the board, and a game of the
// database opens here (`?db=ID&ply=N`).

import { type Api, arrow, fenTurn, makeBoard, pgnShapes, uciSquares } from './board';
import { explorerPanel } from './explorer';
import { isMoveGlyph, nagGlyph, nagName } from './nags';
import {
  type PgnState,
  type Step,
  clampGame,
  downloadName,
  excursionLine,
  filterGames,
  fromQuery,
  gameMove,
  gameRequest,
  gameTitle,
  initialState,
  keyAction,
  listCells,
  listNote,
  loadSummary,
  loaded,
  loadedDbGame,
  mainlineCells,
  moveTo,
  needsNumber,
  opened,
  playRestart,
  playedOff,
  plural,
  selected,
  shownFen,
  stepTarget,
  stepped,
  toQuery,
  toggledNotation,
  withSuggestion,
} from './pgn-state';
import { type MoveNode, formatClock, formatEval, numberLabel } from './pgn-tree';
import { reviewPanel } from './review-report';
import { forgetPgn, recallPgn, rememberPgn } from './store';
import { livePanel } from './live-panel';
import type { PgnGameWithText, PgnIndex, PgnMove, PlayedJson } from './types';
import { api, copyText, download, h, message, q, setQuery, typingInField } from './util';

/** Texts up to this size are shown in the paste box when loaded from a file. */
const SHOWN_IN_BOX = 200_000;

// The PGN lives in the browser as a Blob (the chosen File itself, or the pasted text), never as
// one string in the JS heap: the server indexes it (POST /api/pgn/index: byte ranges, tags,
// errors) and each game opened is cut out of the Blob by its byte range and read by the server
// (POST /api/pgn/game), which keeps nothing between requests.

export function pgnPage(root: HTMLElement): void {
  let state: PgnState = initialState(localStorage.getItem('tabla.notation') === 'long');
  /** Counts game requests, so that a late answer for a game no longer wanted is dropped. */
  let opening = 0;
  /** Counts loads, likewise. */
  let loading = 0;
  /** The Play timer, while playing. */
  let timer: number | undefined;

  // ---- elements
  const title = h('h1', { class: 'game-title' }, 'PGN browser');
  const banner = h('div', { class: 'banner' });
  const fenText = h('code', { class: 'fen', id: 'fen', 'aria-label': 'FEN of the position on the board' });
  const copyFen = h('button', { type: 'button', class: 'small' }, 'Copy FEN');
  copyFen.addEventListener('click', () => {
    const fen = shownFen(state);
    if (fen) void copyText(fen, copyFen);
  });
  const { el: boardEl, cg } = makeBoard({ viewOnly: true, coordinates: true }, 'Chess board');

  const btn = (label: string, text: string, action: () => void, key: string) =>
    h('button', { type: 'button', 'aria-label': label, title: `${label} (${key})`, onclick: action }, text);
  const playButton = h('button', { type: 'button', class: 'play', 'aria-pressed': 'false' }, 'Play');
  playButton.addEventListener('click', () => (timer === undefined ? play() : pause()));
  const speed = h(
    'select',
    { 'aria-label': 'Play speed', class: 'speed' },
    h('option', { value: '2000' }, 'Slow'),
    h('option', { value: '1000', selected: true }, 'Normal'),
    h('option', { value: '400' }, 'Fast'),
  );
  speed.addEventListener('change', () => {
    if (timer !== undefined) {
      pause();
      play();
    }
  });
  const step = (to: Step) => () => update(stepped(state, to));
  const controls = h(
    'div',
    { class: 'controls', role: 'toolbar', 'aria-label': 'Moves' },
    btn('First position', '«', step('first'), 'Home or ↑'),
    btn('Previous move', '‹', step('prev'), '←'),
    btn('Next move', '›', step('next'), '→'),
    btn('Last position', '»', step('last'), 'End or ↓'),
    playButton,
    speed,
    btn('Flip the board', 'Flip', flip, 'f'),
  );
  /** The game's warnings, under the board: present but quiet. */
  const warningsBox = h('div', { class: 'warnings-box' });
  const info = h('section', { class: 'move-info', 'aria-label': 'Comments and variations', 'aria-live': 'polite' });
  const live = livePanel({
    onBest: (uci) => {
      state = withSuggestion(state, uci);
      drawShapes();
    },
    onPlay: (moves) => void playMoves(moves),
    orientation: () => cg.state.orientation,
  });

  const report = reviewPanel(
    (i) => go(i === 0 ? (state.tree?.root ?? null) : (state.tree?.mainline[i - 1] ?? null)),
    () => {
      renderMoves();
      drawShapes();
    },
  );

  const notation = h('button', { type: 'button', class: 'small', title: 'Short (SAN) or long notation' });
  const renderNotation = () => {
    notation.textContent = state.long ? 'Long notation' : 'SAN';
    notation.setAttribute('aria-pressed', String(state.long));
  };
  renderNotation();
  notation.addEventListener('click', () => {
    state = toggledNotation(state);
    localStorage.setItem('tabla.notation', state.long ? 'long' : 'san');
    renderNotation();
    renderMoves();
  });
  const copyPgn = h('button', { type: 'button', class: 'small' }, 'Copy PGN');
  copyPgn.addEventListener('click', () => state.game && copyText(state.game.pgn, copyPgn));
  const downloadPgn = h('button', { type: 'button', class: 'small' }, 'Download PGN');
  downloadPgn.addEventListener('click', () => {
    const g = state.game;
    if (g) download(downloadName(g.tags), g.pgn);
  });
  const moveList = h('div', { class: 'move-list', id: 'moves', role: 'list', 'aria-label': 'Moves' });
  const explorer = explorerPanel(
    (uci) => void playExplorerMove(uci),
    (g) => void openDbGame(g.id, String(g.ply)),
  );
  moveList.addEventListener('click', (e) => {
    const id = (e.target as HTMLElement).closest<HTMLElement>('[data-id]')?.dataset.id;
    if (id && state.tree) go(state.tree.byId.get(id) ?? null);
  });

  // Game list with filter.
  const filter = h('input', { type: 'search', placeholder: 'Filter games', 'aria-label': 'Filter games', class: 'filter' });
  const listBody = h('tbody');
  const listNoteEl = h('p', { class: 'note' });
  const gameTable = h(
    'table',
    { class: 'games', id: 'games' },
    h('caption', {}, 'Games'),
    h(
      'thead',
      {},
      h('tr', {}, ...['#', 'White', 'Black', 'Result', 'Event', 'Date'].map((c) => h('th', { scope: 'col' }, c))),
    ),
    listBody,
  );
  filter.addEventListener('input', renderGameList);

  // Loading.
  const area = h('textarea', {
    id: 'pgn-input',
    rows: 6,
    spellcheck: 'false',
    placeholder: 'Paste PGN here',
    'aria-label': 'PGN text',
  });
  const loadMsg = h('div', { class: 'load-msg' });
  const loadButton = h('button', { type: 'button', id: 'load-pgn' }, 'Load PGN');
  loadButton.addEventListener('click', () => load(new Blob([area.value], { type: 'application/x-chess-pgn' }), 'pasted text', true));
  const file = h('input', { type: 'file', accept: '.pgn,text/plain,application/x-chess-pgn', id: 'pgn-file' });
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (!f) return;
    file.value = '';
    area.value = '';
    // The File goes to the server as it is: bytes, whatever their encoding.
    if (await load(f, f.name, true)) void showInBox(f);
  });
  const sampleButton = h('button', { type: 'button', class: 'small' }, 'Sample games');
  sampleButton.addEventListener('click', async () => {
    await forgetPgn();
    await loadSample();
  });
  const loader = h(
    'section',
    { class: 'loader', 'aria-label': 'Load PGN' },
    h('h2', {}, 'Load PGN'),
    area,
    h('div', { class: 'row' }, loadButton, h('label', { class: 'file' }, 'Upload a file ', file), sampleButton),
    loadMsg,
  );

  root.append(
    h(
      'div',
      { class: 'layout' },
      h(
        'div',
        { class: 'col-board' },
        title,
        banner,
        h('div', { class: 'fen-bar' }, fenText, copyFen),
        h('div', { class: 'board-wrap' }, live.bar, boardEl),
        controls,
        warningsBox,
        info,
        live.el,
        explorer.el,
      ),
      h(
        'div',
        { class: 'col-side' },
        report.el,
        h('section', { class: 'moves-box', 'aria-label': 'Move list' }, h('div', { class: 'row' }, h('h2', {}, 'Moves'), notation, copyPgn, downloadPgn), moveList),
        h('section', { class: 'games-box', 'aria-label': 'Game list' }, filter, h('div', { class: 'games-scroll' }, gameTable), listNoteEl),
        loader,
      ),
    ),
  );

  // ---- requests

  /**
   * Loads a PGN: its index first (the list and the status line), then the game `first` (from 0)
   * at the node `nodeId`. `remember` keeps the PGN for the next visit. `false` when nothing
   * was loaded (an error, or no game), `true` when it was or a later load took over.
   */
  async function load(blob: Blob, name: string, remember: boolean, first = 0, nodeId: string | null = null): Promise<boolean> {
    loadMsg.replaceChildren(message(blob.size > 1_000_000 ? `Reading ${name} (${(blob.size / 1e6).toFixed(1)} MB)…` : 'Reading…'));
    const ticket = ++loading;
    let index: PgnIndex;
    try {
      index = await api<PgnIndex>('/api/pgn/index', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-chess-pgn' },
        body: blob,
      });
    } catch (e) {
      if (ticket !== loading) return true;
      loadMsg.replaceChildren(message((e as Error).message, 'error'));
      return false;
    }
    if (ticket !== loading) return true;
    if (index.games.length === 0) {
      loadMsg.replaceChildren(message('No game found in this text.', 'error'));
      return false;
    }
    state = loaded(state, blob, index, first);
    const answer = fetchGame(state.gameIndex);
    loadMsg.replaceChildren(message(loadSummary(index), 'ok'));
    filter.value = '';
    renderGameList();
    await showGame(state.gameIndex, answer, nodeId);
    if (remember) void rememberPgn(blob, name);
    return true;
  }

  async function loadSample(): Promise<void> {
    const res = await fetch('/api/sample');
    await load(await res.blob(), 'sample games', false);
  }

  /** A small file's text in the paste box, as it used to be. */
  async function showInBox(blob: Blob): Promise<void> {
    if (blob.size > SHOWN_IN_BOX) return;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    try {
      area.value = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      area.value = new TextDecoder('windows-1252').decode(bytes);
    }
  }

  /** Asks the server for game `i` of the index: its bytes, cut out of the PGN. */
  function fetchGame(i: number): Promise<PgnGameWithText> {
    const { path, start, end } = gameRequest(state.entries[i]);
    return api<PgnGameWithText>(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-chess-pgn' },
      body: (state.source as Blob).slice(start, end),
    });
  }

  /** Opens game `index` (from 0) of the list at the node `nodeId` (the start when null). */
  async function selectGame(index: number, nodeId: string | null): Promise<void> {
    if (!state.entries.length) return;
    const i = clampGame(state, index);
    await showGame(i, fetchGame(i), nodeId);
  }

  /** Shows game `i` once `answer` brings it, unless another game was asked for meanwhile. */
  async function showGame(i: number, answer: Promise<PgnGameWithText>, nodeId: string | null): Promise<void> {
    const ticket = ++opening;
    pause();
    state = selected(state, i);
    markSelectedRow();
    // Busy until the game is drawn: tests and assistive technology wait for it.
    moveList.setAttribute('aria-busy', 'true');
    let g: PgnGameWithText;
    try {
      g = await answer;
    } catch (e) {
      if (ticket !== opening) return;
      moveList.setAttribute('aria-busy', 'false');
      warningsBox.replaceChildren();
      banner.replaceChildren(h('div', { class: 'msg msg-error game-error', role: 'alert' }, `Game ${i + 1} could not be read: ${(e as Error).message}`));
      return;
    }
    if (ticket !== opening) return;
    state = opened(state, i, g, nodeId);
    const { path, start, end } = gameRequest(state.entries[i]);
    report.open(g, { query: path.split('?')[1] ?? '', body: (state.source as Blob).slice(start, end), fileName: downloadName(g.tags).replace(/\.pgn$/, '-review.pgn') });
    renderGame();
    renderMoves();
    renderPosition();
    moveList.setAttribute('aria-busy', 'false');
  }

  // ---- rendering

  function renderGameList(): void {
    const { shown, matching } = filterGames(state.entries, filter.value);
    const rows = shown.map((i) => {
      const g = state.entries[i];
      const row = h(
        'tr',
        {
          tabindex: 0,
          'data-game': i,
          class: [g.error ? 'damaged' : '', g.warnings.length ? 'warned' : '', i === state.gameIndex ? 'selected' : ''].join(' ').trim() || undefined,
          'aria-selected': String(i === state.gameIndex),
          title: g.error ? `Damaged: ${g.error}` : g.warnings.length ? g.warnings.join('\n') : undefined,
        },
        ...listCells(g, i).map((c, k) =>
          h(
            'td',
            {},
            k === 0 && g.error ? `⚠ ${c}` : c,
            k === 0 && g.warnings.length
              ? h('span', { class: 'warn-badge', 'aria-label': plural(g.warnings.length, 'warning') }, ` ${g.warnings.length}!`)
              : null,
          ),
        ),
      );
      const pick = () => void selectGame(i, null);
      row.addEventListener('click', pick);
      row.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          pick();
        }
      });
      return row;
    });
    listBody.replaceChildren(...rows);
    listNoteEl.textContent = listNote(matching, state.entries.length);
  }

  function markSelectedRow(): void {
    for (const row of listBody.querySelectorAll<HTMLElement>('tr')) {
      const sel = row.dataset.game === String(state.gameIndex);
      row.classList.toggle('selected', sel);
      row.setAttribute('aria-selected', String(sel));
    }
  }

  /** The open game's title, error and warnings. */
  function renderGame(): void {
    const { game: g, tree } = state;
    if (!g || !tree) return;
    const heading = gameTitle(g);
    title.textContent = heading.text;
    title.title = heading.tooltip;
    banner.replaceChildren();
    if (g.error) {
      banner.append(
        h(
          'div',
          { class: 'msg msg-error game-error', role: 'alert' },
          h('strong', {}, 'This game is damaged: '),
          g.error,
          tree.mainline.length ? ` (the ${tree.mainline.length} moves before the error can be browsed)` : '',
        ),
      );
    }
    warningsBox.replaceChildren();
    if (g.warnings.length) {
      warningsBox.append(
        h(
          'details',
          { class: 'game-warnings' },
          h('summary', {}, `${plural(g.warnings.length, 'warning')} while reading`),
          h('ul', {}, ...g.warnings.map((w) => h('li', {}, w.replace(/^warning: /, '')))),
        ),
      );
    }
  }

  function moveText(m: PgnMove): (Node | string)[] {
    const parts: (Node | string)[] = [state.long ? m.lan : m.san];
    const glyphs = m.nags.filter(isMoveGlyph).map(nagGlyph).join('');
    if (glyphs) parts.push(h('span', { class: 'nag', title: m.nags.filter(isMoveGlyph).map(nagName).join(', ') }, glyphs));
    for (const n of m.nags.filter((n) => !isMoveGlyph(n))) {
      parts.push(' ', h('span', { class: 'nag', title: nagName(n) }, nagGlyph(n)));
    }
    return parts;
  }

  function moveExtras(m: PgnMove): HTMLElement | null {
    const bits: string[] = [];
    if (m.eval) bits.push(formatEval(m.eval));
    if (m.clock !== undefined) bits.push(formatClock(m.clock));
    return bits.length ? h('span', { class: 'extras' }, bits.join(' ')) : null;
  }

  function moveButton(node: MoveNode, cls: string): HTMLElement {
    const m = node.move as PgnMove;
    const label = `${numberLabel(node)} ${m.san}`;
    return h(
      'span',
      { class: `mv ${cls}`, 'data-id': node.id, role: 'listitem', 'aria-label': label },
      ...moveText(m),
      moveExtras(m),
    );
  }

  const comment = (c: string) => h('span', { class: 'comment' }, c);

  /** A variation (or deeper line) as running text with nested variations indented. */
  function renderLine(nodes: MoveNode[]): HTMLElement {
    const box = h('div', { class: 'variation' });
    nodes.forEach((node, i) => {
      const m = node.move as PgnMove;
      for (const c of m.comments_before ?? []) box.append(comment(c), ' ');
      if (needsNumber(nodes, i)) box.append(h('span', { class: 'num' }, numberLabel(node)), ' ');
      box.append(moveButton(node, 'inline'), ' ');
      for (const c of m.comments) box.append(comment(c), ' ');
      for (const v of node.variations) box.append(renderLine(v));
    });
    return box;
  }

  function renderMoves(): void {
    if (!state.tree) return;
    const cells = mainlineCells(state.tree, state.game).map((cell) => {
      switch (cell.kind) {
        case 'number':
          return h('span', { class: 'num' }, cell.text);
        case 'move':
          return moveButton(cell.node, 'main');
        case 'gap':
          return h('span', { class: 'mv empty' }, cell.text);
        case 'before':
          return h('div', { class: 'interrupt' }, ...(cell.node.move?.comments_before ?? []).map(comment));
        case 'after':
          return h('div', { class: 'interrupt' }, ...(cell.node.move?.comments ?? []).map(comment), ...cell.node.variations.map(renderLine));
        case 'result':
          return h('div', { class: 'interrupt result' }, cell.text);
      }
    });
    moveList.replaceChildren(...cells);
    report.markMoves(moveList);
    markCurrent();
  }

  function markCurrent(): void {
    for (const el of moveList.querySelectorAll('.mv.active')) {
      el.classList.remove('active');
      el.removeAttribute('aria-current');
    }
    const current = state.current;
    if (!current || current.id === '0') return;
    const el = moveList.querySelector<HTMLElement>(`[data-id="${current.id}"]`);
    if (el) {
      el.classList.add('active');
      el.setAttribute('aria-current', 'step');
      const box = moveList.getBoundingClientRect();
      const r = el.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) moveList.scrollTop += r.top - box.top - box.height / 3;
    }
  }

  function drawShapes(): void {
    const shapes = state.excursion ? [] : [...pgnShapes(state.current?.move?.shapes)];
    if (state.suggested) shapes.push(...arrow(state.suggested, 'blue'));
    else if (!state.excursion) shapes.push(...report.shapes(state.current));
    cg.setAutoShapes(shapes);
  }

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
  async function playMoves(moves: string[]): Promise<void> {
    for (const uci of moves) await playExplorerMove(uci);
  }

  /** An explorer move: the game's own when it has it, else a move past the game. */
  async function playExplorerMove(uci: string): Promise<void> {
    pause();
    const inGame = gameMove(state, uci);
    if (inGame) {
      go(inGame);
      return;
    }
    const fen = shownFen(state);
    if (!fen) return;
    try {
      const p = await api<PlayedJson>(`/api/play?${q({ fen, uci })}`);
      if (shownFen(state) !== fen) return;
      update(playedOff(state, { uci, san: p.played.san, fen: p.fen }));
    } catch (e) {
      info.replaceChildren(message((e as Error).message, 'error'));
    }
  }

  /**
   * Opens the game `id` of the game database at the node `nodeId` (a ply of its mainline): the
   * only game of the list then. `false` when it could not be read (the message says why).
   */
  async function openDbGame(id: string, nodeId: string | null): Promise<boolean> {
    const ticket = ++loading;
    pause();
    loadMsg.replaceChildren(message(`Reading game ${id} of the database…`));
    let g: PgnGameWithText;
    try {
      g = await api<PgnGameWithText>(`/api/db/game/${encodeURIComponent(id)}`);
    } catch (e) {
      if (ticket === loading) loadMsg.replaceChildren(message(`Game ${id} of the database: ${(e as Error).message}`, 'error'));
      return false;
    }
    if (ticket !== loading) return true;
    state = loadedDbGame(state, id, new Blob([g.pgn], { type: 'application/x-chess-pgn' }), g);
    loadMsg.replaceChildren(message(`Game ${id} of the database.`, 'ok'));
    filter.value = '';
    renderGameList();
    await showGame(0, Promise.resolve(g), nodeId);
    return true;
  }

  /** The board, the FEN, the move marked in the list, the move's details and the address. */
  function renderPosition(): void {
    const node = state.current;
    const fen = shownFen(state);
    if (!node || !fen) return;
    const off = state.excursion?.moves;
    const last = off?.length ? off[off.length - 1] : node.move;
    cg.set({
      fen,
      turnColor: fenTurn(fen),
      lastMove: last ? uciSquares(last.uci) : undefined,
      check: last ? /[+#]$/.test(last.san) : false,
    });
    drawShapes();
    fenText.textContent = fen;
    markCurrent();
    report.show(state.excursion ? null : node);
    renderInfo();
    explorer.show(fen);
    live.setTarget({ fen });
    const query = toQuery(state);
    if (query) setQuery(query);
  }

  function renderInfo(): void {
    const parts: HTMLElement[] = [];
    const node = state.current;
    if (state.excursion) {
      const back = state.excursion.from;
      info.replaceChildren(
        h(
          'p',
          { class: 'current off-game' },
          'Past the game: ',
          h('strong', { id: 'off-game-line' }, excursionLine(state)),
          ' ',
          h('button', { type: 'button', class: 'link', onclick: () => go(back) }, 'back to the game'),
        ),
      );
      return;
    }
    const m = node?.move;
    if (node && m) {
      parts.push(h('p', { class: 'current' }, h('strong', {}, `${numberLabel(node)} ${state.long ? m.lan : m.san}`), ...moveText(m).slice(1)));
      const facts: string[] = [];
      if (m.nags.length) facts.push(m.nags.map(nagName).join(', '));
      if (m.eval) facts.push(`eval ${formatEval(m.eval)}`);
      if (m.clock !== undefined) facts.push(`clock ${formatClock(m.clock)}`);
      if (m.emt !== undefined) facts.push(`move took ${formatClock(m.emt)}`);
      if (facts.length) parts.push(h('p', { class: 'facts' }, facts.join(' · ')));
      for (const c of [...(m.comments_before ?? []), ...m.comments]) parts.push(h('p', { class: 'comment' }, c));
      if (node.variations.length) {
        parts.push(
          h('p', { class: 'alts' }, 'Instead: ', ...node.variations.flatMap((v) => [h('button', { type: 'button', class: 'link', onclick: () => go(v[0]) }, `${numberLabel(v[0])} ${v[0].move?.san}`), ' '])),
        );
      }
    } else if (node) {
      parts.push(h('p', { class: 'current' }, 'Start position'));
    }
    const next = node?.next;
    if (next && next.variations.length) {
      parts.push(
        h(
          'p',
          { class: 'alts' },
          'Next: ',
          h('button', { type: 'button', class: 'link', onclick: () => go(next) }, `${numberLabel(next)} ${next.move?.san}`),
          ' or ',
          ...next.variations.flatMap((v) => [h('button', { type: 'button', class: 'link', onclick: () => go(v[0]) }, `${v[0].move?.san}`), ' ']),
        ),
      );
    }
    info.replaceChildren(...parts);
  }

  // ---- play, flip, keys

  function play(): void {
    go(playRestart(state));
    playButton.textContent = 'Pause';
    playButton.setAttribute('aria-pressed', 'true');
    timer = window.setInterval(() => {
      const next = stepTarget(state, 'next');
      if (next) go(next);
      else pause();
    }, Number(speed.value));
  }

  function pause(): void {
    if (timer !== undefined) window.clearInterval(timer);
    timer = undefined;
    playButton.textContent = 'Play';
    playButton.setAttribute('aria-pressed', 'false');
  }

  function flip(): void {
    cg.toggleOrientation();
  }

  document.addEventListener('keydown', (e) => {
    if (typingInField(e) || e.altKey || e.ctrlKey || e.metaKey) return;
    const action = keyAction(e.key);
    if (!action) return;
    e.preventDefault();
    if (action === 'flip') {
      flip();
      return;
    }
    pause();
    update(stepped(state, action));
  });

  // ---- start: the stored PGN or the sample, then the game and ply from the URL.
  void (async () => {
    const { first, db, ply } = fromQuery(location.search);
    if (db !== null && (await openDbGame(db, ply))) return;
    const stored = await recallPgn();
    let ok = false;
    if (stored) {
      ok = await load(stored.blob, stored.name, false, first, ply);
      if (ok && stored.blob.size <= SHOWN_IN_BOX) void showInBox(stored.blob);
    }
    if (!ok) {
      const res = await fetch('/api/sample');
      await load(await res.blob(), 'sample games', false, first, ply);
    }
  })();
}

export type { Api };
