"""Where simulation chunks run: local worker processes (in `runner`) or Ray.

The runner cuts a run into chunks of game indices; every game's seeds are derived from the
master seed and its index, so a chunk gives the same results wherever it runs and the
runner puts the chunks back in index order. The backend only decides where they run.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from gamenight.engine.core import BadInput, said
from gamenight.i18n import N_, _

BACKENDS = ("processes", "ray")


def check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise BadInput(
            said(
                N_("backend must be one of {backends}, got {backend}"),
                backends=", ".join(BACKENDS),
                backend=repr(backend),
            )
        )


# (a sentence of the platform's catalogue: said with the address where it is refused)
CLIENT_MISSING = N_(
    "--address {address} connects through the Ray Client, which is not installed: "
    "pip install 'ray[client]' (or run on a cluster node with --address auto)"
)


def check_address(address: str | None) -> None:
    """Refuse a ray:// address when the Ray Client is missing, before any game is played."""
    if not address or not address.startswith("ray://"):
        return
    try:
        from ray._private.utils import get_ray_client_dependency_error
    except ImportError:  # Ray missing, or a version without it: ray.init will say
        return
    if get_ray_client_dependency_error() is not None:
        raise BadInput(said(CLIENT_MISSING, address=address))


def _ray_died() -> tuple[type[BaseException], ...]:
    """Ray's errors for a runtime that failed under the run (a raylet, worker or node gone),
    as opposed to a game raising, which stays a bug with its traceback."""
    from ray import exceptions as e

    return (
        e.RaySystemError,
        e.LocalRayletDiedError,
        e.WorkerCrashedError,
        e.NodeDiedError,
        e.ObjectLostError,
    )


def ray_map(
    fn: Callable[[Any], Any],
    tasks: Sequence[Any],
    *,
    workers: int = 1,
    address: str | None = None,
) -> Iterator[tuple[int, Any]]:
    """Run `fn(task)` for every task on Ray; yield `(position, result)` as they finish.

    Without `address` a local Ray runtime with `workers` CPUs is started (and stopped at the
    end); with one (`auto`, `ray://host:10001`, `host:6379`) the existing cluster is joined.
    If Ray is already running in this process it is used as it is. At most `workers` tasks
    are in flight, so `workers` bounds the parallelism on a bigger runtime or cluster too.
    """
    import ray

    died = _ray_died()
    started = False
    if not ray.is_initialized():
        if address:
            try:
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
            except ValueError as error:  # a ray:// address without the Ray Client
                if "ray[client]" not in str(error):
                    raise
                raise BadInput(said(CLIENT_MISSING, address=address)) from error
        else:
            # Ray runs its workers at niceness 15 by default (the driver first); here the
            # workers are the whole job, so they run at normal priority like processes'.
            os.environ.setdefault("RAY_worker_niceness", "0")
            ray.init(
                num_cpus=max(1, workers),
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        started = True
    try:
        remote = ray.remote(num_cpus=1)(fn)
        pending: dict[Any, int] = {}
        queue = iter(enumerate(tasks))
        # exactly `workers` in flight: with twice as many queued (eighth session) the
        # 2-worker speed-up fell to 0.8-1.1x on this 2-core machine, not up
        limit = max(1, workers)

        def submit() -> None:
            for position, task in queue:
                pending[remote.remote(task)] = position
                if len(pending) >= limit:
                    return

        submit()
        while pending:
            try:
                done = ray.wait(list(pending), num_returns=1)[0]
                results = [(pending.pop(ref), ray.get(ref)) for ref in done]
            except died as error:  # the runtime, not a game, failed: say so in a line
                text = str(error).strip()
                first = text.splitlines()[0] if text else ""
                # (in the terminal's language here: the command puts it in its own line;
                # Ray's own first line stays as Ray wrote it)
                said_here = _("Ray failed mid-run ({error}): {first}")
                raise RuntimeError(
                    said_here.format(error=type(error).__name__, first=first)
                ) from error
            yield from results
            submit()
    finally:
        if started:
            ray.shutdown()
