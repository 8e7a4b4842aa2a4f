// The game report's pure parts (src/eval-graph.ts, src/review-report.ts), without a DOM: the
// graph's series and geometry, the marks' glyphs, the evaluations' text, the move labels.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GRAPH_HEIGHT, GRAPH_WIDTH, areaPath, markClass, markGlyph, nearestPoint, pointX, pointY, reviewEvalText, winSeries } from '../../src/eval-graph';
import { mainlineIndex, moveLabel, sideCells } from '../../src/review-report';
import type { MoveReview } from '../../src/types';

const move = (ply: number, san: string, win: number | null, judgement: MoveReview['judgement'] = null): MoveReview => ({
  ply,
  san,
  uci: '',
  eval: null,
  best: null,
  pv: [],
  win,
  judgement,
  accuracy: null,
});

describe('eval graph', () => {
  test('the series starts level, follows the wins, and a mate is won by its mover', () => {
    assert.deepEqual(winSeries([move(1, 'e4', 52), move(2, 'e5', 51)]), [50, 52, 51]);
    // Fool's mate: Black's mating move has no evaluation.
    assert.deepEqual(winSeries([move(1, 'f3', 40), move(2, 'e5', 45), move(3, 'g4', 2), move(4, 'Qh4#', null)]), [50, 40, 45, 2, 0]);
    assert.deepEqual(winSeries([move(1, 'e4', 52), move(2, 'Qh4', null)]), [50, 52, 52]);
    assert.deepEqual(winSeries([move(5, 'Qxf7#', null)]), [50, 100]);
  });

  test('geometry: x across the width, y from 100 at the top to 0 at the bottom', () => {
    assert.equal(pointX(0, 5), 0);
    assert.equal(pointX(4, 5), GRAPH_WIDTH);
    assert.equal(pointX(2, 5), GRAPH_WIDTH / 2);
    assert.equal(pointX(0, 1), GRAPH_WIDTH / 2);
    assert.equal(pointY(100), 0);
    assert.equal(pointY(0), GRAPH_HEIGHT);
    assert.equal(pointY(50), GRAPH_HEIGHT / 2);
    assert.equal(pointY(150), 0, 'clamped');
    assert.equal(areaPath([50, 100, 0], 10, 10), 'M0,10 L0,5 L5,0 L10,10 L10,10 Z');
  });

  test('the point under the pointer is the nearest one', () => {
    assert.equal(nearestPoint(0, 11), 0);
    assert.equal(nearestPoint(1, 11), 10);
    assert.equal(nearestPoint(0.34, 11), 3);
    assert.equal(nearestPoint(0.36, 11), 4);
    assert.equal(nearestPoint(-0.2, 11), 0);
    assert.equal(nearestPoint(1.5, 11), 10);
    assert.equal(nearestPoint(0.7, 1), 0);
  });
});

describe('marks and text', () => {
  test("lichess's glyphs and classes", () => {
    assert.equal(markGlyph('Inaccuracy'), '?!');
    assert.equal(markGlyph('Mistake'), '?');
    assert.equal(markGlyph('Blunder'), '??');
    assert.equal(markClass('Blunder'), 'mark-blunder');
  });

  test('evaluations from White’s view', () => {
    assert.equal(reviewEvalText({ cp: 25 }), '+0.25');
    assert.equal(reviewEvalText({ cp: -300 }), '-3.00');
    assert.equal(reviewEvalText({ cp: 0 }), '0.00');
    assert.equal(reviewEvalText({ mate: 2 }), '#2');
    assert.equal(reviewEvalText({ mate: -1 }), '#-1');
    assert.equal(reviewEvalText(null), '');
  });

  test('move labels, mainline indexes and the sides’ cells', () => {
    assert.equal(moveLabel(move(7, 'Nxe5', 10)), '4. Nxe5');
    assert.equal(moveLabel(move(8, 'Qg5', 10)), '4... Qg5');
    const node = (id: string) => ({ id, move: null, fen: '', ply: 0, prev: null, next: null, variations: [] });
    assert.equal(mainlineIndex(node('0')), 0);
    assert.equal(mainlineIndex(node('14')), 14);
    assert.equal(mainlineIndex(node('14v1.3')), -1);
    assert.equal(mainlineIndex(null), -1);
    assert.deepEqual(sideCells({ name: 'A', accuracy: 87.34, acpl: 45, inaccuracies: 1, mistakes: 0, blunders: 2 }), ['87.3%', '1', '0', '2', '45']);
    assert.deepEqual(sideCells({ name: null, accuracy: null, acpl: null, inaccuracies: 0, mistakes: 0, blunders: 0 }), ['–', '0', '0', '0', '–']);
  });
});
