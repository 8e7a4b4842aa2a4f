// The promotion dialog's pure parts: which pieces a move may become, and where they stand.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { promotionChoices, promotionLetter, promotionSquares } from '../../src/promotion';

describe('promotion', () => {
  test('the pieces a move may become, among the legal moves', () => {
    const legal = ['a7a8q', 'a7a8r', 'a7a8b', 'a7a8n', 'a7b8q', 'a7b8r', 'a7b8b', 'a7b8n', 'e1e2'];
    assert.deepEqual(promotionChoices(legal, 'a7a8'), ['queen', 'knight', 'rook', 'bishop']);
    assert.deepEqual(promotionChoices(legal, 'a7b8'), ['queen', 'knight', 'rook', 'bishop']);
    assert.deepEqual(promotionChoices(legal, 'e1e2'), []);
    assert.deepEqual(promotionChoices(legal, 'a7a6'), []);
    assert.deepEqual(['queen', 'knight', 'rook', 'bishop'].map((r) => promotionLetter(r as 'queen')), ['q', 'n', 'r', 'b']);
  });

  test('a column from the promotion square towards the middle, as the board is seen', () => {
    const at = (dest: string, o: 'white' | 'black') => promotionSquares(dest, o).map((s) => [s.role, s.column, s.row]);
    // White promotes on c8: the top of the board seen from White, going down.
    assert.deepEqual(at('c8', 'white'), [['queen', 2, 0], ['knight', 2, 1], ['rook', 2, 2], ['bishop', 2, 3]]);
    // Seen from Black, c8 is at the bottom, on the sixth column: going up.
    assert.deepEqual(at('c8', 'black'), [['queen', 5, 7], ['knight', 5, 6], ['rook', 5, 5], ['bishop', 5, 4]]);
    // Black promotes on h1: the bottom right seen from White, the top left seen from Black.
    assert.deepEqual(at('h1', 'white'), [['queen', 7, 7], ['knight', 7, 6], ['rook', 7, 5], ['bishop', 7, 4]]);
    assert.deepEqual(at('h1', 'black'), [['queen', 0, 0], ['knight', 0, 1], ['rook', 0, 2], ['bishop', 0, 3]]);
  });
});
