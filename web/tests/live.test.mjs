// Browser tests of live analysis (the engine panel on the analysis page and beside the PGN
// browser's board): headless Chromium against the real server (web/tests/harness.mjs). What the
// panel shows is checked against the server's own answers (/api/position, /api/play) and the
// server's report of running analyses (/api/engine); that nothing stays searching is checked on
// the server's process itself (its CPU time, and its engine processes' with Stockfish).

import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { launchBrowser, newPage, startServer } from './harness.mjs';

const STOCKFISH = '/usr/games/stockfish';
/** The Bh6 test position (docs/background.md). */
const BH6 = '6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.child.kill();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
});

const json = async (base, path) => (await fetch(`${base}${path}`)).json();

/** Waits until the server reports no running analysis (at most 5 s). */
async function untilIdle(base) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const e = await json(base, '/api/engine');
    if (e.running === 0) return;
    assert.ok(Date.now() < deadline, `still running: ${JSON.stringify(e)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** CPU ticks (user + system) used by process `pid` and, with `children`, its child processes. */
function ticks(pid, children = false) {
  const of = (p) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  };
  let sum = of(pid);
  if (children) {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const kids = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean);
      for (const kid of kids) sum += of(kid);
    }
  }
  return sum;
}

/** Ticks used over `ms` milliseconds. */
async function ticksOver(pid, ms, children = false) {
  const before = ticks(pid, children);
  await new Promise((r) => setTimeout(r, ms));
  return ticks(pid, children) - before;
}

/** Lines shown: each line's evaluation and moves. */
async function shownLines(page) {
  return page.locator('.live-line').evaluateAll((items) =>
    items.map((li) => ({
      eval: li.querySelector('.live-eval')?.textContent ?? '',
      moves: [...li.querySelectorAll('.live-move')].map((b) => b.textContent),
    })),
  );
}

/** Starts the panel with `lines` lines and waits until that many are shown. */
async function analyse(page, lines) {
  await page.locator('.live-multipv').selectOption(String(lines));
  await page.getByRole('button', { name: 'Analyse' }).click();
  await page.waitForFunction((n) => document.querySelectorAll('.live-line').length >= n, lines, { timeout: 20_000 });
}

/** Pages a test of the panel opened: closed after each test even when it fails, so that its
 * analyses do not run on into the next test. */
const opened = [];
async function openPage() {
  const page = await newPage(browser);
  opened.push(page);
  return page;
}

describe('Live analysis', () => {
  afterEach(async () => {
    for (const page of opened.splice(0)) await page.context().close().catch(() => {});
    await untilIdle(server.url);
  });

  test('lines, the bar, a line played, stop', async () => {
    const base = server.url;
    const page = await openPage();
    await page.goto(`${base}/analysis?fen=${encodeURIComponent(BH6)}`);
    await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, BH6);
    assert.match(await page.locator('.live-engine').textContent(), /^tabla /, 'the engine is named');
    await analyse(page, 3);

    // Three lines, each starting with a different legal move, evaluations as [%eval] reads.
    const legal = (await json(base, `/api/position?fen=${encodeURIComponent(BH6)}`)).legal_moves.map((m) => m.san);
    const lines = await shownLines(page);
    assert.ok(lines.length >= 3, JSON.stringify(lines));
    for (const line of lines) {
      assert.match(line.eval, /^[≥≤]?([+-]\d+\.\d\d|0\.00|#-?\d+)$/);
      assert.ok(legal.includes(line.moves[0]), `${line.moves[0]} is legal here`);
    }
    assert.equal(new Set(lines.map((l) => l.moves[0])).size, lines.length, 'different first moves');
    // Numbered as tabla writes lines.
    assert.match(await page.locator('.live-line').first().textContent(), /^\S+ 40\. \S+/);
    // The bar: shown, labelled with the best line's evaluation; the best move's arrow.
    const bar = page.locator('.eval-bar');
    assert.ok(await bar.isVisible());
    assert.match(await bar.getAttribute('aria-label'), /^Evaluation ([+-]\d+\.\d\d|0\.00|#-?\d+)$/);
    assert.ok((await page.locator('.board svg.cg-shapes line, .board svg.cg-shapes path').count()) > 0, 'an arrow');
    assert.equal((await json(base, '/api/engine')).running, 1);

    // A click on the second line's first move plays it: the FEN is the server's after it. (Read
    // and clicked in one step: the lines are redrawn as the engine reports.)
    const san = await page.locator('.live-line').nth(1).locator('.live-move').first().evaluate((b) => {
      b.click();
      return b.textContent;
    });
    const uci = (await json(base, `/api/position?fen=${encodeURIComponent(BH6)}`)).legal_moves.find((m) => m.san === san).uci;
    const after = (await json(base, `/api/play?fen=${encodeURIComponent(BH6)}&uci=${uci}`)).fen;
    await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, after);
    assert.equal(await page.locator('#analysis-line').textContent(), `Moves: 40. ${san}`);
    // The analysis follows the board: lines of the new position (Black to move: "40...").
    await page.waitForFunction(() => /^\S+ 40\.\.\. /.test(document.querySelector('.live-line')?.textContent ?? ''), null, { timeout: 20_000 });

    // Stop: the last answer stays (lines, bar), as lichess keeps it, and the server runs no
    // analysis and rests.
    await page.getByRole('button', { name: 'Stop' }).click();
    assert.ok((await page.locator('.live-line').count()) > 0);
    assert.ok(await bar.isVisible());
    await untilIdle(base);
    const idle = await ticksOver(server.child.pid, 1000);
    assert.ok(idle <= 10, `the server used ${idle} ticks in 1 s after Stop`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('a page closed mid-analysis leaves nothing running', async () => {
    const base = server.url;
    const page = await openPage();
    await page.goto(`${base}/analysis?fen=${encodeURIComponent(BH6)}`);
    await analyse(page, 2);
    const busy = await ticksOver(server.child.pid, 1000);
    await page.context().close();
    await untilIdle(base);
    const idle = await ticksOver(server.child.pid, 1000);
    assert.ok(busy >= 20, `searching used only ${busy} ticks in 1 s`);
    assert.ok(idle <= 10, `the server used ${idle} ticks in 1 s after the page closed`);
  });

  test('past the limit, the panel says why', async () => {
    const base = server.url;
    const { limit } = await json(base, '/api/engine');
    const pages = [];
    for (let i = 0; i < limit; i++) {
      const page = await openPage();
      await page.goto(`${base}/analysis?fen=${encodeURIComponent(BH6)}`);
      await analyse(page, 1);
      pages.push(page);
    }
    const late = await openPage();
    await late.goto(`${base}/analysis?fen=${encodeURIComponent(BH6)}`);
    await late.getByRole('button', { name: 'Analyse' }).click();
    await late.locator('.live-status', { hasText: 'live analyses run already' }).waitFor({ timeout: 10_000 });
    for (const page of pages) await page.context().close();
    await untilIdle(base);
    await late.context().close();
  });

  test('beside the PGN browser: the lines follow the moves', async () => {
    const base = server.url;
    const page = await openPage();
    await page.goto(`${base}/`);
    await page.locator('#moves[aria-busy="false"]').waitFor();
    await analyse(page, 2);
    const fen = await page.locator('#fen').textContent();
    const legal = (await json(base, `/api/position?fen=${encodeURIComponent(fen)}`)).legal_moves.map((m) => m.san);
    assert.ok(legal.includes((await shownLines(page))[0].moves[0]));
    // The next move of the game: the lines are the new position's.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((f) => document.querySelector('#fen')?.textContent !== f, fen);
    const next = await page.locator('#fen').textContent();
    const nextLegal = (await json(base, `/api/position?fen=${encodeURIComponent(next)}`)).legal_moves.map((m) => m.san);
    await page.waitForFunction(
      (sans) => {
        const first = document.querySelector('.live-line .live-move')?.textContent;
        return first !== undefined && sans.includes(first);
      },
      nextLegal,
      { timeout: 20_000 },
    );
    assert.deepEqual(page.errors, []);
    await page.context().close();
    await untilIdle(base);
  });
});

describe('Live analysis with Stockfish', { skip: existsSync(STOCKFISH) ? false : `${STOCKFISH} is not installed` }, () => {
  test('the page names it, shows its lines, and its process rests once the page closes', async () => {
    const sf = await startServer(['--engine', STOCKFISH, '--engine-option', 'Hash=16']);
    try {
      const page = await newPage(browser);
      await page.goto(`${sf.url}/analysis?fen=${encodeURIComponent(BH6)}`);
      await page.locator('.live-engine', { hasText: 'Stockfish' }).waitFor();
      await analyse(page, 2);
      // Stockfish finds 40. Bh6 (and mates) at once.
      await page.waitForFunction(() => document.querySelector('.live-line .live-move')?.textContent === 'Bh6', null, { timeout: 20_000 });
      const busy = await ticksOver(sf.child.pid, 1000, true);
      await page.context().close();
      await untilIdle(sf.url);
      const idle = await ticksOver(sf.child.pid, 1000, true);
      assert.ok(busy >= 20, `Stockfish searching used only ${busy} ticks in 1 s`);
      assert.ok(idle <= 10, `the server and Stockfish used ${idle} ticks in 1 s after the page closed`);
    } finally {
      sf.child.kill();
      rmSync(sf.dataDir, { recursive: true, force: true });
    }
  });
});
