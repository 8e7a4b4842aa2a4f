// chessground boards with the settings every page shares.

import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Config } from 'chessground/config';
import type { DrawShape } from 'chessground/draw';
import type { Key } from 'chessground/types';
import { fenFields } from './fen';
import { h } from './util';

export type { Api, DrawShape, Key };

declare global {
  interface HTMLElementTagNameMap {
    /** chessground's element for a piece (not an HTML tag: the browser makes an unknown element
     * of it); the endgame explorer's tray makes its spare men with it so the board's theme draws them. */
    piece: HTMLElement;
  }
}

/** A board in a square box; resizes with the window. */
export function makeBoard(config: Config, label: string): { el: HTMLElement; cg: Api } {
  const inner = h('div', { class: 'cg-host' });
  const el = h('div', { class: 'board', role: 'img', 'aria-label': label }, inner);
  const cg = Chessground(inner, {
    coordinates: true,
    animation: { enabled: true, duration: 180 },
    highlight: { lastMove: true, check: true },
    drawable: { enabled: true, visible: true },
    ...config,
  });
  const redraw = () => cg.redrawAll();
  window.addEventListener('resize', redraw);
  new ResizeObserver(redraw).observe(el);
  return { el, cg };
}

/** The from and to squares of a UCI move, or undefined for a null move. */
export function uciSquares(uci: string): [Key, Key] | undefined {
  if (!/^[a-h][1-8][a-h][1-8]/.test(uci)) return undefined;
  return [uci.slice(0, 2) as Key, uci.slice(2, 4) as Key];
}

/** An arrow for a UCI move. */
export function arrow(uci: string, brush = 'green'): DrawShape[] {
  const sq = uciSquares(uci);
  return sq ? [{ orig: sq[0], dest: sq[1], brush }] : [];
}

/** PGN `[%cal Ge2e4]` / `[%csl Rd4]` shapes as chessground shapes. */
export function pgnShapes(shapes: string[] | undefined): DrawShape[] {
  const brushes: Record<string, string> = { G: 'green', R: 'red', Y: 'yellow', B: 'blue' };
  return (shapes ?? []).flatMap((s) => {
    const brush = brushes[s[0]] ?? 'green';
    const orig = s.slice(1, 3) as Key;
    const dest = s.length >= 5 ? (s.slice(3, 5) as Key) : undefined;
    return [{ orig, dest, brush }];
  });
}

/** The side to move in a FEN. */
export function fenTurn(fen: string): 'white' | 'black' {
  return fenFields(fen).turn;
}

/** Legal moves from the API as chessground destinations. */
export function dests(uciMoves: string[]): Map<Key, Key[]> {
  const map = new Map<Key, Key[]>();
  for (const uci of uciMoves) {
    const sq = uciSquares(uci);
    if (!sq) continue;
    const list = map.get(sq[0]) ?? [];
    if (!list.includes(sq[1])) list.push(sq[1]);
    map.set(sq[0], list);
  }
  return map;
}
