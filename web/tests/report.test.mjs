// The game report in the PGN browser, in headless Chromium against `tabla serve` (harness.mjs: a
// fresh data directory, so the evaluation cache starts empty):
// - a game with `[%eval]` comments shows its graph and report at once, the marks in the move list
//   being those lichess's rules give (worked out by hand in crates/tabla-web/tests/review.rs) and
//   the accuracies those of the server's JSON; a click on the graph goes to the move (FEN written
//   by hand); "Download annotated PGN" gives the PGN with its evaluations and marks;
// - a game without evaluations is reviewed with the Review button (tabla's engine), and shown
//   from the cache, without the button, when the page is opened again; a review cancelled frees
//   the engine for the next one;
// - a game with its annotator's glyphs keeps them, in the move list and the annotated PGN, the
//   engine's mark a separate badge beside them (docs/review.md).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launchBrowser, newPage, startServer } from './harness.mjs';

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
});

const EVALS_PGN = `[Event "Trap"]
[White "Victim"]
[Black "Trapper"]
[Result "*"]

1. e4 { [%eval 0.2] } 1... e5 { [%eval 0.25] } 2. Nf3 { [%eval 0.2] } 2... Nc6 { [%eval 0.3] }
3. Bc4 { [%eval 0.2] } 3... Nd4 { [%eval 0.9] } 4. Nxe5 { [%eval -3.0] } 4... Qg5 { [%eval -1.5] }
5. Nxf7 { [%eval -1.6] } 5... Qxg2 { [%eval -0.6] } 6. Rf1 { [%eval -1.4] } 6... Qxe4+ { [%eval -9.0] } *
`;

/** After 4. Nxe5 (by hand: the knight on e5, Black's on d4, White's bishop on c4). */
const AFTER_NXE5 = 'r1bqkbnr/pppp1ppp/8/4N3/2BnP3/8/PPPP1PPP/RNBQK2R b KQkq - 0 4';

const SHORT_PGN = `[White "Engine test"]
[Black "Opponent"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *
`;

const LONG_PGN = `[White "Long"]
[Black "Game"]

1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Bd3 d5 6. Nf3 c5 7. O-O Nc6 8. a3 Bxc3 9. bxc3 dxc4
10. Bxc4 Qc7 11. Bd3 e5 12. Qc2 Re8 13. e4 exd4 14. cxd4 Bg4 15. e5 Bxf3 16. exf6 Nxd4 *
`;

/** Loads PGN through the paste box and waits for its first game. */
async function loadPgn(page, text) {
  await page.locator('#pgn-input').fill(text);
  await page.locator('#load-pgn').click();
  await page.locator('.load-msg .msg-ok').waitFor();
  await page.locator('#moves[aria-busy="false"]').waitFor();
}

/** The server's answer for a game from evals or the cache (what the page must show). */
async function serverReview(page, pgn) {
  return page.evaluate(async (text) => {
    const res = await fetch('/api/review?cached=1', { method: 'POST', body: text });
    return res.json();
  }, pgn);
}

describe('the game report', () => {
  test('a game with evals: graph, marks, accuracies, click to a move, annotated PGN', async () => {
    const page = await newPage(browser);
    await page.goto(`${base}/`);
    await loadPgn(page, EVALS_PGN);
    const report = page.locator('section.review[data-reviewed="evals"]');
    await report.waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.eval-graph').getAttribute('data-points'), '13');

    // The marks in the move list, in lichess's colours.
    const marked = await page.locator('#moves .mv.main').evaluateAll((els) =>
      els
        .filter((el) => el.querySelector('.review-mark'))
        .map((el) => [el.getAttribute('aria-label'), el.querySelector('.review-mark').textContent, getComputedStyle(el.querySelector('.review-mark')).color]),
    );
    assert.deepEqual(marked, [
      ['3... Nd4', '?!', 'rgb(86, 180, 233)'],
      ['4. Nxe5', '??', 'rgb(223, 83, 83)'],
      ['4... Qg5', '?', 'rgb(230, 159, 0)'],
      ['5... Qxg2', '?!', 'rgb(86, 180, 233)'],
      ['6. Rf1', '?!', 'rgb(86, 180, 233)'],
    ]);
    // Dots on the graph for the same five moves.
    assert.equal(await page.locator('.eval-graph .eg-dot').count(), 5);

    // Accuracies and counts as the server's JSON gives them.
    const answer = await serverReview(page, EVALS_PGN);
    const row = (side) => page.locator(`.review-side-${side} td`).allTextContents();
    for (const side of ['white', 'black']) {
      const s = answer.review[side];
      assert.deepEqual(await row(side), [`${s.accuracy.toFixed(1)}%`, String(s.inaccuracies), String(s.mistakes), String(s.blunders), String(s.acpl)]);
    }
    assert.deepEqual(await row('white'), [`${answer.review.white.accuracy.toFixed(1)}%`, '1', '0', '1', String(answer.review.white.acpl)]);
    assert.deepEqual((await row('black')).slice(1, 4), ['2', '1', '0']);

    // A click on the graph at the 7th point after the start goes to 4. Nxe5.
    const graph = page.locator('.eval-graph');
    const box = await graph.boundingBox();
    const at = { x: (box.width * 7) / 12, y: box.height / 2 };
    await graph.hover({ position: at });
    await page.locator('.eg-tip:not([hidden])').waitFor();
    assert.match(await page.locator('.eg-tip').textContent(), /^4\. Nxe5\?\? -3\.00$/);
    await graph.click({ position: at });
    await page.waitForFunction((e) => document.querySelector('#fen')?.textContent === e, AFTER_NXE5);
    assert.equal(await page.locator('#moves .mv.active').getAttribute('aria-label'), '4. Nxe5');
    assert.equal(await page.locator('.eval-graph').getAttribute('data-current'), '7');
    assert.match(await page.locator('.review-best').textContent(), /4\. Nxe5\?\? Blunder \(\+0\.90 → -3\.00\)/);

    // The annotated PGN.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.review-download').click()]);
    const text = readFileSync(await download.path(), 'utf8');
    assert.match(download.suggestedFilename(), /^Victim-Trapper-review\.pgn$/);
    assert.match(text, /\[%eval /);
    assert.match(text, /4\. Nxe5 \$4/);
    assert.match(text, /\[WhiteAccuracy "/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a game without evals: reviewed with the button, then shown from the cache', async () => {
    const page = await newPage(browser);
    await page.goto(`${base}/`);
    await loadPgn(page, SHORT_PGN);
    await page.locator('.review-status', { hasText: 'Not reviewed yet' }).waitFor();
    assert.equal(await page.locator('.eval-graph').count(), 0);
    await page.locator('.review-button').click();
    await page.locator('section.review[data-reviewed="engine"]').waitFor({ timeout: 120_000 });
    assert.equal(await page.locator('.eval-graph').getAttribute('data-points'), '11');
    const answer = await serverReview(page, SHORT_PGN);
    assert.equal(answer.source, 'engine');
    assert.equal(answer.from_cache, answer.positions);
    assert.equal(await page.locator('.review-side-white .review-accuracy').textContent(), `${answer.review.white.accuracy.toFixed(1)}%`);
    // The marks shown are the review's.
    const marks = answer.review.moves.filter((m) => m.judgement).length;
    assert.equal(await page.locator('#moves .mv.main .review-mark').count(), marks);

    // Opened again, the game shows its report from the cache, with no Review button.
    await page.reload();
    await page.locator('#moves[aria-busy="false"]').waitFor();
    await page.locator('section.review[data-reviewed="engine"]').waitFor({ timeout: 10_000 });
    assert.match(await page.locator('.review-status').textContent(), /From the evaluation cache/);
    assert.equal(await page.locator('.review-button').isVisible(), false);
    // A click on the graph's last point goes to the last move, 5... Be7.
    const graph = page.locator('.eval-graph');
    const box = await graph.boundingBox();
    await graph.click({ position: { x: box.width - 2, y: box.height / 2 } });
    await page.waitForFunction(() => document.querySelector('#moves .mv.active')?.getAttribute('aria-label') === '5... Be7');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("the annotator's marks: kept in the annotated PGN, the engine's a badge apart", async () => {
    // EVALS_PGN with a master's glyphs on two moves the review marks, and a comment.
    const pgn = EVALS_PGN.replace('3... Nd4 {', '3... Nd4! {').replace('4. Nxe5 {', '4. Nxe5!? { A trap? } {');
    assert.notEqual(pgn, EVALS_PGN);
    const page = await newPage(browser);
    await page.goto(`${base}/`);
    await loadPgn(page, pgn);
    await page.locator('section.review[data-reviewed="evals"]').waitFor({ timeout: 10_000 });
    const shown = (label) =>
      page.locator(`#moves .mv.main[aria-label="${label}"]`).evaluate((mv) => {
        const nag = mv.querySelector('.nag');
        const badge = mv.querySelector('.review-badge');
        return {
          nag: nag?.textContent,
          badge: badge?.textContent,
          title: badge?.getAttribute('title'),
          border: badge ? getComputedStyle(badge).borderTopStyle : '',
          gap: nag && badge ? badge.getBoundingClientRect().left - nag.getBoundingClientRect().right : 0,
        };
      });
    for (const [label, nag, badge, title] of [
      ['3... Nd4', '!', '?!', 'Engine: Inaccuracy'],
      ['4. Nxe5', '!?', '??', 'Engine: Blunder'],
    ]) {
      const s = await shown(label);
      assert.deepEqual([s.nag, s.badge, s.title, s.border], [nag, badge, title, 'solid'], label);
      assert.ok(s.gap >= 2, `${label}: the badge ${s.gap}px from the glyph`);
    }
    // An unassessed move marked by the engine: its badge, no glyph of the game.
    assert.deepEqual(await shown('4... Qg5').then((s) => [s.nag, s.badge]), [undefined, '?']);

    // The annotated PGN keeps the master's NAGs alone and the comment, the engine's words after.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.review-download').click()]);
    const words = readFileSync(await download.path(), 'utf8').split(/\s+/).join(' ');
    assert.match(words, /3\.\.\. Nd4 \$1 \{ \(0\.20 → 0\.90\) Inaccuracy\. \} \{ \[%eval 0\.9\] \}/);
    assert.match(words, /4\. Nxe5 \$5 \{ A trap\? \} \{ \(0\.90 → -3\.00\) Blunder\. \} \{ \[%eval -3(\.0+)?\] \}/);
    assert.match(words, /4\.\.\. Qg5 \$2 /);
    assert.doesNotMatch(words, /Nd4 \$1 \$6|Nxe5 \$5 \$4/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a cancelled review frees the engine for the next one', async () => {
    const page = await newPage(browser);
    await page.goto(`${base}/`);
    await loadPgn(page, LONG_PGN);
    await page.locator('.review-status', { hasText: 'Not reviewed yet' }).waitFor();
    await page.locator('.review-button').click();
    await page.locator('.review-status', { hasText: /Reviewing… \d+ of 33 positions/ }).waitFor();
    await page.locator('.review-cancel').click();
    await page.locator('.review-status', { hasText: 'Review cancelled.' }).waitFor();
    // The server's engines stopped: within a few seconds another review is not refused (429).
    let status = 429;
    for (let i = 0; i < 50 && status === 429; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = await page.evaluate(async (text) => {
        const controller = new AbortController();
        const res = await fetch('/api/review', { method: 'POST', body: text, signal: controller.signal });
        controller.abort();
        return res.status;
      }, SHORT_PGN);
    }
    assert.equal(status, 200);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
