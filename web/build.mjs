// Bundles the app with esbuild: node build.mjs [OUT_DIR] (default: dist).
// Writes index.html, app.js and app.css (chessground's CSS included) to OUT_DIR.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, 'dist'));
mkdirSync(out, { recursive: true });

await esbuild.build({
  entryPoints: { app: join(here, 'src/main.ts'), style: join(here, 'src/app.css') },
  outdir: out,
  bundle: true,
  minify: true,
  sourcemap: false,
  target: ['es2020'],
  format: 'esm',
  legalComments: 'eof',
  logLevel: 'warning',
});
cpSync(join(here, 'static'), out, { recursive: true });
