"""tabla.db against python-chess: a database imported from testdata's PGN files answers the
opening explorer (games, results, every first move with its results) and the position search
(the games that reached a position at any ply) as python-chess's replay of the same files
counts them; SQL and info agree; bad arguments raise with the command line's messages."""

import collections
import inspect
import io
import json

import chess
import chess.pgn
import pytest

import tabla
import tabla.db
from conftest import TESTDATA, decode

FILES = [TESTDATA / "pgn" / name for name in ("lichess_db_1000k.pgn", "twic1599_1000k.pgn", "world_matches.pgn")]
RESULTS = {"1-0": "white", "1/2-1/2": "draws", "0-1": "black"}


def python_chess_games():
    for path in FILES:
        handle = io.StringIO(decode(path.read_bytes()))
        while (game := chess.pgn.read_game(handle)) is not None:
            yield game


def position_of(board: chess.Board) -> str:
    """A position as the database tells positions apart: pieces, side, castling, legal en
    passant; no clocks."""
    return " ".join(board.fen().split()[:4])


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "games.db"
    added = tabla.db.import_pgn(path, FILES, threads=2)
    assert added["games"] > 100 and added["batch"] == 1
    return tabla.db.open(path, threads=2)


def test_info_and_sql_count_the_games(db):
    games = sum(1 for _ in python_chess_games())
    assert db.info()["games"] == games
    table = db.sql("SELECT count(*) AS n FROM games")
    assert table.column("n").to_pylist() == [games]


def test_explorer_at_the_start_counts_as_python_chess(db):
    total = collections.Counter()
    moves = collections.defaultdict(collections.Counter)
    for game in python_chess_games():
        if "FEN" in game.headers:
            continue
        outcome = RESULTS.get(game.headers.get("Result"))
        total["games"] += 1
        if outcome:
            total[outcome] += 1
        first = game.next()
        if first is not None:
            san = game.board().san(first.move)
            moves[san]["games"] += 1
            if outcome:
                moves[san][outcome] += 1
    answer = db.explore()
    assert answer["games"] == total["games"] > 100
    assert (answer["white"], answer["draws"], answer["black"]) == (
        total["white"],
        total["draws"],
        total["black"],
    )
    got = {m["san"]: (m["games"], m["white"], m["draws"], m["black"]) for m in answer["moves"]}
    want = {san: (c["games"], c["white"], c["draws"], c["black"]) for san, c in moves.items()}
    assert got == want
    assert db.explore(fen="startpos") == answer


def test_position_search_finds_the_games_python_chess_finds(db):
    target = chess.Board()
    for san in ("e4", "e5", "Nf3"):
        target.push_san(san)
    key = position_of(target)
    want = 0
    for game in python_chess_games():
        board = game.board()
        found = position_of(board) == key
        for move in game.mainline_moves():
            board.push(move)
            found = found or position_of(board) == key
        want += found
    answer = db.search(moves="e4 e5 Nf3", limit=5)
    assert answer["total"] == want > 10
    assert len(answer["games"]) == 5
    by_fen = db.search(fen=target.fen(), limit=5)
    assert by_fen["total"] == want
    page2 = db.search(moves="1. e4 e5 2. Nf3", limit=5, offset=5)
    assert not {g["id"] for g in page2["games"]} & {g["id"] for g in answer["games"]}
    # The default page is the command's (tabla-db's DEFAULT_LIMIT).
    limit = inspect.signature(tabla.db.Database.search).parameters["limit"].default
    assert limit == tabla._tabla.DEFAULT_LIMIT
    # One thing to search for, and either_color only with a balance (as `tabla db search`).
    for kwargs in ({}, {"moves": "e4", "material": "KRvK"}, {"moves": "e4", "either_color": True}):
        with pytest.raises(tabla.TablaError, match="one of|either color"):
            db.search(**kwargs)


def test_filters_narrow_the_explorer(db):
    everything = db.explore(moves="e4")
    rated = db.explore(moves="e4", rating="2000-")
    assert 0 < rated["games"] < everything["games"]


def test_a_part_of_a_name_in_any_case_finds_the_games_python_chess_finds(db):
    games = list(python_chess_games())
    names = collections.Counter(
        name for g in games for name in {g.headers.get("White"), g.headers.get("Black")} if name and " " in name
    )
    name = max(names, key=lambda n: (names[n], n))
    part = name.split()[0][:4].upper()
    has = lambda n: part.lower() in (n or "").lower()  # noqa: E731
    moved = [g for g in games if g.next() is not None and g.headers.get("Result") in RESULTS and "FEN" not in g.headers]
    want = sum(1 for g in moved if has(g.headers.get("White")) or has(g.headers.get("Black")))
    found = db.explore(player_match=part)
    assert found["games"] == want
    white = db.explore(player_match=part.lower(), color="white")
    assert white["games"] == sum(1 for g in moved if has(g.headers.get("White")))
    # The exact filter stays exact.
    assert db.explore(player=name.upper())["games"] == (found["games"] if name.upper() == name else 0)
    with pytest.raises(tabla.TablaError, match="player-match"):
        db.explore(player=name, player_match=part)


def test_bad_arguments_raise(db, tmp_path):
    with pytest.raises(tabla.TablaError, match="rating"):
        db.explore(rating="2200-2000")
    with pytest.raises(tabla.TablaError, match="player"):
        db.explore(color="white")
    with pytest.raises(tabla.TablaError):
        db.explore(moves="e4 e4")
    with pytest.raises(tabla.TablaError):
        db.search()
    with pytest.raises(tabla.TablaError):
        db.sql("DROP TABLE games")
    with pytest.raises(tabla.TablaError):
        tabla.db.open(tmp_path)


def test_a_database_with_an_emptied_file_raises_oserror_naming_it(tmp_path):
    path = tmp_path / "games.db"
    tabla.db.import_pgn(path, FILES[2:], threads=2)
    manifest = json.loads((path / "tabla-db.json").read_text())
    part = next(p["path"] for p in manifest["batches"][0]["parts"] if p["path"].startswith("games/"))
    (path / "batches" / "000001" / part).write_bytes(b"")
    with pytest.raises(OSError, match="0 bytes where"):
        tabla.db.open(path)


def test_a_build_without_db_says_so_on_import(monkeypatch):
    # A wheel built with --no-default-features has no NativeDatabase: importing tabla.db then
    # raises ImportError naming the missing feature, rather than failing later on a call.
    import importlib
    import sys

    monkeypatch.delattr(tabla._tabla, "NativeDatabase")
    monkeypatch.delitem(sys.modules, "tabla.db")
    with pytest.raises(ImportError, match="feature `db`"):
        importlib.import_module("tabla.db")


@pytest.fixture(scope="module")
def review_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("review") / "games.db"
    tabla.db.import_pgn(path, [TESTDATA / "review" / "lichess-evals.pgn"], threads=2)
    return tabla.db.open(path, threads=2)


def test_review_from_evals_stores_what_tabla_review_gives(review_db):
    summary = review_db.review(from_evals=True)
    assert (summary["selected"], summary["games"], summary["errors"]) == (37, 37, 0)
    # The same games reviewed in memory (tabla.review, itself checked against python-chess's
    # reference in test_review.py): the database's tables hold the same figures.
    expected = {
        r.white.name + "/" + r.black.name: r
        for r in tabla.review((TESTDATA / "review" / "lichess-evals.pgn").read_bytes(), from_evals=True)
    }
    table = review_db.sql(
        "SELECT g.white, g.black, r.white_accuracy, r.black_blunders, r.moves "
        "FROM review_games r JOIN games g ON g.game_id = r.game_id"
    ).to_pylist()
    assert len(table) == 37
    for row in table:
        review = expected[row["white"] + "/" + row["black"]]
        assert row["white_accuracy"] == pytest.approx(review.white.accuracy, abs=1e-9)
        assert row["black_blunders"] == review.black.blunders
        assert row["moves"] == len(review.moves)
    # A second run reviews nothing new.
    again = review_db.review(from_evals=True)
    assert (again["already"], again["games"]) == (37, 0)


def test_review_with_an_engine_evaluates_each_position_once(review_db):
    with tabla.Engine(engines=2) as engine:
        first = review_db.review(engine, depth=2, player="GASPADAREK")
        second = review_db.review(engine, depth=2, player="GASPADAREK")
    assert first["games"] == first["selected"] >= 1 and first["evaluated"] > 0
    assert (second["games"], second["evaluated"]) == (0, 0)
    rows = review_db.sql(
        "SELECT count(*) AS n FROM evals WHERE engine = '%s'" % first["engine"]
    ).column("n").to_pylist()
    assert rows == [first["evaluated"]]
    with pytest.raises(tabla.TablaError, match="from_evals"):
        review_db.review(from_evals=True, depth=3)
