"""The README's API example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs():
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S)
    assert block, "README has a python example"
    namespace: dict[str, object] = {}
    exec(compile(block.group(1), "README.md", "exec"), namespace)
    final = namespace["final"]
    assert final.over  # type: ignore[attr-defined]
    assert namespace["game"].players == 3  # type: ignore[attr-defined]
