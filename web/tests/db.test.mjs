// Browser tests of the game database (`tabla serve --db`): headless Chromium driven by
// playwright-core against the real server, after the real binary imported testdata's lichess
// games (`tabla db import`). The binary, server and browser are harness.mjs's, as for
// browser.test.mjs (scripts/test.sh sets TABLA_SERVE; default target/debug/tabla).
//
// What the pages show is checked against the server's JSON for the same question, and the
// start position's counts against `tabla db explore --json` too.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, newPage as harnessPage, repo, run, startServer } from './harness.mjs';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

let scratch;
let db;
let server;
let base;
let browser;

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'tabla-web-db-test-'));
  db = join(scratch, 'db');
  run(['db', 'import', '--db', db, '--threads', '2', join(repo, 'testdata/pgn/lichess_db_1000k.pgn')]);
  // The endgame folder these tests have always given the server, kept between runs.
  const endgameDir = join(tmpdir(), 'tabla-web-browser-tests');
  mkdirSync(endgameDir, { recursive: true });
  server = await startServer(['--db', db], { TABLA_ENDGAME_DIR: endgameDir });
  base = server.url;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.child.kill();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const newPage = (width = 1280, height = 1000) => harnessPage(browser, width, height);

async function apiJson(page, path) {
  const res = await page.request.get(`${base}${path}`);
  assert.equal(res.status(), 200, `${path}: ${await res.text()}`);
  return res.json();
}

const explore = (page, fen) => apiJson(page, `/api/db/explore?fen=${encodeURIComponent(fen)}`);
/** Placement, side to move and castling of a FEN: what a position reached by other moves, or
 * written with the en-passant square after every double push (PGN's FENs), has in common. */
const board = (fen) => fen.split(' ').slice(0, 3).join(' ');
const count = (n) => n.toLocaleString('en-US');
const fenShown = (page) => page.locator('#fen').textContent();

/** Waits until the explorer shows the answer for `fen` (its total and its first move). */
async function explorerShows(page, answer) {
  const first = answer.moves[0];
  await page.waitForFunction(
    ([games, san, moveGames]) => {
      const panel = document.querySelector('#explorer');
      const row = document.querySelector('#explorer-moves tbody tr');
      return (
        panel?.getAttribute('aria-busy') === 'false' &&
        document.querySelector('#explorer-games')?.textContent === games &&
        row?.querySelector('.san')?.textContent === san &&
        row?.querySelectorAll('td')[1]?.textContent === moveGames
      );
    },
    [count(answer.games), first.san, count(first.games)],
    { timeout: 20_000 },
  );
}

describe('Opening explorer', () => {
  test('in the PGN browser: counts as the API and the command line give them, moves play, games open', async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    await page.locator('#moves[aria-busy="false"]').waitFor();
    // A PGN of three games loaded: a game of the database opens over it, and Back returns to it.
    await page.locator('#pgn-input').fill(
      ['Loaded One', 'Loaded Two', 'Loaded Three'].map((w) => `[White "${w}"]\n[Black "X"]\n\n1. e4 e5 2. Nf3 *\n`).join('\n'),
    );
    await page.locator('#load-pgn').click();
    await page.locator('.load-msg .msg-ok', { hasText: '3 games loaded.' }).waitFor();
    await page.locator('#moves[aria-busy="false"]').waitFor();
    assert.equal(await fenShown(page), START);

    // The start position: the totals and the first move as /api/db/explore and
    // `tabla db explore --json` say.
    const start = await explore(page, START);
    const cli = JSON.parse(run(['db', 'explore', '--db', db, '--threads', '2', '--fen', 'startpos', '--json']));
    assert.equal(cli.games, start.games);
    assert.deepEqual(cli.moves[0], start.moves[0]);
    assert.ok(start.games > 0 && start.moves.length > 1);
    await explorerShows(page, start);
    const rows = page.locator('#explorer-moves tbody tr');
    assert.equal(await rows.count(), start.moves.length);
    assert.equal(await page.locator('#explorer-games').textContent(), count(start.games));
    assert.equal(await rows.first().locator('td').nth(1).textContent(), count(start.moves[0].games));
    assert.match(await rows.first().locator('.wdl').getAttribute('aria-label'), /^White wins \d+%, draws \d+%, Black wins \d+%$/);

    // The first move plays on the board, and the counts follow.
    const first = start.moves[0];
    const played = await apiJson(page, `/api/play?fen=${encodeURIComponent(START)}&uci=${first.uci}`);
    await rows.first().click();
    await page.waitForFunction((p) => document.querySelector('#fen')?.textContent?.startsWith(`${p} `), board(played.fen));
    const next = await explore(page, played.fen);
    await explorerShows(page, next);

    // A move the game does not have: the board goes past the game, and back.
    const gameNext = await page.locator('#moves .mv.main').nth(1).getAttribute('aria-label');
    const other = next.moves.find((m) => !gameNext.endsWith(` ${m.san}`));
    if (other) {
      const before = await fenShown(page);
      await page.locator(`#explorer-moves tbody tr[data-uci="${other.uci}"]`).click();
      await page.locator('#off-game-line').waitFor();
      assert.match(await page.locator('#off-game-line').textContent(), new RegExp(`${other.san.replace(/[+#]/g, '\\$&')}$`));
      assert.notEqual(await fenShown(page), before);
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, before);
      assert.equal(await page.locator('#off-game-line').count(), 0);
    }

    // A top game opens in the PGN browser at the ply where it reached the position.
    await explorerShows(page, next);
    const top = next.top_games[0];
    assert.ok(top, 'a top game');
    const row = page.locator('#explorer-lists table').first().locator('tbody tr').first();
    assert.equal(await row.getAttribute('data-id'), top.id);
    const before = page.url();
    const entries = await page.evaluate(() => history.length);
    await row.click();
    await page.locator('.load-msg .msg-ok', { hasText: `Game ${top.id} of the database (the games of pasted text stay in the list).` }).waitFor();
    await page.locator('#moves[aria-busy="false"]').waitFor();
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('db'), top.id);
    assert.equal(url.searchParams.get('ply'), String(top.ply));
    assert.equal(board(await fenShown(page)), board(next.fen));
    assert.equal(await page.locator('#moves .mv.active').getAttribute('data-id'), String(top.ply));
    assert.match(await page.locator('.game-title').textContent(), new RegExp(`^${top.white} – ${top.black}`));
    // The PGN's games stay in the list, none marked open; the game is a new history entry.
    const listed = page.locator('#games tbody tr');
    assert.equal(await listed.count(), 3);
    assert.equal(await page.locator('#games tbody tr[aria-selected="true"]').count(), 0);
    assert.equal(await page.evaluate(() => history.length), entries + 1);

    // A reload comes back to the game of the database and the position, the PGN's games listed.
    await page.reload();
    await page.locator('#moves .mv.active').waitFor();
    assert.equal(await page.locator('#moves .mv.active').getAttribute('data-id'), String(top.ply));
    assert.match(await page.locator('.game-title').textContent(), new RegExp(`^${top.white} – ${top.black}`));
    assert.equal(await listed.count(), 3);

    // Back returns to the PGN's game and position, Forward to the database's again.
    await page.goBack();
    await page.waitForURL(before);
    await page.locator('.game-title', { hasText: /^Loaded One/ }).waitFor();
    const plyBefore = new URL(before).searchParams.get('ply');
    await page.waitForFunction((ply) => (document.querySelector('#moves .mv.active')?.getAttribute('data-id') ?? '0') === ply, plyBefore);
    assert.equal(await listed.count(), 3);
    assert.equal(await listed.first().getAttribute('aria-selected'), 'true');
    await page.goForward();
    await page.locator('.game-title', { hasText: new RegExp(`^${top.white} – ${top.black}`) }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('db'), top.id);
    assert.equal(await listed.count(), 3);

    // A game the database does not have: said, with what is shown instead.
    await page.goto(`${base}/?db=12345&ply=3`);
    await page.locator('#url-notice .msg-error').waitFor();
    assert.equal(
      await page.locator('#url-notice').textContent(),
      'The address asks for game 12345 of the database, which cannot be shown: no game with id "12345" in the database. Showing game 1 of pasted text instead.',
    );
    assert.match(await page.locator('.game-title').textContent(), /^Loaded One/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('search this position lists the games the API lists', async () => {
    const page = await newPage();
    await page.goto(`${base}/analysis?fen=${encodeURIComponent(START)}`);
    const start = await explore(page, START);
    await explorerShows(page, start);
    await page.locator('#explorer-moves tbody tr').first().click();
    const played = await apiJson(page, `/api/play?fen=${encodeURIComponent(START)}&uci=${start.moves[0].uci}`);
    await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, played.fen);
    await explorerShows(page, await explore(page, played.fen));

    await page.locator('#explorer-search-button').click();
    const found = await apiJson(page, `/api/db/search?fen=${encodeURIComponent(played.fen)}&limit=20`);
    await page.locator('#explorer-search table tbody tr').first().waitFor();
    assert.equal(await page.locator('#explorer-search table tbody tr').count(), found.games.length);
    assert.equal(await page.locator('#explorer-search table tbody tr').first().getAttribute('data-id'), found.games[0].id);
    const label = await page.locator('#explorer-search .page-label').textContent();
    assert.match(label, new RegExp(`${count(found.total)} games?$`));

    // A game of the list opens in the PGN browser.
    await page.locator('#explorer-search table tbody tr').first().click();
    await page.waitForURL((u) => u.pathname === '/' && u.searchParams.get('db') === found.games[0].id);
    await page.locator('#moves .mv.active').waitFor();
    assert.equal(await page.locator('#moves .mv.active').getAttribute('data-id'), String(found.games[0].ply));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('filters narrow the counts as the API does', async () => {
    const page = await newPage();
    await page.goto(`${base}/analysis?fen=${encodeURIComponent(START)}`);
    await explorerShows(page, await explore(page, START));
    await page.locator('#explorer summary').click();
    await page.locator('#explorer-speed-blitz').check();
    await page.locator('#explorer-rating-min').fill('1600');
    await page.locator('#explorer .db-filters-form button[type="submit"]').click();
    const filtered = await apiJson(page, `/api/db/explore?fen=${encodeURIComponent(START)}&speed=blitz&rating=1600-`);
    await explorerShows(page, filtered);
    assert.match(await page.locator('#explorer summary').textContent(), /rating 1600–.*blitz/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('Games page', () => {
  test('pages through the games, searches them and opens one', async () => {
    const page = await newPage();
    await page.goto(`${base}/games`);
    const all = await apiJson(page, '/api/db/games?limit=20');
    await page.locator('#games-out table tbody tr').first().waitFor();
    assert.equal(await page.locator('#games-out table tbody tr').count(), 20);
    assert.equal(await page.locator('#games-page-label').textContent(), `1–20 of ${count(all.total)} games`);
    assert.equal(await page.locator('#games-out tbody tr').first().getAttribute('data-id'), all.games[0].id);
    assert.ok(await page.locator('#games-prev').isDisabled());

    await page.locator('#games-next').click();
    await page.locator('#games-page-label', { hasText: '21–40' }).waitFor();
    const second = await apiJson(page, '/api/db/games?limit=20&offset=20');
    assert.equal(await page.locator('#games-out tbody tr').first().getAttribute('data-id'), second.games[0].id);
    assert.equal(new URL(page.url()).searchParams.get('offset'), '20');

    // A text search over the players.
    const name = all.games[0].white;
    const found = await apiJson(page, `/api/db/games?limit=20&q=${encodeURIComponent(name)}`);
    await page.locator('#games-q').fill(name);
    await page.locator('#games-q').press('Enter');
    await page.locator('#games-page-label', { hasText: found.total === 1 ? '1 game' : `${count(found.total)} games` }).waitFor();
    assert.equal(await page.locator('#games-out tbody tr').count(), found.games.length);

    // A game opens in the PGN browser.
    const g = found.games[0];
    await page.locator('#games-out tbody tr').first().click();
    await page.waitForURL((u) => u.pathname === '/' && u.searchParams.get('db') === g.id);
    await page.locator('#moves[aria-busy="false"]').waitFor();
    assert.match(await page.locator('.game-title').textContent(), new RegExp(`^${g.white} – ${g.black}`));
    assert.equal(await fenShown(page), START);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('Reviews on the games page', () => {
  /** Whether the server has an engine review running: a review of no game is then refused. */
  async function reviewRunning(page) {
    const res = await page.request.post(`${base}/api/db/review?player=${encodeURIComponent('nobody at all')}`);
    await res.body();
    return res.status() === 429;
  }

  /** Clicks "Review these games" and waits for its question; its text. */
  async function askToReview(page) {
    await page.locator('#db-review-start').click();
    await page.locator('#db-review-confirm:not([hidden])').waitFor();
    return page.locator('#db-review-plan').textContent();
  }

  /** Answers the question with Review: the review starts. */
  async function confirmReview(page) {
    await page.locator('#db-review-go').click();
    await page.locator('#db-review-progress:not([hidden])').waitFor();
    assert.ok(await page.locator('#db-review-confirm').isHidden());
  }

  /** The ids of the games reviewed, of every game of the database. */
  async function reviewedIds(page) {
    const all = await apiJson(page, '/api/db/games?limit=1000');
    assert.equal(all.games.length, all.total);
    return new Set(all.games.filter((g) => g.review).map((g) => g.id));
  }

  test('the text search\'s games, and only those, are reviewed once the question is answered', async () => {
    const page = await newPage();
    // A name typed in another case than the tags', whose games (the fewest moves first: the
    // review is of a debug build) are none reviewed yet and not the whole database.
    const all = await apiJson(page, '/api/db/games?limit=1000');
    const moves = new Map();
    for (const g of all.games.filter((g) => g.black && !g.review)) moves.set(g.id, (await apiJson(page, `/api/db/game/${g.id}`)).moves.length);
    let search = null;
    for (const [id] of [...moves].sort((a, b) => a[1] - b[1])) {
      const name = all.games.find((g) => g.id === id).black;
      const q = name === name.toLowerCase() ? name.toUpperCase() : name.toLowerCase();
      const found = await apiJson(page, `/api/db/games?limit=100&q=${encodeURIComponent(q)}`);
      if (found.total >= 1 && found.total <= 2 && found.games.every((g) => !g.review)) {
        search = { q, found };
        break;
      }
    }
    assert.ok(search, 'a player with one or two games not reviewed');
    const { q, found } = search;
    const plan = await apiJson(page, `/api/db/review/plan?q=${encodeURIComponent(q)}`);
    assert.equal(plan.games, found.total);
    const before = await reviewedIds(page);

    await page.goto(`${base}/games`);
    await page.locator('#games-out tbody tr').first().waitFor();
    await page.locator('#games-q').fill(q);
    await page.locator('#games-q').press('Enter');
    const games = found.total === 1 ? '1 game' : `${found.total} games`;
    await page.locator('#games-page-label', { hasText: new RegExp(`^${games}$`) }).waitFor();

    // The question names the games the search shows; Cancel answers it and starts nothing.
    const asked = await askToReview(page);
    assert.match(asked, new RegExp(`^Review ${games} \\(${count(plan.positions)} positions?\\) with the server's engine: `));
    const confirm = page.locator('#db-review-confirm');
    assert.equal(await confirm.getAttribute('role'), 'group');
    assert.equal(await confirm.getAttribute('aria-labelledby'), 'db-review-plan');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'db-review-go');
    assert.ok(await page.locator('#db-review-start').isDisabled());
    await page.locator('#db-review-no').click();
    assert.ok(await confirm.isHidden());
    assert.ok(await page.locator('#db-review-progress').isHidden());
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'db-review-start');
    assert.equal(await reviewRunning(page), false);
    // So does Escape.
    await askToReview(page);
    await page.keyboard.press('Escape');
    assert.ok(await confirm.isHidden());
    assert.equal(await reviewRunning(page), false);

    // Review: exactly the games the search shows are reviewed.
    assert.equal(await askToReview(page), asked);
    await confirmReview(page);
    await page.locator('#db-review-status', { hasText: /^Reviewed \d+ games?/ }).waitFor({ timeout: 180_000 });
    assert.match(await page.locator('#db-review-status').textContent(), new RegExp(`^Reviewed ${found.total} games? \\(${count(plan.positions)} positions?`));
    const after = await reviewedIds(page);
    const added = [...after].filter((id) => !before.has(id)).sort();
    assert.deepEqual(added, found.games.map((g) => g.id).sort());
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('a search that selects no game: said, and nothing starts', async () => {
    const page = await newPage();
    await page.goto(`${base}/games?q=${encodeURIComponent('no such player anywhere')}`);
    await page.locator('#games-page-label', { hasText: 'No games' }).waitFor();
    await page.locator('#db-review-start').click();
    await page.locator('#db-review-status', { hasText: 'No game to review: the search and the filters select none.' }).waitFor();
    assert.ok(await page.locator('#db-review-confirm').isHidden());
    assert.ok(await page.locator('#db-review-progress').isHidden());
    assert.ok(await page.locator('#db-review-start').isEnabled());
    assert.equal(await reviewRunning(page), false);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("a player's games reviewed from the page show the server's accuracies", async () => {
    const page = await newPage();
    // A player with one game, the shortest of those not reviewed yet, so that the review (the
    // server's engine at its default budget, in a debug build) is as quick as it can be.
    const all = await apiJson(page, '/api/db/games?limit=100');
    let game = null;
    let fewest = Infinity;
    for (const g of all.games.filter((g) => g.white && !g.review)) {
      const moves = (await apiJson(page, `/api/db/game/${g.id}`)).moves.length;
      if (moves < fewest) [game, fewest] = [g, moves];
    }
    assert.ok(game, 'a game not reviewed yet');
    const player = game.white;
    const theirs = await apiJson(page, `/api/db/games?player=${encodeURIComponent(player)}`);
    assert.ok(theirs.total >= 1 && theirs.total <= 3, `${player}: ${theirs.total} games`);

    await page.goto(`${base}/games`);
    await page.locator('#games-out tbody tr').first().waitFor();
    await page.locator('.games-page details.db-filters summary').click();
    await page.locator('#games-player').fill(player);
    await page.locator('.games-page .db-filters-form button[type="submit"]').click();
    await page.locator('#games-page-label', { hasText: theirs.total === 1 ? '1 game' : `${theirs.total} games` }).waitFor();
    const row = page.locator(`#games-out tbody tr[data-id="${game.id}"]`);
    await row.waitFor();
    assert.equal(await row.locator('.acc-badge').count(), 0, 'nothing shown before the review');

    assert.match(await askToReview(page), new RegExp(`^Review ${theirs.total === 1 ? '1 game' : `${theirs.total} games`} `));
    await confirmReview(page);
    await page.locator('#db-review-status', { hasText: /^Reviewing/ }).waitFor({ timeout: 60_000 });
    await page.locator('#db-review-status', { hasText: /^Reviewed \d+ games?/ }).waitFor({ timeout: 180_000 });
    assert.ok(await page.locator('#db-review-progress').isHidden());

    // The list again, with the accuracies the server's JSON gives.
    await row.locator('.acc-badge').waitFor();
    const after = await apiJson(page, `/api/db/games?player=${encodeURIComponent(player)}`);
    const reviewed = after.games.find((g) => g.id === game.id);
    assert.ok(reviewed.review, 'the JSON has the review');
    const shown = (a) => (a === null ? '–' : String(Math.round(a)));
    assert.equal(await row.locator('.acc-white').textContent(), shown(reviewed.review.white_accuracy));
    assert.equal(await row.locator('.acc-black').textContent(), shown(reviewed.review.black_accuracy));
    assert.match(await page.locator('#db-review-status').textContent(), new RegExp(`^Reviewed ${theirs.total} games?\\b`));

    // Again: nothing new to review.
    await askToReview(page);
    await page.locator('#db-review-go').click();
    await page.locator('#db-review-status', { hasText: /^Reviewed 0 games.*reviewed before/ }).waitFor({ timeout: 60_000 });
    assert.equal(await reviewRunning(page), false);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('Cancel stops a review: the server has none running', async () => {
    const page = await newPage();
    await page.goto(`${base}/games`);
    await page.locator('#games-out tbody tr').first().waitFor();
    // Every game: far longer than the test waits.
    const all = await apiJson(page, '/api/db/games?limit=1');
    assert.match(await askToReview(page), new RegExp(`^Review ${count(all.total)} games `));
    await confirmReview(page);
    await page.locator('#db-review-status', { hasText: /^Reviewing/ }).waitFor({ timeout: 60_000 });
    assert.equal(await reviewRunning(page), true, 'the review runs on the server');
    await page.locator('#db-review-cancel').click();
    await page.locator('#db-review-status', { hasText: 'Review cancelled.' }).waitFor();
    assert.ok(await page.locator('#db-review-cancel').isHidden());
    const deadline = Date.now() + 20_000;
    while (await reviewRunning(page)) {
      assert.ok(Date.now() < deadline, 'the server still reviews 20 s after Cancel');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
