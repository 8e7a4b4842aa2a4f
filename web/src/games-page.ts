// Games: the game database's games (GET /api/db/games), most recent first, a page at a time,
// under the explorer's filters and a text search over players, events and sites; a game opens
// in the PGN browser. The URL holds the text and the page (`/games?q=carlsen&offset=40`).

import { dbGameHref, filterParams, formatCount, pageLabel, pageView, queryString } from './db-query';
import { dbStatus, filterForm, gameTable, noDatabase } from './db-view';
import type { DbGameList } from './types';
import { api, h, message, setQuery } from './util';

/** Games a page shows. */
const LIMIT = 20;

export function gamesPage(root: HTMLElement): void {
  const start = new URLSearchParams(location.search);
  let offset = Math.max(0, Math.floor(Number(start.get('offset')) || 0));
  let asked = 0;

  const about = h('p', { class: 'note', id: 'db-about' });
  const text = h('input', { type: 'search', id: 'games-q', placeholder: 'Players, event or site', 'aria-label': 'Search players, events and sites', class: 'filter' });
  text.value = start.get('q') ?? '';
  const form = h('form', { class: 'row games-search' }, text, h('button', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    offset = 0;
    void show();
  });
  const filters = filterForm('games', () => {
    offset = 0;
    void show();
  });
  const out = h('div', { class: 'games-out', id: 'games-out', 'aria-live': 'polite' });
  const label = h('span', { class: 'page-label', id: 'games-page-label' });
  const prev = h('button', { type: 'button', class: 'small', id: 'games-prev' }, 'Previous');
  const next = h('button', { type: 'button', class: 'small', id: 'games-next' }, 'Next');
  const pager = h('div', { class: 'row pager' }, prev, label, next);
  const box = h('section', { class: 'games-page', 'aria-label': 'Games of the database' }, h('h1', {}, 'Games'), about, form, filters.el, pager, out);
  root.append(box);

  let prevOffset: number | null = null;
  let nextOffset: number | null = null;
  prev.addEventListener('click', () => {
    if (prevOffset === null) return;
    offset = prevOffset;
    void show();
  });
  next.addEventListener('click', () => {
    if (nextOffset === null) return;
    offset = nextOffset;
    void show();
  });

  async function show(): Promise<void> {
    const ticket = ++asked;
    const q = text.value.trim();
    setQuery({ q, offset: offset || undefined });
    out.setAttribute('aria-busy', 'true');
    try {
      const page = await api<DbGameList>(`/api/db/games?${queryString({ q, ...filterParams(filters.value()), limit: LIMIT, offset })}`);
      if (ticket !== asked) return;
      const view = pageView(offset, LIMIT, page.games.length, page.total);
      prevOffset = view.prev;
      nextOffset = view.next;
      prev.disabled = view.prev === null;
      next.disabled = view.next === null;
      label.textContent = pageLabel(view);
      out.replaceChildren(
        page.games.length
          ? gameTable('Games, most recent first', page.games, (g) => location.assign(dbGameHref(g.id, 0)), { event: true })
          : h('p', { class: 'note' }, 'No game matches.'),
      );
    } catch (e) {
      if (ticket !== asked) return;
      out.replaceChildren(message((e as Error).message, 'error'));
    } finally {
      if (ticket === asked) out.setAttribute('aria-busy', 'false');
    }
  }

  void dbStatus().then(
    (s) => {
      if (s.db === null) {
        box.replaceChildren(h('h1', {}, 'Games'), noDatabase());
        return;
      }
      about.textContent = `${formatCount(s.games)} games in ${s.db}.`;
      void show();
    },
    (e: Error) => box.replaceChildren(h('h1', {}, 'Games'), message(e.message, 'error')),
  );
}
