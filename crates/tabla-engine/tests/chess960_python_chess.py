#!/usr/bin/env python3
"""Chess960 through `tabla uci`, judged by python-chess (tests/python_chess.rs runs this).

python-chess turns UCI_Chess960 on for a Chess960 board (and refuses the board with an engine
that lacks the option), sends the position as Shredder-FEN with every castling move written as
king takes rook, and reads each `bestmove` and `pv` back on its own Chess960 board, where the
king's two-square move is no castling. So every game here checks both directions: a castling
move the engine misreads leaves it in another position, where its answer is illegal; a castling
move it writes as the king's move is illegal for python-chess.

    tests/chess960_python_chess.py ENGINE

Prints one line a game and the number of castling moves, and exits with status 1 on any failure.
"""

import logging
import sys

import chess
import chess.engine

# Start positions (Scharnagl numbers) chosen so that castling means different things: 518 is
# the standard array (castling through the long way round, king on e), 0 has the king on b
# with the rook beside it (castling long, king b1 to c1, could also be a plain step), 959 the
# king on g next to the rook on h (castling short moves only the rook), and a few others.
START_POSITIONS = [518, 0, 959, 1, 300, 709, 88, 412]
NODES = 3_000
MAX_PLIES = 80


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def play(engine, board, plies):
    """Plays `plies` moves from `board` with the engine on both sides; returns castling moves."""
    castles = 0
    for _ in range(plies):
        if board.is_game_over(claim_draw=True):
            break
        # chess.engine raises EngineError for a bestmove it cannot read on `board`.
        result = engine.play(board, chess.engine.Limit(nodes=NODES), info=chess.engine.INFO_PV)
        move = result.move
        if move is None or move not in board.legal_moves:
            fail(f"{board.fen()}: bestmove {move} is not legal")
        pv = result.info.get("pv", [])
        check = board.copy()
        for mv in pv:
            if mv not in check.legal_moves:
                fail(f"{board.fen()}: pv move {mv} of {pv} is not legal")
            check.push(mv)
        castles += board.is_castling(move)
        board.push(move)
    return castles


class Complaints(logging.Handler):
    """chess.engine logs (and drops) an `info` line it cannot read on its board: count those."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.seen = []

    def emit(self, record):
        self.seen.append(record.getMessage())


def main():
    if len(sys.argv) != 2:
        fail("usage: chess960_python_chess.py ENGINE")
    complaints = Complaints()
    logging.getLogger("chess.engine").addHandler(complaints)
    engine = chess.engine.SimpleEngine.popen_uci(sys.argv[1])
    try:
        if "UCI_Chess960" not in engine.options:
            fail("the engine does not offer UCI_Chess960")
        total = 0
        for number in START_POSITIONS:
            board = chess.Board.from_chess960_pos(number)
            board.chess960 = True
            castles = play(engine, board, MAX_PLIES)
            total += castles
            print(f"Chess960 position {number}: {board.ply()} plies, {castles} castling, "
                  f"{board.fen(shredder=True)}")

        # Mate in one by castling long with the king on b1: b1c1 would be the king's step, so
        # only king takes rook (b1a1) says which is meant.
        board = chess.Board("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1", chess960=True)
        result = engine.play(board, chess.engine.Limit(depth=3))
        if result.move != chess.Move.from_uci("b1a1") or not board.is_castling(result.move):
            fail(f"expected castling b1a1 (mate), got {result.move}")
        board.push(result.move)
        if not board.is_checkmate():
            fail(f"b1a1 is not mate: {board.fen()}")
        total += 1

        # The king's step and the castling it could be mistaken for, both from b1 to c1: the
        # rook on a1 or on d1, where it pins the knight on d7. Every legal move as a MultiPV line
        # shows which position the engine read.
        for uci, rook in [("b1c1", "a1"), ("b1a1", "d1")]:
            board = chess.Board("3k4/3n4/8/8/8/8/8/RK6 w A - 0 1", chess960=True)
            board.push_uci(uci)
            if board.piece_at(chess.parse_square(rook)) != chess.Piece.from_symbol("R"):
                fail(f"python-chess put the rook elsewhere after {uci}: {board.fen()}")
            legal = set(board.legal_moves)
            lines = engine.analyse(board, chess.engine.Limit(depth=2), multipv=len(legal))
            firsts = {line["pv"][0] for line in lines if line.get("pv")}
            if firsts != legal:
                fail(f"after {uci}: the engine's moves {sorted(map(str, firsts))}, "
                     f"python-chess's {sorted(map(str, legal))}")
            print(f"after {uci}: rook on {rook}, the same {len(legal)} legal moves")

        # Both sides castled, then searched.
        board = chess.Board("r3k2r/8/8/8/8/8/8/RK5R w HAha - 0 1", chess960=True)
        board.push_uci("b1a1")  # O-O-O: king c1, rook d1
        board.push_uci("e8h8")  # O-O: king g8, rook f8
        result = engine.play(board, chess.engine.Limit(depth=4))
        if result.move not in board.legal_moves:
            fail(f"after two castlings: bestmove {result.move} on {board.fen()}")
        print(f"after two castlings: {board.fen(shredder=True)}, bestmove {result.move}")

        # And standard chess with the option off again: castling as the king's move.
        board = chess.Board("r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1")
        castles = play(engine, board, 20)
        print(f"standard chess: {board.ply()} plies, {castles} castling")
        if castles == 0:
            fail("no castling in the standard game")
        if total < 4:
            fail(f"only {total} castling moves in the Chess960 games: too few to tell")
        print(f"{total} castling moves in Chess960")
        if complaints.seen:
            fail(f"python-chess could not read the engine: {complaints.seen[:5]}")
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
