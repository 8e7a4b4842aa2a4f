#!/usr/bin/env python3
"""Position search's answers computed independently of tabla, with python-chess, for the tests of
`tabla db search`. Writes testdata/search_reference.json (the PGN files of testdata/pgn) and, when
the corpus is there, testdata/corpus_search_reference.json.

The rule this script defines for tabla: every game counts (any result), under the explorer's
filters (testdata/gen_explorer_reference.py's docstring, without its rule on results); its
positions are those of its mainline at every ply, the start included, as far as the mainline can
be played; a game matches at the first ply where its position does:

- `fen`: the same position as python-chess's `Board.epd()` compares them (placement, side to
  move, castling rights, the en-passant square only when a capture there is legal);
- `material`: White's and Black's pieces of each kind counted exactly (`KRPvKR`), or with the
  colours swapped too (`either_color`);
- `pattern`: each listed piece on its square (`wKg1,wRf1,bKg8`), whatever stands elsewhere.

For each query: `total`, and `games`, each as [White, Black, date (YYYY-MM-DD with ?? for unknown
parts, or null), ply of the first match], sorted, so a test compares sets, not orders.

Usage: testdata/gen_search_reference.py; needs PyPI's chess (python-chess).
"""

import io
import json
import pathlib
import sys

import chess
import chess.pgn

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
from corpus import ROOT, corpus_path  # noqa: E402
from gen_explorer_reference import game_date, game_months, elo, speed  # noqa: E402

ROLES = "KQRBNP"


def read_games(paths):
    games = []
    for path in paths:
        raw = path.read_bytes()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        handle = io.StringIO(text)
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            board = game.board()
            boards = [board.copy(stack=False)]
            for move in game.mainline_moves():
                if not board.is_legal(move) and move != chess.Move.null():
                    break
                board.push(move)
                boards.append(board.copy(stack=False))
            tags = dict(game.headers)
            white_elo, black_elo = elo(tags, "WhiteElo"), elo(tags, "BlackElo")
            date = game_date(tags)
            games.append(
                {
                    "tags": tags,
                    "boards": boards,
                    "avg_floor": (white_elo + black_elo) // 2
                    if white_elo is not None and black_elo is not None
                    else None,
                    "months": game_months(tags),
                    "date": date[0] if date else None,
                    "speed": speed(tags),
                }
            )
    return games


def matches_filters(g, filters):
    if "rating" in filters:
        lo, hi = filters["rating"]
        if g["avg_floor"] is None:
            return False
        if lo is not None and g["avg_floor"] < lo or hi is not None and g["avg_floor"] > hi:
            return False
    if "speed" in filters and g["speed"] not in filters["speed"]:
        return False
    if "since" in filters and (g["months"] is None or g["months"][0] < filters["since"]):
        return False
    if "until" in filters and (g["months"] is None or g["months"][1] > filters["until"]):
        return False
    if "player" in filters:
        name = filters["player"]
        white = g["tags"].get("White") == name
        black = g["tags"].get("Black") == name
        if not (white or black):
            return False
    return True


def material_of(board):
    def side(color):
        return "".join(
            ROLES[i] * len(board.pieces(piece_type, color))
            for i, piece_type in enumerate(
                [chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN]
            )
        )

    return side(chess.WHITE), side(chess.BLACK)


def test_of(query):
    if "moves" in query:
        board = chess.Board()
        for uci in query["moves"]:
            board.push_uci(uci)
        want = board.epd()
        return lambda b: b.epd() == want
    if "material" in query:
        white, black = query["material"].split("v")
        either = query.get("either_color", False)

        def material(b):
            w, k = material_of(b)
            return (w, k) == (white, black) or either and (w, k) == (black, white)

        return material
    items = []
    for item in query["pattern"].split(","):
        color = chess.WHITE if item[0] == "w" else chess.BLACK
        piece = chess.Piece(chess.PIECE_SYMBOLS.index(item[1].lower()), color)
        items.append((chess.parse_square(item[2:4]), piece))
    return lambda b: all(b.piece_at(sq) == p for sq, p in items)


QUERIES = [
    {"moves": ["e2e4", "e7e5", "g1f3", "b8c6"]},
    {"moves": ["d2d4", "g8f6", "c2c4", "e7e6"]},
    {"moves": ["d2d4", "d7d5"]},
    {"material": "KRvKR"},
    {"material": "KRPvKR", "either_color": True},
    {"material": "KQvKQ"},
    {"pattern": "wKg1,wRf1,bKg8"},
    {"pattern": "wPe4,bPe5,wNf3,bNc6"},
    {"pattern": "wBb5,bNc6,bPa6"},
]


def reference(paths, label):
    games = read_games(paths)
    players = {}
    for g in games:
        name = g["tags"].get("White")
        if name and name != "?":
            players[name] = players.get(name, 0) + 1
    busiest = min(players.items(), key=lambda kv: (-kv[1], kv[0]))[0] if players else "?"
    filter_sets = [
        {},
        {"rating": [2000, None], "speed": ["blitz", "rapid"]},
        {"player": busiest},
        # The example: games dated by their year alone (`1964.??.??`) are inside.
        {"since": "1960-01", "until": "1999-12"},
    ]
    cases = []
    for query in QUERIES:
        test = test_of(query)
        for filters in filter_sets:
            found = []
            for g in games:
                if not matches_filters(g, filters):
                    continue
                for ply, board in enumerate(g["boards"]):
                    if test(board):
                        found.append(
                            [g["tags"].get("White"), g["tags"].get("Black"), g["date"], ply]
                        )
                        break
            found.sort(key=lambda r: json.dumps(r))
            cases.append({"query": query, "filters": filters, "total": len(found), "games": found})
    return {
        "about": f"search answers for {label}, by testdata/gen_search_reference.py "
        f"(python-chess {chess.__version__}); the rule is in its docstring",
        "files": [p.name for p in paths],
        "games": len(games),
        "cases": cases,
    }


def main():
    sets = [("testdata/pgn", ROOT / "testdata" / "pgn", ROOT / "testdata" / "search_reference.json")]
    corpus = corpus_path() / "pgn"
    if corpus.is_dir():
        sets.append(("the corpus's pgn/", corpus, ROOT / "testdata" / "corpus_search_reference.json"))
    else:
        print(f"corpus not found at {corpus}: testdata only", file=sys.stderr)
    for label, folder, out in sets:
        paths = sorted(folder.glob("*.pgn"))
        ref = reference(paths, label)
        out.write_text(json.dumps(ref, indent=1, ensure_ascii=False) + "\n")
        totals = [c["total"] for c in ref["cases"]]
        print(f"{out.relative_to(ROOT)}: {ref['games']} games, {len(ref['cases'])} cases, totals {totals}")


if __name__ == "__main__":
    main()
