"""What the server holds in memory before its first table: the web app imports none of the
libraries that only commands and research use. Each is megabytes in every server process
(pyarrow, through the admin's archive route, put 34 MB on the idle server: issue 44's
capacity bench, idle tree RSS 99 -> 135 MB)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.terminal.helpers import environment

NOT_AT_START = (
    "pyarrow", "matplotlib", "ray", "torch", "stable_baselines3", "sb3_contrib", "optuna",
    "pandas", "pyspiel", "scipy", "gymnasium", "pettingzoo",
)  # fmt: skip


def test_the_web_app_imports_no_library_of_commands_or_research() -> None:
    probe = "import json, sys; import gamenight.server.app; print(json.dumps(sorted(sys.modules)))"
    run = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    loaded = set(json.loads(run.stdout))
    assert [name for name in NOT_AT_START if name in loaded] == []
