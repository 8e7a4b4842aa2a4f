// Live analysis's words and numbers (src/live-format.ts): evaluations as PGN writes them
// (White's view, pawns with two decimals, #N for mates) and move numbers as tabla writes lines
// (Position::variation_san: "40. Bh6 Qd1 41. Qxf7+", "12... Nf6 13. Bg5").

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatBarEval, formatCount, formatNps, formatWhiteEval, numberMoves } from '../../src/live-format';

const text = (fen: string, sans: string[]) =>
  numberMoves(fen, sans)
    .map((m) => (m.number ? `${m.number} ${m.san}` : m.san))
    .join(' ');

describe('live analysis formats', () => {
  test('evaluations read as [%eval] writes them', () => {
    assert.equal(formatWhiteEval({ cp: 35 }), '+0.35');
    assert.equal(formatWhiteEval({ cp: -120 }), '-1.20');
    assert.equal(formatWhiteEval({ cp: 0 }), '0.00');
    assert.equal(formatWhiteEval({ mate: 5 }), '#5');
    assert.equal(formatWhiteEval({ mate: -3 }), '#-3');
  });

  test('the bar writes the size of the edge', () => {
    assert.equal(formatBarEval({ cp: 35 }), '0.3');
    assert.equal(formatBarEval({ cp: -135 }), '1.4');
    assert.equal(formatBarEval({ cp: 1445 }), '14');
    assert.equal(formatBarEval({ cp: 996 }), '10');
    assert.equal(formatBarEval({ mate: -3 }), 'M3');
  });

  test('lines are numbered from the position', () => {
    // The Bh6 position (docs/background.md), White to move at move 40.
    assert.equal(text('6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40', ['Bh6', 'Qd1', 'Qxf7+']), '40. Bh6 Qd1 41. Qxf7+');
    // Black to move: "12..." before the first move only.
    assert.equal(
      text('rnbqkb1r/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12', ['Nf6', 'Bg5', 'Be7']),
      '12... Nf6 13. Bg5 Be7',
    );
    assert.deepEqual(numberMoves('8/8/8/8/8/8/8/K1k5 w - - 0 1', []), []);
  });

  test('speeds and counts are short', () => {
    assert.equal(formatNps(850), '850 n/s');
    assert.equal(formatNps(1_500), '1.5 kn/s');
    assert.equal(formatNps(812_345), '812 kn/s');
    assert.equal(formatNps(1_240_000), '1.24 Mn/s');
    assert.equal(formatCount(950), '950');
    assert.equal(formatCount(12_345), '12.3k');
    assert.equal(formatCount(4_560_000), '4.56M');
  });
});
