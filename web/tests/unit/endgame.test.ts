// The endgame explorer's pure logic (src/endgame.ts): the tray, the presets, what a setup lacks,
// the FEN fields kept, and the words and values shown for a move.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_MEN, PRESETS, TRAY, countMen, moveVerdict, moverDtm, parseSetup, preset, setupFen, setupHint, unreadableFen } from '../../src/endgame';
import type { ProbeMove } from '../../src/types';

/** The men of a FEN's board, as chessground names them. */
function menOf(board: string): { color: 'white' | 'black'; role: 'king' | 'queen' | 'rook' | 'bishop' | 'knight' | 'pawn' }[] {
  const roles = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' } as const;
  return [...board]
    .filter((c) => /[kqrbnp]/i.test(c))
    .map((c) => ({ color: c === c.toUpperCase() ? 'white' : 'black', role: roles[c.toLowerCase() as keyof typeof roles] }));
}

describe('tray and presets', () => {
  test('the tray holds every man of both colours once', () => {
    assert.equal(TRAY.length, 12);
    assert.equal(new Set(TRAY.map((m) => `${m.color} ${m.role}`)).size, 12);
    assert.deepEqual(TRAY[0], { color: 'white', role: 'king', name: 'White king' });
    assert.deepEqual(TRAY[11], { color: 'black', role: 'pawn', name: 'Black pawn' });
  });

  test('every preset has both kings and at most five men, KBNvK first', () => {
    assert.equal(PRESETS[0].name, 'KBNvK');
    for (const p of PRESETS) {
      const counts = countMen(menOf(parseSetup(p.fen).board));
      assert.equal(setupHint(counts), null, p.name);
      assert.equal(setupFen(parseSetup(p.fen)), p.fen, p.name);
    }
    assert.equal(preset('KRvKP')?.fen, '8/5k2/2PK4/5r2/8/8/8/8 w - - 0 1');
    assert.equal(preset('KPPvKP')?.fen, '8/8/8/8/1p2P3/4P3/1k6/3K4 w - - 0 1');
    assert.equal(preset('nothing'), undefined);
  });
});

describe('FENs typed', () => {
  test("the server's refusals: a FEN that does not read, or a position it reads that is illegal", () => {
    // The server's own words (crates/tabla-web's /api/position for these FENs).
    assert.equal(unreadableFen('invalid FEN "hello world": FEN has 2 fields, expected 4 to 6 (placement, side, castling, en passant[, halfmove clock[, fullmove number]])'), true);
    assert.equal(unreadableFen('invalid FEN "4k3/8/8/8/8/8/8/4K3 x - - 0 1": side to move "x" is not \'w\' or \'b\''), true);
    assert.equal(unreadableFen('invalid FEN "8/8/8/8/8/8/8/8 w - - 0 1": illegal position: a side has no king'), false);
    assert.equal(unreadableFen('the server cannot be reached (Failed to fetch)'), true);
  });
});

describe('setups', () => {
  test('keep the side to move, castling rights and the en-passant square', () => {
    assert.deepEqual(parseSetup('8/8/8/8/4Pp2/8/8/k6K b - e3 0 40'), { board: '8/8/8/8/4Pp2/8/8/k6K', turn: 'black', castling: '-', ep: 'e3' });
    assert.equal(setupFen(parseSetup('r3k3/8/8/8/8/8/8/4K3 w q - 3 9')), 'r3k3/8/8/8/8/8/8/4K3 w q - 0 1');
    assert.equal(setupFen(parseSetup('')), '8/8/8/8/8/8/8/8 w - - 0 1');
  });

  test('say which king is lacking, and when there are too many men', () => {
    assert.equal(setupHint(countMen([])), 'Place the white king and the black king (drag from the tray).');
    assert.equal(setupHint(countMen(menOf('k7/8/8/8/8/8/8/Q7'))), 'Place the white king (drag from the tray).');
    assert.equal(setupHint(countMen(menOf('k7/8/8/8/8/8/8/K7'))), null);
    const six = countMen(menOf('kqr5/8/8/8/8/8/8/KQR5'));
    assert.equal(setupHint(six), `6 men on the board: the tables hold at most ${MAX_MEN}. Drag some off the board.`);
  });
});

describe('moves', () => {
  const move = (dtm: number, plies: number | null, mate = false): ProbeMove => ({ san: 'Kb2', uci: 'a1b2', dtm, plies, mate });

  test('say what follows, for the side that moves', () => {
    assert.equal(moveVerdict(move(0, 0, true), 'white'), 'checkmate');
    assert.equal(moveVerdict(move(-3, 6), 'white'), 'White mates in 4 moves');
    assert.equal(moveVerdict(move(1, 1), 'black'), 'White mates in 1 move');
    assert.equal(moveVerdict(move(0, null), 'black'), 'draw');
  });

  test('value a move for its player, with the plies', () => {
    // Mate at once: +1 in one ply; the opponent mated in 3 after the move: +4 in 7 plies.
    assert.equal(moverDtm(move(0, 0, true)), '+1 (1 ply)');
    assert.equal(moverDtm(move(-3, 6)), '+4 (7 plies)');
    // The opponent mates in 2 after the move: the mover is mated in 2, 4 plies from now.
    assert.equal(moverDtm(move(2, 3)), '-2 (4 plies)');
    assert.equal(moverDtm(move(0, null)), '0 (draw)');
  });
});
