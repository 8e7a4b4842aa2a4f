#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check that the Python wheel's dependencies are built with the workspace's features.

scripts/test.sh runs `cargo test --workspace --all-features`, then builds the wheel of
crates/tabla-py with maturin (`--profile dev`, the profile the test profile inherits). Maturin
builds that one package, so cargo resolves its dependencies' features from its own graph; where a
dependency then has fewer features than in the workspace build, cargo builds it again, and with it
everything above it (Arrow and DataFusion: 7 minutes on CI's 2 cores). tabla-py's Cargo.toml pins
those features; this check compares the two resolutions (`cargo tree`) and names each dependency
whose features differ, so the pins are kept up to date.

Exit status 0 when they agree, 1 with the differences on stderr, 2 when cargo tree fails.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def features(args):
    """Package "name version" -> its enabled features, from `cargo tree` with `args`."""
    out = subprocess.run(
        ["cargo", "tree", "--locked", "--prefix", "none", "-f", "{p} {f}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        sys.exit(2)
    found = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        key = f"{parts[0]} {parts[1]}"
        # `{p}` may end with a path "(...)" or a marker "(*)"; `{f}` is the last field, empty
        # when the package has no feature enabled.
        last = parts[-1]
        enabled = set() if len(parts) == 2 or last.startswith("(") else set(last.split(","))
        found.setdefault(key, set()).update(enabled)
    return found


def main():
    workspace = features(["--workspace", "--all-features", "-e", "normal,build,dev"])
    wheel = features(["-p", "tabla-py", "-e", "normal,build"])
    problems = []
    for package, enabled in sorted(wheel.items()):
        if package.startswith("tabla"):
            continue
        expected = workspace.get(package, set())
        if enabled != expected:
            missing = sorted(expected - enabled)
            extra = sorted(enabled - expected)
            problems.append(f"  {package}: the wheel lacks {missing}, has extra {extra}")
    if problems:
        sys.stderr.write(
            "wheel_features: the wheel's dependencies differ in features from the workspace's "
            "test build, so scripts/test.sh would build them again; pin the missing features "
            "in crates/tabla-py/Cargo.toml:\n" + "\n".join(problems) + "\n"
        )
        return 1
    print(f"wheel_features: the wheel's {len(wheel)} packages have the workspace's features")
    return 0


if __name__ == "__main__":
    sys.exit(main())
