// What the browser tests share: the tabla binary they run (the first word of TABLA_SERVE, as
// scripts/test.sh sets it; default target/debug/tabla), a server started on a free port with its
// address read from stderr, headless Chromium, and a page that records its script errors.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../..');
export const serveCommand = process.env.TABLA_SERVE ?? `${join(repo, 'target/debug/tabla')} serve --port 0`;
export const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const tabla = serveCommand.split(' ').filter(Boolean)[0];

/** Runs the tabla binary with `args`; its standard output (the test fails on a non-zero exit). */
export function run(args, env = {}) {
  const r = spawnSync(tabla, args, { cwd: repo, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.error) throw new Error(`cannot run ${tabla}: ${r.error.message}`);
  assert.equal(r.status, 0, `tabla ${args.join(' ')}:\n${r.stderr}`);
  return r.stdout;
}

/**
 * Starts TABLA_SERVE with `args` added, in a fresh data directory (XDG_DATA_HOME and
 * TABLA_ENDGAME_DIR in a temporary folder, so that the evaluation cache and the tables start
 * empty unless `env` says otherwise). Resolves to `{ child, url, dataDir }` once the server
 * prints its address.
 */
export function startServer(args = [], env = {}) {
  const [cmd, ...rest] = serveCommand.split(' ').filter(Boolean);
  const dataDir = mkdtempSync(join(tmpdir(), 'tabla-web-test-'));
  const child = spawn(cmd, [...rest, ...args], {
    cwd: repo,
    env: { ...process.env, XDG_DATA_HOME: dataDir, TABLA_ENDGAME_DIR: join(dataDir, 'tabla'), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolveStart, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 120_000);
    child.on('error', (e) => reject(new Error(`cannot run ${cmd}: ${e.message}`)));
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${log}`)));
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const m = log.match(/listening on (http:\/\/[^\s/]+)\//);
      if (m) {
        clearTimeout(timer);
        resolveStart({ child, url: m[1], dataDir, log: () => log });
      }
    });
  });
}

/** Headless Chromium. */
export function launchBrowser() {
  return chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
}

/** A page of `width` x `height` whose uncaught script errors gather in `page.errors`. */
export async function newPage(browser, width = 1280, height = 900) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.errors = errors;
  return page;
}
