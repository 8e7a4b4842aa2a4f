// The PGN browser's questions to the server. The PGN lives in the browser as a Blob (the chosen
// File itself, or the pasted text), never as one string in the JS heap: the server indexes it
// (POST /api/pgn/index: byte ranges, tags, errors) and each game opened is cut out of the Blob by
// its byte range and read by the server (POST /api/pgn/game), which keeps nothing between
// requests.

import { type PgnState, dbEntry, gameRequest } from './pgn-state';
import type { PgnGameWithText, PgnIndex, PlayedJson } from './types';
import { api, q } from './util';

const PGN = { 'Content-Type': 'application/x-chess-pgn' };

/** The index of the PGN `blob`: its games' byte ranges, tags and errors. */
export function fetchIndex(blob: Blob): Promise<PgnIndex> {
  return api<PgnIndex>('/api/pgn/index', { method: 'POST', headers: PGN, body: blob });
}

/** Where game `i` of `state`'s PGN is: the request's query (its place in the whole file, for the
 * errors) and its bytes. */
export function gameSource(state: PgnState, i: number): { path: string; body: Blob } {
  const { path, start, end } = gameRequest(state.entries[i]);
  return { path, body: (state.source as Blob).slice(start, end) };
}

/** Where a game of the game database is read again (for its review): its own text, alone. */
export function dbGameSource(game: PgnGameWithText): { path: string; body: Blob } {
  const body = new Blob([game.pgn], { type: PGN['Content-Type'] });
  return { path: gameRequest(dbEntry(game, body.size)).path, body };
}

/** Game `i` of `state`'s index, read by the server from its bytes. */
export function fetchGame(state: PgnState, i: number): Promise<PgnGameWithText> {
  const { path, body } = gameSource(state, i);
  return api<PgnGameWithText>(path, { method: 'POST', headers: PGN, body });
}

/** The game `id` of the game database. */
export function fetchDbGame(id: string): Promise<PgnGameWithText> {
  return api<PgnGameWithText>(`/api/db/game/${encodeURIComponent(id)}`);
}

/** The sample games' PGN. */
export async function fetchSample(): Promise<Blob> {
  const res = await fetch('/api/sample');
  return res.blob();
}

/** The move `uci` played in the position `fen`: its SAN and the FEN after it. */
export function fetchPlayed(fen: string, uci: string): Promise<PlayedJson> {
  return api<PlayedJson>(`/api/play?${q({ fen, uci })}`);
}
