// The PGN browser's board: the position shown (in the game or past it) with its last move and
// check, the shapes drawn on it (the move's own arrows and circles, the engine's suggestion or the
// review's best move), and the FEN above it with its Copy button.

import { type DrawShape, arrow, fenTurn, makeBoard, pgnShapes, uciSquares } from './board';
import { type PgnState, shownFen } from './pgn-state';
import type { MoveNode } from './pgn-tree';
import { copyText, h } from './util';

export interface PgnBoard {
  /** The board. */
  el: HTMLElement;
  /** The FEN of the position shown and its Copy button. */
  fenBar: HTMLElement;
  /** Shows the position of `state`, and its shapes. */
  show(state: PgnState): void;
  /** Draws the shapes for `state` again (the suggestion or the review changed). */
  drawShapes(state: PgnState): void;
  flip(): void;
  orientation(): 'white' | 'black';
}

/** The board. `current()` is the page's state (for Copy FEN); `reviewShapes(node)` the review's
 * shapes for a position of the game. */
export function pgnBoard(current: () => PgnState, reviewShapes: (node: MoveNode | null) => DrawShape[]): PgnBoard {
  const fenText = h('code', { class: 'fen', id: 'fen', 'aria-label': 'FEN of the position on the board' });
  const copyFen = h('button', { type: 'button', class: 'small' }, 'Copy FEN');
  copyFen.addEventListener('click', () => {
    const fen = shownFen(current());
    if (fen) void copyText(fen, copyFen);
  });
  const { el, cg } = makeBoard({ viewOnly: true, coordinates: true }, 'Chess board');

  function drawShapes(state: PgnState): void {
    const shapes = state.excursion ? [] : [...pgnShapes(state.current?.move?.shapes)];
    if (state.suggested) shapes.push(...arrow(state.suggested, 'blue'));
    else if (!state.excursion) shapes.push(...reviewShapes(state.current));
    cg.setAutoShapes(shapes);
  }

  function show(state: PgnState): void {
    const fen = shownFen(state);
    if (!state.current || !fen) return;
    const off = state.excursion?.moves;
    const last = off?.length ? off[off.length - 1] : state.current.move;
    cg.set({
      fen,
      turnColor: fenTurn(fen),
      lastMove: last ? uciSquares(last.uci) : undefined,
      check: last ? /[+#]$/.test(last.san) : false,
    });
    drawShapes(state);
    fenText.textContent = fen;
  }

  return {
    el,
    fenBar: h('div', { class: 'fen-bar' }, fenText, copyFen),
    show,
    drawShapes,
    flip: () => cg.toggleOrientation(),
    orientation: () => cg.state.orientation,
  };
}
