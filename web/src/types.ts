// The API's JSON shapes (see crates/tabla-web/src/lib.rs).

export interface MoveNotations {
  san: string;
  lan: string;
  uci: string;
}

export interface PositionJson {
  fen: string;
  turn: 'white' | 'black';
  status: string;
  check: boolean;
  legal_moves: MoveNotations[];
}

export interface PlayedJson extends PositionJson {
  played: MoveNotations;
}

export type Eval = { centipawns: number } | { mate: number };

export interface PgnMove {
  san: string;
  lan: string;
  uci: string;
  fen: string;
  comments_before?: string[];
  comments: string[];
  nags: number[];
  clock?: number;
  emt?: number;
  eval?: Eval;
  shapes?: string[];
  variations: PgnMove[][];
}

export interface PgnGame {
  tags: Record<string, string>;
  result: string;
  start_fen: string | null;
  moves: PgnMove[];
  error?: string;
  errors?: string[];
}

export interface KbnkMove {
  san: string;
  uci: string;
  dtm: number;
  plies: number | null;
  mate: boolean;
}

export interface KbnkJson {
  fen: string;
  turn: 'white' | 'black';
  dtm: number;
  plies: number | null;
  status: 'win' | 'loss' | 'draw' | 'checkmate' | 'stalemate';
  stalemate: boolean;
  best: { san: string; uci: string } | null;
  moves: KbnkMove[];
}

export interface SuggestJson {
  best: { san: string; uci: string };
  score: Eval;
  depth?: number;
  pv: { san: string; uci: string }[];
}
