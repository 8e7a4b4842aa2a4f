"""A Stockfish process spoken to directly over UCI, one search at a time: faster than
python-chess's engine module for labelling many positions (tune_data.py, nnue_data.py)."""

import subprocess


class Stockfish:
    """A Stockfish process on one thread with a 16 MB hash table."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish ended")
            if line.startswith(prefix):
                return line

    def search(self, fen, depth, nodes=None):
        """(the score in centipawns for the side to move, the signed number of moves to a mate
        (None when the score is no mate; the score is then None), the best move in UCI
        notation), from a search to `depth`, or of `nodes` nodes when given."""
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}" if nodes else f"go depth {depth}")
        cp, mate = None, None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish ended")
            if line.startswith("bestmove"):
                return cp, mate, line.split()[1]
            words = line.split()
            if "multipv" in words and words[words.index("multipv") + 1] != "1":
                continue  # with a Skill Level below 20 Stockfish searches 4 lines
            if "score" in words:
                i = words.index("score")
                kind, value = words[i + 1], int(words[i + 2])
                if kind == "cp":
                    cp, mate = value, None
                else:
                    cp, mate = None, value

    def set_option(self, name, value):
        """Sets a UCI option and waits until Stockfish has taken it."""
        self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def static_eval(self, fen):
        """Stockfish's static evaluation of `fen` (its `eval` command, no search) in centipawns
        for the side to move, or None when it gives none (in check)."""
        self.send(f"position fen {fen}")
        self.send("eval")
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish ended")
            if line.startswith("Final evaluation"):
                try:
                    pawns = float(line.split()[2])  # White's view, in pawns
                except (IndexError, ValueError):
                    return None  # "none (in check)"
                cp = round(pawns * 100)
                return cp if fen.split()[1] == "w" else -cp

    def score(self, fen, depth, nodes=None):
        """The score in centipawns for the side to move, mates as +-3000."""
        cp, mate, _ = self.search(fen, depth, nodes)
        if mate is None:
            return cp
        return 3000 if mate > 0 else -3000

    def close(self):
        self.send("quit")
        self.proc.wait()
