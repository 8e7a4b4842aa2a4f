// The PGN browser's move list: the open game's moves with their NAGs, evaluations and clocks,
// comments and variations (indented, as running text), the move shown marked and scrolled to;
// above it the notation toggle (SAN or long) and the game's PGN to copy or download. The layout
// (numbers, gaps, interruptions) is derived in pgn-state.ts (mainlineCells, needsNumber).

import { isMoveGlyph, nagGlyph, nagName } from './nags';
import { type PgnState, downloadName, mainlineCells, needsNumber } from './pgn-state';
import { formatEval } from './live-format';
import { type MoveNode, formatClock, numberLabel } from './pgn-tree';
import type { PgnMove } from './types';
import { copyText, download, h } from './util';

/** A move as shown: SAN or long form, its move glyphs, then its other NAGs. */
export function moveText(m: PgnMove, long: boolean): (Node | string)[] {
  const parts: (Node | string)[] = [long ? m.lan : m.san];
  const glyphs = m.nags.filter(isMoveGlyph).map(nagGlyph).join('');
  if (glyphs) parts.push(h('span', { class: 'nag', title: m.nags.filter(isMoveGlyph).map(nagName).join(', ') }, glyphs));
  for (const n of m.nags.filter((n) => !isMoveGlyph(n))) {
    parts.push(' ', h('span', { class: 'nag', title: nagName(n) }, nagGlyph(n)));
  }
  return parts;
}

/** A move's evaluation and clock, small after it; null when it has neither. */
function moveExtras(m: PgnMove): HTMLElement | null {
  const bits: string[] = [];
  if (m.eval) bits.push(formatEval(m.eval));
  if (m.clock !== undefined) bits.push(formatClock(m.clock));
  return bits.length ? h('span', { class: 'extras' }, bits.join(' ')) : null;
}

function moveButton(node: MoveNode, cls: string, long: boolean): HTMLElement {
  const m = node.move as PgnMove;
  const label = `${numberLabel(node)} ${m.san}`;
  return h('span', { class: `mv ${cls}`, 'data-id': node.id, role: 'listitem', 'aria-label': label }, ...moveText(m, long), moveExtras(m));
}

const comment = (c: string) => h('span', { class: 'comment' }, c);

/** A variation (or deeper line) as running text with nested variations indented. */
function lineBox(nodes: MoveNode[], long: boolean): HTMLElement {
  const box = h('div', { class: 'variation' });
  nodes.forEach((node, i) => {
    const m = node.move as PgnMove;
    for (const c of m.comments_before ?? []) box.append(comment(c), ' ');
    if (needsNumber(nodes, i)) box.append(h('span', { class: 'num' }, numberLabel(node)), ' ');
    box.append(moveButton(node, 'inline', long), ' ');
    for (const c of m.comments) box.append(comment(c), ' ');
    for (const v of node.variations) box.append(lineBox(v, long));
  });
  return box;
}

export interface MoveListOptions {
  /** The page's state, for the buttons. */
  current(): PgnState;
  /** A move of the list was clicked: its node's id. */
  pick(id: string): void;
  /** The notation button was clicked (the page changes the state and draws the list again). */
  toggleNotation(): void;
  /** Adds marks to the moves of a freshly drawn list (the review's). */
  decorate(list: HTMLElement): void;
}

export interface MoveList {
  /** The list's section: heading, buttons and moves. */
  el: HTMLElement;
  /** Draws the open game's moves of `state` (nothing without one), the move shown marked. */
  render(state: PgnState): void;
  /** Marks the move `state` shows and scrolls it into view. */
  markCurrent(state: PgnState): void;
  /** Busy while a game is asked for: tests and assistive technology wait for it. */
  setBusy(busy: boolean): void;
}

export function moveList(options: MoveListOptions): MoveList {
  const list = h('div', { class: 'move-list', id: 'moves', role: 'list', 'aria-label': 'Moves' });
  list.addEventListener('click', (e) => {
    const id = (e.target as HTMLElement).closest<HTMLElement>('[data-id]')?.dataset.id;
    if (id) options.pick(id);
  });
  const notation = h('button', { type: 'button', class: 'small', title: 'Short (SAN) or long notation' });
  const renderNotation = (long: boolean) => {
    notation.textContent = long ? 'Long notation' : 'SAN';
    notation.setAttribute('aria-pressed', String(long));
  };
  renderNotation(options.current().long);
  notation.addEventListener('click', options.toggleNotation);
  const copyPgn = h('button', { type: 'button', class: 'small' }, 'Copy PGN');
  copyPgn.addEventListener('click', () => {
    const g = options.current().game;
    if (g) void copyText(g.pgn, copyPgn);
  });
  const downloadPgn = h('button', { type: 'button', class: 'small' }, 'Download PGN');
  downloadPgn.addEventListener('click', () => {
    const g = options.current().game;
    if (g) download(downloadName(g.tags), g.pgn);
  });
  const el = h(
    'section',
    { class: 'moves-box', 'aria-label': 'Move list' },
    h('div', { class: 'row' }, h('h2', {}, 'Moves'), notation, copyPgn, downloadPgn),
    list,
  );

  /** The game drawn last: another one starts at the top of the list. */
  let drawn: PgnState['game'] = null;

  function render(state: PgnState): void {
    renderNotation(state.long);
    if (!state.tree) return;
    if (state.game !== drawn) list.scrollTop = 0;
    drawn = state.game;
    const long = state.long;
    const cells = mainlineCells(state.tree, state.game).map((cell) => {
      switch (cell.kind) {
        case 'number':
          return h('span', { class: 'num' }, cell.text);
        case 'move':
          return moveButton(cell.node, 'main', long);
        case 'gap':
          return h('span', { class: 'mv empty' }, cell.text);
        case 'before':
          return h('div', { class: 'interrupt' }, ...(cell.node.move?.comments_before ?? []).map(comment));
        case 'after':
          return h('div', { class: 'interrupt' }, ...(cell.node.move?.comments ?? []).map(comment), ...cell.node.variations.map((v) => lineBox(v, long)));
        case 'result':
          return h('div', { class: 'interrupt result' }, cell.text);
      }
    });
    list.replaceChildren(...cells);
    options.decorate(list);
    markCurrent(state);
  }

  function markCurrent(state: PgnState): void {
    for (const el of list.querySelectorAll('.mv.active')) {
      el.classList.remove('active');
      el.removeAttribute('aria-current');
    }
    const current = state.current;
    if (!current || current.id === '0') return;
    const el = list.querySelector<HTMLElement>(`[data-id="${current.id}"]`);
    if (el) {
      el.classList.add('active');
      el.setAttribute('aria-current', 'step');
      const box = list.getBoundingClientRect();
      const r = el.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) list.scrollTop += r.top - box.top - box.height / 3;
    }
  }

  return {
    el,
    render,
    markCurrent,
    setBusy: (busy) => list.setAttribute('aria-busy', String(busy)),
  };
}
