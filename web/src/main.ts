// The app: one bundle, four pages chosen by the path (`/kbnk` is the endgame explorer on its
// KBNvK preset, for the links made before it held every ending).

import { analysisPage } from './analysis-page';
import { gamesPage } from './games-page';
import { endgamePage } from './endgame-page';
import { pgnPage } from './pgn-page';

const pages: Record<string, { name: string; start: (root: HTMLElement) => void; nav?: string }> = {
  pgn: { name: 'PGN browser', start: pgnPage },
  endgame: { name: 'Endgame explorer', start: (root) => endgamePage(root) },
  kbnk: { name: 'Endgame explorer', start: (root) => endgamePage(root, 'KBNvK'), nav: 'endgame' },
  analysis: { name: 'Analysis', start: analysisPage },
  games: { name: 'Games', start: gamesPage },
};

function main(): void {
  const path = location.pathname.replace(/^\/+|\/+$/g, '');
  const key = path in pages ? path : 'pgn';
  const page = pages[key];
  document.title = `${page.name} · tabla`;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('nav a[data-page]')) {
    if (a.dataset.page === (page.nav ?? key)) a.setAttribute('aria-current', 'page');
  }
  const root = document.getElementById('main') as HTMLElement;
  root.replaceChildren();
  root.dataset.page = page.nav ?? key;
  page.start(root);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
else main();
