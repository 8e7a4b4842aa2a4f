#!/usr/bin/env node
// Browser benchmark of the PGN browser: time from choosing a file (Playwright's setInputFiles on
// the page's file input) to the first board drawn, and the page's JS heap, for PGN files of
// exact sizes. Headless Debian chromium driven by playwright-core (web/'s devDependency), against
// `tabla serve --port 0` on loopback. Not part of the test suite; docs/performance.md has figures.
//
//   node scripts/bench/web_bench.mjs [--tabla target/release/tabla] [--old OTHER_TABLA] [--runs 5]
//                              [--sizes 1000000,16000000] [--data ../shared/data/pgn]
//
// --old runs the same measurement against another build (say, one from before the game index)
// whose page posts the whole file to POST /api/pgn; each binary serves its own front end.
//
// The files: whole games of lichess_db_1000k.pgn, then of twic1599_1000k.pgn, then of the first
// again, and so on, each file's games located by the server's own index (POST /api/pgn/index:
// the reader's game-start rule) and each file's last game left out (it may be cut short), until
// the next game would pass the size; then line ends pad the text to the exact size (they belong
// to the last game, as blank lines after it).
//
// "First board" is when, at an animation frame, the status line says all the games are loaded,
// the title names the first game and no game is still being fetched. Heap: JSHeapUsedSize of
// the page (CDP Performance.getMetrics) then, and again after HeapProfiler.collectGarbage. Each
// run is a new browser context (empty storage, new renderer); medians of the runs are printed.

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { chromium } = createRequire(join(repo, 'web/package.json'))('playwright-core');

function options() {
  const o = {
    tabla: join(repo, 'target/release/tabla'),
    old: null,
    runs: 5,
    sizes: [1_000_000, 16_000_000],
    data: resolve(repo, '../shared/data/pgn'),
    chromium: process.env.CHROMIUM ?? '/usr/bin/chromium',
  };
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i += 2) {
    const [name, value] = [args[i], args[i + 1]];
    if (value === undefined) throw new Error(`${name} needs a value`);
    if (name === '--tabla') o.tabla = resolve(value);
    else if (name === '--old') o.old = resolve(value);
    else if (name === '--runs') o.runs = Number(value);
    else if (name === '--sizes') o.sizes = value.split(',').map(Number);
    else if (name === '--data') o.data = resolve(value);
    else throw new Error(`unknown option ${name}`);
  }
  return o;
}

/** Starts `tabla serve --port 0` and reads its address from stderr. */
function startServer(tabla) {
  const dir = join(tmpdir(), 'tabla-web-bench');
  mkdirSync(dir, { recursive: true });
  const child = spawn(tabla, ['serve', '--port', '0'], {
    env: { ...process.env, TABLA_ENDGAME_DIR: dir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolveStart, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 120_000);
    child.on('error', (e) => reject(new Error(`cannot run ${tabla}: ${e.message}`)));
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const m = log.match(/listening on (http:\/\/[^\s/]+)\//);
      if (m) {
        clearTimeout(timer);
        resolveStart({ child, url: m[1] });
      }
    });
  });
}

async function index(base, bytes) {
  const res = await fetch(`${base}/api/pgn/index`, { method: 'POST', body: bytes });
  if (!res.ok) throw new Error(`index: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A PGN text of exactly `size` bytes made of whole games of `sources` (see the top). */
async function buildInput(base, sources, size) {
  const games = [];
  for (const bytes of sources) {
    const list = (await index(base, bytes)).games.slice(0, -1);
    // A byte-order mark belongs at the start of a file only.
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    games.push(list.map((g, i) => bytes.subarray(i === 0 ? bom : g.start, g.end)));
  }
  const parts = [];
  let length = 0;
  for (let round = 0; ; round++) {
    const list = games[round % games.length];
    for (const game of list) {
      if (length + game.length > size) {
        const text = Buffer.alloc(size, '\n');
        let at = 0;
        for (const p of parts) at += p.copy(text, at);
        return text;
      }
      parts.push(Buffer.from(game));
      length += game.length;
    }
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** One run: a new context, the page, the file chosen; time to the first board and heap. */
async function run(browser, base, file, expected) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/`);
  // The sample games first: the page is ready.
  await page.locator('#moves .mv').first().waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector('#moves')?.getAttribute('aria-busy') !== 'true');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const t0 = performance.now();
  await page.locator('#pgn-file').setInputFiles(file);
  await page.waitForFunction(
    ({ count, white }) => {
      const msg = document.querySelector('.load-msg .msg-ok')?.textContent ?? '';
      const title = document.querySelector('.game-title')?.textContent ?? '';
      const busy = document.querySelector('#moves')?.getAttribute('aria-busy') === 'true';
      return msg.startsWith(`${count} games loaded`) && title.startsWith(`${white} –`) && !busy;
    },
    expected,
    { polling: 'raf', timeout: 180_000 },
  );
  const ms = performance.now() - t0;
  const heap = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'JSHeapUsedSize').value / 1e6;
  };
  const heapNow = await heap();
  await cdp.send('HeapProfiler.collectGarbage');
  const heapGc = await heap();
  await context.close();
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  return { ms, heapNow, heapGc };
}

async function main() {
  const o = options();
  const sources = ['lichess_db_1000k.pgn', 'twic1599_1000k.pgn'].map((f) => readFileSync(join(o.data, f)));
  const current = await startServer(o.tabla);
  const servers = [{ name: 'index', ...current }];
  try {
    if (o.old) servers.push({ name: 'whole (--old)', ...(await startServer(o.old)) });
    const dir = join(tmpdir(), 'tabla-web-bench');
    const inputs = [];
    for (const size of o.sizes) {
      const bytes = await buildInput(current.url, sources, size);
      const path = join(dir, `bench-${size}.pgn`);
      writeFileSync(path, bytes);
      const list = (await index(current.url, bytes)).games;
      inputs.push({ size, path, expected: { count: list.length, white: list[0].tags.White ?? '?' } });
      console.error(`${path}: ${bytes.length} bytes, ${list.length} games`);
    }
    const browser = await chromium.launch({ executablePath: o.chromium, args: ['--no-sandbox'] });
    console.log('| flow | file | games | first board (ms) | JS heap (MB) | after GC (MB) |');
    console.log('|---|---|---|---|---|---|');
    try {
      for (const input of inputs) {
        for (const server of servers) {
          const runs = [];
          for (let i = 0; i < o.runs; i++) {
            runs.push(await run(browser, server.url, input.path, input.expected));
          }
          const f = (k, d) => median(runs.map((r) => r[k])).toFixed(d);
          console.log(
            `| ${server.name} | ${input.size.toLocaleString('en')} B | ${input.expected.count} | ${f('ms', 0)} | ${f('heapNow', 1)} | ${f('heapGc', 1)} |`,
          );
          console.error(`  runs (ms): ${runs.map((r) => r.ms.toFixed(0)).join(' ')}`);
        }
      }
    } finally {
      await browser.close();
    }
  } finally {
    for (const s of servers) s.child.kill();
  }
}

await main();
