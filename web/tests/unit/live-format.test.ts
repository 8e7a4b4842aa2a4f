// Live analysis's words and numbers (src/live-format.ts): evaluations as PGN writes them
// (White's view, pawns with two decimals, #N for mates) and the server's numbered lines read
// back into moves (Position::write_variation_san: "40. Bh6 Qd1 41. Qxf7+", "12... Nf6 13. Bg5").

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatBarEval, formatCount, formatEval, formatNps, numberedMoves } from '../../src/live-format';

const text = (line: string) =>
  numberedMoves(line)
    .map((m) => (m.number ? `${m.number} ${m.san}` : m.san))
    .join(' ');

describe('live analysis formats', () => {
  test('evaluations read as [%eval] writes them', () => {
    assert.equal(formatEval({ cp: 35 }), '+0.35');
    assert.equal(formatEval({ cp: -120 }), '-1.20');
    assert.equal(formatEval({ cp: 0 }), '0.00');
    assert.equal(formatEval({ mate: 5 }), '#5');
    assert.equal(formatEval({ mate: -3 }), '#-3');
  });

  test('the bar writes the size of the edge', () => {
    assert.equal(formatBarEval({ cp: 35 }), '0.3');
    assert.equal(formatBarEval({ cp: -135 }), '1.4');
    assert.equal(formatBarEval({ cp: 1445 }), '14');
    assert.equal(formatBarEval({ cp: 996 }), '10');
    assert.equal(formatBarEval({ mate: -3 }), 'M3');
  });

  test("the server's numbered lines are read back move by move", () => {
    assert.deepEqual(numberedMoves('40. Bh6 Qd1 41. Qxf7+'), [
      { number: '40.', san: 'Bh6' },
      { number: null, san: 'Qd1' },
      { number: '41.', san: 'Qxf7+' },
    ]);
    // Black to move: "12..." before the first move only.
    assert.deepEqual(
      numberedMoves('12... Nf6 13. Bg5 Be7').map((m) => m.number),
      ['12...', '13.', null],
    );
    // A promotion with a check, castling: words, not numbers.
    assert.equal(text('60. e8=Q+ Kd7 61. O-O-O+'), '60. e8=Q+ Kd7 61. O-O-O+');
    assert.deepEqual(numberedMoves(''), []);
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
