"""tabla.read_pgn_arrow against python-chess: every file of testdata/pgn (and the corpus when
present) gives one games row per game python-chess reads, with its tags, UCI moves, ply count
and final FEN, and one positions row per position with its FEN, SAN, UCI and Polyglot key; one
thread or two give the same rows; read_games and read_pgn_arrow agree on which games stopped
early."""

import collections

import chess
import chess.pgn
import chess.polyglot
import pyarrow as pa
import pytest

import tabla
from conftest import TESTDATA, pgn_sets
from test_games import python_chess_games


def key_of(event, white, black, fen, uci):
    """A game's identity in both readings; python-chess gives an absent tag as "?"."""

    def tag(value):
        return None if value in (None, "?") else value

    return (tag(event), tag(white), tag(black), fen, tuple(uci))


@pytest.mark.parametrize("folder", pgn_sets())
def test_tables_match_python_chess(folder):
    files = sorted(folder.glob("*.pgn"))
    games, positions = tabla.read_pgn_arrow(files, positions=True, threads=2)
    assert isinstance(games, pa.Table) and isinstance(positions, pa.Table)
    assert positions.schema.field("zobrist").type == pa.uint64()
    theirs = collections.defaultdict(list)
    for path in files:
        for game in python_chess_games(path):
            h = game.headers
            uci = [m.uci() for m in game.mainline_moves()]
            key = key_of(h.get("Event"), h.get("White"), h.get("Black"), h.get("FEN"), uci)
            theirs[key].append(game)
    columns = ["game_id", "event", "white", "black", "tags", "uci", "plies", "final_fen"]
    rows = games.select(columns).to_pylist()
    assert len(rows) == sum(len(v) for v in theirs.values())
    by_id = {}
    for row in rows:
        fen = next((t["value"] for t in row["tags"] if t["name"] == "FEN"), None)
        key = key_of(row["event"], row["white"], row["black"], fen, row["uci"])
        assert theirs.get(key), f"no python-chess game {key[:4]}"
        game = theirs[key].pop()
        board = game.end().board()
        assert row["plies"] == len(row["uci"])
        assert row["final_fen"] == board.fen(en_passant="fen")
        by_id[row["game_id"]] = game
    assert len(by_id) == len(rows), "game ids are unique"
    assert not any(theirs.values()), "every python-chess game has its row"
    # Every position of every mainline, in ply order per game.
    plies = collections.defaultdict(list)
    for p in positions.select(["game_id", "ply", "fen", "san", "uci", "zobrist"]).to_pylist():
        plies[p["game_id"]].append(p)
    checked = 0
    for game_id, game in by_id.items():
        rows_of = sorted(plies[game_id], key=lambda p: p["ply"])
        board = game.board()
        assert rows_of[0]["ply"] == 0 and rows_of[0]["san"] is None
        assert rows_of[0]["fen"] == board.fen(en_passant="fen")
        moves = list(game.mainline_moves())
        assert len(rows_of) == len(moves) + 1
        for p, move in zip(rows_of[1:], moves):
            assert p["san"] == board.san(move)
            board.push(move)
            assert (p["uci"], p["fen"]) == (move.uci(), board.fen(en_passant="fen"))
            assert p["zobrist"] == chess.polyglot.zobrist_hash(board)
            checked += 1
    assert checked > 10_000


def test_threads_give_the_same_rows():
    files = sorted((TESTDATA / "pgn").glob("*.pgn"))
    one = tabla.read_pgn_arrow(files, threads=1).sort_by("game_id")
    two = tabla.read_pgn_arrow(files, threads=2).sort_by("game_id")
    assert one.num_rows > 400 and one.equals(two)


def test_read_games_and_arrow_agree_on_errors(tmp_path):
    path = tmp_path / "damaged.pgn"
    from test_games import DAMAGED

    path.write_bytes(DAMAGED)
    rows = tabla.read_pgn_arrow(str(path)).sort_by("game_id").to_pylist()
    games = list(tabla.read_games(path))
    assert len(rows) == len(games) == 3
    by_event = {r["event"]: r for r in rows}
    for g in games:
        row = by_event[g.tags["Event"]]
        assert (row["error"] is None) == (g.error is None)
        assert row["uci"] == [m.uci for m in g.moves]
        assert len(row["warnings"]) == len(g.warnings)


def test_bad_inputs_raise():
    with pytest.raises(FileNotFoundError):
        tabla.read_pgn_arrow(TESTDATA / "no-such-file.pgn")
    with pytest.raises(tabla.TablaError):
        tabla.read_pgn_arrow([])
    with pytest.raises(tabla.TablaError):
        tabla.read_pgn_arrow(TESTDATA / "pgn" / "tactics.pgn", threads=0)


def test_slices_hold_every_game_once():
    files = sorted((TESTDATA / "pgn").glob("*.pgn"))
    whole = sorted(tabla.read_pgn_arrow(files, threads=2)["game_id"].to_pylist())
    for parts in (1, 2, 5):
        ids = []
        for part in range(parts):
            ids += tabla.read_pgn_arrow(files, threads=1, slice=(part, parts))["game_id"].to_pylist()
        assert sorted(ids) == whole, parts
    with pytest.raises(tabla.TablaError):
        tabla.read_pgn_arrow(files, slice=(2, 2))


def test_spark_schema_has_no_unsigned_types():
    pytest.importorskip("pyspark")
    import tabla.spark

    for table in ("games", "positions"):
        schema = tabla.spark._spark_schema(table)
        assert not any(pa.types.is_unsigned_integer(f.type) for f in schema), table
    assert tabla.spark._spark_schema("positions").field("zobrist").type == pa.decimal128(20, 0)
