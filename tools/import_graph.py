"""The import graph of tensorviz's modules: who imports whom, at module level and inside
functions, and the groups of modules that import each other (strongly connected components).

    python tools/import_graph.py          # edge counts, then every group of 2+ modules

A module-level cycle makes import order matter; a function-level one ties the modules into a
knot all the same (each needs the others loaded to work), so both are counted.  Only the
package's own relative imports (``from . import x``, ``from .x import y``) and
``import tensorviz...`` statements are edges.
"""
from __future__ import annotations

import ast
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules(root: Path = ROOT) -> dict[str, Path]:
    """``{"tensorviz._tensor": path, "tensorviz.ops": .../ops/__init__.py, ...}``."""
    out = {}
    for p in sorted((root / "tensorviz").rglob("*.py")):
        parts = list(p.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _resolve(current: str, is_package: bool, level: int, module: str | None) -> str:
    base = current.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[:len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def edges(root: Path = ROOT) -> dict[tuple[str, str], set[str]]:
    """``{(importer, imported): {"module", "function"}}``: where the import statements are
    (at module level, including class bodies and ``if`` blocks, or inside a function)."""
    mods = modules(root)
    found: dict = collections.defaultdict(set)
    for name, path in mods.items():
        is_package = path.name == "__init__.py"

        def visit(node, in_function: bool) -> None:
            for child in ast.iter_child_nodes(node):
                inner = in_function or isinstance(child, (ast.FunctionDef,
                                                          ast.AsyncFunctionDef, ast.Lambda))
                targets = []
                if isinstance(child, ast.ImportFrom) and child.level:
                    base = _resolve(name, is_package, child.level, child.module)
                    for alias in child.names:  # (``from . import x``: the submodule x)
                        sub = f"{base}.{alias.name}"
                        targets.append(sub if sub in mods else base)
                elif isinstance(child, ast.Import):
                    targets = [a.name for a in child.names]
                for t in targets:
                    if t in mods and t != name:
                        found[(name, t)].add("function" if inner else "module")
                visit(child, inner)
        visit(ast.parse(path.read_text()), False)
    return dict(found)


def components(nodes, adjacency: dict) -> list[list[str]]:
    """Tarjan's strongly connected components (each sorted), iteratively."""
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    out: list = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(adjacency.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(adjacency.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def knots(kinds=("module", "function"), root: Path = ROOT) -> list[list[str]]:
    """The groups of two or more modules that import each other through ``kinds`` of
    imports, largest first."""
    adjacency: dict = collections.defaultdict(set)
    for (a, b), where in edges(root).items():
        if where & set(kinds):
            adjacency[a].add(b)
    comps = [c for c in components(sorted(modules(root)), adjacency) if len(c) > 1]
    return sorted(comps, key=len, reverse=True)


def main() -> int:
    found = edges()
    for label, kinds in (("module level", ("module",)),
                         ("module and function level", ("module", "function"))):
        n = sum(1 for where in found.values() if where & set(kinds))
        groups = knots(kinds)
        print(f"{label}: {n} edges; groups of modules importing each other: "
              f"{[len(g) for g in groups] or 'none'}")
        for g in groups:
            print("   ", ", ".join(g))
    print(f"function-level edges: {sum(1 for w in found.values() if 'function' in w)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
