// The endgame explorer's pure logic: the men of the tray, the presets, what a setup lacks before
// the tables can be asked, and the words and numbers shown for a position and its moves.

import { fenFields } from './fen';
import type { ProbeMove } from './types';

export type Color = 'white' | 'black';
export type Role = 'king' | 'queen' | 'rook' | 'bishop' | 'knight' | 'pawn';

/** The most men the tables hold, kings included. */
export const MAX_MEN = 5;

export const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
export const movesText = (n: number): string => `${n} move${n === 1 ? '' : 's'}`;
export const pliesText = (n: number | null): string => (n === null ? '' : ` (${n} ${n === 1 ? 'ply' : 'plies'})`);

/**
 * Whether the server's refusal of a FEN (the 400 text of `/api/position`) says it cannot read
 * it, rather than that the position it reads is illegal: the explorer holds an illegal
 * position while men are placed (no king yet), never a FEN that does not read.
 */
export function unreadableFen(refusal: string): boolean {
  return !/^invalid FEN ".*": illegal position: /s.test(refusal);
}

/** A man of the tray. */
export interface TrayMan {
  color: Color;
  role: Role;
  name: string;
}

const ROLES: Role[] = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];

/** Every man of both colours, White's first, king to pawn. */
export const TRAY: TrayMan[] = (['white', 'black'] as Color[]).flatMap((color) =>
  ROLES.map((role) => ({ color, role, name: `${cap(color)} ${role}` })),
);

/** A position to start from: its ending (as the table is named) and its FEN. */
export interface Preset {
  name: string;
  fen: string;
  title: string;
}

/** The presets, named as their tables are; KBNvK first (solved in memory by every server). */
export const PRESETS: Preset[] = [
  { name: 'KBNvK', fen: '8/8/8/3k4/8/8/8/KBN5 w - - 0 1', title: 'King, bishop and knight against a king' },
  { name: 'KQvK', fen: '8/8/8/3k4/8/8/8/KQ6 w - - 0 1', title: 'King and queen against a king' },
  { name: 'KRvK', fen: '8/8/8/3k4/8/8/8/KR6 w - - 0 1', title: 'King and rook against a king' },
  { name: 'KQvKR', fen: '3k4/8/3K4/8/8/8/2r5/7Q w - - 0 1', title: 'Queen against rook' },
  { name: 'KRvKP', fen: '8/5k2/2PK4/5r2/8/8/8/8 w - - 0 1', title: 'Pawn against rook: the longest mate of four men (43 moves)' },
  { name: 'KPPvKP', fen: '8/8/8/8/1p2P3/4P3/1k6/3K4 w - - 0 1', title: 'Two pawns against one' },
  { name: 'KBNvKN', fen: '8/8/8/3k4/8/8/5n2/KBN5 w - - 0 1', title: 'Bishop and knight against a knight' },
];

/** The preset named `name`, if any. */
export function preset(name: string): Preset | undefined {
  return PRESETS.find((p) => p.name === name);
}

/** The fields of a FEN the explorer keeps: the board, the side to move, castling rights and the
 * en-passant square (the move counters do not change a distance to mate). */
export interface Setup {
  board: string;
  turn: Color;
  castling: string;
  ep: string;
}

/** Reads the fields of a FEN (missing ones as in a plain setup: White to move, no rights). */
export function parseSetup(fen: string): Setup {
  const { board, turn, castling, ep } = fenFields(fen);
  return { board, turn, castling, ep };
}

/** The FEN of a setup. */
export function setupFen(s: Setup): string {
  return `${s.board} ${s.turn === 'white' ? 'w' : 'b'} ${s.castling} ${s.ep} 0 1`;
}

/** How many men of each kind stand on the board, keyed `white king`. */
export function countMen(pieces: Iterable<{ color: Color; role: Role }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of pieces) {
    const key = `${p.color} ${p.role}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** What the setup lacks before the tables can be asked (a king, fewer men), or null. Every
 * other mistake (kings side by side, a pawn on the last rank, the side not to move in check)
 * is the server's to name. */
export function setupHint(counts: Map<string, number>): string | null {
  const lacking = (['white', 'black'] as Color[]).filter((c) => !counts.get(`${c} king`)).map((c) => `the ${c} king`);
  if (lacking.length) return `Place ${lacking.join(' and ')} (drag from the tray).`;
  const men = [...counts.values()].reduce((a, b) => a + b, 0);
  if (men > MAX_MEN) return `${men} men on the board: the tables hold at most ${MAX_MEN}. Drag some off the board.`;
  return null;
}

/** What a move leads to, in words: `checkmate`, `White mates in 3 moves`, `draw`. */
export function moveVerdict(m: ProbeMove, mover: Color): string {
  const other: Color = mover === 'white' ? 'black' : 'white';
  if (m.mate) return 'checkmate';
  if (m.plies === null) return 'draw';
  if (m.dtm <= 0) return `${cap(mover)} mates in ${movesText(1 - m.dtm)}`;
  return `${cap(other)} mates in ${movesText(m.dtm)}`;
}

/** A move's value for the side that plays it, signed as `tabla tb probe` prints a position's:
 * `+3 (5 plies)` mates in 3, `-3 (6 plies)` is mated in 3, `0 (draw)`. */
export function moverDtm(m: ProbeMove): string {
  if (m.plies === null) return '0 (draw)';
  const plies = m.plies + 1;
  return m.dtm <= 0 ? `+${1 - m.dtm}${pliesText(plies)}` : `-${m.dtm}${pliesText(plies)}`;
}
