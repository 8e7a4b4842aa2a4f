// How live analysis writes what the engine says: evaluations, move numbers, speeds. Pure
// functions (tested under node in tests/unit).

import type { Eval } from './types';

/** An evaluation from White's point of view as people read it: +0.35, -1.20, 0.00, #5, #-3. */
export function formatEval(e: Eval): string {
  if ('mate' in e) return `#${e.mate}`;
  const pawns = e.cp / 100;
  return (pawns > 0 ? '+' : '') + pawns.toFixed(2);
}

/** An evaluation short enough for the evaluation bar (lichess's style): the size of the edge
 * in pawns, one decimal under 10 (1.3, 0.0, 14), or M and the moves to mate (M5). */
export function formatBarEval(e: Eval): string {
  if ('mate' in e) return `M${Math.abs(e.mate)}`;
  const pawns = Math.abs(e.cp) / 100;
  return pawns < 9.95 ? pawns.toFixed(1) : pawns.toFixed(0);
}

/** A move of a line with the number written before it, if any ("40." before White's move,
 * "40..." before Black's when the line starts with it). */
export interface NumberedMove {
  number: string | null;
  san: string;
}

/** The moves of a line as the server numbers it ("40. Bh6 Qd1 41. Qxf7+", "12... Nf6 13. Bg5"),
 * each with the number written before it, if any. */
export function numberedMoves(line: string): NumberedMove[] {
  const moves: NumberedMove[] = [];
  let number: string | null = null;
  for (const word of line.split(/\s+/).filter(Boolean)) {
    if (/^\d+\.(\.\.)?$/.test(word)) number = word;
    else {
      moves.push({ number, san: word });
      number = null;
    }
  }
  return moves;
}

/** Nodes per second, short: 850 n/s, 12.5 kn/s, 1.24 Mn/s. */
export function formatNps(nps: number): string {
  if (nps >= 1e6) return `${(nps / 1e6).toFixed(2)} Mn/s`;
  if (nps >= 1e4) return `${(nps / 1e3).toFixed(0)} kn/s`;
  if (nps >= 1e3) return `${(nps / 1e3).toFixed(1)} kn/s`;
  return `${Math.round(nps)} n/s`;
}

/** A count of nodes, short: 950, 12.3k, 4.56M. */
export function formatCount(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}
