"""Rules every page keeps (issue 13): no markup built from data, nothing inline that the CSP
(script-src 'self') would block, and a table page under 150 KB without a build step."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "gamenight" / "web"
IMPORT = re.compile(r"""(?:import\s[^"']*?from\s*|import\s*\(?\s*)["'](/static/[^"']+)["']""")


def test_no_script_parses_markup() -> None:
    for path in WEB.rglob("*.js"):
        text = path.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "DOMParser"):
            assert sink not in text, f"{path.name} uses {sink}"


def test_no_inline_scripts_or_handlers() -> None:
    for path in WEB.glob("*.html"):
        text = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path.name
        assert not re.search(r"\son[a-z]+\s*=", text), path.name
        assert "javascript:" not in text, path.name


def page_files(game_module: str) -> set[Path]:
    """table.html, the stylesheet and every script the page imports, followed statically."""
    todo = [WEB / "table.js", WEB / "games" / game_module]
    seen: set[Path] = {WEB / "table.html", WEB / "app.css", WEB / "favicon.svg"}
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for ref in IMPORT.findall(path.read_text()):
            if "${" not in ref:
                todo.append(WEB / ref.removeprefix("/static/"))
    return seen


TABLE_MODULES = sorted(
    p.name for p in (WEB / "games").glob("*.js") if not p.stem.endswith(("-lobby", "-cards"))
)


@pytest.mark.parametrize("module", TABLE_MODULES)
def test_a_table_page_weighs_under_150_kb(module: str) -> None:
    files = page_files(module)
    total = sum(p.stat().st_size for p in files)
    assert total < 150 * 1024, f"{module}: {total} bytes in {sorted(p.name for p in files)}"


def test_the_lobby_asks_for_everything_its_first_paint_needs_at_once() -> None:
    """Lobby first paint (issue 13): the catalogue needs lobby.js, common.js and /api/games;
    fetched one after the other they were four round trips deep, now the page asks for all."""
    html = (WEB / "index.html").read_text()
    preloaded = set(re.findall(r'<link rel="(?:modulepreload|preload)" href="([^"]+)"', html))
    needed = {"/static/lobby.js", "/api/games"}
    needed |= {ref for ref in IMPORT.findall((WEB / "lobby.js").read_text()) if "${" not in ref}
    assert needed <= preloaded, needed - preloaded
    assert re.search(r'href="/api/games" as="fetch" crossorigin="anonymous"', html)
