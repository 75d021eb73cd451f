"""Every refusal sentence is filled with exactly the words its template names: in each game
package that has a refusals module, every `say("key", word=...)` call (in refusals.py, and
`<module>.say(...)` in the package's files that import it) against `REASONS["key"]`.
(A -200 laid into another colour's display raised KeyError 'colour' in CI instead of
saying why: its call passed `card=` to a template that names `{colour}`.)"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import string
from pathlib import Path

import pytest

from gamenight.engine.registry import games, spec


def refusal_modules() -> list[str]:
    return [
        f"{spec(name).package}.refusals"
        for name in games()
        if importlib.util.find_spec(f"{spec(name).package}.refusals") is not None
    ]


def say_calls(path: Path, own: bool) -> list[ast.Call]:
    """`say(...)` in the refusals module itself, `x.say(...)` where it is imported."""
    tree = ast.parse(path.read_text())
    if not own and "refusals" not in path.read_text():
        return []
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (own and isinstance(node.func, ast.Name) and node.func.id == "say")
            or (not own and isinstance(node.func, ast.Attribute) and node.func.attr == "say")
        )
    ]


@pytest.mark.parametrize("module_name", refusal_modules())
def test_every_say_call_fills_its_templates_words(module_name: str) -> None:
    module = importlib.import_module(module_name)
    reasons: dict[str, str] = module.REASONS
    here = Path(module.__file__)
    calls = [(here, c) for c in say_calls(here, own=True)]
    for path in sorted(here.parent.glob("*.py")):
        if path != here:
            calls += [(path, c) for c in say_calls(path, own=False)]
    assert calls, f"{module_name}: no say() call found"
    wrong = []
    for path, call in calls:
        first = call.args[0] if call.args else None
        if not isinstance(first, ast.Constant) or not isinstance(first.value, str):
            continue  # a key chosen at run time: the hypothesis tests play those
        where = f"{path.name}:{call.lineno} {first.value!r}"
        if first.value not in reasons:
            wrong.append(f"{where}: no such sentence")
            continue
        if any(k.arg is None for k in call.keywords):
            continue  # **words
        named = {f for _, f, _, _ in string.Formatter().parse(reasons[first.value]) if f}
        given = {k.arg for k in call.keywords}
        if named != given:
            wrong.append(f"{where} names {sorted(named)}, given {sorted(given)}")
    assert wrong == []
