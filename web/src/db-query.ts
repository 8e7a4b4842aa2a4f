// The game database seen from the front end, as pure functions: the filters and their query
// string, the shares of a W/D/L bar, a page of a list, a game's line in a list and its address
// in the PGN browser. No DOM here: db-view.ts, explorer.ts and games-page.ts render what this
// computes, and tests/unit/db-query.test.ts checks it under Node.

import type { DbGameRef, DbReviewPlanJson, DbReviewProgressCounts, DbSideMarks } from './types';

/** The speeds the database knows, as `speed` takes them. */
export const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;

/** The explorer's and the games page's filters, as the form holds them ('' for not given). */
export interface DbFilters {
  /** The lowest average rating of both players. */
  ratingMin: string;
  /** The highest. */
  ratingMax: string;
  /** Any of these speeds; none for all. */
  speeds: string[];
  /** Played in this month (YYYY-MM) or later. */
  since: string;
  /** Played in this month or earlier. */
  until: string;
  /** A player's name, exactly as in the tags. */
  player: string;
  /** With `player`: the colour they had. */
  color: '' | 'white' | 'black';
}

export const NO_FILTERS: DbFilters = { ratingMin: '', ratingMax: '', speeds: [], since: '', until: '', player: '', color: '' };

/** The filters as the API's query parameters: only those given (`color` only with `player`). */
export function filterParams(f: DbFilters): Record<string, string> {
  const out: Record<string, string> = {};
  const min = f.ratingMin.trim();
  const max = f.ratingMax.trim();
  if (min || max) out.rating = `${min}-${max}`;
  if (f.speeds.length) out.speed = f.speeds.join(',');
  if (f.since.trim()) out.since = f.since.trim();
  if (f.until.trim()) out.until = f.until.trim();
  const player = f.player.trim();
  if (player) {
    out.player = player;
    if (f.color) out.color = f.color;
  }
  return out;
}

/** A query string of `params`, leaving out empty values: `fen=...&speed=blitz`. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  return search.toString();
}

/** The filters in a few words ("" when none): "rating 1600–1999 · blitz, rapid · since 2024-01". */
export function filtersSummary(f: DbFilters): string {
  const p = filterParams(f);
  const parts: string[] = [];
  if (p.rating) parts.push(`rating ${p.rating.replace('-', '–')}`);
  if (p.speed) parts.push(f.speeds.join(', '));
  if (p.since && p.until) parts.push(`${p.since} to ${p.until}`);
  else if (p.since) parts.push(`since ${p.since}`);
  else if (p.until) parts.push(`until ${p.until}`);
  if (p.player) parts.push(p.color ? `${p.player} as ${p.color === 'white' ? 'White' : 'Black'}` : p.player);
  return parts.join(' · ');
}

/** Filters read back from storage: anything missing or of the wrong kind is left out. */
export function filtersFromJson(text: string | null): DbFilters {
  let raw: unknown = null;
  try {
    raw = text ? JSON.parse(text) : null;
  } catch {
    raw = null;
  }
  if (!raw || typeof raw !== 'object') return { ...NO_FILTERS };
  const r = raw as Record<string, unknown>;
  const str = (k: string) => (typeof r[k] === 'string' ? (r[k] as string) : '');
  const speeds = Array.isArray(r.speeds) ? r.speeds.filter((s): s is string => typeof s === 'string' && (SPEEDS as readonly string[]).includes(s)) : [];
  const color = r.color === 'white' || r.color === 'black' ? r.color : '';
  return { ratingMin: str('ratingMin'), ratingMax: str('ratingMax'), speeds, since: str('since'), until: str('until'), player: str('player'), color };
}

/**
 * White's wins, draws and Black's wins in whole percent of the games, adding up to 100 (the
 * largest remainders rounded up), [0, 0, 0] for no games.
 */
export function wdlPercents(white: number, draws: number, black: number): [number, number, number] {
  const total = white + draws + black;
  if (total <= 0) return [0, 0, 0];
  const exact = [white, draws, black].map((n) => (n * 100) / total);
  const shares = exact.map(Math.floor);
  let missing = 100 - shares.reduce((a, b) => a + b, 0);
  const order = [0, 1, 2].sort((a, b) => exact[b] - shares[b] - (exact[a] - shares[a]) || a - b);
  for (const i of order) {
    if (missing <= 0) break;
    shares[i]++;
    missing--;
  }
  return [shares[0], shares[1], shares[2]];
}

/** A count with thousands separated: 12,345. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A count and its noun, singular for one: "1 game", "2,048 games", "1 position". */
export function countOf(n: number, noun: string, nouns = `${noun}s`): string {
  return `${formatCount(n)} ${n === 1 ? noun : nouns}`;
}

/** Where a page of a list stands: what it shows of the total, and the offsets of the pages
 * before and after it (null: none). */
export interface PageView {
  /** The first game shown, from 1 (0 when none). */
  from: number;
  /** The last game shown. */
  to: number;
  total: number;
  prev: number | null;
  next: number | null;
}

/** The page that starts at `offset`, `shown` games long, of `limit` a page, out of `total`. */
export function pageView(offset: number, limit: number, shown: number, total: number): PageView {
  const from = shown > 0 ? offset + 1 : 0;
  const to = offset + shown;
  return {
    from,
    to,
    total,
    prev: offset > 0 ? Math.max(0, offset - limit) : null,
    next: to < total ? offset + limit : null,
  };
}

/** "21–40 of 1,234 games", "1 game", "No games". */
export function pageLabel(v: PageView): string {
  if (v.total === 0 || v.from === 0) return v.total === 0 ? 'No games' : `None here of ${formatCount(v.total)} games`;
  if (v.from === 1 && v.to === v.total) return v.total === 1 ? '1 game' : `${formatCount(v.total)} games`;
  return `${formatCount(v.from)}–${formatCount(v.to)} of ${formatCount(v.total)} games`;
}

/** A player with their rating: "Carlsen (2850)", "?" when unknown. */
export function playerLabel(name: string | null, elo: number | null): string {
  return `${name ?? '?'}${elo !== null ? ` (${elo})` : ''}`;
}

/** A game's cells in a list: White, Black, result, date, event. */
export function gameCells(g: DbGameRef): { white: string; black: string; result: string; date: string; event: string } {
  return {
    white: playerLabel(g.white, g.white_elo),
    black: playerLabel(g.black, g.black_elo),
    result: g.result ?? '*',
    date: g.date.startsWith('????') ? '?' : g.date.replace(/-\?\?/g, ''),
    event: g.event ?? '',
  };
}

/** A reviewed game's accuracies as a list shows them (`87`, `–` without a judged move), with
 * each side's marks for its tooltip; null for a game not reviewed. */
export function accuracyCells(g: DbGameRef): { white: string; black: string; title: string } | null {
  const r = g.review;
  if (!r) return null;
  const figure = (a: number | null) => (a === null ? '–' : String(Math.round(a)));
  const marks = (m: DbSideMarks) => `${m.inaccuracies} ?!, ${m.mistakes} ?, ${m.blunders} ??`;
  return {
    white: figure(r.white_accuracy),
    black: figure(r.black_accuracy),
    title: `Accuracy: White ${figure(r.white_accuracy)} (${marks(r.white)}), Black ${figure(r.black_accuracy)} (${marks(r.black)})`,
  };
}

/** How far a bulk review is, 0 to 1: the share of games taken up, scaled by the share of their
 * positions done (a batch's games are all taken up when its searches start). */
export function reviewFraction(p: DbReviewProgressCounts): number {
  if (p.total <= 0) return 1;
  const games = Math.min(1, p.games / p.total);
  const positions = p.positions > 0 ? Math.min(1, (p.evaluated + p.from_cache) / p.positions) : 0;
  return games * positions;
}

/** A rough duration: "under a minute", "about 12 minutes", "about 2.5 hours", "about 3 days". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return 'under a minute';
  const minutes = seconds / 60;
  if (minutes < 90) return `about ${Math.round(minutes)} minute${Math.round(minutes) === 1 ? '' : 's'}`;
  const hours = minutes / 60;
  if (hours < 48) return `about ${Number(hours.toFixed(1))} hours`;
  return `about ${Math.round(hours / 24)} days`;
}

/** The question a bulk review asks before it starts: its games, their positions and about how
 * long at the measured rate. */
export function reviewPlanText(plan: DbReviewPlanJson): string {
  const games = `${formatCount(plan.games)} game${plan.games === 1 ? '' : 's'}`;
  const positions = `${formatCount(plan.positions)} position${plan.positions === 1 ? '' : 's'}`;
  const time =
    plan.seconds === null || plan.positions_per_second === null
      ? 'no estimate of the time for this budget'
      : `${formatDuration(plan.seconds)} at about ${formatCount(Math.round(plan.positions_per_second))} positions a second`;
  return `Review ${games} (${positions}) with the server's engine: ${time}. Games reviewed before are skipped.`;
}

/** The PGN browser's address for a game of the database at a ply (0: the start). */
export function dbGameHref(id: string, ply: number): string {
  return `/?${queryString({ db: id, ply: ply > 0 ? ply : undefined })}`;
}
