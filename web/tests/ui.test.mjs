// Browser tests of how the pages look and answer (issue 55): the move shown readable under the
// pointer, the move list's scroll and the game list's warning badge, FENs typed or in the
// address that do not read, addresses naming what is not there, the live analysis kept after
// Stop with the board's size kept, the promotion dialog, and the order of the panels on a phone.
// The server and the browser are harness.mjs's, as for browser.test.mjs; expected FENs come
// from python-chess.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { launchBrowser, newPage as harnessPage, startServer } from './harness.mjs';

let server;
let base;
let browser;

before(async () => {
  server = await startServer();
  base = server.url;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.child.kill();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
});

const newPage = (width = 1280, height = 900) => harnessPage(browser, width, height);
const gameShown = (page) => page.locator('#moves[aria-busy="false"]').waitFor();
const fenShown = (page) => page.locator('#fen').textContent();

/** Loads PGN text through the page's paste box: the list, then the first game. */
async function loadPgn(page, text) {
  await page.locator('#pgn-input').fill(text);
  await page.locator('#load-pgn').click();
  await page.locator('.load-msg .msg-ok').waitFor();
  await gameShown(page);
}

/** A game of `n` moves each side (knights out and back, legal all the way). */
function longGame(white, n) {
  const moves = [];
  for (let i = 0; i < n; i++) moves.push(i % 2 ? `${i + 1}. Ng1 Ng8` : `${i + 1}. Nf3 Nf6`);
  return `[Event "Long"]\n[White "${white}"]\n[Black "B"]\n[Result "*"]\n\n${moves.join(' ')} *\n`;
}

/** WCAG's contrast ratio of two CSS colours `rgb(r, g, b)`. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map((x) => {
      const v = Number(x) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const colours = (locator) => locator.evaluate((el) => {
  const s = getComputedStyle(el);
  return { color: s.color, background: s.backgroundColor };
});

describe('the move list', () => {
  test('the move shown stays readable under the pointer, marked by the review or not', async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    await loadPgn(page, longGame('A', 6));
    const move = page.locator('#moves .mv.main').nth(3);
    await move.click();
    await page.locator('#moves .mv.main.active').nth(0).waitFor();
    await page.mouse.move(0, 0);
    const still = await colours(move);
    await move.hover();
    const hovered = await colours(move);
    assert.deepEqual(hovered, still, 'the pointer does not change the shown move\'s colours');
    assert.ok(contrast(hovered.color, hovered.background) >= 4.5, `contrast ${contrast(hovered.color, hovered.background).toFixed(2)} of ${JSON.stringify(hovered)}`);
    // The review's marks colour the shown move too: the pointer leaves them as they are.
    for (const mark of ['mark-inaccuracy', 'mark-mistake', 'mark-blunder']) {
      await move.evaluate((el, m) => el.classList.add(m), mark);
      await page.mouse.move(0, 0);
      const plain = await colours(move);
      await move.hover();
      const over = await colours(move);
      assert.deepEqual(over, plain, mark);
      assert.ok(contrast(over.color, over.background) >= 3, `${mark}: contrast ${contrast(over.color, over.background).toFixed(2)}`);
      await move.evaluate((el, m) => el.classList.remove(m), mark);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('a new PGN loaded starts its move list at the top', async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    await loadPgn(page, longGame('First', 40));
    await page.keyboard.press('End');
    await page.locator('#moves .mv.active').waitFor();
    const scrolled = await page.locator('#moves').evaluate((el) => el.scrollTop);
    assert.ok(scrolled > 100, `the list scrolled to the last move (${scrolled})`);
    await loadPgn(page, longGame('Second', 40));
    assert.match(await page.locator('.game-title').textContent(), /^Second/);
    assert.equal(await page.locator('#moves').evaluate((el) => el.scrollTop), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("a game's warnings are a warning sign with their number, named in full", async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    await loadPgn(page, '[White "Clean"]\n\n1. e4 *\n\n[White "Warned"]\n\n1. e4 } e5 *\n');
    const badge = page.locator('#games tbody tr').nth(1).locator('.warn-badge');
    assert.equal(await badge.count(), 1);
    assert.equal(await page.locator('#games tbody tr').nth(0).locator('.warn-badge').count(), 0);
    const text = (await badge.textContent()).trim();
    assert.doesNotMatch(text, /!/, 'no "!", which reads as a move glyph');
    assert.match(text, /^\u26A0\uFE0E?1$/);
    assert.equal(await badge.getAttribute('role'), 'img');
    assert.equal(await badge.getAttribute('aria-label'), '1 warning while reading this game');
    assert.match(await badge.getAttribute('title'), /^1 warning while reading this game:\n.*unexpected character/);
    // It stands out from the row's text: a coloured, bordered badge.
    const look = await badge.evaluate((el) => {
      const s = getComputedStyle(el);
      return { border: s.borderTopStyle, background: s.backgroundColor, color: s.color };
    });
    assert.equal(look.border, 'solid');
    assert.notEqual(look.background, 'rgba(0, 0, 0, 0)');
    assert.ok(contrast(look.color, look.background) >= 4.5);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('FENs that do not read', () => {
  test("the endgame explorer's box: the server's reason, the board and the address unchanged", async () => {
    const page = await newPage();
    await page.goto(`${base}/endgame`);
    await page.locator('#endgame-distance').waitFor();
    const before = await fenShown(page);
    const url = page.url();
    await page.locator('#endgame-fen').fill('hello world');
    await page.locator('#endgame-fen').press('Enter');
    await page.locator('#endgame-fen-error .msg-error').waitFor();
    assert.match(await page.locator('#endgame-fen-error').textContent(), /^invalid FEN "hello world": FEN has 2 fields/);
    assert.equal(await fenShown(page), before);
    assert.equal(page.url(), url);
    // A FEN that reads (an illegal position the board can hold while men are placed) is set.
    await page.locator('#endgame-fen').fill('8/8/8/8/8/8/8/4K3 w - - 0 1');
    await page.locator('#endgame-fen').press('Enter');
    await page.waitForFunction(() => document.querySelector('#fen')?.textContent === '8/8/8/8/8/8/8/4K3 w - - 0 1');
    assert.equal(await page.locator('#endgame-fen-error').textContent(), '');
    assert.equal(new URL(page.url()).searchParams.get('fen'), '8/8/8/8/8/8/8/4K3 w - - 0 1');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("the analysis box: the server's reason, the board and the address unchanged", async () => {
    const page = await newPage();
    await page.goto(`${base}/analysis`);
    await page.locator('#fen', { hasText: /\S/ }).waitFor();
    const before = await fenShown(page);
    const url = page.url();
    await page.locator('#analysis-fen').fill('hello world');
    await page.locator('#analysis-go').click();
    await page.locator('.status .msg-error').waitFor();
    assert.match(await page.locator('.status').textContent(), /^invalid FEN "hello world": FEN has 2 fields/);
    assert.equal(await fenShown(page), before);
    assert.equal(page.url(), url);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('addresses that name what is not there', () => {
  test('the PGN browser: a game of the database, a game beyond the PGN, a position the game lacks', async () => {
    const page = await newPage();
    // This server has no game database: the game asked for cannot be shown, and the page says so.
    await page.goto(`${base}/?db=123&ply=4`);
    await gameShown(page);
    const notice = page.locator('#url-notice .msg-error');
    await notice.waitFor();
    assert.match(await notice.textContent(), /^The address asks for game 123 of the database, which cannot be shown: this server has no game database.*Showing game 1 of sample games instead\.$/);
    assert.equal(new URL(page.url()).searchParams.get('db'), null, 'the address now names what is shown');

    await page.goto(`${base}/?game=99`);
    await gameShown(page);
    await notice.waitFor();
    const games = await page.locator('#games tbody tr').count();
    assert.equal(await notice.textContent(), `There is no game "99" in sample games (${games} game${games === 1 ? '' : 's'}): showing game ${games}.`);

    await page.goto(`${base}/?game=1&ply=999`);
    await gameShown(page);
    await notice.waitFor();
    assert.equal(await notice.textContent(), 'Game 1 has no position "999": showing its start.');

    // What is there: nothing said.
    await page.goto(`${base}/?game=1&ply=2`);
    await gameShown(page);
    await page.locator('#moves .mv.active').waitFor();
    assert.equal(await page.locator('#url-notice').textContent(), '');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('the endgame explorer and the analysis board: a FEN that does not read', async () => {
    const page = await newPage();
    await page.goto(`${base}/endgame?fen=hello%20world`);
    await page.locator('#url-notice .msg-error').waitFor();
    assert.match(await page.locator('#url-notice').textContent(), /^The address asks for the FEN "hello world", which cannot be read: invalid FEN "hello world": FEN has 2 fields.*Showing KBNvK instead\.$/);
    await page.waitForFunction(() => document.querySelector('#fen')?.textContent === '8/8/8/3k4/8/8/8/KBN5 w - - 0 1');

    await page.goto(`${base}/analysis?fen=hello%20world`);
    await page.locator('#url-notice .msg-error').waitFor();
    assert.match(await page.locator('#url-notice').textContent(), /^The address asks for the FEN "hello world", which cannot be set: invalid FEN "hello world": FEN has 2 fields.*Showing the Bh6 position instead\.$/);
    await page.waitForFunction(() => document.querySelector('#fen')?.textContent === '6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('the live analysis', () => {
  test('Stop keeps the last answer; the bar coming does not resize the board', async () => {
    const page = await newPage();
    await page.goto(`${base}/analysis`);
    await page.locator('#fen', { hasText: /\S/ }).waitFor();
    const width = () => page.locator('.board').evaluate((el) => el.getBoundingClientRect().width);
    const before = await width();
    await page.locator('.live-toggle').click();
    await page.locator('.live-line').first().waitFor({ timeout: 30_000 });
    await page.locator('.eval-bar:not([hidden])').waitFor();
    assert.equal(await width(), before, 'the board keeps its width when the bar comes');
    const arrows = () => page.locator('.board svg.cg-shapes g line, .board .cg-shapes line').count();
    await page.waitForFunction(() => document.querySelectorAll('.board .cg-shapes line').length > 0);
    await page.locator('.live-toggle').click();
    assert.equal(await page.locator('.live-toggle').getAttribute('aria-pressed'), 'false');
    // A moment later the answer is still there: lines, the bar, the arrow.
    await page.waitForTimeout(500);
    assert.ok((await page.locator('.live-line').count()) > 0, 'the lines stay');
    assert.equal(await page.locator('.eval-bar').getAttribute('hidden'), null, 'the bar stays');
    assert.ok((await arrows()) > 0, 'the arrow stays');
    assert.match(await page.locator('.live-status').textContent(), /stopped|search ended/);
    assert.equal(await width(), before);
    // Another position: the answer for the one before goes, the board's width stays.
    await page.getByRole('button', { name: 'Start position' }).click();
    await page.waitForFunction(() => document.querySelector('#fen')?.textContent?.startsWith('rnbqkbnr/'));
    await page.waitForFunction(() => document.querySelectorAll('.live-line').length === 0);
    assert.equal(await page.locator('.eval-bar').getAttribute('hidden'), '');
    assert.equal(await width(), before);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('promotion', () => {
  /** The centre of `square` on the board (White at the bottom). */
  async function squareCentre(page, square) {
    const box = await page.locator('.board cg-board').boundingBox();
    const size = box.width / 8;
    const file = square.charCodeAt(0) - 97;
    const rank = Number(square[1]);
    return { x: box.x + (file + 0.5) * size, y: box.y + (8 - rank + 0.5) * size };
  }

  async function drag(page, from, to) {
    const a = await squareCentre(page, from);
    const b = await squareCentre(page, to);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
    await page.mouse.move(b.x, b.y, { steps: 4 });
    await page.mouse.up();
  }

  test('a pawn on the last rank asks what it becomes: a knight chosen is a knight', async () => {
    const page = await newPage();
    const start = '4k3/P7/8/8/8/8/8/4K3 w - - 0 1';
    await page.goto(`${base}/analysis?fen=${encodeURIComponent(start)}`);
    await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, start);
    await drag(page, 'a7', 'a8');
    const dialog = page.locator('.promotion[role="dialog"]');
    await dialog.waitFor();
    assert.deepEqual(await dialog.locator('.promotion-choice').evaluateAll((b) => b.map((x) => x.dataset.role)), ['queen', 'knight', 'rook', 'bishop']);
    // The queen on a8, the knight under it.
    const queen = await dialog.locator('[data-role="queen"]').boundingBox();
    const knight = await dialog.locator('[data-role="knight"]').boundingBox();
    const a8 = await squareCentre(page, 'a8');
    assert.ok(Math.abs(queen.x + queen.width / 2 - a8.x) < 2 && Math.abs(queen.y + queen.height / 2 - a8.y) < 2);
    assert.ok(Math.abs(knight.y - queen.y - queen.height) < 2);
    await page.screenshot({ path: process.env.TABLA_SHOTS ? `${process.env.TABLA_SHOTS}/promotion.png` : undefined });
    await dialog.locator('[data-role="knight"]').click();
    // python-chess: 4k3/P7/8/8/8/8/8/4K3 w - - 0 1, a7a8n.
    await page.waitForFunction(() => document.querySelector('#fen')?.textContent === 'N3k3/8/8/8/8/8/8/4K3 b - - 0 1');
    assert.equal(await dialog.count(), 0);

    // Escape takes the move back.
    await page.getByRole('button', { name: 'Take back' }).click();
    await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, start);
    await drag(page, 'a7', 'a8');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    assert.equal(await dialog.count(), 0);
    assert.equal(await fenShown(page), start);
    assert.equal(await page.locator('.board cg-board piece.pawn.white:not(.ghost)').count(), 1);
    assert.equal(await page.locator('.board cg-board piece.knight').count(), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('a phone (390 x 844)', () => {
  const top = (page, selector) => page.locator(selector).first().evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  const bottom = (page, selector) => page.locator(selector).first().evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY);

  async function noSideScroll(page) {
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'nothing wider than the screen');
  }

  test('the PGN browser: board, the engine, the moves, then the review, the explorer and the rest', async () => {
    const page = await newPage(390, 844);
    await page.goto(`${base}/`);
    await gameShown(page);
    const board = await bottom(page, '.board');
    const engine = await top(page, '.live');
    assert.ok(engine < 844, `the engine's panel starts on the first screen (${engine})`);
    assert.ok(engine > board, 'under the board');
    const moves = await top(page, '.moves-box');
    assert.ok(moves > engine, 'the moves after the engine');
    for (const later of ['.review', '#explorer', '.games-box', '.loader']) {
      assert.ok((await top(page, later)) > moves, `${later} after the moves`);
    }
    await noSideScroll(page);
    await page.screenshot({ path: process.env.TABLA_SHOTS ? `${process.env.TABLA_SHOTS}/phone-pgn.png` : undefined, fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("the analysis board and the endgame explorer: the engine's and the tables' answer under the board", async () => {
    const page = await newPage(390, 844);
    await page.goto(`${base}/analysis`);
    await page.locator('#fen', { hasText: /\S/ }).waitFor();
    const engine = await top(page, '.live');
    assert.ok(engine < 844 && engine > (await bottom(page, '.board')), `the engine's panel under the board, on the first screen (${engine})`);
    assert.ok((await top(page, '#explorer')) > engine);
    assert.ok((await top(page, '.fen-form')) > engine);
    await noSideScroll(page);
    await page.screenshot({ path: process.env.TABLA_SHOTS ? `${process.env.TABLA_SHOTS}/phone-analysis.png` : undefined, fullPage: true });

    await page.goto(`${base}/endgame`);
    await page.locator('#endgame-distance').waitFor();
    const verdict = await top(page, '#endgame-verdict');
    assert.ok(verdict > (await bottom(page, '.board')), 'under the board');
    assert.ok((await bottom(page, '#endgame-distance')) < 844, `the distance to mate on the first screen (${verdict})`);
    assert.ok((await top(page, '#endgame-moves')) > verdict);
    assert.ok((await top(page, '.fen-form')) > verdict);
    await noSideScroll(page);
    await page.screenshot({ path: process.env.TABLA_SHOTS ? `${process.env.TABLA_SHOTS}/phone-endgame.png` : undefined, fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
