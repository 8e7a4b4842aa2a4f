// The opening explorer panel (GET /api/db/explore), shown by the PGN browser and the analysis
// page under their boards: the moves played from the board's position in the game database with
// their results, average rating and last month played, the totals, the filters, the top and
// recent games that reached the position, and a search for every game that did.

import { type DbFilters, filterParams, formatCount, pageLabel, pageView, queryString } from './db-query';
import { dbStatus, filterForm, gameTable, noDatabase, wdlBar } from './db-view';
import type { DbExplorerJson, DbGameList, DbGameRef } from './types';
import { api, h, message } from './util';

/** Waits this long after the position changes before asking, so that stepping through a game
 * asks only for the positions stopped at. */
const SETTLE_MS = 150;
/** Games a page of the search shows. */
const SEARCH_LIMIT = 20;

export interface ExplorerPanel {
  el: HTMLElement;
  /** Shows the position `fen` (asked for once the position settles). */
  show(fen: string): void;
}

/**
 * The panel. `play(uci)` plays an explorer move on the page's board; `open(game)` opens a game
 * of the lists at the ply where it reached the position.
 */
export function explorerPanel(play: (uci: string) => void, open: (g: DbGameRef) => void): ExplorerPanel {
  let fen: string | null = null;
  let asked = 0;
  let timer: number | undefined;
  let available: boolean | null = null;

  const head = h('p', { class: 'explorer-total', id: 'explorer-total', 'aria-live': 'polite' });
  const body = h('div', { class: 'explorer-body' });
  const searchOut = h('div', { class: 'explorer-search', id: 'explorer-search' });
  const filters = filterForm('explorer', () => {
    searchOut.replaceChildren();
    ask();
  });
  const searchButton = h('button', { type: 'button', class: 'small', id: 'explorer-search-button' }, 'Search this position');
  searchButton.addEventListener('click', () => void search(0));
  const el = h(
    'section',
    { class: 'explorer', id: 'explorer', 'aria-label': 'Opening explorer' },
    h('div', { class: 'row explorer-head' }, h('h2', {}, 'Opening explorer'), searchButton),
    filters.el,
    head,
    body,
    searchOut,
  );

  void dbStatus().then(
    (s) => {
      available = s.db !== null;
      if (!available) {
        el.replaceChildren(h('h2', {}, 'Opening explorer'), noDatabase());
      } else if (fen) {
        ask();
      }
    },
    (e: Error) => el.replaceChildren(h('h2', {}, 'Opening explorer'), message(e.message, 'error')),
  );

  function ask(): void {
    if (!available || !fen) return;
    const position = fen;
    const ticket = ++asked;
    el.setAttribute('aria-busy', 'true');
    void api<DbExplorerJson>(`/api/db/explore?${queryString({ fen: position, ...filterParams(filters.value()) })}`).then(
      (answer) => {
        if (ticket !== asked) return;
        render(answer);
        el.setAttribute('aria-busy', 'false');
      },
      (e: Error) => {
        if (ticket !== asked) return;
        head.textContent = '';
        body.replaceChildren(message(e.message, 'error'));
        el.setAttribute('aria-busy', 'false');
      },
    );
  }

  function render(x: DbExplorerJson): void {
    head.replaceChildren(
      h('strong', { id: 'explorer-games' }, formatCount(x.games)),
      x.games === 1 ? ' game' : ' games',
      x.games ? ' ' : '',
      x.games ? wdlBar(x.white, x.draws, x.black) : '',
    );
    if (!x.moves.length) {
      body.replaceChildren(h('p', { class: 'note' }, 'No game of the database went on from this position.'));
      return;
    }
    const rows = x.moves.map((m) => {
      const row = h(
        'tr',
        { tabindex: 0, 'data-uci': m.uci, title: `Play ${m.san}` },
        h('td', { class: 'san' }, m.san),
        h('td', { class: 'num' }, formatCount(m.games)),
        h('td', { class: 'bar' }, wdlBar(m.white, m.draws, m.black)),
        h('td', { class: 'num' }, m.avg_rating === null ? '' : String(m.avg_rating)),
        h('td', { class: 'num' }, m.last_played ?? ''),
      );
      row.addEventListener('click', () => play(m.uci));
      row.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          play(m.uci);
        }
      });
      return row;
    });
    const table = h(
      'table',
      { class: 'explorer-moves', id: 'explorer-moves' },
      h('caption', { class: 'offscreen' }, 'Moves played from this position'),
      h(
        'thead',
        {},
        h('tr', {}, ...['Move', 'Games', 'White / draw / Black', 'Avg', 'Last'].map((t) => h('th', { scope: 'col' }, t))),
      ),
      h('tbody', {}, ...rows),
    );
    const lists: HTMLElement[] = [];
    if (x.top_games.length) lists.push(gameTable('Top games', x.top_games, open, { ply: true }));
    if (x.recent_games.length) lists.push(gameTable('Recent games', x.recent_games, open, { ply: true }));
    body.replaceChildren(table, h('div', { class: 'explorer-lists', id: 'explorer-lists' }, ...lists));
  }

  /** Every game that reached the position (at any ply), a page at a time. */
  async function search(offset: number): Promise<void> {
    if (!fen) return;
    const position = fen;
    searchOut.replaceChildren(message('Searching every game…'));
    const f: DbFilters = filters.value();
    try {
      const answer = await api<DbGameList>(`/api/db/search?${queryString({ fen: position, ...filterParams(f), limit: SEARCH_LIMIT, offset })}`);
      if (position !== fen) return;
      const view = pageView(offset, SEARCH_LIMIT, answer.games.length, answer.total);
      const pager = h(
        'div',
        { class: 'row pager' },
        h('button', { type: 'button', class: 'small', disabled: view.prev === null, onclick: () => view.prev !== null && void search(view.prev) }, 'Previous'),
        h('span', { class: 'page-label' }, pageLabel(view)),
        h('button', { type: 'button', class: 'small', disabled: view.next === null, onclick: () => view.next !== null && void search(view.next) }, 'Next'),
      );
      searchOut.replaceChildren(
        answer.games.length ? gameTable('Games that reached this position', answer.games, open, { ply: true }) : h('p', { class: 'note' }, 'No game reached this position.'),
        pager,
      );
    } catch (e) {
      searchOut.replaceChildren(message((e as Error).message, 'error'));
    }
  }

  return {
    el,
    show(next: string) {
      if (next === fen) return;
      fen = next;
      searchOut.replaceChildren();
      window.clearTimeout(timer);
      timer = window.setTimeout(ask, SETTLE_MS);
    },
  };
}
