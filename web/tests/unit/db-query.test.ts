// The game database's pure front-end logic (src/db-query.ts): the filters as the API's query
// parameters, the W/D/L shares, the pager, a game's cells and address.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  NO_FILTERS,
  dbGameHref,
  filterParams,
  filtersFromJson,
  filtersSummary,
  countOf,
  formatCount,
  formatDuration,
  reviewFraction,
  reviewPlanText,
  accuracyCells,
  gameCells,
  pageLabel,
  pageView,
  queryString,
  wdlPercents,
} from '../../src/db-query';
import type { DbGameRef } from '../../src/types';

describe('filters', () => {
  test('become the query parameters the API reads, only those given', () => {
    assert.deepEqual(filterParams(NO_FILTERS), {});
    assert.deepEqual(
      filterParams({ ratingMin: '1600', ratingMax: '1999', speeds: ['blitz', 'rapid'], since: '2024-01', until: '2024-06', player: ' Carlsen ', color: 'white' }),
      { rating: '1600-1999', speed: 'blitz,rapid', since: '2024-01', until: '2024-06', player: 'Carlsen', color: 'white' },
    );
    // Open ends, as `rating` takes them.
    assert.deepEqual(filterParams({ ...NO_FILTERS, ratingMin: '2000' }), { rating: '2000-' });
    assert.deepEqual(filterParams({ ...NO_FILTERS, ratingMax: '1500' }), { rating: '-1500' });
    // A colour means nothing without a player.
    assert.deepEqual(filterParams({ ...NO_FILTERS, color: 'black' }), {});
  });

  test('in a query string, empty values left out and the rest encoded', () => {
    const fen = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
    const text = queryString({ fen, ...filterParams({ ...NO_FILTERS, speeds: ['blitz', 'rapid'], player: "O'Kelly de Galway" }), limit: 20, q: '' });
    const back = new URLSearchParams(text);
    assert.equal(back.get('fen'), fen);
    assert.equal(back.get('speed'), 'blitz,rapid');
    assert.equal(back.get('player'), "O'Kelly de Galway");
    assert.equal(back.get('limit'), '20');
    assert.equal(back.has('q'), false);
    assert.equal(back.has('rating'), false);
    assert.ok(!text.includes(' '), text);
  });

  test('in a few words', () => {
    assert.equal(filtersSummary(NO_FILTERS), '');
    assert.equal(
      filtersSummary({ ratingMin: '1600', ratingMax: '1999', speeds: ['blitz'], since: '2024-01', until: '', player: 'Carlsen', color: 'black' }),
      'rating 1600–1999 · blitz · since 2024-01 · Carlsen as Black',
    );
    assert.equal(filtersSummary({ ...NO_FILTERS, since: '2023-01', until: '2023-12' }), '2023-01 to 2023-12');
  });

  test('come back from storage, anything odd left out', () => {
    const kept = { ratingMin: '2000', ratingMax: '', speeds: ['blitz'], since: '', until: '2024-02', player: 'A', color: 'white' };
    assert.deepEqual(filtersFromJson(JSON.stringify(kept)), kept);
    assert.deepEqual(filtersFromJson(null), NO_FILTERS);
    assert.deepEqual(filtersFromJson('not json'), NO_FILTERS);
    assert.deepEqual(filtersFromJson('{"speeds":["blitz","turbo",3],"color":"red","ratingMin":5}'), { ...NO_FILTERS, speeds: ['blitz'] });
  });
});

describe('W/D/L', () => {
  test('whole percentages that add up to 100', () => {
    assert.deepEqual(wdlPercents(1, 1, 1), [34, 33, 33]);
    assert.deepEqual(wdlPercents(2, 1, 0), [67, 33, 0]);
    assert.deepEqual(wdlPercents(52, 10, 38), [52, 10, 38]);
    assert.deepEqual(wdlPercents(0, 0, 7), [0, 0, 100]);
    assert.deepEqual(wdlPercents(0, 0, 0), [0, 0, 0]);
    // 1/7 = 14.29%, 2/7 = 28.57%, 4/7 = 57.14%: the largest remainder rounds up.
    assert.deepEqual(wdlPercents(1, 2, 4), [14, 29, 57]);
    for (const [w, d, b] of [[3, 3, 3], [1, 0, 2], [999, 1, 1], [13, 17, 19]]) {
      assert.equal(wdlPercents(w, d, b).reduce((x, y) => x + y, 0), 100, `${w} ${d} ${b}`);
    }
  });

  test('counts with separators', () => {
    assert.equal(formatCount(1234567), '1,234,567');
    assert.equal(formatCount(0), '0');
    assert.equal(countOf(1, 'game'), '1 game');
    assert.equal(countOf(2048, 'game'), '2,048 games');
    assert.equal(countOf(0, 'ply', 'plies'), '0 plies');
  });
});

describe('pages', () => {
  test('where a page stands and where the next and previous ones start', () => {
    assert.deepEqual(pageView(0, 20, 20, 45), { from: 1, to: 20, total: 45, prev: null, next: 20 });
    assert.deepEqual(pageView(20, 20, 20, 45), { from: 21, to: 40, total: 45, prev: 0, next: 40 });
    assert.deepEqual(pageView(40, 20, 5, 45), { from: 41, to: 45, total: 45, prev: 20, next: null });
    assert.deepEqual(pageView(10, 20, 20, 45).prev, 0);
    assert.deepEqual(pageView(0, 20, 0, 0), { from: 0, to: 0, total: 0, prev: null, next: null });
  });

  test('their labels', () => {
    assert.equal(pageLabel(pageView(20, 20, 20, 1234)), '21–40 of 1,234 games');
    assert.equal(pageLabel(pageView(0, 20, 7, 7)), '7 games');
    assert.equal(pageLabel(pageView(0, 20, 1, 1)), '1 game');
    assert.equal(pageLabel(pageView(0, 20, 0, 0)), 'No games');
    assert.equal(pageLabel(pageView(100, 20, 0, 45)), 'None here of 45 games');
  });
});

describe('a game in a list', () => {
  const g: DbGameRef = {
    id: '-4242',
    white: 'Alice',
    black: null,
    result: '1-0',
    white_elo: 1850,
    black_elo: null,
    date: '2013-01-??',
    event: 'Rated Blitz game',
    ply: 3,
  };

  test('its cells', () => {
    assert.deepEqual(gameCells(g), { white: 'Alice (1850)', black: '?', result: '1-0', date: '2013-01', event: 'Rated Blitz game' });
    assert.deepEqual(gameCells({ ...g, result: null, event: null, date: '????-??-??' }), { white: 'Alice (1850)', black: '?', result: '*', date: '?', event: '' });
  });

  test('its accuracies: none before a review, rounded after, a dash without a judged move', () => {
    assert.equal(accuracyCells(g), null);
    const marks = { acpl: 20, inaccuracies: 1, mistakes: 0, blunders: 2 };
    const reviewed: DbGameRef = {
      ...g,
      review: { engine: 'tabla', rules: 'lichess', white_accuracy: 87.49, black_accuracy: null, white: marks, black: { ...marks, acpl: null, blunders: 0 } },
    };
    assert.deepEqual(accuracyCells(reviewed), {
      white: '87',
      black: '–',
      title: 'Accuracy: White 87 (1 ?!, 0 ?, 2 ??), Black – (1 ?!, 0 ?, 0 ??)',
    });
  });

  test('its address in the PGN browser, at the ply it reached the position', () => {
    assert.equal(dbGameHref(g.id, g.ply), '/?db=-4242&ply=3');
    assert.equal(dbGameHref('17', 0), '/?db=17');
  });
});

describe('a bulk review\'s progress', () => {
  const at = (games: number, total: number, done: number, positions: number) =>
    reviewFraction({ games, total, positions, evaluated: done, from_cache: 0, errors: 0, not_evaluated: 0, engine_faults: 0 });
  test('the games taken up, scaled by their positions done', () => {
    assert.equal(at(0, 10, 0, 0), 0);
    assert.equal(at(5, 10, 50, 100), 0.25);
    assert.equal(at(10, 10, 100, 100), 1);
    assert.equal(at(0, 0, 0, 0), 1, 'nothing to review is done');
  });
});

describe('the question before a bulk review', () => {
  test('rough durations', () => {
    assert.equal(formatDuration(59), 'under a minute');
    assert.equal(formatDuration(60), 'about 1 minute');
    assert.equal(formatDuration(12 * 60 + 20), 'about 12 minutes');
    assert.equal(formatDuration(2.5 * 3600), 'about 2.5 hours');
    assert.equal(formatDuration(72 * 3600), 'about 3 days');
  });
  test('games, positions and the time at the rate', () => {
    const plan = { games: 172, positions: 14_200, engines: 2, positions_per_second: 8.8, seconds: 1614, rate_from: '' };
    assert.equal(
      reviewPlanText(plan),
      "Review 172 games (14,200 positions) with the server's engine: about 27 minutes at about 9 positions a second. Games reviewed before are skipped.",
    );
    assert.match(reviewPlanText({ ...plan, games: 1, positions: 1, seconds: null, positions_per_second: null }), /1 game \(1 position\).*no estimate/);
  });
});
