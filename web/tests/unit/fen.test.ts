// A FEN's fields (src/fen.ts), and the number before a move as tabla writes it
// (Position::write_variation_san: "40. Bh6", "12... Nf6").

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fenFields, moveLabel } from '../../src/fen';

describe('FEN fields', () => {
  test('the six fields', () => {
    assert.deepEqual(fenFields('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2'), {
      board: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR',
      turn: 'white',
      castling: 'KQkq',
      ep: 'e6',
      halfmoves: 0,
      fullmoves: 2,
    });
  });

  test('missing or unreadable fields are a plain setup', () => {
    assert.deepEqual(fenFields('  8/8/8/8/8/8/8/K1k5   b '), {
      board: '8/8/8/8/8/8/8/K1k5',
      turn: 'black',
      castling: '-',
      ep: '-',
      halfmoves: 0,
      fullmoves: 1,
    });
    assert.equal(fenFields('8/8/8/8/8/8/8/K1k5 w - - x 0').fullmoves, 1);
    assert.equal(fenFields('').board, '8/8/8/8/8/8/8/8');
  });

  test('the number before a move', () => {
    // The Bh6 position (docs/background.md), White to move at move 40.
    assert.equal(moveLabel('6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40'), '40.');
    assert.equal(moveLabel('rnbqkb1r/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12'), '12...');
  });
});
