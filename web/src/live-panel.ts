// The live engine panel: start / stop, 1 to 5 lines, each in numbered SAN with its evaluation
// (White's view) and depth, the engine's speed, and an evaluation bar for beside the board. The
// lines stream from GET /api/analyse (Server-Sent Events); a new position closes the stream and
// opens another, and closing the stream is what stops the search on the server. Stop keeps the
// last answer (lines, arrow, bar) until the board shows another position, as lichess does; the
// bar's place beside the board is kept while it is hidden, so the board never resizes.

import { type NumberedMove, formatBarEval, formatCount, formatEval, formatNps, numberedMoves } from './live-format';
import type { AnalyseJson, ApiErrorJson, EngineJson, LiveLineJson } from './types';
import { api, h, q } from './util';

/** What to analyse: the position (FEN) and, when the board got there by moves from another
 * position, that position and the moves in UCI (the engine then sees repetitions). */
export interface LiveTarget {
  fen: string;
  from?: { fen: string; moves: string[] };
}

export interface LivePanelOptions {
  /** Draws the best move as an arrow (null: none). */
  onBest(uci: string | null): void;
  /** Plays the moves (UCI) from the analysed position: a click on a line's move plays the line
   * up to it. */
  onPlay(moves: string[]): void;
  /** The board's orientation: the bar has White's side at the bottom when the board does. */
  orientation(): 'white' | 'black';
}

export interface LivePanel {
  /** The panel: controls, status and lines. */
  el: HTMLElement;
  /** The evaluation bar, for beside the board (hidden, its place kept, while there is no answer). */
  bar: HTMLElement;
  /** The board shows another position (null: none that can be analysed). */
  setTarget(target: LiveTarget | null): void;
  /** Stops the engine (as the Stop button). */
  stop(): void;
}

const MULTIPV_KEY = 'tabla.multipv';

export function livePanel(options: LivePanelOptions): LivePanel {
  let target: LiveTarget | null = null;
  let running = false;
  let source: EventSource | null = null;
  /** Counts streams, so that a late event of a closed one is dropped. */
  let ticket = 0;
  let maxLines = 5;
  /** The position whose answer the panel shows (or is asked for). */
  let shownFen: string | null = null;

  const toggle = h('button', { type: 'button', class: 'live-toggle', 'aria-pressed': 'false' }, 'Analyse');
  const count = h('select', { 'aria-label': 'Lines', class: 'live-multipv' });
  const saved = Number(localStorage.getItem(MULTIPV_KEY)) || 1;
  const fillCount = (max: number) => {
    const chosen = Math.min(Number(count.value) || saved, max);
    count.replaceChildren(
      ...Array.from({ length: max }, (_, i) => h('option', { value: String(i + 1), selected: i + 1 === chosen }, i + 1 === 1 ? '1 line' : `${i + 1} lines`)),
    );
  };
  fillCount(maxLines);
  const engineName = h('span', { class: 'live-engine', title: 'The engine the server runs' }, 'Engine');
  const status = h('p', { class: 'live-status', 'aria-live': 'polite' });
  const lines = h('ol', { class: 'live-lines', 'aria-label': 'Engine lines' });
  const el = h(
    'section',
    { class: 'live', 'aria-label': 'Engine analysis' },
    h('div', { class: 'row live-controls' }, toggle, count, engineName),
    status,
    lines,
  );

  const fill = h('div', { class: 'eval-fill' });
  const barText = h('span', { class: 'eval-text' });
  const bar = h('div', { class: 'eval-bar', role: 'img', 'aria-label': 'Evaluation bar', hidden: true }, fill, barText);

  toggle.addEventListener('click', () => (running ? stop() : start()));
  count.addEventListener('change', () => {
    localStorage.setItem(MULTIPV_KEY, count.value);
    if (running) open();
  });
  // The page going away closes the stream (the browser would too, a moment later).
  window.addEventListener('pagehide', () => close());

  void api<EngineJson>('/api/engine').then(
    (e) => {
      engineName.textContent = e.name;
      engineName.title = `The engine the server runs: ${e.name} (${e.path})`;
      maxLines = e.max_multipv;
      fillCount(maxLines);
    },
    () => {
      engineName.textContent = 'Engine unknown';
    },
  );

  function start(): void {
    running = true;
    toggle.textContent = 'Stop';
    toggle.setAttribute('aria-pressed', 'true');
    bar.hidden = false;
    open();
  }

  /** Stops the search; its last answer stays (for the position still shown). */
  function stop(): void {
    const searching = source !== null;
    running = false;
    toggle.textContent = 'Analyse';
    toggle.setAttribute('aria-pressed', 'false');
    close();
    if (!lines.childElementCount) clear();
    else if (searching) status.textContent = `${status.textContent} · stopped`;
  }

  /** Forgets the answer shown: the lines, the arrow, the bar. */
  function clear(): void {
    bar.hidden = true;
    lines.replaceChildren();
    status.textContent = '';
    options.onBest(null);
  }

  function close(): void {
    ticket++;
    source?.close();
    source = null;
  }

  /** Opens a stream for the target (closing the one before). */
  function open(): void {
    close();
    lines.replaceChildren();
    options.onBest(null);
    if (!running) return;
    if (!target) {
      status.textContent = 'Nothing to analyse here.';
      return;
    }
    const params: Record<string, string> = target.from
      ? { fen: target.from.fen, moves: target.from.moves.join(' ') }
      : { fen: target.fen };
    params.multipv = count.value;
    const url = `/api/analyse?${q(params)}`;
    const mine = ++ticket;
    const fen = target.fen;
    shownFen = fen;
    const stream = new EventSource(url);
    source = stream;
    let heard = false;
    status.textContent = 'Starting…';
    const onEvent = (e: MessageEvent<string>) => {
      if (mine !== ticket) return;
      heard = true;
      const data = JSON.parse(e.data) as AnalyseJson;
      render(data);
      if (data.done) {
        close();
        status.textContent = data.error ? `The engine stopped: ${data.error}` : `${status.textContent} · search ended`;
      }
    };
    stream.addEventListener('lines', onEvent);
    stream.addEventListener('done', onEvent);
    stream.onerror = () => {
      if (mine !== ticket) return;
      // Closed here without a new ticket: explain() still answers for this stream.
      stream.close();
      source = null;
      if (heard) {
        status.textContent = 'The connection to the server was lost; press Analyse to start again.';
        running = false;
        toggle.textContent = 'Analyse';
        toggle.setAttribute('aria-pressed', 'false');
      } else {
        void explain(url, mine);
      }
    };
  }

  /** Says why a stream was refused: the server's JSON error (a 400 or a 429). */
  async function explain(url: string, mine: number): Promise<void> {
    const abort = new AbortController();
    let text = 'The analysis could not start.';
    try {
      const res = await fetch(url, { signal: abort.signal });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as ApiErrorJson | null;
        text = body?.error ?? `${res.status} ${res.statusText}`;
      }
    } catch {
      text = 'The server cannot be reached.';
    } finally {
      abort.abort();
    }
    if (mine !== ticket) return;
    status.textContent = text;
    lines.replaceChildren();
  }

  function render(data: AnalyseJson): void {
    const best = data.lines[0];
    const parts: string[] = [];
    if (best) parts.push(`depth ${best.depth}${best.seldepth ? `/${best.seldepth}` : ''}`);
    if (data.nps) parts.push(formatNps(data.nps));
    if (data.nodes) parts.push(`${formatCount(data.nodes)} nodes`);
    parts.push(`${(data.elapsed_ms / 1000).toFixed(1)} s`);
    status.textContent = parts.join(' · ');
    lines.replaceChildren(...data.lines.map((line) => lineItem(line)));
    options.onBest(best?.moves[0]?.uci ?? null);
    if (best) {
      fill.style.height = `${best.win.toFixed(1)}%`;
      barText.textContent = formatBarEval(best.eval);
      bar.setAttribute('aria-label', `Evaluation ${formatEval(best.eval)}`);
      bar.title = `${formatEval(best.eval)} (White's winning chances ${best.win.toFixed(0)}%)`;
      // The number on the side that is better (White's at the bottom unless the board is flipped).
      barText.classList.toggle('black-better', best.win < 50);
    }
    bar.classList.toggle('flipped', options.orientation() === 'black');
  }

  function lineItem(line: LiveLineJson): HTMLElement {
    // The server's numbered line, one word a move of `line.moves`.
    const numbered: NumberedMove[] = numberedMoves(line.line).slice(0, line.moves.length);
    const bound = line.bound === 'lower' ? '≥' : line.bound === 'upper' ? '≤' : '';
    const moves = numbered.map((m, i) =>
      h(
        'span',
        {},
        m.number ? `${m.number} ` : '',
        h(
          'button',
          {
            type: 'button',
            class: 'live-move',
            title: 'Play the line to here',
            onclick: () => options.onPlay(line.moves.slice(0, i + 1).map((x) => x.uci)),
          },
          m.san,
        ),
        ' ',
      ),
    );
    return h(
      'li',
      { class: 'live-line', 'data-multipv': String(line.multipv) },
      h('strong', { class: 'live-eval', title: `depth ${line.depth}, White's point of view` }, bound + formatEval(line.eval)),
      ' ',
      h('span', { class: 'live-pv' }, ...moves),
    );
  }

  return {
    el,
    bar,
    setTarget(next: LiveTarget | null): void {
      const same = next && target && next.fen === target.fen && JSON.stringify(next.from) === JSON.stringify(target.from);
      target = next;
      if (same) return;
      if (running) open();
      else if (next?.fen !== shownFen) clear();
    },
    stop,
  };
}
