#!/usr/bin/env python3
"""End-to-end check of `tabla convert`: DuckDB's counts on the Parquet output against `tabla pgn`.

Every file of testdata/pgn/, plus a small file with a damaged game, is converted with the real
`tabla` binary; then, in a run of its own, every file of the real-world corpus's pgn/ with the
damaged game (when the corpus is there, see scripts/corpus.py; with TABLA_REQUIRE_CORPUS=1 a
missing corpus is an error, exit status 2). Each run converts as plain `.pgn` files on two
threads, and as `.pgn.zst` files compressed with `pzstd -p 2` on two threads and on one (when
pzstd is installed). DuckDB then reads the `games` and `positions` datasets and must find the
numbers that `tabla pgn` computes directly from the same files, without the converter:

- games, plies (mainline moves replayed) and games stopped by an error: `tabla pgn check`;
- for each target line (1.e4 e5, and 1.d4 Nf6 2.c4 e6, which the files also reach by
  transposition): games whose moves start with the line's UCI moves (`uci` prefix), counted from
  the moves of `tabla pgn json`; and games reaching the position after the line, looked up by its
  Zobrist key in `positions`, counted from the FEN of every position of `tabla pgn json` (start
  position included) compared on what the Polyglot key covers (placement, side to move, castling
  rights, and the en-passant square only when a pawn stands ready to take). The line's FEN and
  UCI moves come from `tabla pgn json`, its key from `tabla fen`.

Needs the Python package duckdb (`pip install duckdb`). Exit status 0 when every count agrees,
1 otherwise.

Usage: python3 scripts/ci/convert_e2e.py [--tabla target/debug/tabla] [--data DIR ...]
(`--data` replaces the default folders: testdata/pgn and the corpus's pgn/.)
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scripts/, for corpus.py
from corpus import corpus_path  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def run(tabla: Path, *args: str, stdin: bytes | None = None, ok_codes=(0,)) -> str:
    proc = subprocess.run(
        [str(tabla), *args], input=stdin, capture_output=True, check=False
    )
    if proc.returncode not in ok_codes:
        sys.exit(
            f"tabla {' '.join(args)} exited with {proc.returncode}:\n"
            f"{proc.stderr.decode(errors='replace')}"
        )
    return proc.stdout.decode()


def key_fields(fen: str) -> tuple:
    """What a Polyglot key covers in a FEN: placement, side, castling, and a takeable ep square."""
    placement, turn, castling, ep = fen.split(" ")[:4]
    if ep != "-":
        # The pawn that just moved two squares stands beside the en-passant square's file, on
        # the rank behind it; Polyglot counts the square only if an enemy pawn is next to it.
        ranks = placement.split("/")
        rank_index = 3 if turn == "w" else 4  # rank 5 (white to take) or rank 4, from the top
        row = []
        for ch in ranks[rank_index]:
            row.extend(["."] * int(ch) if ch.isdigit() else [ch])
        file = ord(ep[0]) - ord("a")
        taker = "P" if turn == "w" else "p"
        if not any(0 <= f < 8 and row[f] == taker for f in (file - 1, file + 1)):
            ep = "-"
    return (placement, turn, castling, ep)


# Lines whose positions are looked up: the question, and a line the files also reach by
# transposition (so that the key lookup and the move prefix give different counts).
TARGETS = ["1. e4 e5", "1. d4 Nf6 2. c4 e6"]


# Kept by the converter with its `error` set, like any game that stops early.
DAMAGED = """[Event "damaged"]
[UTCDate "2024.02.29"]

1. e4 e5 2. Ke3 Nc6 *

[Event "after the damaged game"]
[UTCDate "2024.02.29"]

1. e4 e5 2. Nf3 *
"""


class Target:
    """A line of moves: its UCI moves, the key fields of the position after it, its Zobrist key."""

    def __init__(self, tabla: Path, movetext: str):
        self.name = movetext
        game = json.loads(run(tabla, "pgn", "json", "-", stdin=f"{movetext} *\n".encode()))
        if game.get("error"):
            sys.exit(f"target line {movetext!r}: {game['error']}")
        self.uci = [mv["uci"] for mv in game["moves"]]
        self.fen = game["moves"][-1]["fen"]
        self.fields = key_fields(self.fen)
        zobrist = re.search(r"^zobrist\s+([0-9a-f]{16})$", run(tabla, "fen", self.fen), re.M)
        if not zobrist:
            sys.exit("no zobrist line in `tabla fen` output")
        self.key = int(zobrist[1], 16)


def expected_counts(tabla: Path, files: list[Path], targets: list[Target]) -> dict:
    counts = {"games": 0, "plies": 0, "errors": 0, "warnings": 0}
    for t in targets:
        counts[f"uci prefix {t.name}"] = 0
        counts[f"zobrist {t.name}"] = 0
    for path in files:
        totals = run(tabla, "pgn", "check", str(path), ok_codes=(0, 1)).splitlines()[-1]
        m = re.fullmatch(r"games (\d+), moves (\d+), errors (\d+), warnings (\d+)", totals)
        if not m:
            sys.exit(f"unexpected `tabla pgn check` summary for {path}: {totals!r}")
        counts["games"] += int(m[1])
        counts["plies"] += int(m[2])
        counts["warnings"] += int(m[4])
        json_games = 0
        for line in run(tabla, "pgn", "json", str(path)).splitlines():
            game = json.loads(line)
            json_games += 1
            moves = game["moves"]
            if game.get("error"):
                counts["errors"] += 1
            uci = [mv["uci"] for mv in moves]
            fields = {key_fields(game["start_fen"])} | {key_fields(mv["fen"]) for mv in moves}
            for t in targets:
                counts[f"uci prefix {t.name}"] += uci[: len(t.uci)] == t.uci
                counts[f"zobrist {t.name}"] += t.fields in fields
        if json_games != int(m[1]):
            sys.exit(f"{path}: `tabla pgn json` gave {json_games} games, check {m[1]}")
    return counts


def parquet_counts(out: Path, targets: list[Target]) -> dict:
    games = f"read_parquet('{out}/games/**/*.parquet', hive_partitioning = true)"
    positions = f"read_parquet('{out}/positions/**/*.parquet', hive_partitioning = true)"
    con = duckdb.connect()

    def one(sql: str) -> int:
        return int(con.sql(sql).fetchall()[0][0] or 0)

    counts = {
        "games": one(f"SELECT count(*) FROM {games}"),
        "plies": one(f"SELECT sum(plies) FROM {games}"),
        "errors": one(f"SELECT count(error) FROM {games}"),
        "warnings": one(f"SELECT sum(len(warnings)) FROM {games}"),
    }
    for t in targets:
        moves = ", ".join(f"'{m}'" for m in t.uci)
        counts[f"uci prefix {t.name}"] = one(
            f"SELECT count(*) FROM {games} WHERE uci[1:{len(t.uci)}] = [{moves}]"
        )
        counts[f"zobrist {t.name}"] = one(
            f"SELECT count(DISTINCT game_id) FROM {positions} WHERE zobrist = {t.key}"
        )
    # Not from `tabla pgn`: the two tables and the game ids must agree with each other.
    counts["distinct game ids"] = one(f"SELECT count(DISTINCT game_id) FROM {games}")
    counts["positions of unknown games"] = one(
        f"SELECT count(*) FROM {positions} WHERE game_id NOT IN (SELECT game_id FROM {games})"
    )
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabla", type=Path, default=REPO / "target/debug/tabla")
    parser.add_argument("--data", type=Path, action="append", help="a folder of .pgn files")
    args = parser.parse_args()
    tabla = args.tabla.resolve()
    folders = args.data
    if not folders:
        folders = [REPO / "testdata/pgn"]
        corpus = corpus_path()
        if corpus.is_dir():
            folders.append(corpus / "pgn")
        elif os.environ.get("TABLA_REQUIRE_CORPUS") == "1":
            print(
                f"convert_e2e.py: corpus not found at {corpus} and TABLA_REQUIRE_CORPUS=1; "
                "set TABLA_CORPUS to the folder holding perft/, pgn/ and epd/",
                file=sys.stderr,
            )
            return 2
        else:
            print(f"convert_e2e.py: corpus not found at {corpus}: testdata/pgn only (skipped)")
    # One run per folder: the corpus holds files named like those of testdata/pgn, and one
    # conversion refuses inputs with the same name.
    failed = False
    for folder in folders:
        files = sorted(folder.resolve().glob("*.pgn"))
        if not files:
            print(f"convert_e2e.py: no .pgn files in {folder}", file=sys.stderr)
            return 2
        print(f"== {folder}: {len(files)} files")
        failed |= not check(tabla, files)
    return 1 if failed else 0


def check(tabla: Path, files: list) -> bool:
    """Converts `files` and a damaged game every way; True when DuckDB's counts all agree."""
    tmp_dir = tempfile.TemporaryDirectory(prefix="tabla-convert-e2e-")
    tmp = Path(tmp_dir.name)
    files.append(tmp / "damaged.pgn")
    files[-1].write_text(DAMAGED)

    targets = [Target(tabla, line) for line in TARGETS]
    for t in targets:
        print(f"target {t.name}: {t.fen}, key {t.key:016x}, uci {' '.join(t.uci)}")
    expected = expected_counts(tabla, files, targets)
    expected["distinct game ids"] = expected["games"]
    expected["positions of unknown games"] = 0
    print("expected (tabla pgn):", expected)

    failed = False
    with tmp_dir:
        runs = [("plain, 2 threads", [str(f) for f in files], "2")]
        if shutil.which("pzstd"):
            zst_dir = tmp / "zst"
            zst_dir.mkdir()
            zst_files = []
            for f in files:
                zst = zst_dir / (f.name + ".zst")
                subprocess.run(
                    ["pzstd", "-q", "-p", "2", "-o", str(zst), str(f)], check=True
                )
                zst_files.append(str(zst))
            runs.append(("pzstd, 2 threads", zst_files, "2"))
            runs.append(("pzstd, 1 thread", zst_files, "1"))
        else:
            print("pzstd not found: the .pgn.zst runs are skipped", file=sys.stderr)
        for i, (name, inputs, threads) in enumerate(runs):
            out = tmp / f"out{i}"
            run(tabla, "convert", *inputs, "--out", str(out), "--positions", "--threads", threads)
            got = parquet_counts(out, targets)
            status = "ok" if got == expected else "FAIL"
            print(f"{status} {name} (DuckDB {duckdb.__version__}):", got)
            if got != expected:
                failed = True
                for k in expected:
                    if got.get(k) != expected[k]:
                        print(f"  {k}: expected {expected[k]}, got {got.get(k)}")
    return not failed


if __name__ == "__main__":
    sys.exit(main())
