// What the PGN browser says about the open game as a whole: its title (players, event, date;
// the tags in a tooltip), a banner when it is damaged or could not be read, and its reading
// warnings, present but quiet, under the board.

import { type PgnState, gameTitle, plural } from './pgn-state';
import { h } from './util';

export interface GameHeader {
  /** The page's heading: the game's title. */
  title: HTMLElement;
  /** Above the board: the error of a damaged or unreadable game. */
  banner: HTMLElement;
  /** Under the board: the warnings while reading the game. */
  warnings: HTMLElement;
  /** Describes the open game of `state` (nothing without one). */
  render(state: PgnState): void;
  /** Game `i` (from 0) could not be read: `why`. */
  unreadable(i: number, why: string): void;
}

export function gameHeader(): GameHeader {
  const title = h('h1', { class: 'game-title' }, 'PGN browser');
  const banner = h('div', { class: 'banner' });
  const warnings = h('div', { class: 'warnings-box' });

  function render(state: PgnState): void {
    const { game: g, tree } = state;
    if (!g || !tree) return;
    const heading = gameTitle(g);
    title.textContent = heading.text;
    title.title = heading.tooltip;
    banner.replaceChildren();
    if (g.error) {
      banner.append(
        h(
          'div',
          { class: 'msg msg-error game-error', role: 'alert' },
          h('strong', {}, 'This game is damaged: '),
          g.error,
          tree.mainline.length ? ` (the ${tree.mainline.length} moves before the error can be browsed)` : '',
        ),
      );
    }
    warnings.replaceChildren();
    if (g.warnings.length) {
      warnings.append(
        h(
          'details',
          { class: 'game-warnings' },
          h('summary', {}, `${plural(g.warnings.length, 'warning')} while reading`),
          h('ul', {}, ...g.warnings.map((w) => h('li', {}, w.replace(/^warning: /, '')))),
        ),
      );
    }
  }

  function unreadable(i: number, why: string): void {
    warnings.replaceChildren();
    banner.replaceChildren(h('div', { class: 'msg msg-error game-error', role: 'alert' }, `Game ${i + 1} could not be read: ${why}`));
  }

  return { title, banner, warnings, render, unreadable };
}
