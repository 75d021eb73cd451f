"""One master seed, one result: whatever the backend and the number of workers."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamenight.cli import app
from gamenight.engine import BadInput
from gamenight.sim.runner import Job, Summary, Tally, run, run_many, stream, summarize
from gamenight.sim.tournament import play_tournament

ARNE = Job("arne", (("players", 3),), ("bot:random",) * 3, 11)
DOS_DEFAULT = Job("drop-or-stop", (), ("bot:threshold",) * 3, 0)
DOS = Job("drop-or-stop", (("players", 3),), ("bot:threshold", "bot:random", "bot"), 5)


def test_processes_give_the_same_results_for_one_and_two_workers():
    for job in (ARNE, DOS):
        one = run(job, 60, workers=1)
        two = run(job, 60, workers=2)
        assert one == two
        assert [r.index for r in two] == list(range(60))


DROP_IT = Job("drop-it", (("players", 2),), ("bot:random",) * 2, 3)


def test_summed_in_the_workers_is_the_summary_of_every_result():
    """`summarize` (each chunk tallied where it is played) gives exactly the summary of all
    games' results, for 1 and 2 workers; the batched path (DOS_DEFAULT) included."""
    for job, games in ((ARNE, 40), (DOS, 90), (DOS_DEFAULT, 3000), (DROP_IT, 4)):
        reference = Summary.of(run(job, games), len(job.seats))
        assert reference.games == games
        for workers in (1, 2):
            assert summarize(job, games, workers=workers) == reference, (job.game, workers)


def test_tallies_merge_to_the_same_summary_in_any_grouping():
    results = run(DOS, 120)
    whole = Summary.of(results, 3)
    for cut in (1, 7, 60, 119):
        first, second = Tally.empty(3), Tally.empty(3)
        for r in results[:cut]:
            first.add(r)
        for r in results[cut:]:
            second.add(r)
        first.merge(second)
        assert first.summary() == whole
        assert list(first.summary().stats) == list(whole.stats)  # first-seen order kept


def test_simulate_prints_the_same_for_one_and_two_workers(tmp_path: Path):
    """A seeded run's whole output, with and without --out (streamed / summed in workers)."""
    cli = CliRunner()
    printed = []
    for game, games in (("drop-or-stop", "600"), ("arne", "60")):
        for workers in ("1", "2"):
            args = ["simulate", game, "--games", games, "--seed", "4", "--workers", workers]
            plain = cli.invoke(app, args)
            out = tmp_path / f"{game}-{workers}.json"
            written = cli.invoke(app, [*args, "--out", str(out)])
            assert plain.exit_code == 0 and written.exit_code == 0, plain.output + written.output
            table = plain.output[plain.output.index(f"{game}: {games} games") :]
            assert table in written.output
            printed.append(table)
    assert printed[0] == printed[1] and printed[2] == printed[3]


def test_a_running_pool_is_used_and_left_running():
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        first = run(ARNE, 30, workers=2, pool=pool)
        again = list(stream(ARNE, 30, workers=2, pool=pool))  # still usable
    assert first == again == run(ARNE, 30)


def test_simulate_writes_every_streamed_result(tmp_path: Path):
    out = tmp_path / "results.json"
    args = ["simulate", "drop-or-stop", "--games", "250", "--workers", "2", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text())["results"]
    assert [r["index"] for r in written] == list(range(250))
    assert written == json.loads(json.dumps([r.__dict__ for r in run(DOS_DEFAULT, 250)]))


def test_progress_comes_every_few_games_and_adds_up():
    """Slow games (ISMCTS takes seconds) must still move the progress bar."""
    steps: list[int] = []
    results = run(DOS, 400, workers=2, on_progress=steps.append)
    assert sum(steps) == len(results) == 400
    assert max(steps) <= 4 and len(steps) >= 100


def test_unknown_backend_is_refused():
    with pytest.raises(BadInput, match="processes, ray"):
        run(DOS, 3, backend="threads")
    result = CliRunner().invoke(
        app, ["simulate", "drop-or-stop", "--games", "3", "--address", "auto"]
    )
    assert result.exit_code == 2 and "--backend ray" in result.output


@pytest.mark.xdist_group("ray")  # one local Ray at a time (`--address auto` joins any)
def test_ray_gives_the_same_results_as_processes(monkeypatch):
    """One Ray runtime for all Ray checks (starting one takes seconds)."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        reference = run_many([(ARNE, 40), (DOS, 40)], workers=1)
        for workers in (1, 2):
            got = run_many([(ARNE, 40), (DOS, 40)], workers=workers, backend="ray")
            assert got == reference
        options = {"players": 2}
        tour_p = play_tournament("drop-or-stop", options, ["random", "threshold"], 2, 10, 3)
        tour_r = play_tournament(
            "drop-or-stop", options, ["random", "threshold"], 2, 10, 3, workers=2, backend="ray"
        )
        assert tour_p.matches == tour_r.matches
        # The command line reuses the running runtime.
        cli = CliRunner()
        args = ["simulate", "drop-or-stop", "--games", "30", "--seed", "2", "--workers", "2"]
        by_ray = cli.invoke(app, [*args, "--backend", "ray"])
        by_processes = cli.invoke(app, [*args, "--backend", "processes"])
        assert by_ray.exit_code == 0, by_ray.output
        table = by_processes.output[by_processes.output.index("drop-or-stop: 30 games") :]
        assert table in by_ray.output

        # A runtime that dies under the run (seen in CI: a raylet gone) is one line saying
        # so, not an unexpected error.
        def raylet_died(*args: object, **kwargs: object) -> None:
            raise ray.exceptions.LocalRayletDiedError()

        monkeypatch.setattr(ray, "wait", raylet_died)
        broken = cli.invoke(app, [*args, "--backend", "ray"])
        assert broken.exit_code != 0
        said = "Ray failed mid-run (LocalRayletDiedError): The task's local raylet died"
        assert said in broken.output and "unexpected" not in broken.output, broken.output
    finally:
        ray.shutdown()


def test_simulate_refuses_an_unwritable_out_in_one_line(tmp_path: Path):
    out = tmp_path / "missing" / "results.json"
    args = ["simulate", "drop-or-stop", "--games", "5", "--workers", "1", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and result.exception is not None
    assert "cannot write" in result.output and "Traceback" not in result.output
