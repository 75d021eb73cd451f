"""Prometheus metrics (`/metrics`, text exposition) and the counters behind them.

Each app has a registry of its own (`for_hub`), not prometheus_client's global one, so
tests that run several apps in one process do not collide. Nothing is counted in the hot
path through prometheus_client: what the hub knows already (live tables, sockets, leases,
the worker pool, the budget's queues) is read when /metrics is scraped, the act latency
histogram is fed at scrape time from `Hub.timings` (the actions accepted since the last
scrape), and the cluster's events are plain integer counts kept beside the object that
saw them (`count`, one-line calls in cluster/hub.py and cluster/forward.py).
"""

from __future__ import annotations

import time
import weakref
from collections import Counter
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

# Events counted per object (a ClusterHub, its Forwarder): weak keys, so a closed app's
# counts go with it.
_COUNTS: weakref.WeakKeyDictionary[Any, Counter[str]] = weakref.WeakKeyDictionary()
# When a lease renewal last succeeded / failed (monotonic), per hub, for /api/ready.
_RENEWALS: weakref.WeakKeyDictionary[Any, dict[str, float]] = weakref.WeakKeyDictionary()

# Seconds from taking an action to having queued its broadcast: the p99 goal is 50 ms.
ACT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


def count(owner: Any, event: str, n: int = 1) -> None:
    """Count `n` of `event` (takeovers, forwards_failed, ...) seen by `owner`."""
    _COUNTS.setdefault(owner, Counter())[event] += n


def counted(owner: Any, event: str) -> int:
    counts = _COUNTS.get(owner)
    return counts[event] if counts is not None else 0


def forwarded(forwarder: Any, answered: bool) -> None:
    """A forwarded request ended; without an answer it failed (the owner or Redis gone)."""
    count(forwarder, "forwards" if answered else "forwards_failed")


def took(hub: Any, table: Any) -> None:
    """This process took a table's lease. A running table's is a takeover (its owner
    stopped renewing, or this is the restart of a process); a new table's is not."""
    if table.row.status == "running":
        count(hub, "takeovers")


def renewed(hub: Any, ok: bool) -> None:
    """A round of lease renewals succeeded or failed (the database did not answer)."""
    count(hub, "lease_renewals" if ok else "lease_renewals_failed")
    _RENEWALS.setdefault(hub, {})["ok" if ok else "failed"] = time.monotonic()


def renewals(hub: Any) -> dict[str, float]:
    """{"ok": when, "failed": when} of the last renewal rounds (monotonic), if any."""
    return dict(_RENEWALS.get(hub, {}))


class _HubCollector(Collector):
    """Reads the hub's own state at every scrape."""

    def __init__(self, hub: Any) -> None:
        self.hub = weakref.ref(hub)

    def collect(self) -> Iterator[Metric]:
        hub = self.hub()
        if hub is None:
            return
        live = list(hub.live.values())
        status = Counter(t.row.status for t in live)
        tables = GaugeMetricFamily(
            "gamenight_live_tables", "Tables loaded in this process", labels=["status"]
        )
        for name in ("open", "running", "finished", "abandoned"):
            tables.add_metric([name], status.get(name, 0))
        yield tables
        yield GaugeMetricFamily(
            "gamenight_open_sockets",
            "Table WebSockets open on this process",
            value=sum(len(t.conns) for t in live),
        )
        owned = getattr(hub, "owned", None)
        if owned is not None:  # a cluster process
            yield GaugeMetricFamily(
                "gamenight_leases_held", "Table leases this process holds", value=len(owned)
            )
        yield CounterMetricFamily(
            "gamenight_actions_accepted", "Actions accepted since the start", value=hub.accepted
        )
        pool = hub.pool
        yield CounterMetricFamily(
            "gamenight_worker_pool_restarts",
            "Worker pools replaced after a worker died",
            value=pool.restarts,
        )
        yield GaugeMetricFamily(
            "gamenight_worker_pool_broken", "1 while the worker pool is broken", value=pool.broken
        )
        budget = GaugeMetricFamily(
            "gamenight_budget", "The worker budget's counts (budget.py)", labels=["count"]
        )
        for name, value in pool.budget.snapshot().items():
            budget.add_metric([name], value)
        yield budget
        forwarder = getattr(hub, "forwarder", None)
        for owner, event, about in (
            (hub, "takeovers", "Running tables this process took over"),
            (hub, "lease_renewals", "Lease renewal rounds that succeeded"),
            (hub, "lease_renewals_failed", "Lease renewal rounds that failed"),
            (forwarder, "forwards", "Requests forwarded to a table's owner and answered"),
            (forwarder, "forwards_failed", "Forwarded requests that got no answer"),
        ):
            if owned is not None:  # (cluster counters only in a cluster)
                yield CounterMetricFamily(f"gamenight_{event}", about, value=counted(owner, event))


class Metrics:
    """One app's registry: the hub's gauges and counters and the act latency histogram."""

    def __init__(self, hub: Any) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(_HubCollector(hub))
        self.act = Histogram(
            "gamenight_act_seconds",
            "Server time per accepted action: taking it to having queued its broadcast",
            buckets=ACT_BUCKETS,
            registry=self.registry,
        )
        self.hub = weakref.ref(hub)
        self.seen = 0  # actions observed (the first scrape takes all Hub.timings holds)

    def scrape(self) -> bytes:
        hub = self.hub()
        if hub is not None:
            # The actions accepted since the last scrape are the newest of Hub.timings
            # (all of them unless more than its 10,000 came in between).
            fresh = min(hub.accepted - self.seen, len(hub.timings))
            for seconds in list(hub.timings)[len(hub.timings) - fresh :] if fresh > 0 else ():
                self.act.observe(seconds)
            self.seen = hub.accepted
        return generate_latest(self.registry)


_APPS: weakref.WeakKeyDictionary[Any, Metrics] = weakref.WeakKeyDictionary()


def for_hub(hub: Any) -> Metrics:
    """The metrics of the app this hub serves (made at the first scrape)."""
    found = _APPS.get(hub)
    if found is None:
        found = _APPS[hub] = Metrics(hub)
    return found
