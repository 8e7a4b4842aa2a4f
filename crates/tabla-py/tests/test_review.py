"""tabla.review and tabla.Engine against expectations from elsewhere: lichess's own analysis of
testdata/review/lichess-evals.pgn (its [%eval]s and its marks) and the numbers python-chess and
lichess's published rules give for it (testdata/review_reference.json, written by
testdata/gen_review_reference.py apart from tabla); a hand-checked blunder found by tabla's engine
and by Stockfish (/usr/games/stockfish; skipped without it unless TABLA_REQUIRE_CORPUS=1), its
lines checked legal and its best move checked to defend by python-chess; and bad input."""

import gc
import io
import json
import os
import pathlib
import threading
import time

import chess
import chess.engine
import chess.pgn
import pytest

import tabla
from conftest import TESTDATA

STOCKFISH = "/usr/games/stockfish"
LICHESS = TESTDATA / "review" / "lichess-evals.pgn"
REFERENCE = TESTDATA / "review_reference.json"

# The scholar's mate: 3... Nf6?? allows mate in one (any other defence of f7 holds).
SCHOLAR = '[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n'

# The two moves lichess does not mark although its rules would: the engine's first choice was the
# move played (lichess judges only moves its engine would not have played; its file does not say
# which). Game site and ply, as crates/tabla-review/tests/lichess.rs has them.
ENGINES_OWN_CHOICE = {("https://lichess.org/UM4HDZ7S", 9), ("https://lichess.org/YveoBdo2", 68)}

# lichess's marks as NAGs: ?! (6), ? (2), ?? (4).
NAG_MARKS = {6: "Inaccuracy", 2: "Mistake", 4: "Blunder"}


def stockfish_or_skip():
    if os.path.isfile(STOCKFISH):
        return STOCKFISH
    if os.environ.get("TABLA_REQUIRE_CORPUS") == "1":
        pytest.fail(f"Stockfish not found at {STOCKFISH} and TABLA_REQUIRE_CORPUS=1")
    pytest.skip(f"Stockfish not found at {STOCKFISH} (apt-get install stockfish)")


def close(got, expected, what):
    if expected is None:
        assert got is None, what
    else:
        assert got is not None and abs(got - expected) < 1e-9, f"{what}: {got} against {expected}"


def eval_of(e):
    """A tabla.Eval as the reference writes it."""
    if e is None:
        return None
    return {"cp": e.cp} if e.cp is not None else {"mate": e.mate}


# From the [%eval]s: lichess's analysis, the python-chess reference.


@pytest.fixture(scope="module")
def lichess_games():
    return list(tabla.read_games(LICHESS))


def test_from_evals_matches_the_python_chess_reference(lichess_games):
    reference = json.loads(REFERENCE.read_text())["games"]
    reviews = tabla.review(lichess_games, from_evals=True)
    database = tabla.review(lichess_games, from_evals=True, rules="lichess-database")
    assert len(reviews) == len(reference) == 37
    for review, db, expected in zip(reviews, database, reference):
        site = expected["site"]
        assert review.game.tags["Site"] == site
        assert review.error is None, site
        for side, e in [(review.white, expected["white"]), (review.black, expected["black"])]:
            assert side.name == e["name"], site
            close(side.accuracy, e["accuracy"], f"{site} accuracy")
            assert side.acpl == e["acpl"], site
            assert (side.inaccuracies, side.mistakes, side.blunders) == (
                e["inaccuracies"],
                e["mistakes"],
                e["blunders"],
            ), site
        assert len(review.moves) == len(expected["moves"]), site
        for m, d, e in zip(review.moves, db.moves, expected["moves"]):
            what = f"{site} ply {m.ply}"
            assert (m.ply, m.san, m.uci) == (e["ply"], e["san"], e["uci"]), what
            assert eval_of(m.eval) == e["eval"], what
            close(m.win, e["win"], f"{what} win")
            close(m.accuracy, e["accuracy"], f"{what} accuracy")
            assert m.judgement == e["judgement"], what
            assert d.judgement == e["judgement_database"], what
            # From [%eval]s there is no engine line.
            assert m.best is None and m.pv == ()


def test_database_rules_give_lichess_own_marks(lichess_games):
    marks = 0
    for game, review in zip(
        lichess_games, tabla.review(lichess_games, from_evals=True, rules="lichess-database")
    ):
        site = game.tags["Site"]
        for move, reviewed in zip(game.moves, review.moves):
            lichess = next((NAG_MARKS[n] for n in move.nags if n in NAG_MARKS), None)
            marks += lichess is not None
            if (site, reviewed.ply) in ENGINES_OWN_CHOICE:
                assert lichess is None and reviewed.judgement is not None, site
            else:
                assert reviewed.judgement == lichess, f"{site} ply {reviewed.ply}"
    assert marks == 503


def test_to_dict_is_the_json_shape_and_reads_back(lichess_games):
    review = tabla.review(lichess_games[0], from_evals=True)
    d = review.to_dict()
    assert sorted(d) == ["black", "error", "moves", "white"]
    assert sorted(d["white"]) == [
        "accuracy",
        "acpl",
        "blunders",
        "inaccuracies",
        "mistakes",
        "name",
    ]
    assert sorted(d["moves"][0]) == [
        "accuracy",
        "best",
        "eval",
        "judgement",
        "ply",
        "pv",
        "san",
        "uci",
        "win",
    ]
    # lichess's file: 1. d4 { [%eval 0.17] }.
    assert d["moves"][0]["eval"] == {"cp": 17}
    assert d["white"]["name"] == "GASPADAREK"
    # Plain JSON, and the same review back from it.
    again = tabla.Review.from_dict(json.loads(json.dumps(d)))
    assert again == review
    assert again.to_dict() == d
    # Frozen.
    with pytest.raises(AttributeError):
        review.error = "x"


def test_a_game_gives_a_review_and_text_a_list(lichess_games):
    text = LICHESS.read_bytes()
    from_text = tabla.review(text, from_evals=True)
    from_str = tabla.review(text.decode("utf-8"), from_evals=True)
    one = tabla.review(lichess_games[3], from_evals=True)
    assert isinstance(one, tabla.Review)
    assert isinstance(from_text, list) and len(from_text) == 37
    assert from_text[3] == one == from_str[3]
    assert tabla.review(b"", from_evals=True) == []


# With tabla's engine: the scholar's mate.


def check_scholar(review):
    """The one blunder, the mate that follows it, nothing after the mating move; the engine's
    lines legal and its choice before 3... Nf6 one that stops the mate (python-chess)."""
    assert review.error is None
    assert [m.san for m in review.moves] == ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
    nf6 = review.moves[5]
    assert nf6.judgement == "Blunder"
    assert nf6.eval == tabla.Eval(mate=1)
    # The only Mistake or Blunder (lichess, Stockfish at depth 18: 3. Qh5 loses 0.3 pawns, no
    # mark; a search of 8 plies may call it an Inaccuracy, one of 6 a Mistake).
    assert [m.ply for m in review.moves if m.judgement in ("Mistake", "Blunder")] == [6]
    assert (review.black.blunders, review.white.blunders) == (1, 0)
    last = review.moves[6]
    assert last.eval is None and last.judgement is None and last.accuracy is None
    board = chess.Board()
    for m in review.moves:
        # Every line and choice is legal from the position before its move. (The choice need
        # not be the line's first move: a search stopped by its budget in the middle of an
        # iteration keeps the last finished iteration's line but reports the unfinished one's
        # best move.)
        line = board.copy()
        assert m.pv, m.ply
        for uci in m.pv:
            move = chess.Move.from_uci(uci)
            assert move in line.legal_moves, (m.ply, m.pv)
            line.push(move)
        assert m.best is not None
        assert chess.Move.from_uci(m.best.uci) in board.legal_moves, (m.ply, m.best)
        assert board.san(chess.Move.from_uci(m.best.uci)) == m.best.san
        board.push_uci(m.uci)
    # The engine's choice instead of 3... Nf6 leaves White no mate in one.
    before = chess.Board()
    for san in ["e4", "e5", "Bc4", "Nc6", "Qh5"]:
        before.push_san(san)
    assert nf6.best.san != "Nf6"
    before.push_uci(nf6.best.uci)
    for move in list(before.legal_moves):
        before.push(move)
        assert not before.is_checkmate(), f"{nf6.best.san} allows {move}"
        before.pop()


def test_tabla_engine_finds_the_blunder():
    game = next(tabla.read_games(SCHOLAR.encode()))
    review = tabla.review(game, depth=8, engines=1)
    check_scholar(review)
    assert review.game is game
    assert (review.white.name, review.black.name) == ("A", "B")
    # The annotated game, read by python-chess: the same moves, 3... Nf6 marked ?? with its
    # evaluation, the accuracies in the tags.
    text = review.annotated_pgn()
    annotated = chess.pgn.read_game(io.StringIO(text))
    assert [m.uci() for m in annotated.mainline_moves()] == [m.uci for m in review.moves]
    nodes = list(annotated.mainline())
    assert chess.pgn.NAG_BLUNDER in nodes[5].nags
    assert nodes[5].eval().white() == chess.engine.Mate(1)
    assert nodes[0].eval() is not None and nodes[6].eval() is None
    assert float(annotated.headers["BlackAccuracy"]) == round(review.black.accuracy, 1)
    assert int(annotated.headers["WhiteACPL"]) == review.white.acpl


def test_an_engine_is_kept_and_reviews_alike():
    game = next(tabla.read_games(SCHOLAR.encode()))
    with tabla.Engine(engines=2) as engine:
        assert engine.engines == 2 and engine.path is None and "in process" in engine.name
        first = engine.review(game, nodes=20_000)
        again = tabla.review(game, engine=engine, nodes=20_000)
        both = engine.review([game, game], nodes=20_000)
    assert engine.closed
    check_scholar(first)
    # Each position is searched afresh, so that the review does not depend on which engine of
    # the pool took it, nor on what it searched before.
    one = tabla.review(game, nodes=20_000, engines=1)
    assert first == again == both[0] == both[1] == one


def test_the_gil_is_released_while_engines_search():
    game = next(tabla.read_games(SCHOLAR.encode()))
    done = []
    worker = threading.Thread(
        target=lambda: done.append(tabla.review(game, movetime=200, engines=1))
    )
    started = time.perf_counter()
    worker.start()
    last, longest = time.perf_counter(), 0.0
    while worker.is_alive():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    took = time.perf_counter() - started
    worker.join()
    assert done and done[0].error is None
    # Positions searched 200 ms each: had the search held the GIL, this thread would have
    # stopped for all of it.
    assert took > 0.5
    assert longest < took / 4, f"this thread stopped for {longest:.2f} s of {took:.2f} s"


# With Stockfish.


def engine_processes():
    """This process's children that are running (not zombies)."""
    children = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        state, ppid = stat[stat.rindex(")") + 2 :].split()[:2]
        if int(ppid) == os.getpid() and state != "Z":
            children.append(int(pid))
    return children


def test_stockfish_finds_the_same_blunder():
    path = stockfish_or_skip()
    review = tabla.review(SCHOLAR, path, nodes=50_000, engine_options={"Hash": 16})[0]
    check_scholar(review)
    # The engine given as a path is started for the call and ended after it.
    assert engine_processes() == []


def test_stockfish_processes_end_with_the_engine():
    path = stockfish_or_skip()
    if not os.path.isdir("/proc"):
        pytest.skip("no /proc to count processes in")
    assert engine_processes() == []
    engine = tabla.Engine(pathlib.Path(path), options=["Hash=16", "Threads=1"], engines=2)
    assert engine.name.startswith("Stockfish ") and engine.path == path
    assert len(engine_processes()) == 2
    engine.close()
    assert engine_processes() == []
    # Garbage collection ends them too.
    engine = tabla.Engine(path, engines=2)
    assert len(engine_processes()) == 2
    del engine
    gc.collect()
    assert engine_processes() == []


def test_an_option_the_engine_does_not_list_is_named():
    path = stockfish_or_skip()
    with pytest.raises(tabla.EngineError, match='no option "NoSuchOption".*Hash'):
        tabla.Engine(path, options={"NoSuchOption": 1})
    assert engine_processes() == []


# Bad input.


def test_an_engine_that_does_not_exist_raises_naming_it():
    with pytest.raises(tabla.EngineError, match="/no/such/engine"):
        tabla.review(SCHOLAR, "/no/such/engine", nodes=1000)
    with pytest.raises(tabla.EngineError, match="/no/such/engine"):
        tabla.Engine("/no/such/engine")
    # Not an engine at all: a program that exits at once.
    with pytest.raises(tabla.EngineError, match="/bin/true"):
        tabla.Engine("/bin/true", engines=1)


def test_damaged_and_unevaluated_games_are_reported_and_the_rest_reviewed():
    # An illegal move (2. Ke3) stops the first game; the second has no [%eval]s; the third is
    # fine.
    text = (
        '[White "X"]\n\n1. e4 e5 2. Ke3 *\n\n[White "Y"]\n\n1. d4 d5 *\n\n'
        '[White "Z"]\n\n1. e4 { [%eval 0.3] } 1... e5 { [%eval 0.2] } *\n'
    )
    reviews = tabla.review(text, from_evals=True)
    assert [r.white.name for r in reviews] == ["X", "Y", "Z"]
    # What and where: game 1, line 3, column 13.
    assert "could not be read" in reviews[0].error
    assert 'game 1, 3:13, move 2.: "Ke3"' in reviews[0].error
    assert reviews[0].moves == ()
    assert "1. d4" in reviews[1].error
    assert reviews[2].error is None and len(reviews[2].moves) == 2
    # With the engine, the damaged game is still reported and the others reviewed.
    reviews = tabla.review(text, depth=3, engines=1)
    assert "Ke3" in reviews[0].error
    assert reviews[1].error is None and len(reviews[1].moves) == 2
    assert reviews[2].error is None
    # A review that failed annotates nothing: the game as read.
    assert reviews[0].annotated_pgn() == reviews[0].game.pgn()


def test_a_closed_engine_raises():
    game = next(tabla.read_games(SCHOLAR.encode()))
    engine = tabla.Engine(engines=1)
    engine.close()
    engine.close()  # again: nothing
    with pytest.raises(tabla.EngineError, match="closed"):
        engine.review(game, depth=2)
    with pytest.raises(tabla.EngineError, match="closed"):
        tabla.review(game, engine=engine, depth=2)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"nodes": 1000, "depth": 3}, "one of nodes, depth and movetime"),
        ({"nodes": 0}, "nodes=0"),
        ({"nodes": -5}, "nodes=-5"),
        ({"depth": 101}, "depth=101"),
        ({"movetime": 0}, "movetime=0"),
        ({"engines": 0}, "engines=0"),
        ({"rules": "fide"}, 'rules="fide"'),
        ({"engine_options": {"Hash": 16}}, "give its path"),
        ({"from_evals": True, "depth": 3}, "drop depth"),
        ({"from_evals": True, "rules": "fide"}, 'rules="fide"'),
    ],
)
def test_bad_arguments_raise(kwargs, match):
    with pytest.raises(tabla.TablaError, match=match):
        tabla.review(SCHOLAR, **kwargs)


def test_bad_options_and_types_raise():
    with pytest.raises(tabla.EngineError, match='"Hash".*Name=Value'):
        tabla.review(SCHOLAR, "/usr/games/stockfish", engine_options=["Hash"])
    with pytest.raises(TypeError, match="a value is str, int or bool"):
        tabla.Engine("/usr/games/stockfish", options={"Hash": 1.5})
    # A name holding '=' would be read as another option: refused as --engine-option refuses it.
    with pytest.raises(tabla.EngineError, match='"Hash=1=16".*Name=Value'):
        tabla.Engine("/usr/games/stockfish", options={"Hash=1": 16})
    with tabla.Engine(engines=1) as engine:
        with pytest.raises(tabla.TablaError, match="when an Engine starts"):
            tabla.review(SCHOLAR, engine=engine, engines=2)
    with pytest.raises(TypeError, match="tabla.read_games"):
        tabla.review(pathlib.Path("games.pgn"))
    with pytest.raises(TypeError):
        tabla.review(42)
    with pytest.raises(TypeError, match="held a str"):
        tabla.review(["1. e4 *"])
    for bad in [{}, {"cp": 1, "mate": 2}]:
        with pytest.raises(tabla.TablaError, match="exactly one"):
            tabla.Eval(**bad)
    assert issubclass(tabla.EngineError, tabla.TablaError)
    assert issubclass(tabla.TablaError, ValueError)
    assert tabla.DEFAULT_NODES == 450_000


def test_analyse_answers_each_position_in_order():
    mate_in_one = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    # Black to move and mated by ...Ra1# (by hand): White's point of view, so negative.
    black_mates = "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1"
    # A position without moves: stalemate (Black to move, king in the corner, no check).
    stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    assert chess.Board(stalemate).is_stalemate()
    with tabla.Engine(engines=2) as engine:
        one = engine.analyse(mate_in_one, depth=4)
        many = engine.analyse([black_mates, "not a fen", stalemate, mate_in_one], depth=4)
    assert one == {"cp": None, "mate": 1, "best": "a1a8", "pv": ["a1a8"]}
    assert many[0]["mate"] == -1 and many[0]["best"] == "a8a1"
    assert "not a fen" in many[1]["error"]
    # Answered without a search: stalemate is a draw (cp 0), a mated side has mate 0.
    assert many[2] == {"cp": 0, "mate": None, "best": None, "pv": []}
    with tabla.Engine(engines=1) as engine:
        mated = engine.analyse("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", nodes=1000)
    assert mated == {"cp": None, "mate": 0, "best": None, "pv": []}
    assert many[3] == one
    # Every line is legal in its position (python-chess checks).
    for fen, answer in [(mate_in_one, one), (black_mates, many[0])]:
        board = chess.Board(fen)
        for uci in answer["pv"]:
            board.push_uci(uci)


def test_a_cache_folder_keeps_the_evaluations_between_engines(tmp_path):
    pyarrow_parquet = pytest.importorskip("pyarrow.parquet")
    games = list(tabla.read_games((TESTDATA / "review" / "lichess-evals.pgn").read_bytes()))[:3]
    with tabla.Engine(engines=2) as engine:
        first = engine.review(games, depth=3, cache=tmp_path)
    folders = [p for p in tmp_path.iterdir() if p.is_dir()]
    assert len(folders) == 1
    config = json.loads((folders[0] / "_config.json").read_text())
    assert config["budget"] == "depth 3" and config["engine"].startswith("tabla ")
    rows = pyarrow_parquet.read_table(folders[0]).to_pylist()
    # One row per distinct position of the three games (python-chess counts them), holding the
    # evaluation the reviews show.
    distinct = set()
    for game in games:
        board = chess.Board()
        distinct.add(board.epd())
        for move in game.moves:
            board.push_uci(move.uci)
            distinct.add(board.epd())
    assert len(rows) == len(distinct)
    best_moves = {row["best"] for row in rows}
    for review in first:
        for move in review.moves:
            if move.best is not None:
                assert move.best.uci in best_moves
    # Another engine with the same budget finds them: the same reviews.
    with tabla.Engine(engines=1) as other:
        second = other.review(games, depth=3, cache=tmp_path)
    assert [r.to_dict() for r in second] == [r.to_dict() for r in first]
    # Only this call's folder: a budget of its own.
    tabla.review(games[0], depth=2, cache=str(tmp_path))
    assert len([p for p in tmp_path.iterdir() if p.is_dir()]) == 2


def test_cache_true_uses_the_data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    game = next(tabla.read_games(SCHOLAR.encode()))
    tabla.review(game, depth=2, cache=True)
    assert list((tmp_path / "tabla" / "evals").glob("*/_config.json"))
    with pytest.raises(tabla.TablaError, match="from_evals"):
        tabla.review(game, from_evals=True, cache=True)


def test_the_default_engine_is_the_one_configured(tmp_path, monkeypatch):
    # The same rule as every command: $TABLA_ENGINE, else engine.toml in tabla's configuration
    # directory, else tabla's own. The UCI engine is tabla-analysis's scripted fake.
    from conftest import ROOT

    fake = ROOT / "crates/tabla-analysis/tests/fake_engines/fake_uci.py"
    (tmp_path / "tabla").mkdir()
    config = tmp_path / "tabla" / "engine.toml"
    config.write_text(f'engine = "{fake}"\n[options]\nHash = 32\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    with tabla.Engine(engines=1) as engine:
        assert engine.path == str(fake)
        assert engine.name.startswith("Fake")
    monkeypatch.setenv("TABLA_ENGINE", "tabla")
    with tabla.Engine(engines=1) as engine:
        assert engine.path is None
    monkeypatch.delenv("TABLA_ENGINE")
    config.write_text("engine = \n")
    with pytest.raises(tabla.TablaError, match=r"engine\.toml: line 1"):
        tabla.Engine(engines=1)
