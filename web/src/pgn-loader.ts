// The PGN browser's "Load PGN" box: text pasted, a file chosen (sent to the server as it is:
// bytes, whatever their encoding) or the sample games, and the message saying how the last load
// went. A small file's text is shown in the paste box once loaded.

import { h } from './util';

/** Texts up to this size are shown in the paste box when loaded from a file. */
const SHOWN_IN_BOX = 200_000;

export interface LoaderOptions {
  /** Loads `blob` (named `name` in messages) and keeps it for the next visit; `true` when it
   * was loaded (or a later load took over). */
  load(blob: Blob, name: string): Promise<boolean>;
  /** Forgets the PGN kept and loads the sample games. */
  loadSample(): Promise<void>;
}

export interface Loader {
  el: HTMLElement;
  /** Shows `message` (from util.message) as the load's status. */
  say(message: HTMLElement): void;
  /** A small file's text in the paste box, as it used to be (UTF-8, else Windows-1252). */
  showInBox(blob: Blob): Promise<void>;
}

export function loader(options: LoaderOptions): Loader {
  const area = h('textarea', {
    id: 'pgn-input',
    rows: 6,
    spellcheck: 'false',
    placeholder: 'Paste PGN here',
    'aria-label': 'PGN text',
  });
  const status = h('div', { class: 'load-msg' });
  const loadButton = h('button', { type: 'button', id: 'load-pgn' }, 'Load PGN');
  loadButton.addEventListener('click', () => void options.load(new Blob([area.value], { type: 'application/x-chess-pgn' }), 'pasted text'));
  const file = h('input', { type: 'file', accept: '.pgn,text/plain,application/x-chess-pgn', id: 'pgn-file' });
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (!f) return;
    file.value = '';
    area.value = '';
    if (await options.load(f, f.name)) void showInBox(f);
  });
  const sampleButton = h('button', { type: 'button', class: 'small' }, 'Sample games');
  sampleButton.addEventListener('click', () => void options.loadSample());
  const el = h(
    'section',
    { class: 'loader', 'aria-label': 'Load PGN' },
    h('h2', {}, 'Load PGN'),
    area,
    h('div', { class: 'row' }, loadButton, h('label', { class: 'file' }, 'Upload a file ', file), sampleButton),
    status,
  );

  async function showInBox(blob: Blob): Promise<void> {
    if (blob.size > SHOWN_IN_BOX) return;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    try {
      area.value = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      area.value = new TextDecoder('windows-1252').decode(bytes);
    }
  }

  return { el, say: (message) => status.replaceChildren(message), showInBox };
}
