// The PGN browser's game list: the games of the PGN loaded as a table (number, players, result,
// event, date; damaged and warned games marked), a filter over them and the note saying how many
// are shown. What it lists is derived in pgn-state.ts (filterGames, listCells, listNote).

import { type PgnState, filterGames, isOpenRow, listCells, listNote, plural } from './pgn-state';
import { h } from './util';

export interface GameList {
  /** The list's section: filter, table, note. */
  el: HTMLElement;
  /** Lists the games of `state` that pass the filter, the selected one marked. */
  render(state: PgnState): void;
  /** Marks the row of `state`'s selected game (the rows stay as they are). */
  markSelected(state: PgnState): void;
  /** Empties the filter (before a new PGN is listed). */
  clearFilter(): void;
}

/** A game's warnings while reading: a warning sign and their number, named in full for
 * the tooltip and for screen readers (not a `!`, which reads as a move's glyph). */
function warningBadge(warnings: readonly string[]): HTMLElement {
  const label = `${plural(warnings.length, 'warning')} while reading this game`;
  return h(
    'span',
    { class: 'warn-badge', role: 'img', 'aria-label': label, title: `${label}:\n${warnings.join('\n')}` },
    h('span', { class: 'warn-sign', 'aria-hidden': 'true' }, '\u26A0\uFE0E'),
    String(warnings.length),
  );
}

/**
 * The list. `current()` is the page's state when the filter changes; `pick(i)` opens game `i`
 * (from 0) of the PGN, on a click or Enter / Space on its row.
 */
export function gameList(current: () => PgnState, pick: (i: number) => void): GameList {
  const filter = h('input', { type: 'search', placeholder: 'Filter games', 'aria-label': 'Filter games', class: 'filter' });
  const body = h('tbody');
  const note = h('p', { class: 'note' });
  const table = h(
    'table',
    { class: 'games', id: 'games' },
    h('caption', {}, 'Games'),
    h(
      'thead',
      {},
      h('tr', {}, ...['#', 'White', 'Black', 'Result', 'Event', 'Date'].map((c) => h('th', { scope: 'col' }, c))),
    ),
    body,
  );
  filter.addEventListener('input', () => render(current()));
  const el = h('section', { class: 'games-box', 'aria-label': 'Game list' }, filter, h('div', { class: 'games-scroll' }, table), note);

  function row(state: PgnState, i: number): HTMLElement {
    const g = state.entries[i];
    const tr = h(
      'tr',
      {
        tabindex: 0,
        'data-game': i,
        class: [g.error ? 'damaged' : '', g.warnings.length ? 'warned' : '', isOpenRow(state, i) ? 'selected' : ''].join(' ').trim() || undefined,
        'aria-selected': String(isOpenRow(state, i)),
        title: g.error ? `Damaged: ${g.error}` : g.warnings.length ? g.warnings.join('\n') : undefined,
      },
      ...listCells(g, i).map((c, k) =>
        h(
          'td',
          {},
          k === 0 && g.error ? `⚠ ${c}` : c,
          k === 0 && g.warnings.length ? warningBadge(g.warnings) : null,
        ),
      ),
    );
    tr.addEventListener('click', () => pick(i));
    tr.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        pick(i);
      }
    });
    return tr;
  }

  function render(state: PgnState): void {
    const { shown, matching } = filterGames(state.entries, filter.value);
    body.replaceChildren(...shown.map((i) => row(state, i)));
    note.textContent = listNote(matching, state.entries.length);
  }

  function markSelected(state: PgnState): void {
    for (const tr of body.querySelectorAll<HTMLElement>('tr')) {
      const sel = isOpenRow(state, Number(tr.dataset.game));
      tr.classList.toggle('selected', sel);
      tr.setAttribute('aria-selected', String(sel));
    }
  }

  return {
    el,
    render,
    markSelected,
    clearFilter: () => {
      filter.value = '';
    },
  };
}
