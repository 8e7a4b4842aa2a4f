// The app: one bundle, four pages chosen by the path.

import { analysisPage } from './analysis-page';
import { gamesPage } from './games-page';
import { kbnkPage } from './kbnk-page';
import { pgnPage } from './pgn-page';

const pages: Record<string, { name: string; start: (root: HTMLElement) => void }> = {
  pgn: { name: 'PGN browser', start: pgnPage },
  kbnk: { name: 'KBNK explorer', start: kbnkPage },
  analysis: { name: 'Analysis', start: analysisPage },
  games: { name: 'Games', start: gamesPage },
};

function main(): void {
  const path = location.pathname.replace(/^\/+|\/+$/g, '');
  const key = path in pages ? path : 'pgn';
  const page = pages[key];
  document.title = `${page.name} · tabla`;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('nav a[data-page]')) {
    if (a.dataset.page === key) a.setAttribute('aria-current', 'page');
  }
  const root = document.getElementById('main') as HTMLElement;
  root.replaceChildren();
  root.dataset.page = key;
  page.start(root);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
else main();
