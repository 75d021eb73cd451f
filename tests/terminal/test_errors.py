"""Issue 15 item 2: every way in which a command could fail ends in one line on stderr and
a non-zero exit code, found before any work is done; never a traceback."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from rich.prompt import Prompt

from tests.terminal.helpers import assert_one_line_error, gamenight

GAMENIGHT = [sys.executable, "-c", "from gamenight.cli import main; main()"]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("saved") / "game.json"
    run = gamenight(
        "play", "drop-or-stop", "--seats", "bot,bot", "--seed", "3", "--save", str(path)
    )
    assert run.code == 0, run
    return path


CASES = {
    "simulate onto a missing folder": (
        "simulate",
        "drop-or-stop",
        "--games",
        "5",
        "--workers",
        "1",
        "--out",
        "/nonexistent/dir/r.json",
    ),
    "tournament plot onto a missing folder": (
        "tournament",
        "drop-or-stop",
        "--bots",
        "random,threshold",
        "--games",
        "2",
        "--workers",
        "1",
        "--plot",
        "/nonexistent/x.png",
    ),
    "simulate with no players": ("simulate", "drop-or-stop", "--players", "0", "--workers", "1"),
    "tournament with no players": (
        "tournament",
        "drop-or-stop",
        "--bots",
        "random,threshold",
        "--players",
        "0",
    ),
    "simulate with an unknown bot": ("simulate", "drop-or-stop", "--bots", "nosuch"),
    "seats that are only commas": ("play", "drop-or-stop", "--seats", ",,,"),
    "bots of an unknown game": ("bots", "chess"),
    "a tournament of one bot": ("tournament", "drop-or-stop", "--bots", "random"),
    "options of markup": ("options", "[/x]"),
    "a seat of markup": ("play", "drop-or-stop", "--seats", "you,[/b]"),
    "a replay named in markup": ("replay", "[/x].json"),
    "a port out of range": ("serve", "--port", "99999"),
    "a database that does not exist": ("serve", "--port", "1", "--db", "nonsense://x"),
    "a seed that is not a number": ("play", "drop-or-stop", "--seed", "x"),
    "an unknown option": ("play", "drop-or-stop", "--nope"),
}


@pytest.mark.parametrize("argv", CASES.values(), ids=CASES.keys())
def test_bad_arguments_are_one_line_and_non_zero(argv: tuple[str, ...]) -> None:
    assert_one_line_error(gamenight(*argv))


def test_bad_arguments_name_what_is_wrong() -> None:
    assert "no bot 'nosuch'" in gamenight("simulate", "drop-or-stop", "--bots", "nosuch").err
    assert "one entry per seat" in gamenight("play", "drop-or-stop", "--seats", ",,,").err
    assert "no game 'chess'" in gamenight("bots", "chess").err
    assert (
        "two or more different bots"
        in gamenight("tournament", "drop-or-stop", "--bots", "random").err
    )
    assert "'players' = 0" in gamenight("simulate", "drop-or-stop", "--players", "0").err


def test_report_onto_an_existing_file_is_refused_before_playing(tmp_path: Path) -> None:
    taken = tmp_path / "report"
    taken.write_text("mine")
    run = gamenight("report", "drop-or-stop", "--games", "5", "--workers", "1", "--out", str(taken))
    assert_one_line_error(run)
    assert taken.read_text() == "mine"


def test_replay_of_a_binary_file(tmp_path: Path) -> None:
    binary = tmp_path / "x.json"
    binary.write_bytes(bytes(range(256)) * 4)
    assert_one_line_error(gamenight("replay", str(binary)))


@pytest.mark.parametrize("seat", ["7", "-1", "0", "3"])
def test_replay_as_a_player_who_is_not_there(saved: Path, seat: str) -> None:
    """Players count from 1 (as on screen): a two-player game has players 1 and 2."""
    run = gamenight("replay", str(saved), "--seat", seat)
    assert_one_line_error(run)
    assert "1 to 2" in run.err
    assert run.out == ""  # refused before printing the game


def test_replay_of_a_history_that_does_not_fit(tmp_path: Path, saved: Path) -> None:
    doc = json.loads(saved.read_text())
    doc["history"][0]["seat"] = 5
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(doc))
    assert_one_line_error(gamenight("replay", str(broken)))


@pytest.mark.xdist_group("ray")  # not beside a test's local Ray, which `auto` would join
def test_ray_without_a_cluster() -> None:
    pytest.importorskip("ray")
    run = gamenight(
        "simulate", "drop-or-stop", "--games", "2", "--backend", "ray", "--address", "auto"
    )
    assert_one_line_error(run)
    assert "Ray cluster at auto" in run.err


def test_serve_on_a_taken_port_says_so_before_serving() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = gamenight("serve", "--port", str(port))
    assert_one_line_error(run)
    assert f"127.0.0.1:{port}" in run.err and "serving" not in run.out


def test_serve_with_an_unreachable_postgresql() -> None:
    pytest.importorskip("psycopg")
    run = gamenight("serve", "--port", "1", "--db", "postgresql://nobody@127.0.0.1:1/x")
    assert_one_line_error(run)
    assert "cannot use the database" in run.err


def test_ctrl_c_during_a_game_exits_130_and_saves(tmp_path: Path, monkeypatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(Prompt, "ask", interrupted)
    save = tmp_path / "g.json"
    run = gamenight(
        "play", "drop-or-stop", "--seats", "you,bot", "--seed", "1", "--save", str(save)
    )
    assert_one_line_error(run)
    assert run.code == 130 and "game left unfinished" in run.err
    assert json.loads(save.read_text())["seed"] == 1


def test_input_ending_mid_game_exits_non_zero() -> None:
    run = gamenight("play", "drop-or-stop", "--seats", "you,bot", "--seed", "1", keys="d\n")
    assert_one_line_error(run)
    assert run.code == 1


def _environment(**extra: str) -> dict[str, str]:
    src = str(Path(__file__).resolve().parents[2] / "src")
    return {**os.environ, "PYTHONPATH": src, **extra}


def test_an_ascii_only_terminal_gets_question_marks_not_a_crash(tmp_path: Path) -> None:
    run = subprocess.run(
        [*GAMENIGHT, "play", "drop-it", "--seats", "you,bot:random", "--seed", "2"],
        input="",
        capture_output=True,
        text=True,
        encoding="ascii",
        errors="replace",
        env=_environment(PYTHONIOENCODING="ascii", LC_ALL="C", LANG="C"),
        cwd=tmp_path,
        timeout=120,
    )
    assert run.returncode == 1, run.stderr
    assert [line for line in run.stderr.splitlines() if line] == ["error: game left unfinished"]
    assert "?" in run.stdout and "Drop It" in run.stdout


def _start_a_table_of_thinking_bots(port: int) -> None:
    base = f"http://127.0.0.1:{port}/api/tables"
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())  # the owner
    body = {"game": "drop-or-stop", "seats": ["hard", "hard"], "options": {"players": 2}}
    made = urllib.request.Request(
        base, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with browser.open(made, timeout=10) as answer:
        table = json.loads(answer.read())["id"]
    with browser.open(urllib.request.Request(f"{base}/{table}/start", method="POST")):
        pass


def test_ctrl_c_on_serve_stops_it_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [*GAMENIGHT, "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(GAMENIGHT_DATA=str(tmp_path)),
        start_new_session=True,  # Ctrl+C reaches the whole process group, workers too
    )
    try:
        assert server.stdout is not None
        assert "serving at" in server.stdout.readline()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # wait until it answers (its workers are up)
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        _start_a_table_of_thinking_bots(port)  # so worker processes are up to get Ctrl+C
        time.sleep(2)
        os.killpg(server.pid, signal.SIGINT)
        _, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
    assert server.returncode == 130
    assert [line for line in err.splitlines() if line.strip()] == [
        "error: server stopped by a signal; tables are saved"
    ], err
