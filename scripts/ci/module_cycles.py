#!/usr/bin/env python3
"""Finds import cycles between the modules of each crate in crates/, and of the web app (web/src).

A module is one source file (src/foo.rs or src/foo/mod.rs). Module A depends on module B when A's
text names `crate::B` (in a `use` or a path), `super::B` from a child, or a name that the crate
root re-exports from B (`pub use B::{Name}` in lib.rs, then `crate::Name` in A). Test modules
(`#[cfg(test)] mod tests { ... }` at a file's end) are left out: a test may use anything.
In web/src, module A depends on B when A has `import ... from './B'`.
The graph's strongly connected components of more than one module are the cycles.

Usage: scripts/ci/module_cycles.py [--allow CRATE ...]; exits 1 when a crate not allowed has a cycle.
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def modules(src: pathlib.Path) -> dict[str, pathlib.Path]:
    mods = {}
    for path in src.rglob("*.rs"):
        rel = path.relative_to(src)
        if rel.parts[0] == "bin":
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "mod":
            parts.pop()
        name = "::".join(parts)
        if name in ("lib", "main"):
            continue
        mods[name] = path
    return mods


def strip(text: str) -> str:
    """The text without comments, string and character literals, and the trailing test module.

    A scanner, not a regular expression: a string may span lines (a `\\` line continuation),
    hold `//` or `"` (escaped, or in a raw string `r#"..."#`), and a character literal may be
    `'"'`; each literal becomes `""` and each comment a space, so that the code after them is
    seen as code.
    """
    cut = re.search(r"^#\[cfg\(test\)\]\s*\nmod tests\b", text, re.M)
    if cut:
        text = text[: cut.start()]
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            out.append(" ")
        elif text.startswith("/*", i):
            # Block comments nest in Rust.
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            out.append(" ")
        elif raw := re.match(r'b?r(#*)"', text[i : i + 300]):
            if i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_"):
                out.append(c)
                i += 1
                continue
            close = '"' + raw.group(1)
            end = text.find(close, i + raw.end())
            i = n if end < 0 else end + len(close)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and (lit := re.match(r"'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^'\\\n])'", text[i : i + 16])):
            # A character literal; a lifetime (`'a`) has no closing quote after one character.
            i += lit.end()
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def self_test() -> None:
    """The scanner keeps the code that literals and comments could hide (exits 2 if not)."""
    sample = (
        'const Q: &str = "SELECT a \\\n   FROM t";\n'
        "use crate::after_continuation;\n"
        'const R: &str = r#"a "quoted" // not a comment"#;\n'
        "use crate::after_raw;\n"
        "const C: char = '\"';\n"
        "use crate::after_char;\n"
        "fn f<'a>(x: &'a str) -> &'a str { x } // crate::in_comment\n"
        "/* crate::in_block /* nested */ still */ use crate::after_block;\n"
        'const E: &str = "escaped \\" quote crate::in_string";\n'
        "use crate::last;\n"
    )
    seen = sorted(use_paths(strip(sample)))
    expected = ["after_block", "after_char", "after_continuation", "after_raw", "last"]
    if seen != expected:
        print(f"module_cycles.py self-test failed: saw {seen}, expected {expected}")
        sys.exit(2)


def reexports(lib: str, mods: dict[str, pathlib.Path]) -> dict[str, str]:
    """Names the crate root re-exports, mapped to the module they come from."""
    names = {}
    for m in re.finditer(r"pub\s+use\s+(\w+)::(\{[^}]*\}|\w+)\s*;", lib):
        module, items = m.group(1), m.group(2)
        if module not in mods:
            continue
        for item in re.findall(r"\w+", items):
            names[item] = module
    return names


def use_paths(text: str) -> list[str]:
    """Every `crate::...` path, with `use crate::{a, b::{c}}` groups expanded to their heads."""
    paths = []
    for m in re.finditer(r"\bcrate::(\{[^;]*?\}|[\w:]+)", text):
        body = m.group(1)
        if body.startswith("{"):
            depth, item, items = 0, "", []
            for ch in body[1:-1]:
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                if ch == "," and depth == 0:
                    items.append(item.strip())
                    item = ""
                else:
                    item += ch
            items.append(item.strip())
            paths.extend(i for i in items if i)
        else:
            paths.append(body)
    return paths


def graph(crate: pathlib.Path) -> dict[str, set[str]]:
    src = crate / "src"
    mods = modules(src)
    root = src / "lib.rs"
    names = reexports(strip(root.read_text()), mods) if root.exists() else {}
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        text = strip(path.read_text())
        for p in use_paths(text):
            head = re.split(r"::|\s", p.strip())[0]
            target = None
            full = p.replace(" ", "").split("::{")[0]
            # The longest module path named.
            segs = full.split("::")
            for k in range(len(segs), 0, -1):
                cand = "::".join(segs[:k])
                if cand in mods:
                    target = cand
                    break
            if target is None and head in names:
                target = names[head]
            if target and target != name and not name.startswith(target + "::"):
                edges[name].add(target)
        parent = name.rsplit("::", 1)[0] if "::" in name else None
        for m in re.finditer(r"\bsuper::(\w+)", text):
            cand = f"{parent}::{m.group(1)}" if parent else m.group(1)
            if cand in mods and cand != name:
                edges[name].add(cand)
    return edges


def web_graph(src: pathlib.Path) -> dict[str, set[str]]:
    mods = {p.stem: p for p in src.glob("*.ts")}
    return {
        name: {
            m.group(1)
            for m in re.finditer(r"""from\s+'\./([\w-]+)'""", path.read_text())
            if m.group(1) in mods and m.group(1) != name
        }
        for name, path in mods.items()
    }


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--allow", nargs="*", default=[], help="crates whose cycles are only reported")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every crate's edges")
    args = ap.parse_args()
    self_test()
    failed = False
    graphs = [
        (crate.name, graph(crate))
        for crate in sorted((ROOT / "crates").iterdir())
        if (crate / "src").is_dir()
    ]
    graphs.append(("web", web_graph(ROOT / "web" / "src")))
    for name, edges in graphs:
        found = cycles(edges)
        if args.verbose:
            for a in sorted(edges):
                print(f"{name}: {a} -> {', '.join(sorted(edges[a])) or '-'}")
        n = sum(len(e) for e in edges.values())
        if not found:
            print(f"{name}: {len(edges)} modules, {n} imports, no cycle")
            continue
        allowed = name in args.allow
        failed |= not allowed
        for comp in found:
            members = set(comp)
            detail = "; ".join(
                f"{a} -> {', '.join(sorted(edges[a] & members))}" for a in comp
            )
            print(f"{name}: cycle{' (allowed)' if allowed else ''}: {detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
