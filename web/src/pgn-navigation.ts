// The PGN browser's moves toolbar and keys: first, previous, next and last position, Play (a move
// every 2, 1 or 0.4 s from where the board is, or from the start at the game's end), Pause, and
// Flip. The steps and the keys' meaning are pgn-state.ts's (stepped, stepTarget, keyAction).

import { type PgnState, type Step, keyAction, playRestart, stepTarget, stepped } from './pgn-state';
import type { MoveNode } from './pgn-tree';
import { h, typingInField } from './util';

export interface NavigationOptions {
  /** The page's state. */
  current(): PgnState;
  /** Shows the state `next`. */
  update(next: PgnState): void;
  /** Shows the position `node` of the game. */
  go(node: MoveNode | null): void;
  /** Turns the board round. */
  flip(): void;
}

export interface Navigation {
  /** The toolbar. */
  el: HTMLElement;
  /** Stops playing (nothing when not playing). */
  pause(): void;
}

/** The toolbar, and the keys on the whole document (unless typing in a field). */
export function navigation(options: NavigationOptions): Navigation {
  const { current, update, go, flip } = options;
  /** The Play timer, while playing. */
  let timer: number | undefined;

  const button = (label: string, text: string, action: () => void, key: string) =>
    h('button', { type: 'button', 'aria-label': label, title: `${label} (${key})`, onclick: action }, text);
  const step = (to: Step) => () => update(stepped(current(), to));
  const playButton = h('button', { type: 'button', class: 'play', 'aria-pressed': 'false' }, 'Play');
  playButton.addEventListener('click', () => (timer === undefined ? play() : pause()));
  const speed = h(
    'select',
    { 'aria-label': 'Play speed', class: 'speed' },
    h('option', { value: '2000' }, 'Slow'),
    h('option', { value: '1000', selected: true }, 'Normal'),
    h('option', { value: '400' }, 'Fast'),
  );
  speed.addEventListener('change', () => {
    if (timer !== undefined) {
      pause();
      play();
    }
  });
  const el = h(
    'div',
    { class: 'controls', role: 'toolbar', 'aria-label': 'Moves' },
    button('First position', '«', step('first'), 'Home or ↑'),
    button('Previous move', '‹', step('prev'), '←'),
    button('Next move', '›', step('next'), '→'),
    button('Last position', '»', step('last'), 'End or ↓'),
    playButton,
    speed,
    button('Flip the board', 'Flip', flip, 'f'),
  );

  function play(): void {
    go(playRestart(current()));
    playButton.textContent = 'Pause';
    playButton.setAttribute('aria-pressed', 'true');
    timer = window.setInterval(() => {
      const next = stepTarget(current(), 'next');
      if (next) go(next);
      else pause();
    }, Number(speed.value));
  }

  function pause(): void {
    if (timer !== undefined) window.clearInterval(timer);
    timer = undefined;
    playButton.textContent = 'Play';
    playButton.setAttribute('aria-pressed', 'false');
  }

  document.addEventListener('keydown', (e) => {
    if (typingInField(e) || e.altKey || e.ctrlKey || e.metaKey) return;
    const action = keyAction(e.key);
    if (!action) return;
    e.preventDefault();
    if (action === 'flip') {
      flip();
      return;
    }
    pause();
    update(stepped(current(), action));
  });

  return { el, pause };
}
