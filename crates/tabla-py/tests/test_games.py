"""tabla.read_games against python-chess's chess.pgn.read_game on every file of testdata/pgn
(and the real-world corpus when present): the same games, tags, mainline SAN, UCI, FEN after
every move, clocks and evaluations; a file object, bytes and a path give the same games;
.pgn.zst reads as its text; a damaged game is reported and the next one read; str(game) reads
back in python-chess as the same game."""

import io
import shutil
import subprocess

import chess
import chess.pgn
import pytest

import tabla
from conftest import TESTDATA, decode, pgn_sets


def python_chess_games(path):
    handle = io.StringIO(decode(path.read_bytes()))
    while (game := chess.pgn.read_game(handle)) is not None:
        yield game


def same_game(ours: tabla.Game, theirs: chess.pgn.Game, where: str) -> int:
    """Asserts that the two readings agree; returns the plies compared."""
    for name, value in ours.tags.items():
        assert theirs.headers.get(name) == value, f"{where}: tag {name}"
    assert theirs.errors == [] or ours.error is not None or ours.warnings, where
    board = theirs.board()
    assert ours.start_fen == board.fen(en_passant="fen"), where
    nodes = list(theirs.mainline())
    moves = ours.moves
    assert len(moves) == len(nodes), where
    for ply, (m, node) in enumerate(zip(moves, nodes), 1):
        assert m.san == board.san(node.move), f"{where} ply {ply}"
        assert m.uci == node.move.uci(), f"{where} ply {ply}"
        board.push(node.move)
        assert m.fen == board.fen(en_passant="fen"), f"{where} ply {ply}"
        assert m.clock == node.clock(), f"{where} ply {ply}"
        score = node.eval()
        if score is None:
            assert m.eval is None, f"{where} ply {ply}"
        else:
            white = score.white()
            assert (m.eval.cp, m.eval.mate) == (white.score(), white.mate()), f"{where} ply {ply}"
    return len(moves)


@pytest.mark.parametrize("folder", pgn_sets())
def test_games_match_python_chess(folder):
    files = sorted(folder.glob("*.pgn"))
    assert files, f"no .pgn files in {folder}"
    games = plies = 0
    for path in files:
        ours = list(tabla.read_games(path))
        theirs = list(python_chess_games(path))
        assert len(ours) == len(theirs), path.name
        for i, (a, b) in enumerate(zip(ours, theirs), 1):
            assert a.number == i
            plies += same_game(a, b, f"{path.name} game {i}")
        games += len(ours)
    assert games > 400 and plies > 10_000


def test_path_bytes_text_and_binary_file_objects_give_the_same_games():
    path = TESTDATA / "pgn" / "dortmund-latin1.pgn"

    def summary(reader):
        return [(g.tags, [m.san for m in g.moves], g.result) for g in reader]

    by_path = summary(tabla.read_games(path))
    assert by_path and any(g[1] for g in by_path)
    assert summary(tabla.read_games(str(path))) == by_path
    assert summary(tabla.read_games(path.read_bytes())) == by_path
    with open(path, "rb") as f:
        assert summary(tabla.read_games(f)) == by_path
    text = decode(path.read_bytes())
    assert summary(tabla.read_games(io.StringIO(text))) == by_path


def test_zstd_files_read_as_their_text(tmp_path):
    zstd = shutil.which("zstd")
    if zstd is None:
        pytest.skip("the zstd command is not installed (Debian package zstd)")
    src = TESTDATA / "pgn" / "world_matches.pgn"
    packed = tmp_path / "world_matches.pgn.zst"
    subprocess.run([zstd, "-q", "-3", str(src), "-o", str(packed)], check=True)
    assert packed.read_bytes()[:4] == b"\x28\xb5\x2f\xfd"
    plain = [[m.uci for m in g.moves] for g in tabla.read_games(src)]
    assert [[m.uci for m in g.moves] for g in tabla.read_games(packed)] == plain
    # Damaged at the end: the games before are read, then OSError says why.
    broken = tmp_path / "broken.pgn.zst"
    broken.write_bytes(packed.read_bytes()[:-40])
    read = []
    with pytest.raises(OSError):
        for game in tabla.read_games(broken):
            read.append(game)
    assert len(read) < len(plain)


DAMAGED = b"""[Event "one"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "two"]

1. d4 d5 2. Kd3 Nf6 3. c4 0-1

[Event "three"]

1. c4 {[%clk 0:01:00]} e5 (1... c5 2. Kc9) 2. Nc3 1/2-1/2
"""


def test_a_damaged_game_is_reported_and_the_next_one_read():
    games = list(tabla.read_games(DAMAGED))
    assert [g.tags["Event"] for g in games] == ["one", "two", "three"]
    one, two, three = games
    assert (one.error, one.warnings, len(one)) == (None, [], 4)
    # Game two stops at the illegal king move; the moves before it are kept.
    assert [m.san for m in two.moves] == ["d4", "d5"]
    assert two.error is not None and "7:13" in two.error and "Kd3" in two.error
    # Game three's side line is cut short (a warning); its mainline is whole.
    assert three.error is None and len(three.warnings) == 1 and "Kc9" in three.warnings[0]
    assert [m.san for m in three.moves] == ["c4", "e5", "Nc3"]
    assert three.moves[0].clock == 60.0
    # python-chess reads the same mainlines up to the errors.
    theirs = [g for g in python_chess_games_from_text(DAMAGED.decode())]
    assert [len(list(g.mainline_moves())) for g in theirs] == [4, 2, 3]


def python_chess_games_from_text(text):
    handle = io.StringIO(text)
    while (game := chess.pgn.read_game(handle)) is not None:
        yield game


def test_plies_count_as_python_chess_counts_them():
    # From a FEN with Black to play his 40th move: 40... Kd6 is ply 80 (the plies played once it
    # is made, as the move numbers count them and a review numbers it), not 1.
    text = '[FEN "8/8/4k3/8/8/4K3/4P3/8 b - - 3 40"]\n[SetUp "1"]\n\n40... Kd6 41. Kd4 Ke6 *'
    game = next(tabla.read_games(text.encode()))
    theirs = chess.pgn.read_game(io.StringIO(text))
    ours = [m.ply for m in game.moves]
    assert ours == [n.ply() for n in theirs.mainline()]
    assert ours == [80, 81, 82]


def test_written_games_read_back_in_python_chess():
    path = TESTDATA / "pgn" / "annotated.pgn"
    count = 0
    for game in tabla.read_games(path):
        text = str(game)
        assert text == game.pgn()
        back = chess.pgn.read_game(io.StringIO(text))
        assert back.errors == []
        assert [m.uci() for m in back.mainline_moves()] == [m.uci for m in game.moves]
        for name, value in game.tags.items():
            assert back.headers.get(name) == value
        count += 1
    assert count >= 2


def test_comments_nags_and_positions():
    game = next(tabla.read_games(b"1. e4! {Best by test [%eval 0.3,20]} e5 {[%eval #-2]} 2. Nf3?! *"))
    e4, e5, nf3 = game.moves
    assert e4.comments == ["Best by test"] and e4.nags == [1]
    assert (e4.eval.cp, e4.eval.mate) == (30, None)
    assert (e5.eval.cp, e5.eval.mate) == (None, -2)
    assert nf3.nags == [6] and nf3.comments == [] and nf3.eval is None
    assert [m.ply for m in game.moves] == [1, 2, 3]
    pos = e5.position()
    assert pos.fen() == e5.fen
    pos.push_san("Nf3")
    assert pos.fen() == nf3.fen and e5.position().fen() == e5.fen
    assert game.end().fen() == nf3.fen
    assert game.start_fen == chess.STARTING_FEN
    assert game.result == "*"


def test_bad_sources_raise():
    with pytest.raises(FileNotFoundError):
        tabla.read_games(TESTDATA / "no-such-file.pgn")
    with pytest.raises(TypeError):
        tabla.read_games(42)
    assert list(tabla.read_games(b"")) == []
