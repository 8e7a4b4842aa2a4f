// A game from the API as a tree of positions that can be walked, and the game written back as PGN.

import type { PgnGame, PgnMove } from './types';

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A position of the game: the start, or the one after a move. */
export interface Node {
  /** "0" for the start; "5" for the 5th mainline move; "5v1.2" for the 2nd move of the first
   * variation replacing the 5th move; deeper variations append "v<n>.<m>" again. */
  id: string;
  /** The move that led here (null at the start). */
  move: PgnMove | null;
  fen: string;
  /** Plies from the start position. */
  ply: number;
  /** The position before the move. */
  prev: Node | null;
  /** The next move in the same line. */
  next: Node | null;
  /** Alternatives to this move, each a line starting from `prev`. */
  variations: Node[][];
}

/** The walked form of a game. */
export interface Tree {
  root: Node;
  mainline: Node[];
  byId: Map<string, Node>;
}

export function buildTree(game: PgnGame): Tree {
  const root: Node = {
    id: '0',
    move: null,
    fen: game.start_fen ?? START_FEN,
    ply: 0,
    prev: null,
    next: null,
    variations: [],
  };
  const byId = new Map<string, Node>([['0', root]]);
  const line = (moves: PgnMove[], before: Node, prefix: string): Node[] => {
    const nodes: Node[] = [];
    let prev = before;
    moves.forEach((move, i) => {
      const id = prefix === '' ? String(i + 1) : `${prefix}.${i + 1}`;
      const node: Node = { id, move, fen: move.fen, ply: prev.ply + 1, prev, next: null, variations: [] };
      byId.set(id, node);
      const last = nodes[nodes.length - 1];
      if (last) last.next = node;
      node.variations = move.variations.map((v, k) => line(v, prev, `${id}v${k + 1}`));
      nodes.push(node);
      prev = node;
    });
    return nodes;
  };
  const mainline = line(game.moves, root, '');
  root.next = mainline[0] ?? null;
  return { root, mainline, byId };
}

/** The last position of the line a node is in. */
export function lineEnd(node: Node): Node {
  let n = node;
  while (n.next) n = n.next;
  return n;
}

/** The full-move number and side of the move that led to `node`. */
export function moveNumber(node: Node): { number: number; white: boolean } {
  const fields = (node.prev?.fen ?? node.fen).split(/\s+/);
  return { number: Number(fields[5]) || 1, white: fields[1] !== 'b' };
}

/** "12." before a White move, "12..." before a Black one. */
export function numberLabel(node: Node): string {
  const { number, white } = moveNumber(node);
  return white ? `${number}.` : `${number}...`;
}

/** h:mm:ss for a clock in seconds. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  return `${hh}:${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}`;
}

/** An evaluation as people read it: +0.17, #-3 (White's point of view, as PGN gives it). */
export function formatEval(e: NonNullable<PgnMove['eval']>): string {
  if ('mate' in e) return `#${e.mate}`;
  const v = e.centipawns / 100;
  return (v > 0 ? '+' : '') + v.toFixed(2);
}

const ROSTER = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'];

/** The game in PGN export form (tags, movetext with comments, NAGs and variations, result). */
export function writePgn(game: PgnGame): string {
  const tags: [string, string][] = [];
  for (const name of ROSTER) {
    const value = name === 'Result' ? game.result : game.tags[name];
    tags.push([name, value ?? '?']);
  }
  for (const [name, value] of Object.entries(game.tags)) {
    if (!ROSTER.includes(name)) tags.push([name, value]);
  }
  const escape = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  const head = tags.map(([n, v]) => `[${n} "${escape(v)}"]`).join('\n');
  const tokens: string[] = [];
  const comment = (text: string) => tokens.push(`{ ${text.replace(/}/g, ')')} }`);
  const line = (moves: PgnMove[], fen: string) => {
    let before = fen;
    let needNumber = true;
    moves.forEach((m) => {
      for (const c of m.comments_before ?? []) comment(c);
      const [, side, , , , full] = before.split(/\s+/);
      if (side !== 'b') tokens.push(`${full ?? 1}.`);
      else if (needNumber) tokens.push(`${full ?? 1}...`);
      tokens.push(m.san);
      for (const n of m.nags) tokens.push(`$${n}`);
      const commands: string[] = [];
      if (m.eval) commands.push(`[%eval ${'mate' in m.eval ? `#${m.eval.mate}` : (m.eval.centipawns / 100).toFixed(2)}]`);
      if (m.clock !== undefined) commands.push(`[%clk ${formatClock(m.clock)}]`);
      const texts = [...commands, ...m.comments];
      if (texts.length) comment(texts.join(' '));
      needNumber = texts.length > 0 || m.variations.length > 0;
      for (const v of m.variations) {
        tokens.push('(');
        line(v, before);
        tokens.push(')');
      }
      before = m.fen;
    });
  };
  line(game.moves, game.start_fen ?? START_FEN);
  tokens.push(game.result || '*');
  // Wrap at 79 columns; "( x" and "x )" are joined so parentheses hug their moves.
  const text = tokens.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current && current.length + 1 + word.length > 79) {
      lines.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) lines.push(current);
  return `${head}\n\n${lines.join('\n')}\n`;
}
