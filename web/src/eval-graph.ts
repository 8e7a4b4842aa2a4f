// The evaluation graph of a reviewed game: White's win percentage after each move as an SVG area
// chart (White's share light, Black's dark, as lichess draws it), the marks as coloured dots, the
// position shown as a line; hover names the move and its evaluation, a click goes to it. The
// geometry is pure (tested under Node in tests/unit/review.test.ts); `evalGraph` draws it.

import type { Judgement, MoveReview, Eval } from './types';
import { formatEval } from './live-format';
import { h } from './util';

/** The graph's drawing box (the SVG stretches it to the width it is given). */
export const GRAPH_WIDTH = 600;
export const GRAPH_HEIGHT = 120;

const SVG = 'http://www.w3.org/2000/svg';

/** The glyph of a mark: `?!`, `?`, `??`. */
export function markGlyph(j: Judgement): string {
  return j === 'Blunder' ? '??' : j === 'Mistake' ? '?' : '?!';
}

/** The class of a mark, for its colour: `mark-inaccuracy`, `mark-mistake`, `mark-blunder`. */
export function markClass(j: Judgement): string {
  return `mark-${j.toLowerCase()}`;
}

/** An evaluation of a review as people read it, White's view: +0.25, -3.00, #2, #-1 (as live
 * analysis writes it); '' for none. */
export function reviewEvalText(e: Eval | null): string {
  return e ? formatEval(e) : '';
}

/**
 * White's win percentage at each position of the graph: the start (50), then after each move.
 * A mating move (no evaluation) counts as won by its mover; a move without one otherwise keeps
 * the value before it.
 */
export function winSeries(moves: readonly MoveReview[]): number[] {
  const out = [50];
  for (const m of moves) {
    const before = out[out.length - 1];
    if (m.win !== null) out.push(m.win);
    else if (m.san.endsWith('#')) out.push(m.ply % 2 === 1 ? 100 : 0);
    else out.push(before);
  }
  return out;
}

/** The x of point `i` of `n` across `width` (a single point in the middle). */
export function pointX(i: number, n: number, width = GRAPH_WIDTH): number {
  return n <= 1 ? width / 2 : (width * i) / (n - 1);
}

/** The y of a win percentage: 100 at the top, 0 at the bottom. */
export function pointY(win: number, height = GRAPH_HEIGHT): number {
  const clamped = Math.max(0, Math.min(100, win));
  return height * (1 - clamped / 100);
}

/** The outline of White's area: from the bottom left along the series to the bottom right. */
export function areaPath(series: readonly number[], width = GRAPH_WIDTH, height = GRAPH_HEIGHT): string {
  const n = series.length;
  const points = series.map((w, i) => `L${round(pointX(i, n, width))},${round(pointY(w, height))}`);
  return `M0,${height} ${points.join(' ')} L${width},${height} Z`;
}

/** The point nearest to `fraction` (0 to 1) of the graph's width, of `n` points. */
export function nearestPoint(fraction: number, n: number): number {
  if (n <= 1) return 0;
  return Math.max(0, Math.min(n - 1, Math.round(fraction * (n - 1))));
}

const round = (x: number) => Math.round(x * 10) / 10;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

export interface EvalGraph {
  el: HTMLElement;
  /** Marks point `index` (0: the start, `i`: after move `i`) as the position shown; -1 for none. */
  setCurrent(index: number): void;
}

/**
 * The graph of `moves`; `label(i)` names point `i` for the tooltip ("4. Nxe5??"), `go(i)` is
 * called on a click (0 for the start, `i` for the position after move `i`).
 */
export function evalGraph(moves: readonly MoveReview[], label: (i: number) => string, go: (i: number) => void): EvalGraph {
  const series = winSeries(moves);
  const n = series.length;
  const root = svg('svg', {
    viewBox: `0 0 ${GRAPH_WIDTH} ${GRAPH_HEIGHT}`,
    preserveAspectRatio: 'none',
    class: 'eval-graph-svg',
    role: 'img',
    'aria-label': "Evaluation graph: White's winning chances after each move",
  });
  root.append(
    svg('rect', { x: 0, y: 0, width: GRAPH_WIDTH, height: GRAPH_HEIGHT, class: 'eg-black' }),
    svg('path', { d: areaPath(series), class: 'eg-white' }),
    svg('line', { x1: 0, x2: GRAPH_WIDTH, y1: GRAPH_HEIGHT / 2, y2: GRAPH_HEIGHT / 2, class: 'eg-mid' }),
  );
  const cursor = svg('line', { x1: 0, x2: 0, y1: 0, y2: GRAPH_HEIGHT, class: 'eg-cursor', visibility: 'hidden' });
  const hover = svg('line', { x1: 0, x2: 0, y1: 0, y2: GRAPH_HEIGHT, class: 'eg-hover', visibility: 'hidden' });
  root.append(cursor, hover);
  // The dots are HTML over the SVG, so that they stay round however the graph is stretched.
  const dots = moves.flatMap((m, k) => {
    if (!m.judgement) return [];
    const i = k + 1;
    const dot = h('span', {
      class: `eg-dot ${markClass(m.judgement)}`,
      style: `left:${(100 * pointX(i, n, 1)).toFixed(2)}%;top:${(100 * pointY(series[i], 1)).toFixed(2)}%`,
      'data-index': i,
      title: `${label(i)} ${reviewEvalText(m.eval)}`,
    });
    return [dot];
  });
  const tip = h('div', { class: 'eg-tip', role: 'status', hidden: true });
  const el = h('div', { class: 'eval-graph', 'data-points': n }, tip, ...dots);
  el.prepend(root);
  const pointAt = (e: MouseEvent): number => {
    const box = el.getBoundingClientRect();
    return nearestPoint((e.clientX - box.left) / Math.max(1, box.width), n);
  };
  el.addEventListener('mousemove', (e) => {
    const i = pointAt(e);
    const x = pointX(i, n);
    hover.setAttribute('x1', String(x));
    hover.setAttribute('x2', String(x));
    hover.setAttribute('visibility', 'visible');
    const m = i > 0 ? moves[i - 1] : null;
    tip.textContent = m ? `${label(i)} ${reviewEvalText(m.eval)}`.trim() : label(0);
    tip.hidden = false;
    const left = (100 * i) / Math.max(1, n - 1);
    tip.style.left = `${Math.min(85, Math.max(0, left - 7))}%`;
  });
  el.addEventListener('mouseleave', () => {
    hover.setAttribute('visibility', 'hidden');
    tip.hidden = true;
  });
  el.addEventListener('click', (e) => go(pointAt(e)));
  return {
    el,
    setCurrent(index: number) {
      if (index < 0 || index >= n) {
        cursor.setAttribute('visibility', 'hidden');
        return;
      }
      const x = pointX(index, n);
      cursor.setAttribute('x1', String(x));
      cursor.setAttribute('x2', String(x));
      cursor.setAttribute('visibility', 'visible');
      el.dataset.current = String(index);
    },
  };
}
