"""One result per game: tabla.read_games, tabla.db's stored results and its explorer agree with
python-chess on every game of testdata/ and the corpus (when present). python-chess's rule is
tabla's (the Result tag unless it is `*`, else the termination marker); where a tag is spelled
otherwise than `1-0`, `0-1`, `1/2-1/2`, `*` (testdata/results/result-spellings.pgn, written by
hand), the game's `Expected` tag, written by hand, is the reference."""

import collections
import io

import chess.pgn
import pytest

import tabla
import tabla.db
from conftest import TESTDATA, decode, pgn_sets

STANDARD = {"1-0", "0-1", "1/2-1/2", "*"}


def expected_results(path):
    """python-chess's result of every game of `path`, or the game's hand-written `Expected`."""
    handle = io.StringIO(decode(path.read_bytes()))
    while (game := chess.pgn.read_game(handle)) is not None:
        expected = game.headers.get("Expected")
        if expected is not None:
            yield expected
        else:
            result = game.headers.get("Result", "*")
            assert result in STANDARD, f"{path.name}: {result!r} needs an Expected tag"
            yield result


def sets():
    return [*pgn_sets(), pytest.param(TESTDATA / "results", id="results")]


@pytest.mark.parametrize("folder", sets())
def test_reader_and_db_agree_with_python_chess(folder, tmp_path):
    if not folder.is_dir():
        pytest.fail(f"corpus not found at {folder} and TABLA_REQUIRE_CORPUS=1")
    paths = sorted(folder.glob("*.pgn"))
    ours, theirs = [], []
    for path in paths:
        read = [game.result for game in tabla.read_games(path)]
        expected = list(expected_results(path))
        assert read == expected, path.name
        ours += read
    db_path = tmp_path / "games.db"
    tabla.db.import_pgn(db_path, paths, threads=2)
    db = tabla.db.open(db_path, threads=2)
    stored = db.sql("SELECT result FROM games").column("result").to_pylist()
    assert collections.Counter(stored) == collections.Counter(ours)
    info = db.info()
    counted = info["explorer"]["counted"]
    left_out = sum(reason["games"] for reason in info["explorer"]["left_out"])
    assert counted + left_out == info["games"] == len(ours)
    assert counted <= sum(1 for r in ours if r != "*")


def test_non_standard_draws_count_in_the_explorer(tmp_path):
    path = TESTDATA / "results" / "result-spellings.pgn"
    games = list(tabla.read_games(path))
    assert [g.result for g in games].count("1/2-1/2") == 8
    first = games[0]
    assert any('"1/2": Result tag in a non-standard spelling' in w for w in first.warnings)
    conflict = games[8]
    assert any("Result tag 1-0 and termination marker 0-1 disagree" in w for w in conflict.warnings)
    db_path = tmp_path / "games.db"
    tabla.db.import_pgn(db_path, [path], threads=2)
    answer = tabla.db.open(db_path, threads=2).explore()
    assert (answer["games"], answer["white"], answer["draws"], answer["black"]) == (13, 3, 8, 2)
