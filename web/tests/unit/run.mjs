// Unit tests of the front end's pure modules: bundles tests/unit/*.test.ts with esbuild (Node 20
// does not run TypeScript) into a temporary folder and runs them there with node's test runner.
// `npm run unit`; scripts/test.sh runs it before the browser tests.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tests = readdirSync(here).filter((f) => f.endsWith('.test.ts')).sort();
if (tests.length === 0) {
  console.error(`no *.test.ts in ${here}`);
  process.exit(1);
}
const out = mkdtempSync(join(tmpdir(), 'tabla-web-unit-'));
try {
  await esbuild.build({
    entryPoints: tests.map((f) => join(here, f)),
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: ['node20'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  const files = tests.map((f) => join(out, f.replace(/\.ts$/, '.mjs')));
  const run = spawnSync(process.execPath, ['--enable-source-maps', '--test', ...files], { stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
