"""Where the tests' data is: the repository's testdata/ always, the real-world corpus
($TABLA_CORPUS, else ../shared/data beside the repository) when present; with
TABLA_REQUIRE_CORPUS=1 (CI) a missing corpus fails instead of skipping."""

import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]

# The engine configured by whoever runs the tests is not seen: no $TABLA_ENGINE, and a
# configuration directory that does not exist (a test that wants one sets its own).
os.environ.pop("TABLA_ENGINE", None)
os.environ["XDG_CONFIG_HOME"] = "/nonexistent/tabla-tests-config"
TESTDATA = ROOT / "testdata"

# tabla's reading of bytes as text (UTF-8 a line, else Latin-1; no byte-order mark), in which
# python-chess is given the files: the one copy is the reference generator's.
sys.path.insert(0, str(TESTDATA))
from gen_pgn_reference import decode  # noqa: E402


def corpus_path() -> pathlib.Path:
    named = os.environ.get("TABLA_CORPUS")
    return ROOT / named if named else ROOT.parent / "shared" / "data"


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
