// A game from the API as a tree of positions that can be walked, and how its moves, clocks and
// evaluations are labelled.

import { fenFields, moveLabel } from './fen';
import type { PgnGame, PgnMove } from './types';

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A position of the game: the start, or the one after a move. */
export interface MoveNode {
  /** "0" for the start; "5" for the 5th mainline move; "5v1.2" for the 2nd move of the first
   * variation replacing the 5th move; deeper variations append "v<n>.<m>" again. */
  id: string;
  /** The move that led here (null at the start). */
  move: PgnMove | null;
  fen: string;
  /** Plies from the start position. */
  ply: number;
  /** The position before the move. */
  prev: MoveNode | null;
  /** The next move in the same line. */
  next: MoveNode | null;
  /** Alternatives to this move, each a line starting from `prev`. */
  variations: MoveNode[][];
}

/** The walked form of a game. */
export interface Tree {
  root: MoveNode;
  mainline: MoveNode[];
  byId: Map<string, MoveNode>;
}

export function buildTree(game: PgnGame): Tree {
  const root: MoveNode = {
    id: '0',
    move: null,
    fen: game.start_fen ?? START_FEN,
    ply: 0,
    prev: null,
    next: null,
    variations: [],
  };
  const byId = new Map<string, MoveNode>([['0', root]]);
  const line = (moves: PgnMove[], before: MoveNode, prefix: string): MoveNode[] => {
    const nodes: MoveNode[] = [];
    let prev = before;
    moves.forEach((move, i) => {
      const id = prefix === '' ? String(i + 1) : `${prefix}.${i + 1}`;
      const node: MoveNode = { id, move, fen: move.fen, ply: prev.ply + 1, prev, next: null, variations: [] };
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
export function lineEnd(node: MoveNode): MoveNode {
  let n = node;
  while (n.next) n = n.next;
  return n;
}

/** The full-move number and side of the move that led to `node`. */
export function moveNumber(node: MoveNode): { number: number; white: boolean } {
  const { fullmoves, turn } = fenFields(node.prev?.fen ?? node.fen);
  return { number: fullmoves, white: turn === 'white' };
}

/** "12." before a White move, "12..." before a Black one. */
export function numberLabel(node: MoveNode): string {
  return moveLabel(node.prev?.fen ?? node.fen);
}

/** h:mm:ss for a clock in seconds. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  return `${hh}:${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}`;
}
