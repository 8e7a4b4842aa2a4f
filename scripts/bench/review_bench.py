#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The review-quality benchmark of issue 39: how well `tabla review` with tabla's own engine
marks real games, against a Stockfish review of the same games at lichess's budget.

What it measures (`compare`), each candidate review against the reference review, moves
matched by (game index, ply):

- false alarms: of the candidate's Mistakes and Blunders, the share the reference marks at
  least an Inaccuracy (goal >= 0.85; Stockfish at 100k nodes on these games: 0.97);
- missed blunders: of the reference's Blunders, the share the candidate marks a Mistake or a
  Blunder (goal >= 0.9; Stockfish at 100k nodes: 0.95);
- the mean absolute difference of the per-side accuracies, over games and sides (goal <= 2.0;
  Stockfish at 100k nodes: 1.39).

Two figures beside the goals, over moves rather than games, so far less noisy (for screening):
`win% MAD`, the mean absolute difference of the win% after each move (White's view), and
`loss MAD`, that of the win% each move loses for its mover (at least 0: what a move's accuracy
is computed from), both over the moves where both sides give a win%.

The games: 200 real lichess games of ../shared/data/pgn/lichess_db_1000k.pgn (from the
repository's root), none of testdata/review/lichess-evals.pgn (compared by the Site tag), each
of 10 plies or more; chosen deterministically (the games ordered by the SHA-256 of their Site
tag and index in the file, the first 200 taken, kept in file order), mainline only, comments
stripped.

The reference: Stockfish at 1,500,000 nodes a position (Threads=1, Hash=64, a fresh search
for each position: `ucinewgame` first), every distinct position (by EPD) before each mainline
move and the final one, unless the game ended in mate or stalemate there. Each result is a
JSON line of `reference.jsonl`, `{"epd", "cp" | "mate", "best", "nodes", "limit"}`, the score
from WHITE's point of view (centipawns, or moves to mate, negative when Black mates), read as
`tabla review --engine` reads it (the last exact score, not a last unfinished iteration's bound;
`"bound"` when there was only a bound), `best` the first move of that score's line in UCI, `nodes` those
searched, `limit` the node budget; a line is flushed and synced as soon as its search ends, so
a restart (even after kill -9) skips the positions done; one searching run at a time
(reference.lock). `save` keeps the searches in the repository,
scripts/bench/data/review-reference.jsonl.gz (the same lines, in game order, gzip without a
timestamp: Stockfish 15.1 of Debian 12, x86-64, through this script), which every step reads
before reference.jsonl: a new machine resumes from them, or runs only the candidates. Once all are done, `reference.pgn` holds the games with `[%eval]` comments
as lichess exports them (White's view, pawns with 2 decimals, `#N`), the start position's
evaluation in a comment before the first move (tabla's `--from-evals` reads it there; without
it the start position would count as 15 centipawns), and the reference marks are those of
`tabla review --from-evals --json reference.pgn`.

One correction: tabla's engine review, as lichess, does not mark a move that is the engine's
own choice (the evaluations around it then differ by the engine's noise, not by the move);
`--from-evals` cannot know the engine's choices, so `compare` unmarks a reference move that is
the reference engine's `best` in the position before it (`--no-best-rule` to keep the marks of
`--from-evals` as they are). Accuracies do not depend on marks.

A candidate: `tabla review --json games200.pgn <args> --out NAME.jsonl`, its wall time and
summary line in NAME.meta.json.

Two halves, fixed once (2026-12-07, issue 57): the games at even places of games200.pgn (the
1st, 3rd, ... game: 0-based index even) are the TUNING half, those at odd places the HELD-OUT
half. Defaults, budgets and networks may be chosen on the tuning half (or on all 200 games, as
they were before the split); the figures reported for them (docs/performance.md) are those of
`compare`, which reads the held-out half unless told `--half tuning` or `--half all`. A
candidate runs on all 200 games, or on one half with `candidate --half held-out`.

Usage (all files in --dir, default /work/bench/review; every step resumable):

    python3 scripts/bench/review_bench.py games                      # games200.pgn
    setsid nohup nice -n 19 python3 scripts/bench/review_bench.py reference --workers 1 \\
        > /work/bench/review/reference.log 2>&1 < /dev/null &  # hours; rerun to resume
    # (setsid: a session, so an autogroup, of its own, which the script sets to nice 19)
    python3 scripts/bench/review_bench.py reference --finish   # reference.pgn (automatic at the end)
    python3 scripts/bench/review_bench.py save   # keep the searches in the repository (SAVED)
    python3 scripts/bench/review_bench.py candidate tabla-300k -- --nodes 300000 --engines 2
    python3 scripts/bench/review_bench.py candidate sf-100k -- --engine /usr/games/stockfish \\
        --engine-option Hash=64 --nodes 100000 --engines 2
    python3 scripts/bench/review_bench.py compare sf-100k tabla-300k   # the held-out half
    python3 scripts/bench/review_bench.py candidate --half held-out tabla-h -- --engines 2
    python3 scripts/bench/review_bench.py compare --half all sf-100k tabla-300k
    python3 scripts/bench/review_bench.py compare --partial tabla-300k  # while the reference runs
    python3 scripts/bench/review_bench.py candidate --first 50 new-100k -- --nodes 100000
    python3 scripts/bench/review_bench.py compare --partial --first 50 new-100k  # a quick screen
    python3 scripts/bench/review_bench.py searches s300k --nodes 300000   # every iteration kept
    python3 scripts/bench/review_bench.py rejudge r-mean2 --searches s300k --score mean2
    python3 scripts/bench/review_bench.py compare --partial r-mean2       # no engine run again
    python3 scripts/bench/review_bench.py compare --digits 3 --bootstrap 1000 tabla-300k r-mean2
    # an engine change screened on all 200 games in about 5 minutes (BUILD: its tabla binary)
    python3 scripts/bench/review_bench.py --tabla BUILD searches new-50k --nodes 50000
    python3 scripts/bench/review_bench.py rejudge new-50k-r --searches new-50k

`searches` runs `tabla uci` (its defaults, a fresh search a position, as `tabla review` searches
in process) on every distinct position and keeps each iteration's report; `rejudge` makes a
candidate from them, each evaluation the last exact report (`--score last`: the same
evaluations, marks and accuracies as `tabla review --json` at that budget) or another choice,
optionally on another reporting scale (`--scale PER_100,KNEE,BEYOND`), so that ways of reading
the same searches are compared exactly and in seconds. `searches --option Threads=2` sets a UCI
option of every engine (there, helper threads: their searches are not repeatable); `rejudge
--propagate step|chain|mates [--margin CP]` first makes each position's evaluation at least as
good for the side to move as the next position's (minimax along the game; `mates`: only a forced
mate carried back), a way of reading tried and not kept (docs/lab/performance-log.md).

`compare --bootstrap N` also draws the games again with replacement N times and prints each
figure's 5th to 95th percentile, and those of each candidate's difference from the first named
(the same draws for all): how far a figure moves with the games chosen. A difference whose
interval holds zero is not a measured improvement.

A quick trial in another directory: `--dir /tmp/rb games --count 3`, then
`--dir /tmp/rb reference --nodes 20000`, a candidate and `compare`.
"""

import argparse
import fcntl
import gzip
import hashlib
import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import chess
import chess.engine
import chess.pgn

from score_scale import Scale, current_scale, win_percent  # this script's directory

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT.parent / "shared" / "data" / "pgn" / "lichess_db_1000k.pgn"
TESTDATA = ROOT / "testdata" / "review" / "lichess-evals.pgn"
# The tabla binary: --tabla, else $TABLA_BIN, else the release build.
TABLA = os.environ.get("TABLA_BIN", str(ROOT / "target" / "release" / "tabla"))
STOCKFISH = "/usr/games/stockfish"
DEFAULT_DIR = "/work/bench/review"
GAMES = "games200.pgn"
REFERENCE = "reference.jsonl"
REFERENCE_PGN = "reference.pgn"
REFERENCE_REVIEW = "reference-review.jsonl"
PARTIAL_PGN = "reference-partial.pgn"
PARTIAL_REVIEW = "reference-partial-review.jsonl"
REFERENCE_NODES = 1_500_000
# The reference's searches kept in the repository (`save`), so that a new machine starts from
# them instead of hours of Stockfish: read with reference.jsonl wherever it is.
SAVED = ROOT / "scripts" / "bench" / "data" / "review-reference.jsonl.gz"
MIN_PLIES = 10
# The two halves of the games (see the docstring): the game at 0-based index i is in the tuning
# half when i is even, in the held-out half when it is odd.
HALVES = ("held-out", "tuning", "all")


def in_half(index, half):
    """Whether the game at 0-based `index` of games200.pgn is in `half`."""
    return half == "all" or (index % 2 == 0) == (half == "tuning")


def of_half(items, half):
    """The items (games or reviews, in games200.pgn's order) of `half`."""
    return [x for i, x in enumerate(items) if in_half(i, half)]


def read_games(path):
    """Every game of a PGN file, with python-chess."""
    games = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return games
            games.append(game)


def clean_game(game):
    """The game's tags and mainline moves, nothing else."""
    out = chess.pgn.Game()
    out.headers.clear()
    for name, value in game.headers.items():
        out.headers[name] = value
    node = out
    for move in game.mainline_moves():
        node = node.add_main_variation(move)
    return out


def pgn_text(game):
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return game.accept(exporter)


def write_atomic(path, text):
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------
# games


def cmd_games(args, work):
    out_path = work / GAMES
    excluded = {g.headers.get("Site") for g in read_games(TESTDATA)}
    candidates = []
    skipped = {"in testdata": 0, "short": 0, "damaged": 0, "variant": 0}
    for index, game in enumerate(read_games(args.source)):
        site = game.headers.get("Site", "")
        if site in excluded:
            skipped["in testdata"] += 1
        elif game.errors:
            skipped["damaged"] += 1
        elif game.headers.get("Variant", "Standard").lower() not in ("standard", "chess"):
            skipped["variant"] += 1
        elif sum(1 for _ in game.mainline_moves()) < MIN_PLIES:
            skipped["short"] += 1
        else:
            key = hashlib.sha256(f"{site}#{index}".encode()).hexdigest()
            candidates.append((key, index, game))
    if len(candidates) < args.count:
        sys.exit(f"only {len(candidates)} games qualify, {args.count} wanted")
    chosen = sorted(sorted(candidates, key=lambda c: c[0])[: args.count], key=lambda c: c[1])
    games = [clean_game(g) for _, _, g in chosen]
    text = "".join(pgn_text(g) + "\n\n" for g in games)
    if out_path.exists() and out_path.read_text(encoding="utf-8") != text:
        if not args.force:
            sys.exit(f"{out_path} exists and differs (--force to overwrite; the reference "
                     "and candidates would no longer match)")
    write_atomic(out_path, text)
    plies = sum(len(list(g.mainline_moves())) for g in games)
    print(f"{len(candidates)} games qualify of the source's; skipped: {skipped}")
    print(f"{out_path}: {len(games)} games, {plies} plies")


def load_games(work):
    path = work / GAMES
    if not path.exists():
        sys.exit(f"{path} missing: run `games` first")
    return read_games(path)


# ---------------------------------------------------------------------------------------------
# reference


def terminal(board):
    """A final position with nothing to search: mate or stalemate."""
    return board.is_checkmate() or board.is_stalemate()


def game_positions(game):
    """The positions (EPD, FEN) the reference searches for one game: before each mainline move,
    and the final one unless the game ended in mate or stalemate."""
    board = game.board()
    out = []
    for move in game.mainline_moves():
        out.append((board.epd(), board.fen()))
        board.push(move)
    if not terminal(board):
        out.append((board.epd(), board.fen()))
    return out


def positions_to_search(games):
    """The distinct positions (EPD -> FEN) the reference needs, in game order."""
    wanted = {}
    for game in games:
        for epd, fen in game_positions(game):
            wanted.setdefault(epd, fen)
    return wanted


def load_saved():
    """The reference's searches kept in the repository (SAVED), by EPD; none when absent."""
    if not SAVED.exists():
        return {}
    with gzip.open(SAVED, "rt", encoding="utf-8") as f:
        entries = (json.loads(line) for line in f if line.strip())
        return {e["epd"]: e for e in entries}


def load_reference(path, repair=False):
    """The done positions: those kept in the repository (SAVED), then those of reference.jsonl.
    A torn last line of reference.jsonl (kill -9 in the middle of a write) is passed over, and
    with `repair` (the searching run, holding the lock) cut off."""
    done = load_saved()
    if not path.exists():
        return done
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end < len(data) and repair:
        with open(path, "r+b") as f:
            f.truncate(end)
        print(f"cut a torn last line of {path} ({len(data) - end} bytes)", flush=True)
    for line in data[:end].decode("utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            done[entry["epd"]] = entry
    return done


def lock_reference(work):
    """The searching run's lock (reference.lock): one at a time; None when another holds it."""
    handle = open(work / "reference.lock", "a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    return handle


def white_score(info, board):
    score = info["score"].white()
    if score.is_mate():
        return {"mate": score.mate()}
    return {"cp": score.score()}


def lower_priority():
    """Idle CPU only: nice 19, and the autogroup's nice 19 when this process leads its own
    session (started with `setsid`), so as not to lower the caller's shell."""
    try:
        os.nice(19 - os.nice(0))
    except OSError:
        pass
    if os.getsid(0) == os.getpid():
        try:
            Path("/proc/self/autogroup").write_text("19\n")
        except OSError:
            pass


def open_engine(path):
    engine = chess.engine.SimpleEngine.popen_uci(path)
    # As `tabla review --engine`: Threads=1, Hash=64 (its --engine-option), and not python-chess's
    # UCI_AnalyseMode=true.
    options = {"Threads": 1, "Hash": 64}
    if "UCI_AnalyseMode" in engine.options:
        options["UCI_AnalyseMode"] = False
    engine.configure(options)
    return engine


def search(engine, fen, nodes):
    """One fresh search, read as tabla reads a UCI engine: the score of the last report with an
    exact score (Stockfish stopped by its node budget last reports the unfinished iteration's
    bound), the last bound only when no exact score came; `best` the first move of that line
    (the engine's `bestmove` when it has none); the
    largest node count reported."""
    board = chess.Board(fen)
    kept, kept_exact, most_nodes = None, False, None
    # A new `game` object each time: python-chess sends `ucinewgame` (hash cleared).
    with engine.analysis(board, chess.engine.Limit(nodes=nodes), game=object()) as analysis:
        for info in analysis:
            if "nodes" in info:
                most_nodes = max(most_nodes or 0, info["nodes"])
            if info.get("multipv", 1) != 1 or "score" not in info:
                continue
            exact = not (info.get("lowerbound") or info.get("upperbound"))
            if exact or not kept_exact:
                kept, kept_exact = info, exact
        best = analysis.wait()
    if kept is None:
        raise chess.engine.EngineError(f"no score for {fen}")
    entry = white_score(kept, board)
    if not kept_exact:
        entry["bound"] = "lower" if kept.get("lowerbound") else "upper"
    # The first move of the line the score comes from, as tabla review takes the engine's
    # choice (`bestmove` can come from an iteration the node budget cut short).
    move = (kept.get("pv") or [None])[0] or best.move
    entry["best"] = move.uci() if move else None
    entry["nodes"] = most_nodes
    entry["limit"] = nodes
    return entry


def reference_worker(fens, results, args, stop):
    engine = None
    try:
        engine = open_engine(args.engine)
        while not stop.is_set():
            try:
                epd, fen = fens.get_nowait()
            except queue.Empty:
                return
            try:
                entry = search(engine, fen, args.nodes)
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
                # Once more with a new engine; a second failure stops the run.
                print(f"engine failed on {fen} ({error!r}); retrying once", flush=True)
                try:
                    engine.close()
                except Exception:
                    pass
                engine = open_engine(args.engine)
                entry = search(engine, fen, args.nodes)
            results.put({"epd": epd, **entry})
    except Exception as error:  # reported by the main thread
        results.put(error)
    finally:
        if engine is not None:
            try:
                engine.quit()
            except Exception:
                pass
        results.put(None)


def cmd_reference(args, work):
    if args.idle:
        lower_priority()
    games = load_games(work)
    path = work / REFERENCE
    lock = None if args.finish else lock_reference(work)
    if lock is None and not args.finish:
        sys.exit(f"another `reference` run holds {work / 'reference.lock'}; `reference "
                 "--finish` only reads")
    done = load_reference(path, repair=lock is not None)
    limits = {e.get("limit") for e in done.values()}
    if limits and limits != {args.nodes}:
        sys.exit(f"{path} was made with node budgets {sorted(limits)}, not {args.nodes}")
    wanted = positions_to_search(games)
    todo = [(epd, fen) for epd, fen in wanted.items() if epd not in done]
    print(f"{len(wanted)} distinct positions, {len(wanted) - len(todo)} done, {len(todo)} to "
          f"search at {args.nodes} nodes with {args.workers} engine(s)", flush=True)
    if todo and not args.finish:
        fens = queue.Queue()
        for item in todo:
            fens.put(item)
        results = queue.Queue()
        stop = threading.Event()
        workers = [threading.Thread(target=reference_worker, args=(fens, results, args, stop),
                                    daemon=True) for _ in range(min(args.workers, len(todo)))]
        for w in workers:
            w.start()
        start, count, running = time.monotonic(), 0, len(workers)
        with open(path, "a", encoding="utf-8") as out:
            while running:
                entry = results.get()
                if entry is None:
                    running -= 1
                    continue
                if isinstance(entry, Exception):
                    stop.set()
                    sys.exit(f"engine failed: {entry!r} (rerun to resume)")
                out.write(json.dumps(entry, separators=(",", ":")) + "\n")
                out.flush()
                os.fsync(out.fileno())
                count += 1
                if count % args.report == 0 or count == len(todo):
                    elapsed = time.monotonic() - start
                    rate = count / elapsed
                    left = (len(todo) - count) / rate / 3600
                    print(f"{time.strftime('%H:%M:%S')} {len(wanted) - len(todo) + count}/"
                          f"{len(wanted)} positions, {elapsed / count:.2f} s a position this run,"
                          f" about {left:.2f} h left", flush=True)
        done = load_reference(path, repair=True)
    missing = [epd for epd in wanted if epd not in done]
    if missing:
        print(f"{len(missing)} positions still to search; no {REFERENCE_PGN} yet", flush=True)
        return
    write_reference_pgn(games, done, work / REFERENCE_PGN)
    review = run_from_evals(work)
    print(f"{work / REFERENCE_PGN} written; reference review {review}", flush=True)


def cmd_save(args, work):
    """Keeps the reference's searches of the games' positions in the repository (SAVED), in game
    order, gzip-compressed without a timestamp, so the same searches give the same bytes."""
    games = load_games(work)
    done = load_reference(work / REFERENCE)
    wanted = positions_to_search(games)
    lines = [json.dumps(done[epd], separators=(",", ":")) + "\n" for epd in wanted if epd in done]
    SAVED.parent.mkdir(parents=True, exist_ok=True)
    tmp = SAVED.with_suffix(".tmp")
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as f:
            f.write("".join(lines).encode("utf-8"))
    os.replace(tmp, SAVED)
    print(f"{SAVED}: {len(lines)} of {len(wanted)} positions, {SAVED.stat().st_size} bytes; "
          f"{complete_prefix(games, done)} games complete from the first")


def eval_comment(entry):
    if "mate" in entry and entry["mate"] is not None:
        return f"[%eval #{entry['mate']}]"
    return f"[%eval {entry['cp'] / 100:.2f}]"


def write_reference_pgn(games, done, path):
    texts = []
    for game in games:
        out = clean_game(game)
        board = out.board()
        # The start position's evaluation, before the first move (tabla reads it there).
        out.comment = eval_comment(done[board.epd()])
        node = out
        while node.variations:
            node = node.variation(0)
            board = node.board()
            if board.is_checkmate():
                node.comment = ""  # as lichess: nothing after a mate
            elif board.is_stalemate():
                node.comment = "[%eval 0.00]"
            else:
                node.comment = eval_comment(done[board.epd()])
        texts.append(pgn_text(out) + "\n\n")
    write_atomic(path, "".join(texts))


def run_from_evals(work, pgn=REFERENCE_PGN, out=REFERENCE_REVIEW):
    """`tabla review --from-evals --json reference.pgn` into reference-review.jsonl."""
    out = work / out
    proc = subprocess.run([TABLA, "review", "--from-evals", "--json", str(work / pgn),
                           "--out", str(out)], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"tabla review --from-evals failed ({proc.returncode}): {proc.stderr}")
    return (proc.stdout + proc.stderr).strip()


def complete_prefix(games, done):
    """How many games, from the first, have every position searched (the reference searches
    in game order, so these are the games a partial comparison can use)."""
    count = 0
    for game in games:
        needed = [epd for epd, _ in game_positions(game)]
        if any(epd not in done for epd in needed):
            break
        count += 1
    return count


# ---------------------------------------------------------------------------------------------
# candidate


def cmd_candidate(args, work):
    games = work / GAMES
    if not games.exists():
        sys.exit(f"{games} missing: run `games` first")
    out = work / f"{args.name}.jsonl"
    meta_path = work / f"{args.name}.meta.json"
    if meta_path.exists() and out.exists() and not args.force:
        meta = json.loads(meta_path.read_text())
        print(f"{args.name} done already (--force to run again): {meta['wall_seconds']} s; "
              f"{meta['summary']}")
        return
    extra = [a for a in args.tabla_args if a != "--"]
    if args.half != "all":
        if args.first:
            sys.exit("--half and --first: choose one")
        subset = work / f"games-{args.half}.pgn"
        text = "".join(pgn_text(g) + "\n\n" for g in of_half(load_games(work), args.half))
        write_atomic(subset, text)
        games = subset
    if args.first:
        # A quick screen: the first N games only.
        subset = work / f"games-first{args.first}.pgn"
        text = "".join(pgn_text(g) + "\n\n" for g in load_games(work)[:args.first])
        write_atomic(subset, text)
        games = subset
    command = [TABLA, "review", "--json", str(games), *extra, "--out", str(out)]
    print("running:", " ".join(command), flush=True)
    start = time.monotonic()
    proc = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - start
    summary = (proc.stdout + proc.stderr).strip()
    if proc.returncode != 0:
        sys.exit(f"tabla review failed ({proc.returncode}) after {wall:.1f} s: {summary}")
    meta = {"name": args.name, "args": extra, "first": args.first, "half": args.half,
            "command": command,
            "wall_seconds": round(wall, 1),
            "summary": summary, "finished": time.strftime("%Y-%m-%d %H:%M:%S")}
    write_atomic(meta_path, json.dumps(meta, indent=1) + "\n")
    print(f"{args.name}: {wall:.1f} s; {summary}")


# ---------------------------------------------------------------------------------------------
# searches and rejudge: a candidate's searches kept whole, judged again under another choice


def iteration_search(engine, fen, nodes):
    """One fresh search, every iteration's report of the first line kept: [depth, "cp" | "mate",
    score from White's view, "lower" | "upper" | None, the line's first move]."""
    board = chess.Board(fen)
    iterations = []
    with engine.analysis(board, chess.engine.Limit(nodes=nodes), game=object()) as analysis:
        for info in analysis:
            if info.get("multipv", 1) != 1 or "score" not in info or "depth" not in info:
                continue
            score = info["score"].white()
            bound = "lower" if info.get("lowerbound") else "upper" if info.get("upperbound") \
                else None
            first = (info.get("pv") or [None])[0]
            iterations.append([info["depth"], "mate" if score.is_mate() else "cp",
                               score.mate() if score.is_mate() else score.score(), bound,
                               first.uci() if first else None])
        best = analysis.wait()
    return {"iterations": iterations, "bestmove": best.move.uci() if best.move else None}


def load_searches(path):
    """The stored searches of a `searches` run, by EPD (a torn last line passed over)."""
    done = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip().endswith("}"):
                entry = json.loads(line)
                done[entry["epd"]] = entry
    return done


def cmd_searches(args, work):
    """tabla's engine over UCI (`tabla uci`, its defaults, a fresh search a position) on every
    distinct position of the (first N) games, every iteration kept in NAME.searches.jsonl
    (resumable)."""
    games = load_games(work)[:args.first]
    path = work / f"{args.name}.searches.jsonl"
    done = load_searches(path)
    todo = [(epd, fen) for epd, fen in positions_to_search(games).items() if epd not in done]
    print(f"{len(done)} positions searched, {len(todo)} to search at {args.nodes} nodes",
          flush=True)
    fens = queue.Queue()
    for item in todo:
        fens.put(item)
    lock = threading.Lock()

    def worker(out):
        engine = chess.engine.SimpleEngine.popen_uci([TABLA, "uci"])
        if args.option:
            engine.configure(dict(o.split("=", 1) for o in args.option))
        try:
            while True:
                try:
                    epd, fen = fens.get_nowait()
                except queue.Empty:
                    return
                entry = {"epd": epd, **iteration_search(engine, fen, args.nodes),
                         "limit": args.nodes}
                with lock:
                    out.write(json.dumps(entry, separators=(",", ":")) + "\n")
                    out.flush()
        finally:
            engine.quit()

    with open(path, "a", encoding="utf-8") as out:
        threads = [threading.Thread(target=worker, args=(out,)) for _ in range(args.workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    missing = len(todo) - (len(load_searches(path)) - len(done))
    if missing:
        sys.exit(f"{path}: {missing} positions not searched (an engine failed, see above); "
                 "run the same command again to search them")
    print(f"{path}: done", flush=True)


def chosen_score(entry, how, scale, report):
    """The evaluation a review takes from one stored search: `last`, the last exact report (as
    `tabla review` does), or `mean2`, the mean of the last two iterations' exact scores, in the
    search's units (`scale` takes reported centipawns back to them, `report` reports them), when
    both are centipawns; with the line's first move."""
    reports = [it for it in entry["iterations"] if it[3] is None] or entry["iterations"]
    by_depth = {}
    for it in reports:
        by_depth[it[0]] = it
    depths = sorted(by_depth)
    if not depths:
        return None, entry.get("bestmove")
    last = by_depth[depths[-1]]
    best = last[4] or entry.get("bestmove")
    if last[1] == "mate":
        return {"mate": last[2]}, best
    units = scale.units(last[2])
    if how == "mean2" and len(depths) > 1 and by_depth[depths[-2]][1] == "cp":
        units = (units + scale.units(by_depth[depths[-2]][2])) / 2
    return {"cp": round(report.report(units))}, best


def order_key(comment):
    """An `[%eval]` comment as one number on White's scale: mates beyond every centipawn score,
    the shorter the stronger."""
    text = comment[len("[%eval "):-1]
    if text.startswith("#"):
        n = int(text[1:])
        return 1_000_000 - n if n > 0 else -1_000_000 - n
    return round(float(text) * 100)


def propagate(game, how, margin):
    """Make each position's evaluation agree with the next one's, as minimax says it must: the
    side to move is at least as well off as after the move it played. `chain` carries this from
    the last position back to the first, `mates` the same for forced mates only, `step` takes
    only the next position's own search; a change only when it exceeds `margin` centipawns."""
    nodes = [game] + list(game.mainline())
    raw = [n.comment for n in nodes]
    keys = [order_key(c) if c.startswith("[%eval") else None for c in raw]
    values = list(keys)
    for k in range(len(nodes) - 2, -1, -1):
        nxt, comment = (values[k + 1], nodes[k + 1].comment) if how in ("chain", "mates") \
            else (keys[k + 1], raw[k + 1])
        if values[k] is None or nxt is None:
            continue
        white = nodes[k].board().turn
        better = nxt > values[k] + margin if white else nxt < values[k] - margin
        if how == "mates" and not comment.startswith("[%eval #"):
            better = False
        if better:
            values[k] = nxt
            if comment.startswith("[%eval #"):
                n = int(comment[len("[%eval #"):-1])
                if (n > 0) == white:  # one more move of the mating side
                    n += 1 if n > 0 else -1
                comment = f"[%eval #{n}]"
            nodes[k].comment = comment
    return game


def cmd_rejudge(args, work):
    """A candidate made from stored searches: NAME.jsonl as `candidate` writes it, each
    position's evaluation chosen by --score, reported on --scale, judged by `tabla review
    --from-evals`, and a move that was the engine's own choice unmarked (as `tabla review`
    does with an engine)."""
    searches = load_searches(work / f"{args.searches}.searches.jsonl")
    if not searches:
        sys.exit(f"no searches in {work / f'{args.searches}.searches.jsonl'}: run `searches` first")
    scale = current_scale()
    report = Scale(*map(int, args.scale.split(","))) if args.scale else scale
    games = load_games(work)
    texts, bests = [], []
    for game in games:
        out = clean_game(game)
        node, board, chosen, complete = out, out.board(), {}, True
        while True:
            if board.is_checkmate():
                node.comment = ""
            elif board.is_stalemate():
                node.comment = "[%eval 0.00]"
            elif board.epd() in searches:
                score, best = chosen_score(searches[board.epd()], args.score, scale, report)
                node.comment = eval_comment(score) if score else ""
                chosen[board.ply() + 1] = best
            else:
                complete = False
                break
            if not node.variations:
                break
            node = node.variation(0)
            board = node.board()
        if not complete:
            break
        if args.propagate != "none":
            propagate(out, args.propagate, args.margin)
        texts.append(pgn_text(out) + "\n\n")
        bests.append(chosen)
    if not texts:
        sys.exit("no game has all its positions searched")
    write_atomic(work / f"{args.name}.pgn", "".join(texts))
    run_from_evals(work, f"{args.name}.pgn", f"{args.name}.jsonl")
    reviews = read_reviews(work / f"{args.name}.jsonl")
    unmarked = 0
    for review, chosen in zip(reviews, bests):
        for m in review.get("moves") or []:
            if m.get("judgement") and chosen.get(m["ply"]) == m["uci"]:
                m["judgement"] = None
                unmarked += 1
    write_atomic(work / f"{args.name}.jsonl",
                 "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in reviews))
    meta = {"name": args.name, "searches": args.searches, "score": args.score,
            "scale": str(report), "games": len(reviews),
            "finished": time.strftime("%Y-%m-%d %H:%M:%S")}
    write_atomic(work / f"{args.name}.meta.json", json.dumps(meta, indent=1) + "\n")
    print(f"{args.name}: {len(reviews)} games (those whose positions are all searched), "
          f"{unmarked} marks of the engine's own choice dropped")


# ---------------------------------------------------------------------------------------------
# compare

SEVERITY = {None: 0, "Inaccuracy": 1, "Mistake": 2, "Blunder": 3}


def read_reviews(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def reference_reviews(work, best_rule, partial=False):
    """The reference's reviews, each move's judgement; with `best_rule`, a move that was the
    reference engine's choice is unmarked (as tabla's engine review and lichess do). With
    `partial`, the games from the first whose positions are all searched so far."""
    games = load_games(work)
    done = load_reference(work / REFERENCE)
    if partial:
        games = games[:complete_prefix(games, done)]
        if not games:
            sys.exit("no game has all its positions searched yet")
        write_reference_pgn(games, done, work / PARTIAL_PGN)
        run_from_evals(work, PARTIAL_PGN, PARTIAL_REVIEW)
        review_path = work / PARTIAL_REVIEW
    else:
        if not (work / REFERENCE_PGN).exists():
            sys.exit(f"{work / REFERENCE_PGN} missing: the reference is not finished "
                     "(--partial compares the games done so far)")
        if not (work / REFERENCE_REVIEW).exists() or (
                (work / REFERENCE_REVIEW).stat().st_mtime
                < (work / REFERENCE_PGN).stat().st_mtime):
            run_from_evals(work)
        review_path = work / REFERENCE_REVIEW
    reviews = read_reviews(review_path)
    unmarked = 0
    if best_rule:
        for game, review in zip(games, reviews):
            board = game.board()
            befores = {}
            for ply, move in enumerate(game.mainline_moves(), 1):
                befores[ply] = (board.epd(), move.uci())
                board.push(move)
            for m in review.get("moves") or []:
                epd, played = befores[m["ply"]]
                if m.get("judgement") and done.get(epd, {}).get("best") == played:
                    m["judgement"] = None
                    unmarked += 1
    return reviews, unmarked


def compare_one(reference, candidate):
    confirmed = alarms = caught = ref_blunders = 0
    diffs, wins, losses, games, skipped = [], [], [], 0, 0
    for ref, cand in zip(reference, candidate):
        if ref.get("error") or cand.get("error"):
            skipped += 1
            continue
        games += 1
        ref_moves = {m["ply"]: m for m in ref["moves"]}
        ref_losses = move_losses(ref["moves"])
        for ply, loss in move_losses(cand["moves"]).items():
            if ply in ref_losses:
                losses.append(abs(loss - ref_losses[ply]))
        for m in cand["moves"]:
            r = ref_moves.get(m["ply"])
            if r is None or r["uci"] != m["uci"]:
                sys.exit(f"moves do not match at ply {m['ply']}: {r} / {m}")
            if m.get("win") is not None and r.get("win") is not None:
                wins.append(abs(m["win"] - r["win"]))
            cand_sev, ref_sev = SEVERITY[m.get("judgement")], SEVERITY[r.get("judgement")]
            if cand_sev >= 2:
                alarms += 1
                confirmed += ref_sev >= 1
            if ref_sev == 3:
                ref_blunders += 1
                caught += cand_sev >= 2
        for side in ("white", "black"):
            a, b = ref[side].get("accuracy"), cand[side].get("accuracy")
            if a is not None and b is not None:
                diffs.append(abs(a - b))
    return {
        "games": games, "skipped": skipped,
        "false_alarms": confirmed / alarms if alarms else None, "alarms": alarms,
        "missed_blunders": caught / ref_blunders if ref_blunders else None,
        "ref_blunders": ref_blunders,
        "accuracy_mad": sum(diffs) / len(diffs) if diffs else None, "sides": len(diffs),
        "win_mad": sum(wins) / len(wins) if wins else None,
        "loss_mad": sum(losses) / len(losses) if losses else None,
    }


# lichess's win% of the start position, 15 centipawns (its `Eval.initial`), as `tabla review`.
START_WIN = win_percent(15)


def move_losses(moves):
    """ply -> the win% the move loses for its mover (at least 0), where both the win% before and
    after it are known; the position before the first move counts as 15 centipawns."""
    out, before = {}, START_WIN
    for m in moves:
        after = m.get("win")
        if after is not None and before is not None:
            lost = before - after if m["ply"] % 2 == 1 else after - before
            out[m["ply"]] = max(0.0, lost)
        before = after
    return out


def bootstrap(reference, candidates, rounds, seed=1):
    """Games drawn again with replacement, `rounds` times, the same draw for every candidate:
    each figure's 5th and 95th percentiles, and those of each candidate's difference from the
    first. The spread of a figure over the games, not of the engine's search."""
    rng = random.Random(seed)
    n = len(reference)
    keys = ("false_alarms", "missed_blunders", "accuracy_mad", "win_mad", "loss_mad")
    samples = [{k: [] for k in keys} for _ in candidates]
    diffs = [{k: [] for k in keys} for _ in candidates]
    for _ in range(rounds):
        pick = [rng.randrange(n) for _ in range(n)]
        ref = [reference[i] for i in pick]
        results = [compare_one(ref, [c[i] for i in pick]) for c in candidates]
        for j, r in enumerate(results):
            for k in keys:
                if r[k] is not None and results[0][k] is not None:
                    samples[j][k].append(r[k])
                    diffs[j][k].append(r[k] - results[0][k])

    def interval(values):
        values = sorted(values)
        if not values:
            return None
        return values[int(0.05 * (len(values) - 1))], values[int(0.95 * (len(values) - 1))]
    return ([{k: interval(v) for k, v in s.items()} for s in samples],
            [{k: interval(v) for k, v in d.items()} for d in diffs])


def fmt(value, digits=2):
    return "-" if value is None else f"{value:.{digits}f}"


def cmd_compare(args, work):
    reference, unmarked = reference_reviews(work, not args.no_best_rule, args.partial)
    if args.first:
        reference = reference[:args.first]
    whole = len(reference)
    reference = of_half(reference, args.half)
    rows = []
    for name in args.names:
        path = work / f"{name}.jsonl"
        if not path.exists():
            sys.exit(f"{path} missing: run `candidate {name} -- ...` first")
        candidate = read_reviews(path)
        meta_path = work / f"{name}.meta.json"
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        wall = meta.get("wall_seconds")
        ran_on = meta.get("half") or "all"
        if ran_on != "all":
            # A candidate of one half: its games are those of that half, in order.
            if ran_on != args.half:
                sys.exit(f"{name} ran on the {ran_on} half only; compare it with --half {ran_on}")
            wall = None  # not comparable with the wall time of all 200 games
        else:
            if args.partial:
                candidate = candidate[:whole]
            if args.first:
                if len(candidate) < args.first or whole < args.first:
                    sys.exit(f"--first {args.first}: {name} has {len(candidate)} games, the "
                             f"reference {whole}")
                candidate = candidate[:args.first]
            if len(candidate) != whole:
                sys.exit(f"{name}: {len(candidate)} games, the reference {whole}")
            candidate = of_half(candidate, args.half)
        if ran_on != "all" and args.partial:
            candidate = candidate[:len(reference)]
        if len(candidate) != len(reference):
            sys.exit(f"{name}: {len(candidate)} games of the {args.half} half, the reference "
                     f"{len(reference)}")
        rows.append((name, wall, compare_one(reference, candidate), candidate))
    print(f"Reference: Stockfish, {REFERENCE}, {len(reference)} games"
          + (f" (the first {args.first})" if args.first else "")
          + ("" if args.half == "all" else f", the {args.half} half")
          + (" (the first ones, all their positions searched: --partial)" if args.partial else "")
          + "; "
          + (f"{unmarked} reference marks of the engine's own choice dropped"
             if not args.no_best_rule else "marks of --from-evals as they are"))
    print()
    print("| candidate | wall s | false alarms: M+B the ref marks (>= 0.85) | "
          "missed blunders: ref B marked M/B (>= 0.9) | accuracy MAD (<= 2.0) | "
          "win% MAD | loss MAD | cand M+B | ref B | games |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    d = args.digits
    for name, wall, r, _ in rows:
        games = f"{r['games']}" + (f" ({r['skipped']} skipped)" if r["skipped"] else "")
        print(f"| {name} | {fmt(wall, 0)} | {fmt(r['false_alarms'], d)} | "
              f"{fmt(r['missed_blunders'], d)} | {fmt(r['accuracy_mad'], d)} | "
              f"{fmt(r['win_mad'], d)} | {fmt(r['loss_mad'], d)} | {r['alarms']} | "
              f"{r['ref_blunders']} | {games} |")
    if args.bootstrap:
        spans, diffs = bootstrap(reference, [c for _, _, _, c in rows], args.bootstrap)

        def span(pair):
            return "-" if pair is None else f"{pair[0]:.{d}f} to {pair[1]:.{d}f}"
        print()
        print(f"90% of {args.bootstrap} redraws of the games (the same draws for every "
              f"candidate); differences from {rows[0][0]}:")
        print()
        print("| candidate | false alarms | missed blunders | accuracy MAD | win% MAD | loss MAD |")
        print("|---|---|---|---|---|---|")
        for (name, _, _, _), sp, df in zip(rows, spans, diffs):
            print(f"| {name} | {span(sp['false_alarms'])} | {span(sp['missed_blunders'])} | "
                  f"{span(sp['accuracy_mad'])} | {span(sp['win_mad'])} | "
                  f"{span(sp['loss_mad'])} |")
            if name != rows[0][0]:
                print(f"| {name} - {rows[0][0]} | {span(df['false_alarms'])} | "
                      f"{span(df['missed_blunders'])} | {span(df['accuracy_mad'])} | "
                      f"{span(df['win_mad'])} | {span(df['loss_mad'])} |")


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", default=DEFAULT_DIR, help=f"work directory ({DEFAULT_DIR})")
    parser.add_argument("--tabla", default=None,
                        help="the tabla binary ($TABLA_BIN, else target/release/tabla)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("games", help=f"choose the games: {GAMES}")
    p.add_argument("--source", default=str(SOURCE))
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--force", action="store_true", help="overwrite a different games file")

    p = sub.add_parser("reference", help=f"Stockfish's evaluations: {REFERENCE}, {REFERENCE_PGN}")
    p.add_argument("--workers", type=int, default=1, help="engines at once (1)")
    p.add_argument("--nodes", type=int, default=REFERENCE_NODES,
                   help=f"nodes a position ({REFERENCE_NODES})")
    p.add_argument("--engine", default=STOCKFISH)
    p.add_argument("--finish", action="store_true",
                   help=f"search nothing, write {REFERENCE_PGN} if all positions are done")
    p.add_argument("--report", type=int, default=10, help="progress line every N positions")
    p.add_argument("--no-idle", dest="idle", action="store_false",
                   help="keep the priority (by default nice 19, and the autogroup's when the "
                        "process leads its session)")

    p = sub.add_parser("candidate", help="a tabla review of the games: NAME.jsonl")
    p.add_argument("name")
    p.add_argument("tabla_args", nargs=argparse.REMAINDER,
                   help="after --: arguments of tabla review")
    p.add_argument("--force", action="store_true", help="run again")
    p.add_argument("--half", choices=HALVES, default="all",
                   help="run on one half of the games only (all)")
    p.add_argument("--first", type=int, default=None,
                   help="review only the first N games (a quick screen; compare --first N)")

    p = sub.add_parser("compare", help="the metrics of candidates against the reference")
    p.add_argument("names", nargs="+")
    p.add_argument("--digits", type=int, default=2, help="decimals of the figures (2)")
    p.add_argument("--bootstrap", type=int, default=0, metavar="ROUNDS",
                   help="also the 90%% spread of each figure over redraws of the games")
    p.add_argument("--no-best-rule", action="store_true",
                   help="keep reference marks on the reference engine's own choices")
    p.add_argument("--partial", action="store_true",
                   help="while the reference runs: the games, from the first, whose positions "
                        f"are all searched ({PARTIAL_PGN})")
    p.add_argument("--first", type=int, default=None,
                   help="only the first N games (of candidates made with --first N, say)")
    p.add_argument("--half", choices=HALVES, default="held-out",
                   help="the games compared: the held-out half (the default: the figures "
                        "reported), the tuning half, or all 200")

    sub.add_parser("save", help=f"keep the reference's searches in the repository: {SAVED}")

    p = sub.add_parser("searches", help="tabla uci's every iteration on the games' positions: "
                                        "NAME.searches.jsonl")
    p.add_argument("name")
    p.add_argument("--nodes", type=int, default=300_000)
    p.add_argument("--first", type=int, default=None, help="only the first N games")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a UCI option of every engine (e.g. Threads=2), repeatable")

    p = sub.add_parser("rejudge", help="a candidate from stored searches: NAME.jsonl")
    p.add_argument("name")
    p.add_argument("--searches", required=True, help="the NAME of a `searches` run")
    p.add_argument("--score", choices=["last", "mean2"], default="last",
                   help="last: the last exact report (as tabla review); mean2: the mean of the "
                        "last two iterations")
    p.add_argument("--propagate", choices=["none", "step", "chain", "mates"], default="none",
                   help="make each evaluation agree with the next position's (minimax)")
    p.add_argument("--margin", type=int, default=0, help="only when it differs by more (cp)")
    p.add_argument("--scale", default=None,
                   help="PER_100,KNEE,BEYOND to report on instead of score.rs's")

    args = parser.parse_args()
    if args.tabla:
        global TABLA
        TABLA = args.tabla
    work = Path(args.dir)
    work.mkdir(parents=True, exist_ok=True)
    {"games": cmd_games, "reference": cmd_reference, "candidate": cmd_candidate,
     "compare": cmd_compare, "save": cmd_save, "searches": cmd_searches,
     "rejudge": cmd_rejudge}[args.command](args, work)


if __name__ == "__main__":
    main()
