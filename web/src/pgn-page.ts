// The PGN browser: load PGN, pick a game, walk its moves and variations on a chessground board.

import { type Api, arrow, fenTurn, makeBoard, pgnShapes, uciSquares } from './board';
import { isMoveGlyph, nagGlyph, nagName } from './nags';
import { type Node, type Tree, buildTree, formatClock, formatEval, lineEnd, moveNumber, numberLabel, writePgn } from './pgn-tree';
import { suggestPanel } from './suggest';
import type { PgnGame, PgnMove } from './types';
import { api, copyText, download, h, message, setQuery, typingInField } from './util';

const STORE = 'tabla.pgn';
const MAX_LISTED = 1000;

export function pgnPage(root: HTMLElement): void {
  let games: PgnGame[] = [];
  let gameIndex = 0;
  let tree: Tree | null = null;
  let current: Node | null = null;
  let long = localStorage.getItem('tabla.notation') === 'long';
  let timer: number | undefined;
  let suggested: string | null = null;

  // ---- elements
  const title = h('h1', { class: 'game-title' }, 'PGN browser');
  const banner = h('div', { class: 'banner' });
  const fenText = h('code', { class: 'fen', id: 'fen', 'aria-label': 'FEN of the position on the board' });
  const copyFen = h('button', { type: 'button', class: 'small' }, 'Copy FEN');
  copyFen.addEventListener('click', () => current && copyText(current.fen, copyFen));
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
  const controls = h(
    'div',
    { class: 'controls', role: 'toolbar', 'aria-label': 'Moves' },
    btn('First position', '«', () => go(tree?.root ?? null), 'Home or ↑'),
    btn('Previous move', '‹', () => go(current?.prev ?? null), '←'),
    btn('Next move', '›', () => go(current?.next ?? null), '→'),
    btn('Last position', '»', () => current && go(lineEnd(current)), 'End or ↓'),
    playButton,
    speed,
    btn('Flip the board', 'Flip', flip, 'f'),
  );
  const info = h('section', { class: 'move-info', 'aria-label': 'Comments and variations', 'aria-live': 'polite' });
  const suggest = suggestPanel(
    () => current?.fen ?? null,
    (uci) => {
      suggested = uci;
      drawShapes();
    },
  );

  const notation = h(
    'button',
    { type: 'button', class: 'small', 'aria-pressed': String(long), title: 'Short (SAN) or long notation' },
    long ? 'Long notation' : 'SAN',
  );
  notation.addEventListener('click', () => {
    long = !long;
    localStorage.setItem('tabla.notation', long ? 'long' : 'san');
    notation.textContent = long ? 'Long notation' : 'SAN';
    notation.setAttribute('aria-pressed', String(long));
    renderMoves();
  });
  const copyPgn = h('button', { type: 'button', class: 'small' }, 'Copy PGN');
  copyPgn.addEventListener('click', () => games[gameIndex] && copyText(writePgn(games[gameIndex]), copyPgn));
  const downloadPgn = h('button', { type: 'button', class: 'small' }, 'Download PGN');
  downloadPgn.addEventListener('click', () => {
    const g = games[gameIndex];
    if (!g) return;
    const name = `${g.tags.White ?? 'white'}-${g.tags.Black ?? 'black'}`.replace(/[^A-Za-z0-9_-]+/g, '_');
    download(`${name}.pgn`, writePgn(g));
  });
  const moveList = h('div', { class: 'move-list', id: 'moves', role: 'list', 'aria-label': 'Moves' });
  moveList.addEventListener('click', (e) => {
    const id = (e.target as HTMLElement).closest<HTMLElement>('[data-id]')?.dataset.id;
    if (id && tree) go(tree.byId.get(id) ?? null);
  });

  // Game list with filter.
  const filter = h('input', { type: 'search', placeholder: 'Filter games', 'aria-label': 'Filter games', class: 'filter' });
  const listBody = h('tbody');
  const listNote = h('p', { class: 'note' });
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
  loadButton.addEventListener('click', () => load(area.value, true));
  const file = h('input', { type: 'file', accept: '.pgn,text/plain,application/x-chess-pgn', id: 'pgn-file' });
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (!f) return;
    const bytes = new Uint8Array(await f.arrayBuffer());
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder('windows-1252').decode(bytes);
    }
    area.value = text.length < 200_000 ? text : '';
    await load(text, true);
    file.value = '';
  });
  const sampleButton = h('button', { type: 'button', class: 'small' }, 'Sample games');
  sampleButton.addEventListener('click', async () => {
    localStorage.removeItem(STORE);
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
        boardEl,
        controls,
        info,
        suggest.el,
      ),
      h(
        'div',
        { class: 'col-side' },
        h('section', { class: 'moves-box', 'aria-label': 'Move list' }, h('div', { class: 'row' }, h('h2', {}, 'Moves'), notation, copyPgn, downloadPgn), moveList),
        h('section', { class: 'games-box', 'aria-label': 'Game list' }, filter, h('div', { class: 'games-scroll' }, gameTable), listNote),
        loader,
      ),
    ),
  );

  // ---- behaviour

  async function load(text: string, remember: boolean): Promise<boolean> {
    loadMsg.replaceChildren(message('Reading…'));
    try {
      const res = await api<{ games: PgnGame[] }>('/api/pgn', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-chess-pgn; charset=utf-8' },
        body: text,
      });
      if (res.games.length === 0) {
        loadMsg.replaceChildren(message('No game found in this text.', 'error'));
        return false;
      }
      games = res.games;
      if (remember) {
        try {
          localStorage.setItem(STORE, text);
        } catch {
          // Too large for local storage: the games stay loaded for this visit only.
        }
      }
      const damaged = games.filter((g) => g.error).length;
      loadMsg.replaceChildren(
        message(`${games.length} game${games.length === 1 ? '' : 's'} loaded${damaged ? `, ${damaged} with errors` : ''}.`, 'ok'),
      );
      filter.value = '';
      renderGameList();
      selectGame(0, null);
      return true;
    } catch (e) {
      loadMsg.replaceChildren(message((e as Error).message, 'error'));
      return false;
    }
  }

  async function loadSample(): Promise<void> {
    const res = await fetch('/api/sample');
    const text = await res.text();
    await load(text, false);
  }

  function renderGameList(): void {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const rows: HTMLElement[] = [];
    let matching = 0;
    games.forEach((g, i) => {
      const cells = [String(i + 1), g.tags.White ?? '?', g.tags.Black ?? '?', g.result, g.tags.Event ?? '', g.tags.Date ?? ''];
      const hay = cells.join(' ').toLowerCase();
      if (!words.every((w) => hay.includes(w))) return;
      matching++;
      if (rows.length >= MAX_LISTED) return;
      const row = h(
        'tr',
        {
          tabindex: 0,
          'data-game': i,
          class: [g.error ? 'damaged' : '', i === gameIndex ? 'selected' : ''].join(' ').trim(),
          'aria-selected': String(i === gameIndex),
          title: g.error ? `Damaged: ${g.error}` : undefined,
        },
        ...cells.map((c, k) => h('td', {}, k === 0 && g.error ? `⚠ ${c}` : c)),
      );
      const pick = () => selectGame(i, null);
      row.addEventListener('click', pick);
      row.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          pick();
        }
      });
      rows.push(row);
    });
    listBody.replaceChildren(...rows);
    listNote.textContent =
      matching > MAX_LISTED
        ? `Showing ${MAX_LISTED} of ${matching} games: filter to narrow.`
        : `${matching} of ${games.length} game${games.length === 1 ? '' : 's'}.`;
  }

  function selectGame(index: number, nodeId: string | null): void {
    pause();
    gameIndex = Math.max(0, Math.min(index, games.length - 1));
    const game = games[gameIndex];
    tree = buildTree(game);
    for (const row of listBody.querySelectorAll<HTMLElement>('tr')) {
      const sel = row.dataset.game === String(gameIndex);
      row.classList.toggle('selected', sel);
      row.setAttribute('aria-selected', String(sel));
    }
    const t = game.tags;
    title.textContent = `${t.White ?? '?'} – ${t.Black ?? '?'}  ${game.result}`;
    title.title = [t.Event, t.Site, t.Date].filter((x) => x && x !== '?').join(', ');
    banner.replaceChildren();
    if (game.error) {
      banner.append(
        h(
          'div',
          { class: 'msg msg-error game-error', role: 'alert' },
          h('strong', {}, 'This game is damaged: '),
          game.error,
          tree.mainline.length ? ` (the ${tree.mainline.length} moves before the error can be browsed)` : '',
        ),
      );
    }
    const otherErrors = (game.errors ?? []).filter((e) => e !== game.error);
    if (otherErrors.length) {
      banner.append(
        h(
          'details',
          { class: 'msg msg-warn' },
          h('summary', {}, `${otherErrors.length} problem${otherErrors.length === 1 ? '' : 's'} skipped while reading`),
          h('ul', {}, ...otherErrors.map((e) => h('li', {}, e))),
        ),
      );
    }
    renderMoves();
    const target = (nodeId && tree.byId.get(nodeId)) || tree.root;
    go(target);
  }

  function moveText(m: PgnMove): (Node | string)[] {
    const parts: (Node | string)[] = [long ? m.lan : m.san];
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

  function moveButton(node: Node, cls: string): HTMLElement {
    const m = node.move as PgnMove;
    const label = `${numberLabel(node)} ${m.san}`;
    return h(
      'span',
      { class: `mv ${cls}`, 'data-id': node.id, role: 'listitem', 'aria-label': label },
      ...moveText(m),
      moveExtras(m),
    );
  }

  /** A variation (or deeper line) as running text with nested variations indented. */
  function renderLine(nodes: Node[]): HTMLElement {
    const box = h('div', { class: 'variation' });
    nodes.forEach((node, i) => {
      const m = node.move as PgnMove;
      for (const c of m.comments_before ?? []) box.append(h('span', { class: 'comment' }, c), ' ');
      const { white } = moveNumber(node);
      const needNumber = white || i === 0 || (nodes[i - 1].move?.comments.length ?? 0) > 0 || nodes[i - 1].variations.length > 0;
      if (needNumber) box.append(h('span', { class: 'num' }, numberLabel(node)), ' ');
      box.append(moveButton(node, 'inline'), ' ');
      for (const c of m.comments) box.append(h('span', { class: 'comment' }, c), ' ');
      for (const v of node.variations) box.append(renderLine(v));
    });
    return box;
  }

  function renderMoves(): void {
    if (!tree) return;
    const cells: HTMLElement[] = [];
    const interrupt = (...content: HTMLElement[]) => cells.push(h('div', { class: 'interrupt' }, ...content));
    let column = 0; // 0: next cell starts a row
    tree.mainline.forEach((node) => {
      const m = node.move as PgnMove;
      if ((m.comments_before ?? []).length) {
        if (column === 1) cells.push(h('span', { class: 'mv empty' }, ''));
        column = 0;
        interrupt(...(m.comments_before ?? []).map((c) => h('span', { class: 'comment' }, c)));
      }
      const { number, white } = moveNumber(node);
      if (white) {
        cells.push(h('span', { class: 'num' }, `${number}.`), moveButton(node, 'main'));
        column = 1;
      } else {
        if (column === 0) cells.push(h('span', { class: 'num' }, `${number}.`), h('span', { class: 'mv empty' }, '…'));
        cells.push(moveButton(node, 'main'));
        column = 0;
      }
      if (m.comments.length || node.variations.length) {
        if (column === 1) cells.push(h('span', { class: 'mv empty' }, ''));
        column = 0;
        interrupt(...m.comments.map((c) => h('span', { class: 'comment' }, c)), ...node.variations.map(renderLine));
      }
    });
    const game = games[gameIndex];
    cells.push(h('div', { class: 'interrupt result' }, game.error ? `(stopped: ${game.error})` : game.result));
    moveList.replaceChildren(...cells);
    markCurrent();
  }

  function markCurrent(): void {
    for (const el of moveList.querySelectorAll('.mv.active')) {
      el.classList.remove('active');
      el.removeAttribute('aria-current');
    }
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
    const shapes = [...pgnShapes(current?.move?.shapes)];
    if (suggested) shapes.push(...arrow(suggested, 'blue'));
    cg.setAutoShapes(shapes);
  }

  function go(node: Node | null): void {
    if (!node || !tree) return;
    const changed = node !== current;
    current = node;
    const m = node.move;
    const turn = fenTurn(node.fen);
    cg.set({
      fen: node.fen,
      turnColor: turn,
      lastMove: m ? uciSquares(m.uci) : undefined,
      check: m ? /[+#]$/.test(m.san) : false,
    });
    if (changed) {
      suggested = null;
      suggest.reset();
    }
    drawShapes();
    fenText.textContent = node.fen;
    markCurrent();
    renderInfo();
    setQuery({ game: gameIndex + 1, ply: node.id });
  }

  function renderInfo(): void {
    const parts: HTMLElement[] = [];
    const node = current;
    const m = node?.move;
    if (node && m) {
      parts.push(h('p', { class: 'current' }, h('strong', {}, `${numberLabel(node)} ${long ? m.lan : m.san}`), ...moveText(m).slice(1)));
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

  function play(): void {
    if (!current?.next) {
      if (current && tree && current !== tree.root && !current.next) go(tree.root);
    }
    playButton.textContent = 'Pause';
    playButton.setAttribute('aria-pressed', 'true');
    timer = window.setInterval(() => {
      if (!current?.next) {
        pause();
        return;
      }
      go(current.next);
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
    const actions: Record<string, () => void> = {
      ArrowRight: () => go(current?.next ?? null),
      ArrowLeft: () => go(current?.prev ?? null),
      ArrowUp: () => go(tree?.root ?? null),
      Home: () => go(tree?.root ?? null),
      ArrowDown: () => current && go(lineEnd(current)),
      End: () => current && go(lineEnd(current)),
      f: flip,
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    if (e.key !== 'f') pause();
    action();
  });

  // ---- start: the stored PGN or the sample, then the game and ply from the URL.
  void (async () => {
    const params = new URLSearchParams(location.search);
    const stored = localStorage.getItem(STORE);
    let ok = false;
    if (stored) {
      area.value = stored.length < 200_000 ? stored : '';
      ok = await load(stored, false);
    }
    if (!ok) await loadSample();
    const game = Number(params.get('game'));
    const ply = params.get('ply');
    if (games.length && (game > 1 || ply)) {
      selectGame(Number.isFinite(game) && game >= 1 ? game - 1 : 0, ply);
    }
  })();
}

export type { Api };
