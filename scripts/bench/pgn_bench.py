#!/usr/bin/env python3
"""PGN speed side by side: tabla's mainline replay against pgn-reader + shakmaty, and `tabla pgn
check`, each build and the anchor run alternately in the same session; medians are printed.

The inputs are PGN files repeated to about 52 MB in a temporary folder (by default the corpus's
lichess and TWIC files: pgn/ of $TABLA_CORPUS or ../shared/data; or --files). For each build given with --build
(a checkout whose `target/release` holds `tabla` and `examples/read`, built with `cargo build
--release -p tabla-cli` and `cargo build --release -p tabla-pgn --example read`), every round
runs, in turn:

- `read replay FILE --mem` (tabla's replay with legality, variations skipped: the API that
  compares with pgn-reader) and `read pgn-reader-replay FILE --mem` (the anchor);
- `tabla pgn check FILE` (the whole command: reading from the page cache, every variation
  replayed, each problem printed), timed from outside.

Usage: scripts/bench/pgn_bench.py --build before=/work/before --build after=. [--rounds 9]
"""

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scripts/, for corpus.py
from corpus import corpus_path  # noqa: E402

CORPUS = corpus_path() / "pgn"
TARGET = 52 * 1024 * 1024


def repeated(source: Path, folder: Path) -> Path:
    one = source.read_bytes()
    out = folder / source.name
    with out.open("wb") as f:
        written = 0
        while written < TARGET:
            f.write(one)
            f.write(b"\n\n")
            written += len(one) + 2
    return out


def timed(cmd) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"pgn_bench: {' '.join(map(str, cmd))} failed: {done.stderr.strip()}")
    return secs, done.stdout


def read_secs(stdout: str) -> float:
    m = re.search(r"in ([0-9.]+) s", stdout)
    if not m:
        sys.exit(f"pgn_bench: unexpected output of read: {stdout!r}")
    return float(m.group(1))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", action="append", required=True, metavar="NAME=DIR")
    p.add_argument("--files", nargs="+", type=Path)
    p.add_argument("--rounds", type=int, default=9)
    args = p.parse_args()
    files = args.files or [CORPUS / "lichess_db_1000k.pgn", CORPUS / "twic1599_1000k.pgn"]
    missing = [f for f in files if not f.is_file()]
    if missing:
        print(
            f"pgn_bench: {missing[0]} not found; pass --files, or set TABLA_CORPUS",
            file=sys.stderr,
        )
        return 2
    builds = []
    for spec in args.build:
        name, _, folder = spec.partition("=")
        release = Path(folder).resolve() / "target" / "release"
        tabla, read = release / "tabla", release / "examples" / "read"
        if not tabla.is_file() or not read.is_file():
            print(f"pgn_bench: {release} lacks tabla or examples/read", file=sys.stderr)
            return 2
        builds.append((name, tabla, read))

    with tempfile.TemporaryDirectory() as tmp:
        inputs = [repeated(f, Path(tmp)) for f in files]
        for path in inputs:
            runs: dict[str, list[float]] = {}
            for _ in range(args.rounds):
                for name, tabla, read in builds:
                    out = timed([read, "replay", path, "--mem"])[1]
                    runs.setdefault(f"{name} replay", []).append(read_secs(out))
                    out = timed([read, "pgn-reader-replay", path, "--mem"])[1]
                    runs.setdefault(f"{name} pgn-reader", []).append(read_secs(out))
                    secs, out = timed([tabla, "pgn", "check", path])
                    runs.setdefault(f"{name} check", []).append(secs)
                    summary = out.strip().splitlines()[-1]
            size = path.stat().st_size / 1e6
            print(f"{path.name} repeated to {size:.1f} MB, {args.rounds} rounds: {summary}")
            med = {k: statistics.median(v) for k, v in runs.items()}
            for name, _, _ in builds:
                ours, theirs = med[f"{name} replay"], med[f"{name} pgn-reader"]
                check = med[f"{name} check"]
                print(
                    f"  {name:8} replay {ours:.3f} s, pgn-reader {theirs:.3f} s, "
                    f"ratio {theirs / ours:.2f}x; pgn check {check:.3f} s ({size / check:.0f} MB/s)"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
