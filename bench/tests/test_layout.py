"""The package's layout (bench/README.md, "Layout"): no import cycle between modules, no module over 300 lines, and
each package imports only the packages below it, so that every verdict is in verdicts and reports only render them."""
import ast
import os
import unittest

PKG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "slingvt_bench")
MAX_LINES = 300

# A package may import itself and these (core is the base; plan, the run itself, may import everything).
ALLOWED = {
    "core": set(),
    "samples": {"core"},
    "instances": {"core"},
    "load": {"core", "samples", "instances"},
    "verdicts": {"core"},
    "reports": {"core", "verdicts"},
    "scenarios": {"core", "samples", "instances", "load", "verdicts", "reports"},
    "plan": {"core", "samples", "instances", "load", "verdicts", "reports", "scenarios"},
}


def modules():
    """{dotted name: path} of every module of the package."""
    out = {}
    for d, _, files in os.walk(PKG):
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(d, f), os.path.dirname(PKG))[:-3].replace(os.sep, ".")
                out[rel[:-len(".__init__")] if rel.endswith(".__init__") else rel] = os.path.join(d, f)
    return out


def imports(name, path, known):
    """The package's modules this module imports (anywhere in it, also inside functions)."""
    out = set()
    pkg = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    for n in ast.walk(ast.parse(open(path).read())):
        if isinstance(n, ast.Import):
            out |= {a.name for a in n.names if a.name in known}
        elif isinstance(n, ast.ImportFrom):
            base = n.module or ""
            if n.level:
                parts = pkg.split(".")
                base = ".".join(parts[:len(parts) - n.level + 1] + ([n.module] if n.module else []))
            for a in n.names:
                full = f"{base}.{a.name}"
                out.add(full if full in known else base)
    return {m for m in out if m in known and m != name}


def graph():
    known = modules()
    return {m: imports(m, p, known) for m, p in known.items()}


def cycle(g):
    """One import cycle as a list of modules, or None."""
    state, stack = {}, []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(g[m]):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(g):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def package(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ALLOWED) else None


def levels(g):
    """The longest chain of imports (1 for a module that imports none of the package)."""
    memo = {}

    def depth(m):
        if m not in memo:
            memo[m] = 1 + max((depth(n) for n in g[m] if not n.endswith("__init__")), default=0)
        return memo[m]
    return max(depth(m) for m in g)


class LayoutTest(unittest.TestCase):

    def test_no_import_cycle(self):
        self.assertIsNone(cycle(graph()))

    def test_no_module_over_300_lines(self):
        long = {m: n for m, p in modules().items() if (n := len(open(p).read().splitlines())) > MAX_LINES}
        self.assertEqual(long, {})

    def test_every_module_is_in_a_package_of_the_layout(self):
        loose = [m for m in modules() if m != "slingvt_bench" and package(m) not in ALLOWED]
        self.assertEqual(loose, [])

    def test_each_package_imports_only_the_packages_below_it(self):
        wrong = [f"{m} imports {n}" for m, deps in graph().items() for n in sorted(deps)
                 if package(m) and package(n) and package(n) != package(m) and package(n) not in ALLOWED[package(m)]]
        self.assertEqual(wrong, [])

    def test_the_test_sees_imports_in_every_form(self):
        g = graph()
        self.assertIn("slingvt_bench.core.rows", g["slingvt_bench.verdicts.ratios"])
        self.assertIn("slingvt_bench.verdicts.host_state", g["slingvt_bench.verdicts.ratios"])


if __name__ == "__main__":
    print("import levels:", levels(graph()))
