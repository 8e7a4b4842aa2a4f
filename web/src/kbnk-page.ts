// The KBNK explorer: place the four men freely, see the distance to mate and the best move.

import { type Key, arrow, makeBoard, uciSquares } from './board';
import type { KbnkJson, KbnkMove } from './types';
import { ApiError, api, copyText, h, q, setQuery } from './util';

type Color = 'white' | 'black';
type Role = 'king' | 'bishop' | 'knight';

const MEN: { color: Color; role: Role; name: string }[] = [
  { color: 'white', role: 'king', name: 'White king' },
  { color: 'white', role: 'bishop', name: 'White bishop' },
  { color: 'white', role: 'knight', name: 'White knight' },
  { color: 'black', role: 'king', name: 'Black king' },
];

const EXAMPLE = '8/8/8/3k4/8/8/8/KBN5 w - - 0 1';

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const moves = (n: number) => `${n} move${n === 1 ? '' : 's'}`;
const plies = (n: number | null) => (n === null ? '' : ` (${n} ${n === 1 ? 'ply' : 'plies'})`);

export function kbnkPage(root: HTMLElement): void {
  let turn: Color = 'white';
  let last: KbnkJson | null = null;
  let ticket = 0;
  let playing = false;

  const { el: boardEl, cg } = makeBoard(
    {
      movable: { free: true, color: 'both', showDests: false },
      draggable: { enabled: true, deleteOnDropOff: true, showGhost: true },
      selectable: { enabled: true },
      highlight: { lastMove: true, check: false },
      events: { change: () => changed() },
    },
    'KBNK board: drag the pieces from the tray onto any square',
  );

  // The tray of spare men, as chessground pieces so the theme draws them.
  const tray = h('div', { class: 'cg-wrap spare', role: 'group', 'aria-label': 'Spare pieces: drag onto the board' });
  const trayPieces = MEN.map((man) => {
    const p = h('piece', { class: `${man.role} ${man.color}`, title: man.name, 'aria-label': man.name, 'data-role': man.role, 'data-color': man.color });
    const start = (e: MouseEvent | TouchEvent) => {
      if (e instanceof MouseEvent && e.button !== 0) return;
      e.preventDefault();
      remove(man.color, man.role);
      cg.dragNewPiece({ color: man.color, role: man.role }, e, true);
    };
    p.addEventListener('mousedown', start);
    p.addEventListener('touchstart', start, { passive: false });
    tray.append(p);
    return p;
  });

  const sideWhite = h('input', { type: 'radio', name: 'turn', value: 'white', id: 'turn-white', checked: true });
  const sideBlack = h('input', { type: 'radio', name: 'turn', value: 'black', id: 'turn-black' });
  for (const r of [sideWhite, sideBlack]) {
    r.addEventListener('change', () => {
      turn = sideBlack.checked ? 'black' : 'white';
      cg.set({ turnColor: turn, lastMove: undefined });
      changed();
    });
  }
  const side = h(
    'fieldset',
    { class: 'side' },
    h('legend', {}, 'Side to move'),
    h('label', { for: 'turn-white' }, sideWhite, ' White'),
    h('label', { for: 'turn-black' }, sideBlack, ' Black'),
  );

  const fenIn = h('input', { type: 'text', id: 'kbnk-fen', 'aria-label': 'FEN', spellcheck: 'false', class: 'fen-input' });
  const fenForm = h(
    'form',
    { class: 'row fen-form' },
    h('label', { for: 'kbnk-fen' }, 'FEN'),
    fenIn,
    h('button', { type: 'submit' }, 'Set'),
  );
  fenForm.addEventListener('submit', (e) => {
    e.preventDefault();
    setFen(fenIn.value.trim());
  });
  const copyFen = h('button', { type: 'button', class: 'small' }, 'Copy FEN');
  copyFen.addEventListener('click', () => copyText(fullFen(), copyFen));

  const verdict = h('div', { class: 'verdict', id: 'kbnk-verdict', 'aria-live': 'polite' });
  const bestButton = h('button', { type: 'button', id: 'play-best' }, 'Play best move');
  bestButton.addEventListener('click', () => last?.best && playUci(last.best.uci));
  const outButton = h('button', { type: 'button', id: 'play-out' }, 'Play out to mate');
  outButton.addEventListener('click', () => (playing ? stop() : playOut()));
  const moveTable = h('tbody');
  const movesBox = h(
    'table',
    { class: 'kbnk-moves', id: 'kbnk-moves' },
    h('caption', {}, 'Every move'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Move'), h('th', { scope: 'col' }, 'Then'), h('th', { scope: 'col' }, 'DTM'))),
    moveTable,
  );

  const tools = h(
    'div',
    { class: 'row' },
    h('button', { type: 'button', class: 'small', onclick: () => setFen(EXAMPLE) }, 'Example'),
    h('button', { type: 'button', class: 'small', onclick: () => void random() }, 'Random'),
    h('button', { type: 'button', class: 'small', onclick: () => setFen('8/8/8/8/8/8/8/8 w - - 0 1') }, 'Clear'),
    h('button', { type: 'button', class: 'small', onclick: () => cg.toggleOrientation() }, 'Flip'),
  );

  root.append(
    h(
      'div',
      { class: 'layout' },
      h('div', { class: 'col-board' }, h('h1', {}, 'KBNK explorer'), h('div', { class: 'fen-bar' }, h('code', { class: 'fen', id: 'fen' }), copyFen), boardEl, tray, tools),
      h(
        'div',
        { class: 'col-side' },
        h('p', { class: 'note' }, 'King, bishop and knight against a king: drag the four men anywhere (off the board to remove), choose who moves, and read the exact distance to mate.'),
        side,
        fenForm,
        verdict,
        h('div', { class: 'row' }, bestButton, outButton),
        movesBox,
      ),
    ),
  );

  function remove(color: Color, role: Role): void {
    const gone: [Key, undefined][] = [];
    for (const [key, piece] of cg.state.pieces) {
      if (piece.color === color && piece.role === role) gone.push([key, undefined]);
    }
    if (gone.length) cg.setPieces(new Map(gone));
  }

  function fullFen(): string {
    return `${cg.getFen()} ${turn === 'white' ? 'w' : 'b'} - - 0 1`;
  }

  function setFen(fen: string): void {
    stop();
    const parts = fen.split(/\s+/);
    turn = parts[1] === 'b' ? 'black' : 'white';
    sideWhite.checked = turn === 'white';
    sideBlack.checked = turn === 'black';
    cg.set({ fen: parts[0] || '8/8/8/8/8/8/8/8', turnColor: turn, lastMove: undefined });
    changed();
  }

  function changed(): void {
    const counts = new Map<string, number>();
    for (const piece of cg.state.pieces.values()) {
      const k = `${piece.color} ${piece.role}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    MEN.forEach((man, i) => trayPieces[i].classList.toggle('placed', (counts.get(`${man.color} ${man.role}`) ?? 0) > 0));
    const fen = fullFen();
    (document.getElementById('fen') as HTMLElement).textContent = fen;
    if (document.activeElement !== fenIn) fenIn.value = fen;
    setQuery({ fen });
    cg.setAutoShapes([]);
    const missing = MEN.filter((m) => !counts.get(`${m.color} ${m.role}`)).map((m) => m.name.toLowerCase());
    const extra = cg.state.pieces.size - (MEN.length - missing.length);
    if (missing.length && extra === 0) {
      show(null);
      verdict.replaceChildren(h('p', { class: 'msg' }, `Place the ${missing.join(', ')} (drag from the tray).`));
      return;
    }
    void ask(fen);
  }

  async function ask(fen: string): Promise<void> {
    const mine = ++ticket;
    try {
      const res = await api<KbnkJson>(`/api/kbnk?${q({ fen })}`);
      if (mine === ticket) show(res);
    } catch (e) {
      if (mine !== ticket) return;
      show(null);
      const text = (e as Error).message.replace(/^invalid FEN ".*?": /, '');
      const kind = !(e instanceof ApiError) ? 'Error' : e.status === 400 ? 'Illegal position' : e.status === 422 ? 'Not KBNK' : 'Error';
      verdict.replaceChildren(h('p', { class: 'msg msg-error', role: 'alert' }, `${kind}: ${text}.`));
    }
  }

  function moveVerdict(m: KbnkMove, mover: Color): string {
    const other = mover === 'white' ? 'black' : 'white';
    if (m.mate) return 'checkmate';
    if (m.dtm < 0) return `${cap(mover)} mates in ${moves(1 - m.dtm)}`;
    if (m.dtm > 0) return `${cap(other)} mates in ${moves(m.dtm)}`;
    return m.san.includes('x') ? 'draw (capture)' : 'draw';
  }

  /** The mate distance a move leaves, for the side with the pieces: its own moves' DTM, or the
   * DTM after a bare-king move (both "+N", N moves of the stronger side, with the plies). */
  function dtmCell(m: KbnkMove): string {
    if (m.plies === null) return '0 (draw)';
    const n = m.dtm <= 0 ? 1 - m.dtm : m.dtm;
    return `+${n}${plies(2 * n - 1)}`;
  }

  function show(res: KbnkJson | null): void {
    last = res;
    bestButton.disabled = !res?.best;
    outButton.disabled = !res?.best || res.plies === null;
    moveTable.replaceChildren();
    if (!res) return;
    const who = cap(res.turn);
    const lines: HTMLElement[] = [];
    switch (res.status) {
      case 'win':
        lines.push(h('p', { class: 'big', id: 'kbnk-distance' }, `${who} mates in ${moves(res.dtm)}${plies(res.plies)}`));
        break;
      case 'loss':
        lines.push(h('p', { class: 'big', id: 'kbnk-distance' }, `${who} is mated in ${moves(-res.dtm)}${plies(res.plies)}`));
        break;
      case 'checkmate':
        lines.push(h('p', { class: 'big', id: 'kbnk-distance' }, `${who} is checkmated.`));
        break;
      case 'stalemate':
        lines.push(h('p', { class: 'big', id: 'kbnk-distance' }, `Stalemate: ${res.turn} has no move and is not in check. A draw.`));
        break;
      case 'draw': {
        const capture = res.moves.find((m) => m.san.includes('x') && m.dtm === 0);
        lines.push(
          h(
            'p',
            { class: 'big', id: 'kbnk-distance' },
            capture ? `Draw: ${res.turn} captures a piece (${capture.san}), and mate is no longer possible.` : 'Draw: mate cannot be forced (a piece is lost).',
          ),
        );
        break;
      }
    }
    if (res.best) {
      const label = res.status === 'win' ? 'Best move' : res.status === 'loss' ? 'Longest defence' : 'Move';
      lines.push(h('p', {}, `${label}: `, h('strong', { id: 'kbnk-best' }, res.best.san)));
      cg.setAutoShapes(arrow(res.best.uci, res.status === 'win' ? 'green' : 'blue'));
    } else {
      cg.setAutoShapes([]);
    }
    verdict.replaceChildren(...lines);
    for (const m of res.moves) {
      const row = h(
        'tr',
        {},
        h('td', {}, h('button', { type: 'button', class: 'link', title: `Play ${m.san}`, onclick: () => playUci(m.uci) }, m.san)),
        h('td', {}, moveVerdict(m, res.turn)),
        h('td', { class: 'num' }, dtmCell(m)),
      );
      if (res.best && m.uci === res.best.uci) row.classList.add('best');
      moveTable.append(row);
    }
  }

  function playUci(uci: string): void {
    const sq = uciSquares(uci);
    if (!sq) return;
    turn = turn === 'white' ? 'black' : 'white';
    sideWhite.checked = turn === 'white';
    sideBlack.checked = turn === 'black';
    cg.move(sq[0], sq[1]);
    cg.set({ turnColor: turn, lastMove: sq });
    changed();
  }

  function stop(): void {
    playing = false;
    outButton.textContent = 'Play out to mate';
  }

  async function playOut(): Promise<void> {
    playing = true;
    outButton.textContent = 'Stop';
    while (playing && last?.best && last.plies !== null) {
      playUci(last.best.uci);
      await new Promise((r) => setTimeout(r, 500));
      const fen = fullFen();
      const mine = ticket;
      // Wait for this position's answer before the next move.
      for (let i = 0; i < 50 && (last?.fen.split(' ')[0] !== fen.split(' ')[0] || mine !== ticket); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    stop();
  }

  async function random(): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const squares = new Set<number>();
      while (squares.size < 4) squares.add(Math.floor(Math.random() * 64));
      const [k, b, n, bk] = [...squares];
      const board: string[] = Array(64).fill('');
      board[k] = 'K';
      board[b] = 'B';
      board[n] = 'N';
      board[bk] = 'k';
      const ranks: string[] = [];
      for (let r = 7; r >= 0; r--) {
        let s = '';
        let empty = 0;
        for (let f = 0; f < 8; f++) {
          const p = board[r * 8 + f];
          if (!p) empty++;
          else {
            if (empty) s += empty;
            empty = 0;
            s += p;
          }
        }
        ranks.push(s + (empty ? empty : ''));
      }
      const fen = `${ranks.join('/')} ${turn === 'white' ? 'w' : 'b'} - - 0 1`;
      try {
        await api<KbnkJson>(`/api/kbnk?${q({ fen })}`);
        setFen(fen);
        return;
      } catch {
        // Illegal (touching kings, a check with the wrong side to move): draw again.
      }
    }
  }

  const start = new URLSearchParams(location.search).get('fen');
  setFen(start || EXAMPLE);
}
