// The game database's widgets, shared by the explorer panel and the games page: whether the
// server has a database (and what to do when it has none), the filter form, a W/D/L bar and a
// list of games.

import { type DbFilters, SPEEDS, accuracyCells, filtersFromJson, filtersSummary, formatCount, gameCells, wdlPercents } from './db-query';
import type { DbGameRef, DbPlayersJson, DbStatusJson } from './types';
import { api, h } from './util';

const FILTERS_KEY = 'tabla.dbFilters';

let status: Promise<DbStatusJson> | null = null;

/** `GET /api/db`, asked once per page. */
export function dbStatus(): Promise<DbStatusJson> {
  status ??= api<DbStatusJson>('/api/db');
  return status;
}

/** What to do without a database: make one, then serve it. */
export function noDatabase(): HTMLElement {
  return h(
    'div',
    { class: 'db-none' },
    h('p', {}, 'This server has no game database.'),
    h('p', {}, 'Make one from a PGN file (or .pgn.zst): ', h('code', {}, 'tabla db import GAMES.pgn --db DIR')),
    h('p', {}, 'then start the server with it: ', h('code', {}, 'tabla serve --db DIR')),
  );
}

/** The filters kept from the last visit (the explorer and the games page share them). */
export function storedFilters(): DbFilters {
  try {
    return filtersFromJson(localStorage.getItem(FILTERS_KEY));
  } catch {
    return filtersFromJson(null);
  }
}

function storeFilters(f: DbFilters): void {
  try {
    localStorage.setItem(FILTERS_KEY, JSON.stringify(f));
  } catch {
    // Not remembered: nothing else changes.
  }
}

export interface FilterForm {
  el: HTMLElement;
  value(): DbFilters;
}

/**
 * The suggestions of a player box: as one types, the exact names (`GET /api/db/players`) that
 * contain the text in any case, each with its games, so that `karpov` offers "Karpov, Anatoly".
 */
function playerSuggestions(input: HTMLInputElement, listId: string): HTMLDataListElement {
  const list = h('datalist', { id: listId });
  let asked = 0;
  let timer: number | undefined;
  input.addEventListener('input', () => {
    window.clearTimeout(timer);
    const q = input.value.trim();
    if (q.length < 2) {
      list.replaceChildren();
      return;
    }
    timer = window.setTimeout(() => {
      const ticket = ++asked;
      api<DbPlayersJson>(`/api/db/players?${new URLSearchParams({ q, limit: '20' }).toString()}`).then(
        (answer) => {
          if (ticket !== asked) return;
          list.replaceChildren(...answer.players.map((p) => h('option', { value: p.name, label: `${formatCount(p.games)} games` })));
        },
        () => {
          // No suggestions: the box still takes an exact name.
        },
      );
    }, 150);
  });
  return list;
}

/**
 * The filters as a folding form: rating range, speeds, months, player and colour. `apply` is
 * called with the new filters when the form is applied or cleared; they are remembered.
 */
export function filterForm(idPrefix: string, apply: (f: DbFilters) => void): FilterForm {
  let current = storedFilters();
  const id = (name: string) => `${idPrefix}-${name}`;
  const ratingMin = h('input', { type: 'number', id: id('rating-min'), min: 0, max: 5000, step: 100, placeholder: 'any', class: 'rating' });
  const ratingMax = h('input', { type: 'number', id: id('rating-max'), min: 0, max: 5000, step: 100, placeholder: 'any', class: 'rating' });
  const speedBoxes = SPEEDS.map((s) => h('input', { type: 'checkbox', value: s, id: id(`speed-${s}`) }));
  const since = h('input', { type: 'month', id: id('since'), placeholder: 'YYYY-MM' });
  const until = h('input', { type: 'month', id: id('until'), placeholder: 'YYYY-MM' });
  const player = h('input', { type: 'text', id: id('player'), spellcheck: 'false', placeholder: 'exact name', list: id('player-names'), autocomplete: 'off' });
  const names = playerSuggestions(player, id('player-names'));
  const color = h(
    'select',
    { id: id('color'), 'aria-label': 'Colour of the player' },
    h('option', { value: '' }, 'either colour'),
    h('option', { value: 'white' }, 'as White'),
    h('option', { value: 'black' }, 'as Black'),
  );
  const summary = h('summary', {});

  const fill = (f: DbFilters) => {
    ratingMin.value = f.ratingMin;
    ratingMax.value = f.ratingMax;
    for (const box of speedBoxes) box.checked = f.speeds.includes(box.value);
    since.value = f.since;
    until.value = f.until;
    player.value = f.player;
    color.value = f.color;
    const text = filtersSummary(f);
    summary.textContent = text ? `Filters: ${text}` : 'Filters: all games';
  };
  const read = (): DbFilters => ({
    ratingMin: ratingMin.value.trim(),
    ratingMax: ratingMax.value.trim(),
    speeds: speedBoxes.filter((b) => b.checked).map((b) => b.value),
    since: since.value.trim(),
    until: until.value.trim(),
    player: player.value.trim(),
    color: color.value === 'white' || color.value === 'black' ? color.value : '',
  });
  const done = (f: DbFilters) => {
    current = f;
    storeFilters(f);
    fill(f);
    apply(f);
  };

  const form = h(
    'form',
    { class: 'db-filters-form' },
    h('div', { class: 'row' }, h('label', { for: id('rating-min') }, 'Rating'), ratingMin, '–', ratingMax),
    h(
      'fieldset',
      { class: 'speeds' },
      h('legend', {}, 'Speeds'),
      ...speedBoxes.map((box) => h('label', { for: box.id }, box, ` ${box.value}`)),
    ),
    h('div', { class: 'row' }, h('label', { for: id('since') }, 'From'), since, h('label', { for: id('until') }, 'to'), until),
    h('div', { class: 'row' }, h('label', { for: id('player') }, 'Player'), player, names, color),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit' }, 'Apply'),
      h('button', { type: 'button', class: 'small', onclick: () => done(filtersFromJson(null)) }, 'Clear'),
    ),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    done(read());
  });
  fill(current);
  return { el: h('details', { class: 'db-filters' }, summary, form), value: () => current };
}

/** A bar of White's wins, draws and Black's wins, with their percentages. */
export function wdlBar(white: number, draws: number, black: number): HTMLElement {
  const [w, d, b] = wdlPercents(white, draws, black);
  const part = (cls: string, share: number) =>
    h('span', { class: `wdl-${cls}`, style: `width: ${share}%` }, share >= 12 ? `${share}%` : '');
  return h(
    'span',
    {
      class: 'wdl',
      role: 'img',
      'aria-label': `White wins ${w}%, draws ${d}%, Black wins ${b}%`,
      title: `White ${formatCount(white)} · draws ${formatCount(draws)} · Black ${formatCount(black)}`,
    },
    part('white', w),
    part('draw', d),
    part('black', b),
  );
}

/** What a game table shows besides White, Black, result and date. */
export interface GameColumns {
  /** The event (else only in the row's tooltip). */
  event?: boolean;
  /** The ply at which each game reached the position. */
  ply?: boolean;
  /** White's and Black's accuracy in reviewed games (empty for the others). */
  accuracy?: boolean;
}

/** A reviewed game's accuracies as a small badge (nothing for a game not reviewed). */
function accuracyBadge(g: DbGameRef): HTMLElement | null {
  const a = accuracyCells(g);
  if (!a) return null;
  return h(
    'span',
    { class: 'acc-badge', title: a.title, 'aria-label': a.title },
    h('span', { class: 'acc acc-white' }, a.white),
    h('span', { class: 'acc acc-black' }, a.black),
  );
}

/**
 * Games as a table (White, Black, result, date, and the `columns` asked for), in a box that
 * scrolls sideways when narrow; a click or Enter on a row calls `open`.
 */
export function gameTable(caption: string, games: DbGameRef[], open: (g: DbGameRef) => void, columns: GameColumns = {}): HTMLElement {
  const rows = games.map((g) => {
    const c = gameCells(g);
    const row = h(
      'tr',
      { tabindex: 0, 'data-id': g.id, 'data-ply': g.ply, title: `${c.event ? `${c.event}: ` : ''}open in the PGN browser` },
      h('td', {}, c.white),
      h('td', {}, c.black),
      h('td', {}, c.result),
      h('td', {}, c.date),
      columns.event ? h('td', { class: 'event' }, c.event) : null,
      columns.ply ? h('td', { class: 'num' }, String(g.ply)) : null,
      columns.accuracy ? h('td', { class: 'accuracy' }, accuracyBadge(g)) : null,
    );
    row.addEventListener('click', () => open(g));
    row.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        open(g);
      }
    });
    return row;
  });
  const heads = [
    'White',
    'Black',
    'Result',
    'Date',
    ...(columns.event ? ['Event'] : []),
    ...(columns.ply ? ['Ply'] : []),
    ...(columns.accuracy ? ['Accuracy'] : []),
  ];
  return h(
    'div',
    { class: 'db-games-scroll' },
    h(
      'table',
      { class: 'games db-games' },
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, ...heads.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, ...rows),
    ),
  );
}
