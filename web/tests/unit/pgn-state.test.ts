// The PGN browser's state and what the page derives from it (src/pgn-state.ts), without a DOM.
// FENs from python-chess.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type PgnState,
  clampGame,
  dbEntry,
  downloadName,
  excursionLine,
  filterGames,
  addressMisses,
  fromQuery,
  gameMove,
  gameRequest,
  gameTitle,
  initialState,
  keyAction,
  listCells,
  listNote,
  loadSummary,
  loaded,
  isOpenRow,
  openedDbGame,
  mainlineCells,
  moveTo,
  needsNumber,
  opened,
  playRestart,
  playedOff,
  selected,
  shownFen,
  stepTarget,
  stepped,
  toQuery,
  toggledNotation,
  withSuggestion,
} from '../../src/pgn-state';
import type { PgnGameWithText, PgnIndex, PgnIndexGame, PgnMove } from '../../src/types';

const AFTER = {
  e4: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
  e4e5: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
  e4e5Nf3: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2',
  d4: 'rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1',
  d4d5: 'rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2',
  e4c5: 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
  e4c5Nf3: 'rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2',
  e4e5Nc3: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 2',
};

function mv(san: string, uci: string, fen: string, more: Partial<PgnMove> = {}): PgnMove {
  return { san, lan: san, uci, fen, comments: [], nags: [], variations: [], ...more };
}

/** 1. e4 { A comment. } (1. d4 d5) 1... e5 { Before. } 2. Nf3 * */
function game(more: Partial<PgnGameWithText> = {}): PgnGameWithText {
  return {
    tags: { White: 'Anderssen', Black: 'Kieseritzky', Event: 'London', Site: '?', Date: '1851.06.21' },
    result: '*',
    start_fen: null,
    moves: [
      mv('e4', 'e2e4', AFTER.e4, { comments: ['A comment.'], variations: [[mv('d4', 'd2d4', AFTER.d4), mv('d5', 'd7d5', AFTER.d4d5)]] }),
      mv('e5', 'e7e5', AFTER.e4e5),
      mv('Nf3', 'g1f3', AFTER.e4e5Nf3, { comments_before: ['Before.'] }),
    ],
    error: null,
    warnings: [],
    pgn: '1. e4 e5 2. Nf3 *',
    ...more,
  };
}

function entry(i: number, tags: Record<string, string>, more: Partial<PgnIndexGame> = {}): PgnIndexGame {
  return { index: i, start: i * 100, end: i * 100 + 100, line: i * 10 + 1, column: 1, tags, result: '1-0', plies: 40, error: null, warnings: [], ...more };
}

const INDEX: PgnIndex = {
  games: [
    entry(0, { White: 'Anderssen', Black: 'Kieseritzky', Event: 'London', Date: '1851.06.21' }),
    entry(1, { White: 'Morphy', Black: 'Duke Karl', Event: 'Paris Opera', Date: '1858.??.??' }, { result: '1-0' }),
    entry(2, { White: 'Carlsen', Black: 'Anderssen' }, { result: '0-1' }),
  ],
  errors: 0,
  warnings: 0,
  bytes: 300,
};

const SOURCE = new Blob(['x'.repeat(300)]);

/** The fixture loaded and game 0 open at `nodeId`. */
function open(nodeId: string | null = null): PgnState {
  return opened(loaded(initialState(false), SOURCE, INDEX, 0), 0, game(), nodeId);
}

describe('transitions', () => {
  test('a load selects the game asked for, within the list, and opens none', () => {
    const was = open('2');
    for (const [first, expected] of [
      [0, 0],
      [2, 2],
      [9, 2],
      [-4, 0],
    ]) {
      const s = loaded(was, SOURCE, INDEX, first);
      assert.equal(s.gameIndex, expected, `first ${first}`);
      assert.equal(s.entries.length, 3);
      assert.equal(s.source, SOURCE);
      assert.equal(s.game, null);
      assert.equal(s.tree, null);
      assert.equal(s.current, null);
    }
    assert.equal(clampGame(was, 7), 2);
    assert.equal(selected(was, 1).gameIndex, 1);
  });

  test('a game opens at the node asked for, else at the start', () => {
    assert.equal(open().current?.id, '0');
    assert.equal(open('2').current?.move?.san, 'e5');
    assert.equal(open('1v1.2').current?.move?.san, 'd5');
    assert.equal(open('99').current?.id, '0');
    const s = withSuggestion(open('2'), 'g1f3');
    assert.equal(opened(s, 0, game(), '2').suggested, null, 'a game opened forgets the suggestion');
  });

  test('moving keeps the suggestion only on the same position', () => {
    const s = withSuggestion(open('2'), 'g1f3');
    assert.equal(moveTo(s, null), s);
    const same = moveTo(s, s.current);
    assert.notEqual(same, s, 'the same node is shown again');
    assert.equal(same.suggested, 'g1f3');
    const other = moveTo(s, s.current?.next ?? null);
    assert.equal(other.current?.move?.san, 'Nf3');
    assert.equal(other.suggested, null);
  });

  test('nothing moves before a game is open', () => {
    const s = initialState(false);
    assert.equal(moveTo(s, open('1').current), s);
    for (const step of ['first', 'prev', 'next', 'last'] as const) assert.equal(stepTarget(s, step), null, step);
    assert.equal(playRestart(s), null);
  });

  test('steps: the start, back, on, and the end of the line shown', () => {
    const at = (id: string, step: 'first' | 'prev' | 'next' | 'last') => stepTarget(open(id), step)?.id ?? null;
    assert.equal(at('2', 'first'), '0');
    assert.equal(at('2', 'prev'), '1');
    assert.equal(at('2', 'next'), '3');
    assert.equal(at('0', 'last'), '3');
    assert.equal(at('0', 'prev'), null);
    assert.equal(at('3', 'next'), null);
    // In a variation: back to the position it starts from, on and to its own end.
    assert.equal(at('1v1.1', 'prev'), '0');
    assert.equal(at('1v1.1', 'next'), '1v1.2');
    assert.equal(at('1v1.1', 'last'), '1v1.2');
  });

  test('Play starts again from the start at the end of a line only', () => {
    assert.equal(playRestart(open('3'))?.id, '0');
    assert.equal(playRestart(open('1v1.2'))?.id, '0');
    assert.equal(playRestart(open('2')), null);
    assert.equal(playRestart(open('0')), null);
  });

  test('keys', () => {
    assert.equal(keyAction('ArrowRight'), 'next');
    assert.equal(keyAction('ArrowLeft'), 'prev');
    assert.equal(keyAction('ArrowUp'), 'first');
    assert.equal(keyAction('Home'), 'first');
    assert.equal(keyAction('ArrowDown'), 'last');
    assert.equal(keyAction('End'), 'last');
    assert.equal(keyAction('f'), 'flip');
    for (const key of ['x', 'F', 'Enter', 'toString', 'constructor']) assert.equal(keyAction(key), null, key);
  });

  test('the notation switches', () => {
    assert.equal(toggledNotation(initialState(false)).long, true);
    assert.equal(toggledNotation(toggledNotation(initialState(false))).long, false);
  });
});

describe('the game list', () => {
  test('rows and the filter: every word, any case, in any column', () => {
    assert.deepEqual(listCells(INDEX.games[2], 2), ['3', 'Carlsen', 'Anderssen', '0-1', '', '']);
    assert.deepEqual(listCells(entry(0, {}), 0), ['1', '?', '?', '1-0', '', '']);
    assert.deepEqual(filterGames(INDEX.games, ''), { shown: [0, 1, 2], matching: 3 });
    assert.deepEqual(filterGames(INDEX.games, 'anderssen'), { shown: [0, 2], matching: 2 });
    assert.deepEqual(filterGames(INDEX.games, '  ANDERSSEN   london '), { shown: [0], matching: 1 });
    assert.deepEqual(filterGames(INDEX.games, '0-1'), { shown: [2], matching: 1 });
    assert.deepEqual(filterGames(INDEX.games, 'nobody'), { shown: [], matching: 0 });
    assert.deepEqual(filterGames(INDEX.games, '', 2), { shown: [0, 1], matching: 3 });
  });

  test('the notes', () => {
    assert.equal(listNote(3, 3), '3 of 3 games.');
    assert.equal(listNote(1, 1), '1 of 1 game.');
    assert.equal(listNote(1500, 2000), 'Showing 1000 of 1500 games: filter to narrow.');
    assert.equal(loadSummary(INDEX), '3 games loaded.');
    assert.equal(loadSummary({ ...INDEX, errors: 2, warnings: 1 }), '3 games loaded, 2 with errors, 1 warning.');
    assert.equal(loadSummary({ ...INDEX, games: INDEX.games.slice(0, 1), warnings: 4 }), '1 game loaded, 4 warnings.');
  });

  test('a game is asked for by its byte range and where it starts', () => {
    const r = gameRequest(INDEX.games[1]);
    assert.equal(r.path, '/api/pgn/game?index=1&start=100&line=11&column=1');
    assert.deepEqual([r.start, r.end], [100, 200]);
  });
});

describe('the game open', () => {
  test('title, tooltip and file name', () => {
    assert.deepEqual(gameTitle(game()), { text: 'Anderssen – Kieseritzky  *', tooltip: 'London, 1851.06.21' });
    assert.deepEqual(gameTitle(game({ tags: {} })), { text: '? – ?  *', tooltip: '' });
    assert.equal(downloadName({ White: 'Anderssen, Adolf', Black: 'Kieseritzky' }), 'Anderssen_Adolf-Kieseritzky.pgn');
    assert.equal(downloadName({}), 'white-black.pgn');
  });

  test('the mainline grid: a comment or variation closes the row, and the next move is numbered again', () => {
    const s = open();
    assert.ok(s.tree);
    const cells = mainlineCells(s.tree, s.game).map((c) => ('node' in c ? `${c.kind}:${c.node.move?.san}` : `${c.kind}:${c.text}`));
    assert.deepEqual(cells, [
      'number:1.',
      'move:e4',
      'gap:',
      'after:e4',
      'number:1.',
      'gap:…',
      'move:e5',
      'before:Nf3',
      'number:2.',
      'move:Nf3',
      'result:*',
    ]);
    const damaged = mainlineCells(s.tree, game({ error: 'illegal move' }));
    assert.deepEqual(damaged[damaged.length - 1], { kind: 'result', text: '(stopped: illegal move)' });
  });

  test('moves of a variation get a number when White moves, first, or after a comment or variation', () => {
    const line = open().tree?.byId.get('1')?.variations[0] ?? [];
    assert.deepEqual(
      line.map((_, i) => needsNumber(line, i)),
      [true, false],
    );
    const commented = opened(open(), 0, game({ moves: [mv('e4', 'e2e4', AFTER.e4, { comments: ['!'] }), mv('e5', 'e7e5', AFTER.e4e5)] }), null);
    const mainline = commented.tree?.mainline ?? [];
    assert.deepEqual(
      mainline.map((_, i) => needsNumber(mainline, i)),
      [true, true],
    );
  });
});

describe('the address', () => {
  test('the game and position asked for', () => {
    assert.deepEqual(fromQuery('?game=2&ply=14v1.3'), { first: 1, game: '2', db: null, ply: '14v1.3' });
    assert.deepEqual(fromQuery(''), { first: 0, game: null, db: null, ply: null });
    assert.deepEqual(fromQuery('?game=0'), { first: 0, game: '0', db: null, ply: null });
    assert.deepEqual(fromQuery('?game=abc&ply=3'), { first: 0, game: 'abc', db: null, ply: '3' });
    assert.deepEqual(fromQuery('?game=1.5'), { first: 0, game: '1.5', db: null, ply: null });
    assert.deepEqual(fromQuery('?db=-8675309&ply=12'), { first: 0, game: null, db: '-8675309', ply: '12' });
  });

  test('what it asks for that is not there is said', () => {
    // Everything there: nothing said.
    assert.deepEqual(addressMisses(fromQuery('?game=1&ply=2'), open('2'), 'games.pgn'), []);
    assert.deepEqual(addressMisses(fromQuery(''), open(), 'games.pgn'), []);
    // A game beyond the PGN's (clamped to the last), or not a number: said, with what is shown.
    const last = opened(loaded(initialState(false), SOURCE, INDEX, 8), 2, game(), null);
    assert.deepEqual(addressMisses(fromQuery('?game=9'), last, 'games.pgn'), ['There is no game "9" in games.pgn (3 games): showing game 3.']);
    assert.deepEqual(addressMisses(fromQuery('?game=abc'), open(), 'games.pgn'), ['There is no game "abc" in games.pgn (3 games): showing game 1.']);
    // A position the game does not have.
    assert.deepEqual(addressMisses(fromQuery('?game=1&ply=99v2'), open('99v2'), 'games.pgn'), ['Game 1 has no position "99v2": showing its start.']);
    const fromDb = openedDbGame(open(), '42', game(), '77');
    assert.deepEqual(addressMisses(fromQuery('?db=42&ply=77'), fromDb, 'games.pgn'), ['Game 42 of the database has no position "77": showing its start.']);
  });

  test('the position shown', () => {
    assert.equal(toQuery(initialState(false)), null);
    assert.deepEqual(toQuery(open('1v1.2')), { game: 1, ply: '1v1.2' });
    assert.deepEqual(toQuery(opened(selected(open(), 2), 2, game(), '3')), { game: 3, ply: '3' });
    const fromDb = openedDbGame(open(), '42', game(), '2');
    assert.deepEqual(toQuery(fromDb), { db: '42', ply: '2' });
    // A game of the list opened afterwards, or a PGN loaded, is no longer the database's game.
    assert.deepEqual(toQuery(opened(fromDb, 1, game(), '1')), { game: 2, ply: '1' });
    assert.deepEqual(toQuery(opened(loaded(fromDb, SOURCE, INDEX, 1), 1, game(), '1')), { game: 2, ply: '1' });
  });
});

describe('a game of the database', () => {
  test('opens over the PGN loaded: its games stay listed, none of them marked open', () => {
    const before = opened(selected(open(), 1), 1, game(), '2');
    const s = openedDbGame(before, '42', game(), '1');
    assert.equal(s.dbGame, '42');
    assert.equal(s.source, SOURCE);
    assert.equal(s.entries, INDEX.games);
    assert.equal(s.gameIndex, 1, 'the game to go back to');
    assert.equal(s.current?.id, '1');
    assert.equal(s.excursion, null);
    assert.deepEqual([0, 1, 2].map((i) => isOpenRow(s, i)), [false, false, false]);
    assert.deepEqual([0, 1, 2].map((i) => isOpenRow(before, i)), [false, true, false]);
  });

  test('is read again (for its review) from its own text', () => {
    const text = new Blob([game().pgn]);
    assert.deepEqual([dbEntry(game(), text.size)], [
      {
        index: 0,
        start: 0,
        end: text.size,
        line: 1,
        column: 1,
        tags: { Event: 'London', Site: '?', Date: '1851.06.21', White: 'Anderssen', Black: 'Kieseritzky' },
        result: '*',
        plies: 3,
        error: null,
        warnings: [],
      },
    ]);
    assert.deepEqual(gameRequest(dbEntry(game(), text.size)), { path: '/api/pgn/game?index=0&start=0&line=1&column=1', start: 0, end: text.size });
    assert.deepEqual(dbEntry(game({ error: 'stopped', warnings: ['w'] }), 9).error, 'stopped');
  });
});

describe('moves played from the explorer', () => {
  test("the game's own move leads into the game, another one past it", () => {
    const s = open('0');
    assert.equal(gameMove(s, 'e2e4')?.id, '1');
    assert.equal(gameMove(s, 'd2d4')?.id, '1v1.1');
    assert.equal(gameMove(s, 'g1f3'), null);
    assert.equal(gameMove(open('3'), 'e1e2'), null);
  });

  test('past the game: the board, the line, back, and back to the game', () => {
    let s = withSuggestion(open('1'), 'g8f6');
    assert.equal(shownFen(s), AFTER.e4);
    s = playedOff(s, { uci: 'c7c5', san: 'c5', fen: AFTER.e4c5 });
    assert.equal(s.suggested, null);
    assert.equal(shownFen(s), AFTER.e4c5);
    assert.equal(s.current?.id, '1');
    // No game move from a position past the game, even one the game has at its node.
    assert.equal(gameMove(s, 'g1f3'), null);
    s = playedOff(s, { uci: 'g1f3', san: 'Nf3', fen: AFTER.e4c5Nf3 });
    assert.equal(excursionLine(s), '1... c5 2. Nf3');
    assert.equal(stepped(s, 'next'), s);
    s = stepped(s, 'prev');
    assert.equal(excursionLine(s), '1... c5');
    assert.equal(stepped(s, 'prev').excursion, null);
    assert.equal(shownFen(stepped(s, 'prev')), AFTER.e4);
    // A step to the game's own positions leaves the moves past it.
    const last = stepped(s, 'last');
    assert.equal(last.excursion, null);
    assert.equal(last.current?.id, '3');
    const back = moveTo(s, s.current);
    assert.equal(back.excursion, null);
    assert.equal(shownFen(back), AFTER.e4);
    assert.equal(excursionLine(open('2')), '');
    // From White's move the number comes first.
    const white = playedOff(open('2'), { uci: 'b1c3', san: 'Nc3', fen: AFTER.e4e5Nc3 });
    assert.equal(excursionLine(white), '2. Nc3');
  });

  test('steps on the game are those of the move controls', () => {
    const s = open('1');
    assert.equal(stepped(s, 'next').current?.id, '2');
    assert.equal(stepped(s, 'first').current?.id, '0');
  });
});
