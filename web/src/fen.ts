// The fields of a FEN, read in one place for every page.

/** The six fields of a FEN. */
export interface FenFields {
  /** The piece placement ("rnbqkbnr/pppppppp/8/..."). */
  board: string;
  turn: 'white' | 'black';
  castling: string;
  ep: string;
  halfmoves: number;
  fullmoves: number;
}

/** Reads the fields of a FEN; missing or unreadable ones are those of a plain setup: an empty
 * board, White to move, no castling rights, no en passant square, clocks 0 and 1. */
export function fenFields(fen: string): FenFields {
  const [board, turn, castling, ep, halfmoves, fullmoves] = fen.trim().split(/\s+/);
  return {
    board: board || '8/8/8/8/8/8/8/8',
    turn: turn === 'b' ? 'black' : 'white',
    castling: castling || '-',
    ep: ep || '-',
    halfmoves: Math.max(0, Number(halfmoves) || 0),
    fullmoves: Math.max(1, Number(fullmoves) || 1),
  };
}

/** The number written before a move played from `fen`, as tabla writes moves: "12." before a
 * White move, "12..." before a Black one. */
export function moveLabel(fen: string): string {
  const { turn, fullmoves } = fenFields(fen);
  return turn === 'white' ? `${fullmoves}.` : `${fullmoves}...`;
}
