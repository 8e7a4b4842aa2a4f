// The game report of the PGN browser: the "Review" button on the open game, the engine's progress
// while it runs (POST /api/review, NDJSON; Cancel or opening another game aborts it, which stops
// the server's engines), then the evaluation graph, each side's accuracy and marks, the marks in
// the move list, the best move as an arrow with its line, and the annotated PGN to download. A
// game already reviewed (its positions in the server's evaluation cache, or `[%eval]`s in its
// PGN) shows its report as soon as it is opened (`?cached=1`).

import { type DrawShape, arrow } from './board';
import { type EvalGraph, evalGraph, markClass, markGlyph, reviewEvalText } from './eval-graph';
import type { MoveNode } from './pgn-tree';
import type { Judgement, MoveReview, PgnGameWithText, ReviewAnswer, ReviewLine, SideReview } from './types';
import { download, h } from './util';

/** Where the open game's text is: the query of its origin in the file, and its bytes. */
export interface GameSource {
  /** `index=…&start=…&line=…&column=…`, so that errors name the place in the whole file. */
  query: string;
  body: Blob;
  /** The annotated PGN's file name. */
  fileName: string;
}

export interface ReviewPanel {
  el: HTMLElement;
  /** A game was opened: any review running is cancelled, and the server asked for one from its
   * cache or the game's evaluations. */
  open(game: PgnGameWithText, source: GameSource): void;
  /** Adds the marks to the mainline moves of a freshly drawn move list. */
  markMoves(list: HTMLElement): void;
  /** The position shown: the graph's cursor and, for a marked move, the best move and line. */
  show(node: MoveNode | null): void;
  /** The best move's arrow when `node` is a marked move of the review. */
  shapes(node: MoveNode | null): DrawShape[];
}

/** "4. Nxe5" or "4... Qg5" for a reviewed move. */
export function moveLabel(m: MoveReview): string {
  const number = Math.ceil(m.ply / 2);
  return `${number}${m.ply % 2 === 1 ? '.' : '...'} ${m.san}`;
}

/** The mainline index (0 the start, i after move i) of a node, or -1 in a variation. */
export function mainlineIndex(node: MoveNode | null): number {
  return node && /^\d+$/.test(node.id) ? Number(node.id) : -1;
}

/** A side's figures as the report's table shows them. */
export function sideCells(s: SideReview): string[] {
  return [s.accuracy === null ? '–' : `${s.accuracy.toFixed(1)}%`, String(s.inaccuracies), String(s.mistakes), String(s.blunders), s.acpl === null ? '–' : String(s.acpl)];
}

const JUDGEMENTS: Judgement[] = ['Inaccuracy', 'Mistake', 'Blunder'];

/**
 * The panel. `go(i)` shows the position after mainline move `i` (0: the start); `redraw()` asks
 * the page to draw its move list and shapes again (a review arrived or was forgotten).
 */
export function reviewPanel(go: (index: number) => void, redraw: () => void): ReviewPanel {
  let game: PgnGameWithText | null = null;
  let source: GameSource | null = null;
  let answer: ReviewAnswer | null = null;
  let running: AbortController | null = null;
  let graph: EvalGraph | null = null;
  let current = -1;

  const status = h('p', { class: 'review-status', 'aria-live': 'polite' });
  const reviewButton = h('button', { type: 'button', class: 'review-button' }, 'Review');
  reviewButton.addEventListener('click', () => void run(answer?.source === 'evals'));
  const cancelButton = h('button', { type: 'button', class: 'small review-cancel', hidden: true }, 'Cancel');
  cancelButton.addEventListener('click', () => {
    stop();
    status.textContent = 'Review cancelled.';
  });
  const bar = h('progress', { class: 'review-progress', max: 1, value: 0, hidden: true, 'aria-label': 'Review progress' });
  const graphBox = h('div', { class: 'eval-graph-box' });
  const sides = h('div', { class: 'review-sides' });
  const best = h('div', { class: 'review-best', 'aria-live': 'polite' });
  const downloadButton = h('button', { type: 'button', class: 'small review-download', hidden: true }, 'Download annotated PGN');
  downloadButton.addEventListener('click', () => {
    if (answer?.pgn && source) download(source.fileName, answer.pgn);
  });
  const engineNote = h('span', { class: 'review-engine note' });
  const el = h(
    'section',
    { class: 'review', 'aria-label': 'Game review', hidden: true },
    h('div', { class: 'row' }, h('h2', {}, 'Review'), reviewButton, cancelButton, bar),
    status,
    graphBox,
    sides,
    best,
    h('div', { class: 'row' }, downloadButton, engineNote),
  );

  /** Cancels the review running, if any (the server's engines stop with the request). */
  function stop(): void {
    running?.abort();
    running = null;
    cancelButton.hidden = true;
    bar.hidden = true;
    reviewButton.disabled = false;
  }

  function forget(): void {
    answer = null;
    graph = null;
    graphBox.replaceChildren();
    sides.replaceChildren();
    best.replaceChildren();
    downloadButton.hidden = true;
    engineNote.textContent = '';
    reviewButton.textContent = 'Review';
  }

  /** Shows a finished review (or, from the cache only, how much of it the cache has). */
  function showAnswer(a: ReviewAnswer): void {
    const review = a.review;
    if (!review) {
      status.textContent =
        a.from_cache > 0 ? `Not reviewed yet (${a.from_cache} of ${a.positions} positions evaluated before).` : 'Not reviewed yet.';
      engineNote.textContent = a.engine ? `Engine: ${a.engine} a position` : '';
      return;
    }
    answer = a;
    const moves = review.moves;
    const label = (i: number) => (i === 0 ? 'Start' : `${moveLabel(moves[i - 1])}${moves[i - 1].judgement ? markGlyph(moves[i - 1].judgement as Judgement) : ''}`);
    graph = evalGraph(moves, label, go);
    graphBox.replaceChildren(graph.el);
    graph.setCurrent(current);
    sides.replaceChildren(sideTable(review.white, review.black));
    downloadButton.hidden = !a.pgn;
    status.textContent =
      a.source === 'evals' ? "From the evaluations in the game's PGN." : a.from_cache === a.positions ? 'From the evaluation cache.' : '';
    engineNote.textContent = a.engine ? `Engine: ${a.engine} a position` : '';
    reviewButton.textContent = a.source === 'evals' ? 'Review with the engine' : 'Review';
    reviewButton.hidden = a.source !== 'evals';
    el.dataset.reviewed = a.source ?? '';
    redraw();
    showBest();
  }

  function sideTable(white: SideReview, black: SideReview): HTMLElement {
    const head = h(
      'tr',
      {},
      h('th', { scope: 'col' }, ''),
      h('th', { scope: 'col' }, 'Accuracy'),
      ...JUDGEMENTS.map((j) => h('th', { scope: 'col', title: `${j === 'Inaccuracy' ? 'Inaccuracies' : `${j}s`}` }, h('span', { class: `review-mark ${markClass(j)}` }, markGlyph(j)))),
      h('th', { scope: 'col', title: 'Average centipawn loss' }, 'ACPL'),
    );
    const row = (side: 'white' | 'black', s: SideReview) =>
      h(
        'tr',
        { class: `review-side-${side}` },
        h('th', { scope: 'row' }, h('span', { class: `side-dot side-${side}`, 'aria-hidden': 'true' }), s.name ?? (side === 'white' ? 'White' : 'Black')),
        ...sideCells(s).map((c, k) => h('td', { class: k === 0 ? 'review-accuracy' : undefined }, c)),
      );
    return h('table', { class: 'review-table' }, h('caption', { class: 'offscreen' }, 'Accuracy and marks of each side'), h('thead', {}, head), h('tbody', {}, row('white', white), row('black', black)));
  }

  /** The marked move shown: its mark, the evaluations around it, the engine's move and line. */
  function showBest(): void {
    const moves = answer?.review?.moves ?? [];
    const m = current > 0 ? moves[current - 1] : undefined;
    if (!m || !answer) {
      best.replaceChildren();
      return;
    }
    const before = current > 1 ? moves[current - 2].eval : null;
    const parts: (Node | string)[] = [h('strong', {}, moveLabel(m))];
    if (m.judgement) parts.push(h('span', { class: `review-mark ${markClass(m.judgement)}` }, markGlyph(m.judgement)), ` ${m.judgement}`);
    const evals = [before ? reviewEvalText(before) : '', reviewEvalText(m.eval)].filter(Boolean).join(' → ');
    if (evals) parts.push(` (${evals})`);
    if (m.accuracy !== null) parts.push(` · accuracy ${Math.round(m.accuracy)}%`);
    const line = answer.lines[current - 1];
    const rows = [h('p', {}, ...parts)];
    if (m.judgement && m.best && m.best.uci !== m.uci) {
      rows.push(h('p', { class: 'review-best-move' }, 'Best was ', h('strong', {}, m.best.san), line ? h('span', { class: 'review-line' }, `: ${line}`) : null));
    }
    best.replaceChildren(...rows);
  }

  /** Asks the server: from the cache only, or a review with the engine (`engine` even when the
   * game has evaluations). */
  async function run(engine: boolean, cachedOnly = false): Promise<void> {
    if (!game || !source) return;
    stop();
    const controller = new AbortController();
    running = controller;
    const which = game;
    const params = `${source.query}${cachedOnly ? '&cached=1' : ''}${engine ? '&engine=1' : ''}`;
    if (!cachedOnly) {
      reviewButton.disabled = true;
      cancelButton.hidden = false;
      bar.hidden = false;
      bar.removeAttribute('value');
      status.textContent = 'Reviewing…';
    } else {
      status.textContent = 'Looking for a review…';
    }
    el.setAttribute('aria-busy', 'true');
    try {
      const res = await fetch(`/api/review?${params}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-chess-pgn' },
        body: source.body,
        signal: controller.signal,
      });
      if (!res.ok || !res.body) {
        const text = await res.text();
        let message = `${res.status} ${res.statusText}`;
        try {
          message = (JSON.parse(text) as { error?: string }).error ?? message;
        } catch {
          // Not JSON: the status says it.
        }
        throw new Error(message);
      }
      for await (const line of ndjsonLines(res.body)) {
        if (running !== controller || game !== which) return;
        take(line);
      }
    } catch (e) {
      if (controller.signal.aborted || game !== which) return;
      status.textContent = '';
      status.append(h('span', { class: 'msg msg-error', role: 'alert' }, `The review failed: ${(e as Error).message}`));
    } finally {
      if (running === controller) {
        running = null;
        cancelButton.hidden = true;
        bar.hidden = true;
        reviewButton.disabled = false;
      }
      if (game === which) el.setAttribute('aria-busy', 'false');
    }
  }

  /** One line of the answer. */
  function take(line: ReviewLine): void {
    if ('progress' in line) {
      const p = line.progress;
      bar.max = Math.max(1, p.positions);
      bar.value = p.done;
      status.textContent = `Reviewing… ${p.done} of ${p.positions} positions${p.from_cache ? ` (${p.from_cache} from the cache)` : ''}`;
    } else if ('error' in line) {
      throw new Error(line.error);
    } else {
      showAnswer(line);
    }
  }

  return {
    el,
    open(g, src) {
      stop();
      forget();
      game = g;
      source = src;
      current = -1;
      el.hidden = false;
      el.dataset.reviewed = '';
      reviewButton.hidden = false;
      if (g.error || g.moves.length === 0) {
        reviewButton.disabled = true;
        status.textContent = g.error ? 'A damaged game cannot be reviewed.' : 'No moves to review.';
        return;
      }
      reviewButton.disabled = false;
      redraw();
      void run(false, true);
    },
    markMoves(list) {
      const moves = answer?.review?.moves ?? [];
      moves.forEach((m, k) => {
        if (!m.judgement) return;
        const mv = list.querySelector<HTMLElement>(`.mv.main[data-id="${k + 1}"]`);
        if (!mv) return;
        mv.classList.add(markClass(m.judgement));
        // The engine's mark is a badge of its own beside the game's glyphs (`e4!?` and a `?!`
        // badge, never `e4!??!`), before the evaluation and clock.
        const badge = h('span', { class: `review-mark review-badge ${markClass(m.judgement)}`, title: `Engine: ${m.judgement}` }, markGlyph(m.judgement));
        mv.insertBefore(badge, mv.querySelector('.extras'));
      });
    },
    show(node) {
      current = mainlineIndex(node);
      graph?.setCurrent(current);
      showBest();
    },
    shapes(node) {
      const i = mainlineIndex(node);
      const m = i > 0 ? answer?.review?.moves[i - 1] : undefined;
      if (!m || !m.judgement || !m.best || m.best.uci === m.uci) return [];
      return arrow(m.best.uci, 'green');
    },
  };
}

/** The JSON lines of a streamed answer, as they arrive (a last line without its newline too). */
export async function* ndjsonLines<T = ReviewLine>(body: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    pending += decoder.decode(value ?? new Uint8Array(), { stream: !done });
    let cut = pending.indexOf('\n');
    while (cut >= 0) {
      const line = pending.slice(0, cut).trim();
      pending = pending.slice(cut + 1);
      if (line) yield JSON.parse(line) as T;
      cut = pending.indexOf('\n');
    }
    if (done) break;
  }
  if (pending.trim()) yield JSON.parse(pending) as T;
}
