"""tabla.Position against python-chess: legal moves, SAN, FEN, check, Zobrist keys along many
lines of play; perft against the published counts of testdata/perft; errors raised where
python-chess raises or calls the position invalid."""

import random

import chess
import chess.polyglot
import pytest

import tabla
from conftest import TESTDATA


def suite_positions():
    """(FEN, {depth: nodes}) of testdata/perft/perftsuite.epd (published perft counts)."""
    out = []
    for line in (TESTDATA / "perft" / "perftsuite.epd").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, *counts = line.split(";")
        depths = {int(c.split()[0][1:]): int(c.split()[1]) for c in counts}
        out.append((fen.strip(), depths))
    return out


POSITIONS = suite_positions()


def test_the_suite_is_there():
    assert len(POSITIONS) >= 100


def compare(pos: tabla.Position, board: chess.Board, where: str) -> None:
    assert pos.fen() == board.fen(en_passant="fen"), where
    assert pos.fen(en_passant="legal") == board.fen(), where
    moves = {m.uci(): m for m in pos.legal_moves}
    assert sorted(moves) == sorted(m.uci() for m in board.legal_moves), where
    for m in board.legal_moves:
        assert pos.san(moves[m.uci()]) == board.san(m), f"{where} {m.uci()}"
    assert pos.is_check() == board.is_check(), where
    assert pos.zobrist() == chess.polyglot.zobrist_hash(board), where
    assert pos.is_checkmate() == board.is_checkmate(), where
    assert pos.is_stalemate() == board.is_stalemate(), where
    assert pos.is_insufficient_material() == board.is_insufficient_material(), where
    assert pos.turn == ("white" if board.turn else "black"), where


def test_lines_of_play_match_python_chess():
    """From every suite position, 24 random plies (SAN and UCI alternately), each position
    compared with python-chess's; then every move popped back to the start."""
    rng = random.Random(20261127)
    compared = 0
    for fen, _ in POSITIONS:
        pos, board = tabla.Position.from_fen(fen, lenient=True), chess.Board(fen)
        played = []
        for ply in range(24):
            compare(pos, board, f"{fen} after {played}")
            compared += 1
            if board.is_game_over():
                break
            m = rng.choice(list(board.legal_moves))
            if ply % 2 == 0:
                got = pos.push_san(board.san(m))
            else:
                got = pos.push_uci(m.uci())
            assert got.uci() == m.uci()
            board.push(m)
            played.append(m.uci())
        for uci in reversed(played):
            assert pos.pop().uci() == uci
        assert pos.fen() == tabla.Position.from_fen(fen, lenient=True).fen()
        with pytest.raises(IndexError):
            pos.pop()
    assert compared > 2000


@pytest.mark.parametrize("fen,depths", POSITIONS[:40])
def test_perft_matches_the_published_counts(fen, depths):
    for depth in (1, 2, 3):
        if depth in depths:
            assert tabla.Position.from_fen(fen, lenient=True).perft(depth) == depths[depth], depth


def test_perft_deeper_than_tabla_counts_raises_rather_than_overflowing_the_stack():
    # Two bare kings: perft(64) would be quick to refuse, perft(5000) an abort before the check.
    bare = tabla.Position("k7/8/8/8/8/8/8/K7 w - - 0 1")
    assert bare.perft(2) == 9
    with pytest.raises(ValueError, match="at most 64"):
        bare.perft(5000)
    with pytest.raises(ValueError, match="at most 64"):
        bare.perft(65)


def test_copy_is_independent():
    a = tabla.Position()
    b = a.copy()
    b.push_san("e4")
    assert a.fen() == chess.STARTING_FEN
    assert b.fen() != a.fen()


def test_push_takes_moves_from_legal_moves_and_from_uci():
    pos = tabla.Position()
    pos.push(pos.legal_moves[0])
    pos.push(tabla.Move.from_uci("e7e5"))
    with pytest.raises(tabla.IllegalMoveError):
        pos.push(tabla.Move.from_uci("e2e5"))
    assert tabla.Move.from_uci("e7e8q").promotion == "q"
    assert tabla.Move.from_uci("g1f3") == tabla.Move.from_uci("g1f3")
    assert {tabla.Move.from_uci("g1f3"), tabla.Move.from_uci("g1f3")} == {tabla.Move.from_uci("g1f3")}
    assert (tabla.Move.from_uci("g1f3").from_square, tabla.Move.from_uci("g1f3").to_square) == (
        chess.G1,
        chess.F3,
    )


BAD_FEN_SYNTAX = [
    "",
    "hello",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
]


@pytest.mark.parametrize("fen", BAD_FEN_SYNTAX)
def test_fen_syntax_errors_raise_in_both(fen):
    with pytest.raises(ValueError):
        chess.Board(fen)
    with pytest.raises(tabla.FenError) as err:
        tabla.Position.from_fen(fen)
    assert str(err.value)
    assert not isinstance(err.value, tabla.InvalidPositionError)


IMPOSSIBLE = [
    "8/8/8/8/8/8/8/8 w - - 0 1",  # no kings
    "k7/8/8/8/8/8/8/7K w - - 0 1".replace("7K", "6KK"),  # two white kings
    "k7/8/8/8/8/8/8/P6K w - - 0 1",  # pawn on the first rank
    "k6R/8/8/8/8/8/8/7K w - - 0 1",  # side not to move in check
    "kK6/8/8/8/8/8/8/8 w - - 0 1",  # kings touching
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",  # castling without the rook
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",  # en passant with no push
]


@pytest.mark.parametrize("fen", IMPOSSIBLE)
def test_positions_tabla_refuses_python_chess_calls_invalid(fen):
    with pytest.raises(tabla.InvalidPositionError):
        tabla.Position.from_fen(fen)
    assert not chess.Board(fen).is_valid()


def test_suite_positions_tabla_refuses_are_invalid_for_python_chess():
    refused = 0
    for fen, _ in POSITIONS:
        try:
            tabla.Position.from_fen(fen)
        except tabla.InvalidPositionError:
            refused += 1
            assert not chess.Board(fen).is_valid(), fen
    assert 0 < refused < len(POSITIONS) // 4


SAN_CASES = [
    # (FEN, SAN, python-chess's exception, tabla's)
    (chess.STARTING_FEN, "e5", chess.IllegalMoveError, tabla.IllegalMoveError),
    (chess.STARTING_FEN, "Ke2", chess.IllegalMoveError, tabla.IllegalMoveError),
    (chess.STARTING_FEN, "Zf3", chess.InvalidMoveError, tabla.InvalidMoveError),
    (chess.STARTING_FEN, "e9", chess.InvalidMoveError, tabla.InvalidMoveError),
    (chess.STARTING_FEN, "", chess.InvalidMoveError, tabla.InvalidMoveError),
    ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", chess.AmbiguousMoveError, tabla.AmbiguousMoveError),
    ("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1", chess.AmbiguousMoveError, tabla.AmbiguousMoveError),
]


@pytest.mark.parametrize("fen,san,theirs,ours", SAN_CASES)
def test_san_errors_raise_as_in_python_chess(fen, san, theirs, ours):
    with pytest.raises(theirs):
        chess.Board(fen).parse_san(san)
    with pytest.raises(ours):
        tabla.Position.from_fen(fen).push_san(san)
    assert issubclass(ours, ValueError)


def test_uci_errors():
    pos = tabla.Position()
    with pytest.raises(tabla.InvalidMoveError):
        pos.push_uci("e2")
    with pytest.raises(tabla.IllegalMoveError):
        pos.push_uci("e2e5")
    with pytest.raises(tabla.InvalidMoveError):
        tabla.Move.from_uci("e2e4x")


ENDS = [
    ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "checkmate", "1-0"),
    ("7k/8/6Q1/6K1/8/8/8/8 b - - 0 1", "stalemate", "1/2-1/2"),
    ("7k/8/8/8/8/8/8/K6B w - - 0 1", "insufficient_material", "1/2-1/2"),
    ("7k/8/8/8/8/8/8/K5RB w - - 150 100", "seventyfive_moves", "1/2-1/2"),
    (chess.STARTING_FEN, "ongoing", "*"),
]


@pytest.mark.parametrize("fen,status,result", ENDS)
def test_status_agrees_with_python_chess(fen, status, result):
    pos = tabla.Position.from_fen(fen)
    board = chess.Board(fen)
    assert pos.status() == status
    assert pos.result() == board.result(claim_draw=False)
    assert pos.result() == result
    assert pos.is_game_over() == board.is_game_over()


def test_fivefold_repetition_counts_the_moves_played():
    pos, board = tabla.Position(), chess.Board()
    for _ in range(4):
        for uci in ("g1f3", "g8f6", "f3g1", "f6g8"):
            pos.push_uci(uci)
            board.push_uci(uci)
    assert pos.status() == "fivefold_repetition"
    assert board.is_fivefold_repetition()


def test_svg_draws_every_piece():
    pos = tabla.Position("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    svg = pos.svg(size=200)
    assert svg.startswith("<svg") and svg.count("<use ") == 3
    assert 'width="200"' in svg
    assert pos._repr_svg_() == pos.svg()


def test_piece_at_and_repr():
    pos = tabla.Position()
    assert (pos.piece_at(chess.E1), pos.piece_at(chess.D8), pos.piece_at(chess.E4)) == ("K", "q", None)
    assert eval(repr(pos), {"Position": tabla.Position}) == pos
    assert repr(tabla.Move.from_uci("e2e4")) == "Move.from_uci('e2e4')"
