"""Where the tests' data is: the repository's testdata/ always, the real-world corpus
($TABLA_CORPUS, else ../shared/data beside the repository) when present; with
TABLA_REQUIRE_CORPUS=1 (CI) a missing corpus fails instead of skipping."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
TESTDATA = ROOT / "testdata"


def corpus_path() -> pathlib.Path:
    named = os.environ.get("TABLA_CORPUS")
    return ROOT / named if named else ROOT.parent / "shared" / "data"


def decode(raw: bytes) -> str:
    """tabla's reading of bytes (scripts/gen_pgn_reference.py): each line UTF-8 when it decodes
    as UTF-8, else Latin-1; a leading byte-order mark dropped. python-chess reads this text."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    lines = []
    for line in raw.split(b"\n"):
        try:
            lines.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append(line.decode("latin-1"))
    return "\n".join(lines)


def pgn_sets():
    """The folders of PGN files to test: testdata's, and the corpus's when present."""
    sets = [pytest.param(TESTDATA / "pgn", id="testdata")]
    corpus = corpus_path() / "pgn"
    if corpus.is_dir():
        sets.append(pytest.param(corpus, id="corpus"))
    elif os.environ.get("TABLA_REQUIRE_CORPUS") == "1":
        sets.append(pytest.param(corpus, id="corpus-missing"))
    else:
        sets.append(
            pytest.param(
                corpus,
                id="corpus",
                marks=pytest.mark.skip(reason=f"corpus not found at {corpus} (set TABLA_CORPUS)"),
            )
        )
    return sets
