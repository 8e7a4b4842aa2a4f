// Browser tests: headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core,
// against the real server on loopback: `tabla serve --port 0` (scripts/test.sh builds it and
// runs these; or set TABLA_SERVE to another command line, such as "target/release/tabla serve"),
// started by harness.mjs.
//
// Expected FENs come from python-chess; endgame values are hand-checked mates and the server's
// own JSON answer for the same position (the page must show what the API says). The endgame
// tables the explorer reads are built first, by the same binary (`tabla tb build KRvK`), into a
// temporary directory given to the server with --tb-dir.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, newPage as harnessPage, run, startServer } from './harness.mjs';

let server;
let base;
let browser;
let tables;

/** Builds the endgame tables the explorer's tests read, with the binary of TABLA_SERVE. */
function buildTables() {
  const dir = mkdtempSync(join(tmpdir(), 'tabla-web-tb-'));
  run(['tb', 'build', 'KRvK', '--dir', dir]);
  return dir;
}

before(async () => {
  tables = buildTables();
  // The endgame folder these tests have always given the server, kept between runs.
  const endgameDir = join(tmpdir(), 'tabla-web-browser-tests');
  mkdirSync(endgameDir, { recursive: true });
  server = await startServer(['--tb-dir', tables], { TABLA_ENDGAME_DIR: endgameDir });
  base = server.url;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.child.kill();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
  if (tables) rmSync(tables, { recursive: true, force: true });
});

const newPage = (width = 1280, height = 900) => harnessPage(browser, width, height);

const fen = (page) => page.locator('#fen').textContent();

/** Waits until the FEN shown is `expected` (the board reports changes a moment later). */
async function waitForFen(page, expected) {
  try {
    await page.waitForFunction((e) => document.querySelector('#fen')?.textContent === e, expected, { timeout: 5000 });
  } catch {
    assert.equal(await fen(page), expected);
  }
}
const active = (page) => page.locator('#moves .mv.active').textContent();

/** Waits until the game asked for is drawn (the move list is busy until then). */
const gameShown = (page) => page.locator('#moves[aria-busy="false"]').waitFor();

/** Loads PGN text through the page's paste box: the list, then the first game. */
async function loadPgn(page, text) {
  await page.locator('#pgn-input').fill(text);
  await page.locator('#load-pgn').click();
  await page.locator('.load-msg .msg-ok').waitFor();
  await gameShown(page);
}

/** Opens the game of row `n` of the list. */
async function openRow(page, n) {
  await page.locator('#games tbody tr').nth(n).click();
  await gameShown(page);
}

const TEST_PGN = `[Event "Browser test"]
[White "White Player"]
[Black "Black Player"]
[Result "*"]

1. e4 { King's pawn } e5 (1... c5 { Sicilian } 2. Nf3 (2. c3) d6) 2. Nf3 Nc6 $1 *
`;

// python-chess, Board.fen(en_passant="fen"): the FEN after each move (tabla-pgn records the
// en-passant square after every double push, as the PGN standard's FEN does).
const FEN = {
  start: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  e4: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
  e5: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2',
  Nf3: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2',
  Nc6: 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3',
  c5: 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2',
  c5Nf3: 'rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2',
  c5Nf3d6: 'rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3',
  d4: 'rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1',
};

describe('PGN browser', () => {
  test('opens with the sample games', async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    await page.locator('#games tbody tr').nth(1).waitFor();
    await gameShown(page);
    assert.equal(await page.locator('#games tbody tr').count(), 2);
    assert.equal(await fen(page), FEN.start);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('steps with the keys, shows comments, variations and NAGs, keeps the URL', async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    await page.locator('#games tbody tr').first().waitFor();
    await loadPgn(page, TEST_PGN);
    assert.equal(await fen(page), FEN.start);

    await page.keyboard.press('ArrowRight');
    assert.equal(await fen(page), FEN.e4);
    assert.equal(await active(page), 'e4');
    assert.match(await page.locator('.move-info').textContent(), /King's pawn/);
    await page.keyboard.press('ArrowRight');
    assert.equal(await fen(page), FEN.e5);
    assert.equal(await active(page), 'e5');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await fen(page), FEN.Nc6);
    assert.equal(await active(page), 'Nc6!');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await fen(page), FEN.Nf3);
    assert.equal(await active(page), 'Nf3');
    await page.keyboard.press('Home');
    assert.equal(await fen(page), FEN.start);
    assert.equal(await page.locator('#moves .mv.active').count(), 0);
    await page.keyboard.press('End');
    assert.equal(await fen(page), FEN.Nc6);
    await page.keyboard.press('ArrowUp');
    assert.equal(await fen(page), FEN.start);

    // Into the variation by clicking, then along it with the keys.
    await page.locator('#moves .variation .mv', { hasText: 'c5' }).click();
    assert.equal(await fen(page), FEN.c5);
    assert.equal(await active(page), 'c5');
    assert.match(await page.locator('.move-info').textContent(), /Sicilian/);
    await page.keyboard.press('ArrowRight');
    assert.equal(await fen(page), FEN.c5Nf3);
    await page.keyboard.press('ArrowDown');
    assert.equal(await fen(page), FEN.c5Nf3d6);
    assert.equal(await active(page), 'd6');

    // The URL names the game and the position: a reload comes back to it.
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('game'), '1');
    assert.ok(url.searchParams.get('ply'));
    await page.reload();
    await page.locator('#moves .mv.active').waitFor();
    assert.equal(await fen(page), FEN.c5Nf3d6);

    // Long notation, at the end of the mainline.
    await page.keyboard.press('Home');
    await page.keyboard.press('End');
    await page.getByRole('button', { name: 'SAN' }).click();
    assert.equal(await page.locator('#moves .mv.active').textContent(), 'Nb8-c6!');
    await page.getByRole('button', { name: 'Long notation' }).click();

    // Flip with f: the a8 coordinate moves to the bottom.
    const before = await page.locator('.board').getAttribute('class');
    await page.keyboard.press('f');
    assert.equal(await page.locator('.cg-wrap.orientation-black').count(), 1, before);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('without a game database the explorer and the games page say how to make one', async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    await page.locator('#explorer .db-none').waitFor();
    assert.match(await page.locator('#explorer').textContent(), /tabla db import GAMES\.pgn --db DIR.*tabla serve --db DIR/);
    await page.goto(`${base}/games`);
    await page.locator('.db-none').waitFor();
    assert.match(await page.locator('.db-none').textContent(), /tabla db import GAMES\.pgn --db DIR/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('a damaged game shows its error and the other games still work', async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    await page.locator('#games tbody tr').first().waitFor();
    const pgn =
      '[White "A"]\n[Black "a"]\n\n1. e4 e5 2. Nf3 *\n\n' +
      '[White "B"]\n[Black "b"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n' +
      '[White "C"]\n[Black "c"]\n\n1. d4 d5 *\n';
    await loadPgn(page, pgn);
    const rows = page.locator('#games tbody tr');
    assert.equal(await rows.count(), 3);
    assert.match(await page.locator('.load-msg').textContent(), /3 games loaded, 1 with errors/);
    assert.equal(await rows.nth(1).getAttribute('class'), 'damaged');
    await openRow(page, 1);
    const error = await page.locator('.game-error').textContent();
    // "2. Ke3" is on line 9, column 13 of the pasted text.
    assert.match(error, /9:13/);
    assert.match(error, /Ke3/);
    assert.match(error, /illegal/);
    await page.keyboard.press('End');
    assert.equal(await fen(page), FEN.e5);
    await openRow(page, 2);
    assert.equal(await page.locator('.game-error').count(), 0);
    await page.keyboard.press('ArrowRight');
    assert.equal(await fen(page), FEN.d4);
    // The filter narrows the list.
    await page.locator('.filter').fill('B');
    assert.equal(await rows.count(), 1);
    await page.context().close();
  });

  test('a file chosen shows the list, then the first board; other games open from it', async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    await gameShown(page);
    // Latin-1 bytes (ü is 0xFC) and CRLF line ends, as older databases write them; the third
    // game has a stray "}" (a warning), the fourth an illegal move (an error).
    const text =
      '[Event "File test"]\r\n[White "M\u00fcller"]\r\n[Black "Petrosian"]\r\n[Result "1-0"]\r\n\r\n1. d4 1-0\r\n\r\n' +
      '[Event "File test"]\r\n[White "Second"]\r\n[Black "Player"]\r\n\r\n1. e4 e5 2. Nf3 Nc6 $1 *\r\n\r\n' +
      '[Event "File test"]\r\n[White "Third"]\r\n[Black "Warned"]\r\n\r\n1. e4 } e5 *\r\n\r\n' +
      '[Event "File test"]\r\n[White "Fourth"]\r\n[Black "Damaged"]\r\n\r\n1. e4 e5 2. Ke3 *\r\n';
    const buffer = Buffer.from(text, 'latin1');
    await page.locator('#pgn-file').setInputFiles({ name: 'games.pgn', mimeType: 'application/x-chess-pgn', buffer });
    await page.locator('.load-msg .msg-ok').waitFor();
    assert.match(await page.locator('.load-msg').textContent(), /^4 games loaded, 1 with errors, 1 warning\.$/);
    await gameShown(page);
    const rows = page.locator('#games tbody tr');
    assert.equal(await rows.count(), 4);
    assert.match(await page.locator('.game-title').textContent(), /^Müller – Petrosian\s+1-0$/);
    assert.equal(await fen(page), FEN.start);
    await page.keyboard.press('End');
    assert.equal(await fen(page), FEN.d4);

    // Another game: its moves come when it is opened.
    await openRow(page, 1);
    assert.match(await page.locator('.game-title').textContent(), /^Second – Player/);
    assert.equal(await rows.nth(1).getAttribute('aria-selected'), 'true');
    await page.keyboard.press('End');
    assert.equal(await fen(page), FEN.Nc6);
    assert.equal(await active(page), 'Nc6!');
    assert.equal(new URL(page.url()).searchParams.get('game'), '2');

    // The game's PGN is the server's export format.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PGN' }).click();
    const saved = await (await download).createReadStream();
    let written = '';
    for await (const chunk of saved) written += chunk;
    assert.match(written, /^\[Event "File test"\]\n/);
    assert.match(written, /\[White "Second"\]\n/);
    assert.match(written, /\n1\. e4 e5 2\. Nf3 Nc6 \$1 \*\n/);

    // A warning is shown quietly: a badge in the list, a closed line under the board.
    assert.equal(await rows.nth(2).locator('.warn-badge').count(), 1);
    assert.match(await rows.nth(2).getAttribute('title'), /unexpected character/);
    assert.equal(await page.locator('.game-warnings').count(), 0);
    await openRow(page, 2);
    assert.match(await page.locator('.game-warnings summary').textContent(), /^1 warning/);
    assert.equal(await page.locator('.game-error').count(), 0);
    await page.keyboard.press('End');
    assert.equal(await fen(page), FEN.e5);

    // An error as before, with its line in the whole file.
    await openRow(page, 3);
    assert.match(await page.locator('.game-error').textContent(), /game 4, 24:13.*Ke3.*illegal/);

    // A reload comes back to the file and the game (kept in IndexedDB).
    await openRow(page, 1);
    await page.keyboard.press('ArrowRight');
    await page.reload();
    await page.locator('#moves .mv.active').waitFor();
    assert.equal(await fen(page), FEN.e4);
    assert.equal(await rows.count(), 4);
    assert.match(await page.locator('.game-title').textContent(), /^Second – Player/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

/** The centre of a square of the board in page coordinates (White at the bottom). */
async function squareCentre(page, square) {
  const box = await page.locator('.board cg-board').boundingBox();
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  return { x: box.x + ((file + 0.5) * box.width) / 8, y: box.y + ((7.5 - rank) * box.height) / 8 };
}

async function drag(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

async function dragFromTray(page, role, color, square) {
  const box = await page.locator(`.spare piece.${role}.${color}`).boundingBox();
  await drag(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, await squareCentre(page, square));
}

describe('Endgame explorer', () => {
  test('/kbnk opens the KBNvK preset; men dragged from the tray give the distance and the best move', async () => {
    const page = await newPage();
    await page.goto(`${base}/kbnk`);
    await waitForFen(page, '8/8/8/3k4/8/8/8/KBN5 w - - 0 1');
    await page.locator('#endgame-distance').waitFor();
    assert.equal(await page.locator('#endgame-material').textContent(), 'KBNvK');
    assert.equal(await page.locator('nav a[aria-current="page"]').textContent(), 'Endgame explorer');
    await page.getByRole('button', { name: 'Clear' }).click();
    assert.match(await page.locator('#endgame-verdict').textContent(), /Place the white king and the black king/);

    await dragFromTray(page, 'king', 'white', 'b6');
    await dragFromTray(page, 'bishop', 'white', 'e6');
    await dragFromTray(page, 'knight', 'white', 'a6');
    await dragFromTray(page, 'king', 'black', 'a8');
    await waitForFen(page, 'k7/8/NK2B3/8/8/8/8/8 w - - 0 1');
    // Hand-checked (and python-chess): Bd5# is the only mate.
    await page.locator('#endgame-distance', { hasText: 'mates' }).waitFor();
    assert.equal(await page.locator('#endgame-distance').textContent(), 'White mates in 1 move (1 ply)');
    assert.equal(await page.locator('#endgame-best').textContent(), 'Bd5#');
    assert.ok((await page.locator('.board svg.cg-shapes line, .board svg.cg-shapes path').count()) > 0, 'an arrow');
    assert.equal(new URL(page.url()).searchParams.get('fen'), 'k7/8/NK2B3/8/8/8/8/8 w - - 0 1');

    // Around the board: the knight from a6 to b4, then Black to move.
    await drag(page, await squareCentre(page, 'a6'), await squareCentre(page, 'b4'));
    await waitForFen(page, 'k7/8/1K2B3/8/1N6/8/8/8 w - - 0 1');
    await page.locator('label[for="turn-black"]').click();
    const blackFen = 'k7/8/1K2B3/8/1N6/8/8/8 b - - 0 1';
    await waitForFen(page, blackFen);
    const api = await (await page.request.get(`${base}/api/tb?fen=${encodeURIComponent(blackFen)}`)).json();
    const n = -api.dtm;
    await page.locator('#endgame-distance', { hasText: 'Black' }).waitFor();
    assert.equal(await page.locator('#endgame-distance').textContent(), `Black is mated in ${n} move${n === 1 ? '' : 's'} (${api.plies} plies)`);
    assert.equal(await page.locator('#endgame-moves tbody tr').count(), api.moves.length);

    // Play out to mate: ends in checkmate.
    await page.locator('#play-out').click();
    await page.locator('#endgame-distance', { hasText: 'checkmated' }).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('#endgame-distance').textContent(), 'Black is checkmated.');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('any ending: a built table answers, a queen from the tray changes the ending, a missing table says how to build it', async () => {
    const page = await newPage();
    await page.goto(`${base}/endgame`);
    await page.locator('#endgame-distance').waitFor();
    assert.equal(await page.locator('h1').textContent(), 'Endgame explorer');

    // The KRvK preset, from the table the harness built: what the API says.
    await page.getByRole('button', { name: 'KRvK', exact: true }).click();
    const krk = '8/8/8/3k4/8/8/8/KR6 w - - 0 1';
    await waitForFen(page, krk);
    const api = await (await page.request.get(`${base}/api/tb?fen=${encodeURIComponent(krk)}`)).json();
    assert.equal(api.material, 'KRvK');
    await page.locator('#endgame-material', { hasText: 'KRvK' }).waitFor();
    assert.equal(await page.locator('#endgame-distance').textContent(), `White mates in ${api.dtm} moves (${api.plies} plies)`);

    // Hand-checked: the king on b6 holds a7 and b7, Rh8 covers the eighth rank; Rh8# is the
    // only mate. Play best move plays it.
    await page.goto(`${base}/endgame?fen=${encodeURIComponent('k7/8/1K6/8/8/8/8/7R w - - 0 1')}`);
    await page.locator('#endgame-best', { hasText: 'Rh8#' }).waitFor();
    assert.equal(await page.locator('#endgame-distance').textContent(), 'White mates in 1 move (1 ply)');
    await page.locator('#play-best').click();
    await waitForFen(page, 'k6R/8/1K6/8/8/8/8/8 b - - 0 1');
    await page.locator('#endgame-distance', { hasText: 'checkmated' }).waitFor();

    // A white queen from the tray: KQRvK, whose table is not built.
    await dragFromTray(page, 'queen', 'white', 'd4');
    await waitForFen(page, 'k6R/8/1K6/8/3Q4/8/8/8 b - - 0 1');
    await page.locator('#endgame-missing').waitFor();
    assert.match(await page.locator('#endgame-missing').textContent(), /KQRvK is not built/);
    assert.match(await page.locator('#endgame-command').textContent(), /^tabla tb build KQRvK --dir /);

    // A preset whose table is missing: the exact command.
    await page.getByRole('button', { name: 'KQvKR', exact: true }).click();
    await page.locator('#endgame-missing', { hasText: 'KQvKR' }).waitFor();
    // The tables directory stays in the server's log: the command names it by its flag.
    assert.equal(await page.locator('#endgame-command').textContent(), 'tabla tb build KQvKR --dir TB_DIR');
    assert.equal(await page.locator('#endgame-distance').count(), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('illegal positions, too many men, castling, stalemate and draws are named', async () => {
    const page = await newPage();
    const cases = [
      ['8/8/8/8/8/8/8/KkBN4 w - - 0 1', /Illegal position: .*check/],
      ['k7/2K5/2N5/8/8/8/7B/8 b - - 0 1', /Stalemate: black has no move/],
      ['7K/8/8/8/8/8/Nk6/B7 b - - 0 1', /Draw: black captures a piece \(Kxa/],
      ['kqr5/8/8/8/8/8/8/KQR5 w - - 0 1', /^6 men on the board: the tables hold at most 5/],
      ['r3k3/8/8/8/8/8/8/4K3 w q - 0 1', /Not in the tables: .*castling/],
    ];
    for (const [position, expected] of cases) {
      await page.goto(`${base}/endgame?fen=${encodeURIComponent(position)}`);
      await page.locator('#endgame-verdict p').first().waitFor();
      await page.waitForFunction(() => !/^Place/.test(document.querySelector('#endgame-verdict')?.textContent ?? ''));
      const text = await page.locator('#endgame-verdict').textContent();
      assert.match(text, expected, position);
    }
    await page.context().close();
  });
});

describe('Analysis', () => {
  test('moves played on the board and taken back', async () => {
    const page = await newPage();
    const position = '6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40';
    await page.goto(`${base}/analysis?fen=${encodeURIComponent(position)}`);
    await waitForFen(page, position);

    // A legal move played on the board by dragging: the FEN follows.
    await drag(page, await squareCentre(page, 'h2'), await squareCentre(page, 'g2'));
    await waitForFen(page, '6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5RK1/8 b - - 2 40');
    // The moves played, numbered by the server from the FEN set.
    assert.equal(await page.locator('#analysis-line').textContent(), 'Moves: 40. Kg2');
    await page.getByRole('button', { name: 'Take back' }).click();
    await waitForFen(page, position);
    assert.equal(await page.locator('#analysis-line').textContent(), '');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
