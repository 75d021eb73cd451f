"""Issue 15 item 2: every way in which a command could fail ends in one line on stderr and
a non-zero exit code, found before any work is done; never a traceback."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from rich.prompt import Prompt

from tests.terminal.helpers import (
    GAMENIGHT,
    assert_one_line_error,
    assert_one_line_interrupted,
    environment,
    gamenight,
)


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
def test_ray_without_a_cluster(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from ray._private import services

    # `auto` joins any Ray on this machine: the last one started (RAY_TMPDIR's
    # ray/ray_current_cluster), else any GCS process `ps` shows. Another checkout's tests or
    # a researcher's session made this test pass a run to a stranger's cluster (CI, stop 50).
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    nobody = lambda: []  # noqa: E731
    nobody.cache_clear = lambda: None  # type: ignore[attr-defined]
    monkeypatch.setattr(services, "find_gcs_addresses", nobody)
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
    assert_one_line_interrupted(run)  # a person stopped it: not an error
    assert "game left unfinished" in run.err and str(save) in run.err
    assert json.loads(save.read_text())["seed"] == 1


def test_input_ending_mid_game_exits_non_zero() -> None:
    run = gamenight("play", "drop-or-stop", "--seats", "you,bot", "--seed", "1", keys="d\n")
    assert_one_line_error(run)
    assert run.code == 1


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
        env=environment(GAMENIGHT_DATA=str(tmp_path)),
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
    assert server.returncode == 130  # stopped on purpose: said as such, not as an error
    assert [line for line in err.splitlines() if line.strip()] == [
        "interrupted by a signal: the server stopped; its tables are saved"
    ], err


# --- issue 45: each path that ended in a crash file, or never ended ---------------------


def test_play_refuses_bot_parameters_as_simulate_does() -> None:
    """`play` made its bots without the check `simulate` makes: ismcts?iterations=-1 was
    an "unexpected ValueError" with a crash file."""
    seats = "you,bot:ismcts?iterations=-1"
    play = gamenight("play", "drop-or-stop", "--seats", seats, "--seed", "1")
    assert_one_line_error(play)
    simulate = gamenight("simulate", "drop-or-stop", "--bots", "ismcts?iterations=-1")
    assert_one_line_error(simulate)
    assert "iterations >= 1" in play.err and play.err == simulate.err
    assert play.out == ""  # refused before the game began


@pytest.mark.parametrize(
    "argv",
    [
        ("play", "drop-or-stop", "--seats", "bot,bot", "--set", "deck={file}"),
        ("simulate", "drop-or-stop", "--games", "2", "--workers", "1", "--set", "deck={file}"),
        ("play", "drop-it", "--seats", "bot,bot", "--set", "board={file}"),
    ],
    ids=["play with a binary deck", "simulate with a binary deck", "a binary board"],
)
def test_a_binary_file_for_an_option(tmp_path: Path, argv: tuple[str, ...]) -> None:
    binary = tmp_path / "deck.json"
    binary.write_bytes(bytes(range(256)))
    run = gamenight(*(word.format(file=binary) for word in argv))
    assert_one_line_error(run)
    assert str(binary) in run.err and "is not JSON" in run.err


@pytest.mark.parametrize("plot", ["ratings.txt", "ratings"])
def test_a_plot_in_no_picture_format_is_refused_before_playing(tmp_path: Path, plot: str) -> None:
    """--plot x.txt failed after every game was played ("Format 'txt' is not supported")."""
    run = gamenight(
        "tournament", "drop-or-stop", "--bots", "random,threshold", "--games", "400",
        "--workers", "1", "--plot", str(tmp_path / plot),
    )  # fmt: skip
    assert_one_line_error(run)
    assert ".png" in run.err and "--plot" in run.err
    assert run.out == ""  # no game was played, no table shown
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "address", ["foo:bar:baz", "::", "http://x", "a b", "1.2.3.4:99999", "host:0", "host"]
)
def test_a_malformed_ray_address(address: str) -> None:
    run = gamenight(
        "simulate", "drop-or-stop", "--games", "2", "--workers", "1", "--backend", "ray",
        "--address", address,
    )  # fmt: skip
    assert_one_line_error(run)
    assert "--address must be" in run.err and repr(address) in run.err
    assert run.out == ""


@pytest.mark.xdist_group("ray")
def test_a_ray_address_where_nobody_answers_gives_up_in_one_line() -> None:
    """Ray waited for a head at 127.0.0.1:1 for ever, printing warnings over the bar."""
    pytest.importorskip("ray")
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"127.0.0.1:{port}"
    argv = ["simulate", "drop-or-stop", "--games", "2", "--workers", "1", "--backend", "ray"]
    run = subprocess.run(
        [*GAMENIGHT, *argv, "--address", address],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=120,  # the old code never returned
    )
    err = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode == 1 and len(err) == 1, run.stderr
    assert err[0].startswith(f"error: cannot reach the Ray cluster at {address}"), err
    assert "Traceback" not in run.stdout + run.stderr


@pytest.mark.xdist_group("ray")
def test_a_ray_address_where_something_else_answers_gives_up_in_one_line() -> None:
    """A port that answers but is no Ray head: Ray waits 5 s for a connection, 5 more for
    its pubsub and 30 for the cluster's id, then gives up. The test shortens Ray's own
    waits (its RAY_ settings) to 1 s and 2 s: the same way, in 6 s instead of 40."""
    pytest.importorskip("ray")
    with socket.socket() as other:  # listens (connections are taken), never speaks Ray
        other.bind(("127.0.0.1", 0))
        other.listen(8)
        address = f"127.0.0.1:{other.getsockname()[1]}"
        argv = ["simulate", "drop-or-stop", "--games", "2", "--workers", "1", "--backend", "ray"]
        run = subprocess.run(
            [*GAMENIGHT, *argv, "--address", address],
            capture_output=True,
            text=True,
            env=environment(
                RAY_gcs_rpc_server_connect_timeout_s="1", RAY_py_gcs_connect_timeout_s="2"
            ),
            timeout=240,
        )
    err = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode == 1 and len(err) == 1, run.stderr
    assert err[0].startswith(f"error: could not run the games on the Ray cluster at {address}")
    assert "Traceback" not in run.stdout + run.stderr


@pytest.mark.xdist_group("ray")  # not beside a test's local Ray, which it would not share
def test_rays_own_messages_never_print_over_the_progress_bar(tmp_path: Path) -> None:
    """A terminal (pexpect, 80x24) sees the bar and the results; what Ray writes to stderr
    meanwhile (its C++ core writes to the file descriptor itself) goes to a log file,
    which one note names afterwards."""
    pytest.importorskip("ray")
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        GAMENIGHT[0],
        [*GAMENIGHT[1:], "simulate", "drop-or-stop", "--games", "40", "--workers", "1",
         "--backend", "ray"],
        cwd=str(tmp_path), env=environment(TERM="xterm-256color"),
        dimensions=(24, 80), encoding="utf-8", codec_errors="replace", timeout=240,
    )  # fmt: skip
    child.expect(pexpect.EOF)
    child.close()
    screen = child.before or ""
    assert child.exitstatus == 0, screen[-2000:]
    assert "win rate" in screen
    ray_lines = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[,.]\d+|\] \w+\.(cc|h|py):\d+")
    shown = [line for line in screen.splitlines() if ray_lines.search(line)]
    assert shown == [], shown
    logs = re.findall(r"see (\S+gamenight-ray-\S+\.log)", screen)
    for log in logs:  # Ray said something: kept in the log, named once
        assert Path(log).read_text().strip()
        Path(log).unlink()
    assert len(logs) <= 1


def test_workers_are_capped_at_the_games_and_the_cores(monkeypatch) -> None:
    """--workers 64 for 5 games started 64 processes on 2 cores (98 s)."""
    import multiprocessing

    spawn = type(multiprocessing.get_context("spawn"))
    started: list[int] = []
    pool = spawn.Pool

    def counted(self, processes=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        started.append(processes)
        return pool(self, min(processes, 2), *args, **kwargs)

    monkeypatch.setattr(spawn, "Pool", counted)
    run = gamenight(
        "simulate", "drop-or-stop", "--games", "3", "--workers", "64", "--no-batched"
    )  # fmt: skip
    assert run.code == 0, run.err
    assert all(n <= min(3, os.cpu_count() or 1) for n in started), started


def test_results_files_have_the_mode_of_a_new_file(tmp_path: Path) -> None:
    """Results were written 0600 (a temporary file's mode), not as the umask says."""
    old = os.umask(0o022)
    try:
        simulate = tmp_path / "sim.json"
        tournament = tmp_path / "tour.json"
        runs = [
            gamenight("simulate", "drop-or-stop", "--games", "3", "--workers", "1",
                      "--out", str(simulate)),
            gamenight("tournament", "drop-or-stop", "--bots", "random,threshold", "--games",
                      "2", "--workers", "1", "--out", str(tournament)),
        ]  # fmt: skip
    finally:
        os.umask(old)
    assert all(run.code == 0 for run in runs), runs
    for path in (simulate, tournament):
        assert path.stat().st_mode & 0o777 == 0o644, oct(path.stat().st_mode)


def test_serve_refuses_a_sqlite_file_in_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    """serve --db sqlite:////nonexistent/dir/x.db made every folder on the way (and served)."""
    missing = tmp_path / "nonexistent" / "dir"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = ["serve", "--port", str(port), "--db", f"sqlite:///{missing}/x.db"]
    server = subprocess.Popen(
        [*GAMENIGHT, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=environment(GAMENIGHT_DATA=str(tmp_path / "data")),
    )  # fmt: skip
    try:
        out, err = server.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # the old code served on
        server.kill()
        out, err = server.communicate()
    assert not (tmp_path / "nonexistent").exists()
    assert server.returncode == 2, err
    assert [line for line in err.splitlines() if line.strip()] == [
        f"error: cannot use the database sqlite:///{missing}/x.db: the folder {missing} "
        "does not exist"
    ]
    assert "serving" not in out
