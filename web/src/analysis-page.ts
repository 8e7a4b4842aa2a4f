// Analysis: set a position by FEN or by playing legal moves, with the engine's live lines and an
// evaluation bar beside the board; with a game database, the opening explorer follows the board (its moves play on it, its games open
// in the PGN browser).

import { arrow, dests, makeBoard, uciSquares } from './board';
import { dbGameHref } from './db-query';
import { explorerPanel } from './explorer';
import { START_FEN } from './pgn-tree';
import { livePanel } from './live-panel';
import { choosePromotion, promotionChoices, promotionLetter } from './promotion';
import type { PositionLineJson } from './types';
import { api, copyText, h, message, q, setQuery, typingInField } from './util';

/** The Bh6 test position (docs/background.md): the engine should find 40. Bh6. */
const BH6_POSITION = '6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40';

export function analysisPage(root: HTMLElement): void {
  let position: PositionLineJson | null = null;
  /** The moves played on the board since the FEN was set, in UCI. */
  const played: string[] = [];
  let startFen = START_FEN;

  const { el: boardEl, cg } = makeBoard(
    {
      movable: { free: false, color: 'white', showDests: true, events: { after: (orig, dest) => void move(orig + dest) } },
      draggable: { enabled: true },
    },
    'Analysis board: play legal moves',
  );
  const fenText = h('code', { class: 'fen', id: 'fen' });
  const copyFen = h('button', { type: 'button', class: 'small' }, 'Copy FEN');
  copyFen.addEventListener('click', () => position && copyText(position.fen, copyFen));
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const line = h('p', { class: 'line', id: 'analysis-line' });

  const fenIn = h('input', { type: 'text', id: 'analysis-fen', spellcheck: 'false', class: 'fen-input', 'aria-label': 'FEN' });
  const form = h('form', { class: 'row fen-form' }, h('label', { for: 'analysis-fen' }, 'FEN'), fenIn, h('button', { type: 'submit', id: 'analysis-go' }, 'Set'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void setFen(fenIn.value.trim());
  });
  const live = livePanel({
    onBest: (uci) => cg.setAutoShapes(uci ? arrow(uci, 'blue') : []),
    onPlay: (moves) => void playLine(moves),
    orientation: () => cg.state.orientation,
  });
  const explorer = explorerPanel(
    (uci) => void move(uci),
    (g) => location.assign(dbGameHref(g.id, g.ply)),
  );
  /** What the address asked for that is not there. */
  const notice = h('div', { class: 'url-notice', id: 'url-notice' });
  const undoButton = h('button', { type: 'button', class: 'small', onclick: () => void undo() }, 'Take back');

  root.append(
    h(
      'div',
      { class: 'layout' },
      h(
        'div',
        { class: 'col-board' },
        h('h1', {}, 'Analysis'),
        notice,
        h('div', { class: 'fen-bar' }, fenText, copyFen),
        h('div', { class: 'board-wrap' }, live.bar, boardEl),
        h(
          'div',
          { class: 'row board-tools' },
          undoButton,
          h('button', { type: 'button', class: 'small', onclick: () => cg.toggleOrientation() }, 'Flip'),
          h('button', { type: 'button', class: 'small', onclick: () => void setFen(START_FEN) }, 'Start position'),
          h('button', { type: 'button', class: 'small', onclick: () => void setFen(BH6_POSITION) }, 'Bh6 position'),
        ),
      ),
      h('div', { class: 'col-side' }, h('p', { class: 'note' }, 'Paste a FEN and press Set, or play moves on the board; Analyse starts the engine.'), form, status, live.el, line, explorer.el),
    ),
  );

  function show(p: PositionLineJson): void {
    position = p;
    const turn = p.turn;
    cg.set({
      fen: p.fen,
      turnColor: turn,
      check: p.check ? turn : false,
      movable: { color: p.legal_moves.length ? turn : undefined, dests: dests(p.legal_moves.map((m) => m.uci)) },
    });
    fenText.textContent = p.fen;
    if (document.activeElement !== fenIn) fenIn.value = p.fen;
    cg.setAutoShapes([]);
    live.setTarget(p.legal_moves.length ? { fen: p.fen, from: { fen: startFen, moves: [...played] } } : null);
    status.replaceChildren(
      message(p.status === 'in play' ? `${p.turn === 'white' ? 'White' : 'Black'} to move${p.check ? ', in check' : ''}.` : `Game over: ${p.status}.`, p.status === 'in play' ? 'info' : 'ok'),
    );
    line.textContent = p.line ? `Moves: ${p.line}` : '';
    explorer.show(p.fen);
    setQuery({ fen: p.fen });
  }

  /** Sets the position `fen`; when the server refuses it, its reason (shown; the board, the FEN
   * shown and the address stay as they were), else null. */
  async function setFen(fen: string): Promise<string | null> {
    try {
      const p = await api<PositionLineJson>(`/api/position?${q({ fen })}`);
      played.length = 0;
      startFen = p.fen;
      show(p);
      return null;
    } catch (e) {
      const why = (e as Error).message;
      status.replaceChildren(message(why, 'error'));
      return why;
    }
  }

  async function move(uci: string): Promise<void> {
    if (!position) return;
    const legal = position.legal_moves.map((m) => m.uci);
    let chosen = uci;
    const promotions = legal.includes(uci) ? [] : promotionChoices(legal, uci);
    if (promotions.length) {
      // A pawn on the last rank: the piece it becomes is asked for (a queen is not assumed).
      const from = position;
      const role = await choosePromotion(boardEl, uci.slice(2, 4), from.turn, cg.state.orientation, promotions);
      if (position !== from) return;
      if (!role) {
        show(from);
        return;
      }
      chosen = uci + promotionLetter(role);
    }
    try {
      // The server plays the whole line from the FEN set, and writes it in numbered SAN.
      const p = await api<PositionLineJson>(`/api/position?${q({ fen: startFen, moves: [...played, chosen].join(' ') })}`);
      played.push(chosen);
      show(p);
      const sq = uciSquares(chosen);
      if (sq) cg.set({ lastMove: sq });
    } catch (e) {
      status.replaceChildren(message((e as Error).message, 'error'));
      show(position);
    }
  }

  /** Plays a line of the engine's (UCI moves from the position shown). */
  async function playLine(moves: string[]): Promise<void> {
    try {
      const p = await api<PositionLineJson>(`/api/position?${q({ fen: startFen, moves: [...played, ...moves].join(' ') })}`);
      played.push(...moves);
      show(p);
      const sq = uciSquares(moves[moves.length - 1] ?? '');
      if (sq) cg.set({ lastMove: sq });
    } catch (e) {
      status.replaceChildren(message((e as Error).message, 'error'));
    }
  }

  async function undo(): Promise<void> {
    if (!played.length) return;
    played.pop();
    const p = await api<PositionLineJson>(`/api/position?${q({ fen: startFen, moves: played.join(' ') })}`);
    show(p);
  }

  document.addEventListener('keydown', (e) => {
    if (typingInField(e) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'f') cg.toggleOrientation();
    if (e.key === 'ArrowLeft') void undo();
  });

  // The address's FEN, else the Bh6 position; a FEN there the server refuses is said, and the
  // Bh6 position shown.
  const start = new URLSearchParams(location.search).get('fen');
  void (async () => {
    const why = start ? await setFen(start) : null;
    if (start && why === null) return;
    await setFen(BH6_POSITION);
    if (why !== null) notice.replaceChildren(message(`The address asks for the FEN ${JSON.stringify(start)}, which cannot be set: ${why}. Showing the Bh6 position instead.`, 'error'));
  })();
}
