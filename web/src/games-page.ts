// Games: the game database's games (GET /api/db/games), most recent first, a page at a time,
// under the explorer's filters and a text search over players, events and sites; a game opens
// in the PGN browser. The URL holds the text and the page (`/games?q=carlsen&offset=40`).
// Reviewed games show each side's accuracy; "Review these games" reviews the games the page
// lists (its text search and filters) with the server's engine (POST /api/db/review), with a
// progress bar and Cancel, once the user confirmed what it takes (GET /api/db/review/plan).

import { countOf, dbGameHref, filterParams, formatCount, pageLabel, pageView, queryString, reviewFraction, reviewPlanText } from './db-query';
import { dbStatus, filterForm, gameTable, noDatabase } from './db-view';
import { ndjsonLines } from './review-report';
import type { DbGameList, DbReviewLine, DbReviewPlanJson } from './types';
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
  const reviewButton = h(
    'button',
    { type: 'button', id: 'db-review-start', title: "Review the games listed (the text search and the filters) with the server's engine, after saying what it takes" },
    'Review these games',
  );
  const cancelButton = h('button', { type: 'button', class: 'small', id: 'db-review-cancel', hidden: true }, 'Cancel');
  const bar = h('progress', { id: 'db-review-progress', max: 1, hidden: true, 'aria-label': 'Review progress' });
  const reviewStatus = h('span', { class: 'db-review-status', id: 'db-review-status', role: 'status' });
  const reviewBox = h('div', { class: 'db-review' }, reviewButton, bar, cancelButton, reviewStatus);
  // The question before a review: what it takes, and Review or Cancel (in the page, not a
  // window.confirm that stops every script).
  const planText = h('p', { id: 'db-review-plan' });
  const goButton = h('button', { type: 'button', id: 'db-review-go' }, 'Review');
  const noButton = h('button', { type: 'button', id: 'db-review-no' }, 'Cancel');
  const confirmBox = h(
    'div',
    { class: 'msg db-review-confirm', id: 'db-review-confirm', role: 'group', 'aria-labelledby': 'db-review-plan', hidden: true },
    planText,
    h('div', { class: 'row' }, goButton, noButton),
  );
  const box = h(
    'section',
    { class: 'games-page', 'aria-label': 'Games of the database' },
    h('h1', {}, 'Games'),
    about,
    form,
    filters.el,
    reviewBox,
    confirmBox,
    pager,
    out,
  );
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

  /** The text search and filters of the list shown: what "Review these games" reviews. */
  let listed: Record<string, string> = {};
  let reviewing: AbortController | null = null;
  /** The selection the open question is about (null: no question open). */
  let asking: Record<string, string> | null = null;
  let planTicket = 0;
  /** Whether the plan is being asked for. */
  let planning = false;

  async function show(): Promise<void> {
    const ticket = ++asked;
    const q = text.value.trim();
    setQuery({ q, offset: offset || undefined });
    const selection = { ...(q ? { q } : {}), ...filterParams(filters.value()) };
    if (queryString(selection) !== queryString(listed)) closeConfirm(false);
    listed = selection;
    out.setAttribute('aria-busy', 'true');
    try {
      const page = await api<DbGameList>(`/api/db/games?${queryString({ ...selection, limit: LIMIT, offset })}`);
      if (ticket !== asked) return;
      const view = pageView(offset, LIMIT, page.games.length, page.total);
      prevOffset = view.prev;
      nextOffset = view.next;
      prev.disabled = view.prev === null;
      next.disabled = view.next === null;
      label.textContent = pageLabel(view);
      out.replaceChildren(
        page.games.length
          ? gameTable('Games, most recent first', page.games, (g) => location.assign(dbGameHref(g.id, 0)), { event: true, accuracy: true })
          : h('p', { class: 'note' }, 'No game matches.'),
      );
    } catch (e) {
      if (ticket !== asked) return;
      out.replaceChildren(message((e as Error).message, 'error'));
    } finally {
      if (ticket === asked) out.setAttribute('aria-busy', 'false');
    }
  }

  cancelButton.addEventListener('click', () => reviewing?.abort());
  reviewButton.addEventListener('click', () => void ask());
  goButton.addEventListener('click', () => {
    const selection = asking;
    if (!selection) return;
    closeConfirm(false);
    void review(selection);
  });
  noButton.addEventListener('click', () => closeConfirm(true));
  confirmBox.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') closeConfirm(true);
  });

  /** Closes the question, or forgets the plan being asked for; `focus`: back on "Review these
   * games" (the user answered). */
  function closeConfirm(focus: boolean): void {
    if (asking === null && !planning) return;
    planTicket++;
    planning = false;
    asking = null;
    confirmBox.hidden = true;
    reviewButton.disabled = reviewing !== null;
    if (!reviewing) reviewStatus.textContent = '';
    if (focus) reviewButton.focus();
  }

  /** Asks the server what reviewing the games listed would take and asks the user to confirm;
   * with no game listed, says so and starts nothing. */
  async function ask(): Promise<void> {
    if (reviewing || asking || planning) return;
    // No search and no filter: every game, which the server reviews only when asked by `all`.
    const selection = Object.keys(listed).length ? listed : { all: '1' };
    const ticket = ++planTicket;
    planning = true;
    reviewButton.disabled = true;
    reviewStatus.textContent = 'Counting the games and their positions…';
    let plan: DbReviewPlanJson;
    try {
      plan = await api<DbReviewPlanJson>(`/api/db/review/plan?${queryString(selection)}`);
    } catch (e) {
      if (ticket !== planTicket) return;
      planning = false;
      reviewButton.disabled = false;
      reviewStatus.replaceChildren(h('span', { class: 'msg msg-error', role: 'alert' }, `Cannot plan the review: ${(e as Error).message}`));
      return;
    }
    if (ticket !== planTicket) return;
    planning = false;
    if (plan.games === 0) {
      reviewButton.disabled = false;
      reviewStatus.textContent = 'No game to review: the search and the filters select none.';
      return;
    }
    reviewStatus.textContent = '';
    asking = selection;
    planText.textContent = reviewPlanText(plan);
    confirmBox.hidden = false;
    goButton.focus();
  }

  /** Reviews the games `selection` selects, showing its progress; the list again at the end. */
  async function review(selection: Record<string, string>): Promise<void> {
    if (reviewing) return;
    const controller = new AbortController();
    reviewing = controller;
    reviewButton.disabled = true;
    cancelButton.hidden = false;
    bar.hidden = false;
    bar.removeAttribute('value');
    reviewStatus.textContent = 'Starting the engine…';
    try {
      const res = await fetch(`/api/db/review?${queryString(selection)}`, { method: 'POST', signal: controller.signal });
      if (!res.ok || !res.body) {
        const text = await res.text();
        let why = `${res.status} ${res.statusText}`;
        try {
          why = (JSON.parse(text) as { error?: string }).error ?? why;
        } catch {
          // Not JSON: the status says it.
        }
        throw new Error(why);
      }
      for await (const line of ndjsonLines<DbReviewLine>(res.body)) {
        if ('progress' in line) {
          const p = line.progress;
          bar.value = reviewFraction(p);
          const cached = p.from_cache ? `, ${formatCount(p.from_cache)} from the cache` : '';
          // `games` counts the batch being searched: the positions say how far it is.
          reviewStatus.textContent = `Reviewing ${countOf(p.total, 'game')}… ${formatCount(p.evaluated + p.from_cache)} of ${countOf(p.positions, 'position')} so far${cached}`;
        } else if ('error' in line) {
          throw new Error(line.error);
        } else {
          const r = line.summary;
          const before = r.already ? `; ${formatCount(r.already)} reviewed before` : '';
          const failed = r.errors ? `; ${formatCount(r.errors)} could not be` : '';
          reviewStatus.textContent = `Reviewed ${countOf(r.games, 'game')} (${countOf(r.positions, 'position')}, ${formatCount(r.from_cache)} from the cache)${before}${failed}.`;
          if (r.hung !== null) {
            reviewStatus.append(h('span', { class: 'msg msg-error', role: 'alert' }, ` The engine hung and the review stopped: ${r.hung}. The games left wait for the next run.`));
          } else if (r.engine_faults > 0) {
            const notes = r.engine_notes.join('; ');
            reviewStatus.append(h('span', { class: 'msg msg-error', role: 'alert' }, ` The engine failed ${countOf(r.engine_faults, 'time')}: ${notes}`));
          }
          void show();
        }
      }
    } catch (e) {
      reviewStatus.textContent = controller.signal.aborted ? 'Review cancelled.' : '';
      if (!controller.signal.aborted) reviewStatus.append(h('span', { class: 'msg msg-error', role: 'alert' }, `The review failed: ${(e as Error).message}`));
      if (controller.signal.aborted) void show();
    } finally {
      reviewing = null;
      reviewButton.disabled = false;
      cancelButton.hidden = true;
      bar.hidden = true;
    }
  }

  void dbStatus().then(
    (s) => {
      if (s.db === null) {
        box.replaceChildren(h('h1', {}, 'Games'), noDatabase());
        return;
      }
      about.textContent = `${countOf(s.games, 'game')} in ${s.db}.`;
      void show();
    },
    (e: Error) => box.replaceChildren(h('h1', {}, 'Games'), message(e.message, 'error')),
  );
}
