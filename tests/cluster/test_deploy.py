"""deploy/nginx.conf in front of two processes: the WebSocket upgrade works, any process
serves any request, and a killed owner's pages carry on through the proxy."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.cluster.helpers import Node, Redis, join, nodes
from tests.cluster.play import ARNE, SETTINGS, Person, check_log, play
from tests.server.helpers import ROOT, free_port

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def nginx_config(work: Path, port: int, upstreams: list[int]) -> Path:
    """deploy/nginx.conf's server block with our ports, in a config nginx runs as is."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    site = site.replace("127.0.0.1:8101", f"127.0.0.1:{upstreams[0]}")
    site = site.replace("127.0.0.1:8102", f"127.0.0.1:{upstreams[1]}")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    path = work / "nginx.conf"
    path.write_text(
        f"pid {work}/nginx.pid; error_log {work}/nginx-error.log; daemon off;\n"
        "events {}\n"
        f'http {{ log_format up "$upstream_addr"; access_log {work}/nginx-access.log up;\n'
        f"client_body_temp_path {work}; proxy_temp_path {work};\n{site}\n}}\n"
    )
    return path


@pytest.mark.skipif(not Path(NGINX).exists(), reason="no nginx (Debian package nginx)")
def test_two_processes_behind_nginx(pg_url: str, redis: Redis, work: Path) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        port = free_port()
        config = nginx_config(work, port, [a.port, b.port])
        check = subprocess.run([NGINX, "-t", "-c", str(config)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        proxy = subprocess.Popen([NGINX, "-c", str(config)])
        try:
            front = Node(pg_url, redis.url, work)
            front.port = port  # every request of the test goes through nginx
            for _ in range(50):
                if httpx.get(f"{front.url}/api/health").status_code == 200:
                    break
                time.sleep(0.1)
            body = {"game": "arne", "options": ARNE, "seats": ["open", "open", "easy"]}
            r = httpx.post(f"{front.url}/api/tables", json={**body, "settings": SETTINGS})
            tid, owner = r.json()["id"], r.cookies.get(f"gn_owner_{r.json()['id']}")
            tokens = [join(front, tid, 0, "Ann"), join(front, tid, 1, "Bob")]
            people = [Person(0, front, tid, tokens[0]), Person(1, front, tid, tokens[1])]
            r = httpx.post(
                f"{front.url}/api/tables/{tid}/start", cookies={f"gn_owner_{tid}": owner}
            )
            assert r.status_code == 200, r.text
            play(people, until=lambda: bool(people[1].last and people[1].last["version"] > 30))
            (a if "owns it now" in a.log.read_text() else b).kill()  # the owner
            for p in people:
                p.move_to(front)  # the pages reconnect, through nginx, to the other one
            target = people[1].last["version"] + 40  # type: ignore[index]

            def moved_on() -> bool:
                return all(p.over or (p.last and p.last["version"] >= target) for p in people)

            play(people, until=moved_on)
            for p in people:  # let both pages see the same last version
                p.hold = lambda msg: True
            time.sleep(1.0)
            for p in people:
                p.poll(0.5)
            check_log(pg_url, tid, people, finished=all(p.over for p in people))
            used = set((work / "nginx-access.log").read_text().split())
            assert {f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"} <= used  # round robin
        finally:
            proxy.terminate()
            proxy.wait(10)
