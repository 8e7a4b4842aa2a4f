// "Suggest a move": asks the engine (GET /api/suggest) and shows the move, score and line.

import { fenTurn } from './board';
import type { Eval, SuggestJson } from './types';
import { api, h, q } from './util';

/** Formats a score given from the side to move's point of view as White's: +1.25, #3, #-2. */
export function formatScore(score: Eval, turn: 'white' | 'black'): string {
  const sign = turn === 'white' ? 1 : -1;
  if ('mate' in score) {
    const m = score.mate * sign;
    return m > 0 ? `#${m}` : `#-${-m}`;
  }
  const cp = (score.centipawns * sign) / 100;
  return (cp > 0 ? '+' : '') + cp.toFixed(2);
}

export interface SuggestPanel {
  el: HTMLElement;
  /** Forgets the shown suggestion (the position changed). */
  reset(): void;
}

/**
 * The panel: a button, a time choice and the answer. `fen()` gives the board's position,
 * `show(uci)` draws the suggested move (or clears it with null).
 */
export function suggestPanel(fen: () => string | null, show: (uci: string | null) => void): SuggestPanel {
  const out = h('div', { class: 'suggest-out', 'aria-live': 'polite' });
  const time = h(
    'select',
    { 'aria-label': 'Thinking time', class: 'suggest-time' },
    h('option', { value: '500' }, '0.5 s'),
    h('option', { value: '1000', selected: true }, '1 s'),
    h('option', { value: '3000' }, '3 s'),
    h('option', { value: '10000' }, '10 s'),
  );
  let asked = 0;
  const button = h('button', { type: 'button', class: 'suggest-button' }, 'Suggest a move');
  button.addEventListener('click', async () => {
    const position = fen();
    if (!position) return;
    const ticket = ++asked;
    button.disabled = true;
    out.replaceChildren(h('p', { class: 'msg' }, 'Thinking…'));
    try {
      const s = await api<SuggestJson>(`/api/suggest?${q({ fen: position, movetime: time.value })}`);
      if (ticket !== asked) return;
      const turn = fenTurn(position);
      show(s.best.uci);
      out.replaceChildren(
        h(
          'p',
          { class: 'suggest-best' },
          'Best move: ',
          h('strong', { class: 'suggest-san' }, s.best.san),
          ' · score ',
          h('strong', { class: 'suggest-score', title: "from White's point of view" }, formatScore(s.score, turn)),
          s.depth ? ` · depth ${s.depth}` : '',
        ),
        h('p', { class: 'suggest-pv' }, 'Line: ', s.line),
      );
    } catch (e) {
      if (ticket !== asked) return;
      show(null);
      out.replaceChildren(h('p', { class: 'msg msg-error', role: 'alert' }, (e as Error).message));
    } finally {
      if (ticket === asked) button.disabled = false;
    }
  });
  const el = h('section', { class: 'suggest', 'aria-label': 'Engine' }, h('div', { class: 'row' }, button, time), out);
  return {
    el,
    reset() {
      asked++;
      button.disabled = false;
      out.replaceChildren();
    },
  };
}
