"""Where the real-world corpus is, for the scripts that need it (README: Quick start): the folder
named by $TABLA_CORPUS, else ../shared/data beside the repository. It holds perft/, pgn/ and epd/
(testdata/README.md says what the repository keeps of it)."""

import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def corpus_path() -> pathlib.Path:
    """The corpus folder, whether or not it exists; a relative $TABLA_CORPUS is read from the
    repository root, as the tests read it."""
    named = os.environ.get("TABLA_CORPUS")
    return ROOT / named if named else ROOT.parent / "shared" / "data"


def corpus_dir() -> pathlib.Path:
    """The corpus folder; when it is not there, one line saying so and exit status 2."""
    path = corpus_path()
    if not path.is_dir():
        print(
            f"{pathlib.Path(sys.argv[0]).name}: corpus not found at {path}; "
            "set TABLA_CORPUS to the folder holding perft/, pgn/ and epd/",
            file=sys.stderr,
        )
        sys.exit(2)
    return path
