#!/usr/bin/env python3
"""The speed users see, for two or more builds of `tabla` side by side: the same commands run
alternately, build after build, in every round; medians are printed with each build's ratio to the
first (above 1: faster than the first).

Made to compare Cargo profiles (the `release` profile that `cargo run --release` builds against
the `dist` profile with link-time optimisation), but any two `tabla` binaries will do:

    cargo build --release -p tabla-cli            # target/release/tabla
    cargo build --profile dist -p tabla-cli       # target/dist/tabla
    scripts/bench/profile_bench.py --build dist=target/dist/tabla --build release=target/release/tabla

The cases, each timed from outside (the whole command, as a user runs it) unless said otherwise:

- `perft startpos 6`: every leaf made (119,060,324 nodes);
- `perft kiwipete 5 --bulk`: bulk counting at the last ply (193,690,690 nodes);
- `pgn check FILE`: the corpus's lichess and TWIC files repeated to about 52 MB (pgn/ of
  $TABLA_CORPUS or ../shared/data; without the corpus, testdata/pgn's copies);
- `convert FILE --out DIR` on the same files (every core);
- `bench`: the engine's fixed search; the figure is the nodes per second it prints (search time
  only), and its node count, the search's signature, must be the same for every build.

Check that nothing else runs on the machine: the builds share it, not their noise. On a shared
machine whose times swing by 20% from run to run, `--instructions` counts what each build
executes instead (valgrind's callgrind: the same count for the same binary and input, whatever
else runs), on smaller cases: perft startpos 5, Kiwipete 4 with bulk counting, `pgn check` and
`convert` of the lichess and TWIC files once, `bench 8`.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
TARGET = 52 * 1024 * 1024


def corpus_pgn() -> Path:
    corpus = Path(os.environ.get("TABLA_CORPUS", ROOT.parent / "shared" / "data"))
    if not corpus.is_absolute():
        corpus = ROOT / corpus
    if (corpus / "pgn").is_dir():
        return corpus / "pgn"
    print(f"profile_bench: no corpus at {corpus}, using testdata/pgn", file=sys.stderr)
    return ROOT / "testdata" / "pgn"


def repeated(sources: list[Path], out: Path) -> Path:
    parts = [s.read_bytes() for s in sources]
    with out.open("wb") as f:
        written = 0
        while written < TARGET:
            for part in parts:
                f.write(part)
                f.write(b"\n\n")
                written += len(part) + 2
    return out


def run(cmd: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.perf_counter() - start
    # `pgn check` exits 1 when a game has an error: the corpus has some on purpose.
    if done.returncode not in (0, 1):
        sys.exit(f"profile_bench: {' '.join(cmd)} failed ({done.returncode}): {done.stderr[-500:]}")
    return secs, done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", action="append", required=True, metavar="NAME=PATH",
                    help="a tabla binary to measure (the first is the anchor)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cases", default="perft,kiwipete,pgn-check,convert,bench",
                    help="comma-separated subset of the cases")
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions with valgrind's callgrind instead of timing")
    args = ap.parse_args()
    builds = []
    for spec in args.build:
        name, _, path = spec.partition("=")
        if not path or not Path(path).is_file():
            sys.exit(f"profile_bench: --build {spec!r}: expected NAME=PATH to a tabla binary")
        builds.append((name, str(Path(path).resolve())))
    cases = args.cases.split(",")

    work = Path(tempfile.mkdtemp(prefix="tabla-profile-bench-"))
    if args.instructions:
        try:
            count_instructions(builds, cases, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    try:
        pgn_dir = corpus_pgn()
        sources = [p for p in (pgn_dir / "lichess_db_1000k.pgn", pgn_dir / "twic1599_1000k.pgn") if p.exists()]
        pgn = repeated(sources, work / "bench.pgn")
        print(f"input: {pgn.stat().st_size / 1e6:.1f} MB of PGN from {', '.join(s.name for s in sources)}; "
              f"{args.rounds} rounds; load average {os.getloadavg()[0]:.2f}")
        times: dict[tuple[str, str], list[float]] = {}
        signatures: dict[str, set[str]] = {}
        for rnd in range(args.rounds):
            # Alternate the order between rounds so that drift favours no build.
            order = builds if rnd % 2 == 0 else list(reversed(builds))
            for case in cases:
                for name, exe in order:
                    if case == "perft":
                        secs, _ = run([exe, "perft", "startpos", "6"])
                    elif case == "kiwipete":
                        secs, _ = run([exe, "perft", KIWIPETE, "5", "--bulk"])
                    elif case == "pgn-check":
                        secs, _ = run([exe, "pgn", "check", str(pgn)])
                    elif case == "convert":
                        out = work / f"convert-{name}"
                        shutil.rmtree(out, ignore_errors=True)
                        secs, _ = run([exe, "convert", str(pgn), "--out", str(out)])
                    elif case == "bench":
                        _, text = run([exe, "bench"])
                        m = re.search(r"^nodes (\d+) nps (\d+)", text, re.M)
                        if not m:
                            sys.exit(f"profile_bench: unexpected bench output: {text[-300:]!r}")
                        signatures.setdefault(name, set()).add(m.group(1))
                        # Store nodes per second as seconds per 10M nodes, so lower is better
                        # in every case.
                        secs = 1e7 / int(m.group(2))
                    else:
                        sys.exit(f"profile_bench: unknown case {case!r}")
                    times.setdefault((case, name), []).append(secs)
                    print(f"round {rnd + 1} {case:10} {name:10} {secs:8.3f} s", flush=True)
        print()
        anchor = builds[0][0]
        print(f"{'case':10} " + " ".join(f"{n:>12}" for n, _ in builds) + "   ratio to " + anchor)
        for case in cases:
            meds = [statistics.median(times[(case, n)]) for n, _ in builds]
            unit = "s/10M nodes" if case == "bench" else "s"
            ratios = " ".join(f"{meds[0] / m:6.3f}x" for m in meds[1:])
            print(f"{case:10} " + " ".join(f"{m:12.3f}" for m in meds) + f"   {ratios}  ({unit}, medians)")
        if "bench" in cases:
            for name, sigs in signatures.items():
                print(f"bench signature {name}: {', '.join(sorted(sigs))}")
            if len({s for sigs in signatures.values() for s in sigs}) != 1:
                sys.exit("profile_bench: the builds' bench node counts differ: not the same search")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def count_instructions(builds, cases, work: Path) -> None:
    """Instructions executed by each case under callgrind, for every build, and their ratios."""
    if shutil.which("valgrind") is None:
        sys.exit("profile_bench: --instructions needs valgrind (Debian's valgrind package)")
    pgn_dir = corpus_pgn()
    sources = [p for p in (pgn_dir / "lichess_db_1000k.pgn", pgn_dir / "twic1599_1000k.pgn") if p.exists()]
    pgn = work / "small.pgn"
    pgn.write_bytes(b"\n\n".join(s.read_bytes() for s in sources))
    commands = {
        "perft": ["perft", "startpos", "5"],
        "kiwipete": ["perft", KIWIPETE, "4", "--bulk"],
        "pgn-check": ["pgn", "check", str(pgn)],
        "convert": ["convert", str(pgn), "--threads", "1", "--out"],
        "bench": ["bench", "--depth", "8"],
    }
    counts: dict[tuple[str, str], int] = {}
    for case in cases:
        for name, exe in builds:
            cmd = [exe] + commands[case]
            if case == "convert":
                out = work / f"convert-{name}"
                shutil.rmtree(out, ignore_errors=True)
                cmd.append(str(out))
            done = subprocess.run(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                capture_output=True, text=True)
            m = re.search(r"Collected : (\d+)", done.stderr)
            if done.returncode not in (0, 1) or not m:
                sys.exit(f"profile_bench: {' '.join(cmd)} under callgrind failed: {done.stderr[-500:]}")
            counts[(case, name)] = int(m.group(1))
            print(f"{case:10} {name:10} {int(m.group(1)):>15,} instructions", flush=True)
    print()
    anchor = builds[0][0]
    print(f"{'case':10} " + " ".join(f"{n:>16}" for n, _ in builds) + "   ratio to " + anchor)
    for case in cases:
        got = [counts[(case, n)] for n, _ in builds]
        ratios = " ".join(f"{got[0] / g:6.3f}x" for g in got[1:])
        print(f"{case:10} " + " ".join(f"{g:16,}" for g in got) + f"   {ratios}  (instructions)")


if __name__ == "__main__":
    main()
