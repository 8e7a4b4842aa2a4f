// The endgame explorer: set up any position of up to five men (the tray holds every man of both
// colours), choose who moves, and read the exact distance to mate from the server's tables, the
// best move and every move's value. `/kbnk` opens it on the KBNvK preset.

import { type Key, arrow, makeBoard, uciSquares } from './board';
import { fenFields } from './fen';
import {
  type Color,
  type Role,
  type Setup,
  PRESETS,
  TRAY,
  cap,
  countMen,
  moveVerdict,
  moverDtm,
  movesText,
  parseSetup,
  pliesText,
  preset,
  setupFen,
  setupHint,
  unreadableFen,
} from './endgame';
import type { PlayedJson, TbJson } from './types';
import { ApiError, api, copyText, h, message, q, setQuery } from './util';

const EMPTY = '8/8/8/8/8/8/8/8 w - - 0 1';

/** The explorer, on the position of the URL's `fen`, else on the preset named `start`. */
export function endgamePage(root: HTMLElement, start = 'KBNvK'): void {
  // Castling rights and the en-passant square of the FEN set; any change on the board drops
  // them (a move played keeps the server's).
  let setup: Setup = parseSetup(EMPTY);
  let last: TbJson | null = null;
  let ticket = 0;
  let playing = false;

  const { el: boardEl, cg } = makeBoard(
    {
      movable: { free: true, color: 'both', showDests: false },
      draggable: { enabled: true, deleteOnDropOff: true, showGhost: true },
      selectable: { enabled: true },
      highlight: { lastMove: true, check: false },
      events: { change: () => edited() },
    },
    'Endgame board: drag men from the tray onto any square, and off the board to remove them',
  );

  // The tray of spare men, as chessground pieces so the theme draws them.
  const tray = h('div', { class: 'cg-wrap spare', role: 'group', 'aria-label': 'Spare men: drag onto the board' });
  const trayPieces = TRAY.map((man) => {
    const p = h('piece', { class: `${man.role} ${man.color}`, title: man.name, 'aria-label': man.name, 'data-role': man.role, 'data-color': man.color });
    const grab = (e: MouseEvent | TouchEvent) => {
      if (e instanceof MouseEvent && e.button !== 0) return;
      e.preventDefault();
      // One king a side: a king from the tray replaces the one on the board.
      if (man.role === 'king') remove(man.color, 'king');
      cg.dragNewPiece({ color: man.color, role: man.role }, e, true);
    };
    p.addEventListener('mousedown', grab);
    p.addEventListener('touchstart', grab, { passive: false });
    tray.append(p);
    return p;
  });

  const sideWhite = h('input', { type: 'radio', name: 'turn', value: 'white', id: 'turn-white', checked: true });
  const sideBlack = h('input', { type: 'radio', name: 'turn', value: 'black', id: 'turn-black' });
  for (const r of [sideWhite, sideBlack]) {
    r.addEventListener('change', () => {
      setup.turn = sideBlack.checked ? 'black' : 'white';
      setup.ep = '-';
      cg.set({ turnColor: setup.turn, lastMove: undefined });
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

  const fenIn = h('input', { type: 'text', id: 'endgame-fen', 'aria-label': 'FEN', spellcheck: 'false', class: 'fen-input' });
  const fenForm = h('form', { class: 'row fen-form' }, h('label', { for: 'endgame-fen' }, 'FEN'), fenIn, h('button', { type: 'submit' }, 'Set'));
  /** Why the FEN typed was not set (the server's words). */
  const fenError = h('div', { class: 'fen-error', id: 'endgame-fen-error' });
  fenForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void typedFen(fenIn.value.trim());
  });
  /** What the address asked for that is not there. */
  const notice = h('div', { class: 'url-notice', id: 'url-notice' });
  const copyFen = h('button', { type: 'button', class: 'small' }, 'Copy FEN');
  copyFen.addEventListener('click', () => copyText(setupFen(setup), copyFen));

  const verdict = h('div', { class: 'verdict', id: 'endgame-verdict', 'aria-live': 'polite' });
  const bestButton = h('button', { type: 'button', id: 'play-best' }, 'Play best move');
  bestButton.addEventListener('click', () => last?.best && void playUci(last.best.uci));
  const outButton = h('button', { type: 'button', id: 'play-out' }, 'Play out to mate');
  outButton.addEventListener('click', () => (playing ? stop() : void playOut()));
  const moveTable = h('tbody');
  const movesBox = h(
    'table',
    { class: 'endgame-moves', id: 'endgame-moves' },
    h('caption', {}, 'Every move'),
    h(
      'thead',
      {},
      h('tr', {}, h('th', { scope: 'col' }, 'Move'), h('th', { scope: 'col' }, 'Then'), h('th', { scope: 'col', title: 'For the side playing the move: +N mates in N, -N is mated in N' }, 'DTM')),
    ),
    moveTable,
  );

  const presets = h(
    'div',
    { class: 'row presets', role: 'group', 'aria-label': 'Presets' },
    h('span', { class: 'label' }, 'Presets:'),
    PRESETS.map((p) => h('button', { type: 'button', class: 'small', title: p.title, 'data-preset': p.name, onclick: () => setFen(p.fen) }, p.name)),
  );
  const tools = h(
    'div',
    { class: 'row' },
    h('button', { type: 'button', class: 'small', onclick: () => void random(), title: 'The same men on other squares' }, 'Shuffle'),
    h('button', { type: 'button', class: 'small', onclick: () => setFen(EMPTY) }, 'Clear'),
    h('button', { type: 'button', class: 'small', onclick: () => cg.toggleOrientation() }, 'Flip'),
  );

  root.append(
    h(
      'div',
      { class: 'layout' },
      h(
        'div',
        { class: 'col-board' },
        h('h1', {}, 'Endgame explorer'),
        notice,
        h('div', { class: 'fen-bar' }, h('code', { class: 'fen', id: 'fen' }), copyFen),
        boardEl,
        tray,
        tools,
        presets,
      ),
      h(
        'div',
        { class: 'col-side' },
        h(
          'p',
          { class: 'note' },
          'Any position of up to five men: drag men from the tray (off the board to remove them), choose who moves, and read the exact distance to mate from the endgame tables.',
        ),
        side,
        fenForm,
        fenError,
        verdict,
        h('div', { class: 'row endgame-play' }, bestButton, outButton),
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

  function setFen(fen: string): void {
    stop();
    show(fen);
  }

  /** The server's reason when it cannot read `fen` as a FEN, else null (an illegal position it
   * reads is one the board can hold while men are placed). */
  async function unreadable(fen: string): Promise<string | null> {
    try {
      await api(`/api/position?${q({ fen })}`);
      return null;
    } catch (e) {
      const why = (e as Error).message;
      return unreadableFen(why) ? why : null;
    }
  }

  /** A FEN typed in the box: set when it reads; else the server's reason, and the board, the
   * FEN shown and the address stay as they are. */
  async function typedFen(fen: string): Promise<void> {
    const why = await unreadable(fen);
    if (why === null) setFen(fen);
    else fenError.replaceChildren(message(why, 'error'));
  }

  /** Shows a FEN's position on the board and asks about it. */
  function show(fen: string, lastMove?: [Key, Key]): void {
    setup = parseSetup(fen);
    sideWhite.checked = setup.turn === 'white';
    sideBlack.checked = setup.turn === 'black';
    cg.set({ fen: setup.board, turnColor: setup.turn, lastMove });
    changed();
  }

  /** A change made on the board: the rights of the FEN set no longer hold. */
  function edited(): void {
    setup.castling = '-';
    setup.ep = '-';
    changed();
  }

  function changed(): void {
    fenError.replaceChildren();
    setup.board = cg.getFen();
    const counts = countMen([...cg.state.pieces.values()] as { color: Color; role: Role }[]);
    TRAY.forEach((man, i) => trayPieces[i].classList.toggle('placed', man.role === 'king' && (counts.get(`${man.color} king`) ?? 0) > 0));
    const fen = setupFen(setup);
    (document.getElementById('fen') as HTMLElement).textContent = fen;
    if (document.activeElement !== fenIn) fenIn.value = fen;
    setQuery({ fen });
    cg.setAutoShapes([]);
    const hint = setupHint(counts);
    if (hint) {
      ticket++;
      answer(null);
      verdict.replaceChildren(h('p', { class: 'msg' }, hint));
      return;
    }
    void ask(fen);
  }

  async function ask(fen: string): Promise<void> {
    const mine = ++ticket;
    try {
      const res = await api<TbJson>(`/api/tb?${q({ fen })}`);
      if (mine === ticket) answer(res);
    } catch (e) {
      if (mine !== ticket) return;
      answer(null);
      verdict.replaceChildren(...refusal(e));
    }
  }

  /** Why the server gave no value: the table to build (and how), or what is wrong. */
  function refusal(e: unknown): HTMLElement[] {
    if (e instanceof ApiError && e.body?.missing) {
      const command = e.body.command ?? `tabla tb build ${e.body.missing}`;
      const copy = h('button', { type: 'button', class: 'small' }, 'Copy');
      copy.addEventListener('click', () => copyText(command, copy));
      return [
        h('p', { class: 'msg msg-error', role: 'alert', id: 'endgame-missing' }, `The table of ${e.body.missing} is not built on this server.`),
        h('p', {}, 'Build it (about a second for four men, minutes for five) with: '),
        h('p', { class: 'row' }, h('code', { id: 'endgame-command' }, command), copy),
        ...(command.includes('TB_DIR') ? [h('p', { class: 'note' }, 'TB_DIR: the directory given to tabla serve --tb-dir (the server printed it when it started).')] : []),
        h('p', { class: 'note' }, 'The server reads it as soon as it is there: set the position again.'),
      ];
    }
    const text = (e as Error).message.replace(/^invalid FEN ".*?": /, '');
    const kind = !(e instanceof ApiError) ? 'Error' : e.status === 400 ? 'Illegal position' : e.status === 422 ? 'Not in the tables' : 'Error';
    // The server's text may start with what the heading says ("illegal position: ..."): say it once.
    const said = text.toLowerCase().startsWith(kind.toLowerCase()) ? text.charAt(0).toUpperCase() + text.slice(1) : `${kind}: ${text}`;
    return [h('p', { class: 'msg msg-error', role: 'alert' }, `${said.replace(/\.$/, '')}.`)];
  }

  function answer(res: TbJson | null): void {
    last = res;
    bestButton.disabled = !res?.best;
    outButton.disabled = !res?.best || res.plies === null;
    moveTable.replaceChildren();
    if (!res) return;
    const who = cap(res.turn);
    const distance = (text: string) => h('p', { class: 'big', id: 'endgame-distance' }, text);
    const lines: HTMLElement[] = [h('p', { class: 'material' }, 'Ending: ', h('strong', { id: 'endgame-material' }, res.material))];
    switch (res.status) {
      case 'win':
        lines.push(distance(`${who} mates in ${movesText(res.dtm)}${pliesText(res.plies)}`));
        break;
      case 'loss':
        lines.push(distance(`${who} is mated in ${movesText(-res.dtm)}${pliesText(res.plies)}`));
        break;
      case 'checkmate':
        lines.push(distance(`${who} is checkmated.`));
        break;
      case 'stalemate':
        lines.push(distance(`Stalemate: ${res.turn} has no move and is not in check. A draw.`));
        break;
      case 'draw': {
        const capture = res.moves.find((m) => m.san.includes('x') && m.plies === null);
        lines.push(distance(capture ? `Draw: ${res.turn} captures a piece (${capture.san}), and mate can no longer be forced.` : 'Draw: mate cannot be forced.'));
        break;
      }
    }
    if (res.best) {
      const label = res.status === 'win' ? 'Best move' : res.status === 'loss' ? 'Longest defence' : 'Move';
      lines.push(h('p', {}, `${label}: `, h('strong', { id: 'endgame-best' }, res.best.san)));
      cg.setAutoShapes(arrow(res.best.uci, res.status === 'win' ? 'green' : 'blue'));
    } else {
      cg.setAutoShapes([]);
    }
    verdict.replaceChildren(...lines);
    for (const m of res.moves) {
      const row = h(
        'tr',
        {},
        h('td', {}, h('button', { type: 'button', class: 'link', title: `Play ${m.san}`, onclick: () => void playUci(m.uci) }, m.san)),
        h('td', {}, moveVerdict(m, res.turn)),
        h('td', { class: 'num' }, moverDtm(m)),
      );
      if (res.best && m.uci === res.best.uci) row.classList.add('best');
      moveTable.append(row);
    }
  }

  /** Plays a move: the server gives the position after it (promotions, en passant included). */
  async function playUci(uci: string): Promise<void> {
    try {
      const played = await api<PlayedJson>(`/api/play?${q({ fen: setupFen(setup), uci })}`);
      show(played.fen, uciSquares(uci));
    } catch (e) {
      stop();
      verdict.replaceChildren(...refusal(e));
    }
  }

  function stop(): void {
    playing = false;
    outButton.textContent = 'Play out to mate';
  }

  async function playOut(): Promise<void> {
    playing = true;
    outButton.textContent = 'Stop';
    while (playing && last?.best && last.plies !== null) {
      await playUci(last.best.uci);
      await new Promise((r) => setTimeout(r, 500));
      // Wait for this position's answer before the next move.
      const board = setup.board;
      for (let i = 0; i < 50 && playing && (last ? fenFields(last.fen).board : undefined) !== board; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    stop();
  }

  /** The men on the board on other squares, drawn again until the position is legal. */
  async function random(): Promise<void> {
    stop();
    const letters = [...cg.state.pieces.values()].map((p) => {
      const letter = p.role === 'knight' ? 'n' : p.role.charAt(0);
      return p.color === 'white' ? letter.toUpperCase() : letter;
    });
    if (letters.length === 0) return;
    for (let attempt = 0; attempt < 50; attempt++) {
      const board: string[] = Array(64).fill('');
      for (const letter of letters) {
        let sq: number;
        do {
          sq = Math.floor(Math.random() * 64);
        } while (board[sq] || (/[pP]/.test(letter) && (sq < 8 || sq >= 56)));
        board[sq] = letter;
      }
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
      const fen = setupFen({ ...setup, board: ranks.join('/'), castling: '-', ep: '-' });
      try {
        await api(`/api/position?${q({ fen })}`);
        setFen(fen);
        return;
      } catch {
        // Illegal (kings side by side, the side not to move in check): draw again.
      }
    }
  }

  // The address's FEN, else the preset; a FEN there that does not read is said, and the preset shown.
  const fromUrl = new URLSearchParams(location.search).get('fen');
  const fallback = preset(start)?.fen || EMPTY;
  if (!fromUrl) setFen(fallback);
  else {
    void unreadable(fromUrl).then((why) => {
      setFen(why === null ? fromUrl : fallback);
      if (why !== null) notice.replaceChildren(message(`The address asks for the FEN ${JSON.stringify(fromUrl)}, which cannot be read: ${why}. Showing ${start} instead.`, 'error'));
    });
  }
}
