// The PGN browser's move details under the board: the move shown with its NAGs' names, its
// evaluation, clock and time taken, its comments, the variations that could be played instead
// and those branching at the next move (each a link to its position); or, past the game, the
// moves played from the explorer and the way back.

import { nagName } from './nags';
import { type PgnState, excursionLine } from './pgn-state';
import { formatEval } from './live-format';
import { type MoveNode, formatClock, numberLabel } from './pgn-tree';
import { moveText } from './pgn-move-list';
import { h, message } from './util';

export interface MoveInfo {
  el: HTMLElement;
  /** Describes the position `state` shows. */
  render(state: PgnState): void;
  /** Shows an error in place of the details (a move that could not be played). */
  error(text: string): void;
}

/** The details. `go(node)` shows a position of the game (a link's). */
export function moveInfo(go: (node: MoveNode) => void): MoveInfo {
  const el = h('section', { class: 'move-info', 'aria-label': 'Comments and variations', 'aria-live': 'polite' });
  const link = (text: string, node: MoveNode) => h('button', { type: 'button', class: 'link', onclick: () => go(node) }, text);

  function render(state: PgnState): void {
    if (state.excursion) {
      el.replaceChildren(
        h('p', { class: 'current off-game' }, 'Past the game: ', h('strong', { id: 'off-game-line' }, excursionLine(state)), ' ', link('back to the game', state.excursion.from)),
      );
      return;
    }
    const parts: HTMLElement[] = [];
    const node = state.current;
    const m = node?.move;
    if (node && m) {
      parts.push(h('p', { class: 'current' }, h('strong', {}, `${numberLabel(node)} ${state.long ? m.lan : m.san}`), ...moveText(m, state.long).slice(1)));
      const facts: string[] = [];
      if (m.nags.length) facts.push(m.nags.map(nagName).join(', '));
      if (m.eval) facts.push(`eval ${formatEval(m.eval)}`);
      if (m.clock !== undefined) facts.push(`clock ${formatClock(m.clock)}`);
      if (m.emt !== undefined) facts.push(`move took ${formatClock(m.emt)}`);
      if (facts.length) parts.push(h('p', { class: 'facts' }, facts.join(' · ')));
      for (const c of [...(m.comments_before ?? []), ...m.comments]) parts.push(h('p', { class: 'comment' }, c));
      if (node.variations.length) {
        parts.push(h('p', { class: 'alts' }, 'Instead: ', ...node.variations.flatMap((v) => [link(`${numberLabel(v[0])} ${v[0].move?.san}`, v[0]), ' '])));
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
          link(`${numberLabel(next)} ${next.move?.san}`, next),
          ' or ',
          ...next.variations.flatMap((v) => [link(`${v[0].move?.san}`, v[0]), ' ']),
        ),
      );
    }
    el.replaceChildren(...parts);
  }

  return { el, render, error: (text) => el.replaceChildren(message(text, 'error')) };
}
