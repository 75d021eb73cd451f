"""Table chat in the browser (issue 14, item 4): two people and a spectator, hostile text
shown as text, the 300-character limit and the owner's mute."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.server.helpers import SHOTS, Server, wait_js
from tests.web.conftest import create_table, open_page, start_table

HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'


def test_chat_is_text_limited_and_the_owner_mutes(server: Server, browser: Browser) -> None:
    ann, bob, watcher = open_page(browser), open_page(browser), open_page(browser)
    tid = create_table(
        ann,
        server,
        {
            "game": "drop-or-stop",
            "options": {"players": 2},
            "seats": ["open", "open"],
            "settings": {"bot_delay": 0},
            "sit": 0,
            "name": "Ann",
        },
        start=False,
    )
    bob.goto(f"{server.url}/tables/{tid}")
    bob.fill("#join-name", "Bob")
    bob.click("[data-join='1']")
    ann.wait_for_selector("#start:not([disabled])")
    start_table(ann)
    watcher.goto(f"{server.url}/tables/{tid}")
    for page in (ann, bob, watcher):
        wait_js(page, "document.body.dataset.status === 'running'")
        page.wait_for_selector("#chat-phrases button")
    # A spectator reads but cannot write.
    assert watcher.locator("#chat-input").is_disabled()

    ann.fill("#chat-input", HOSTILE)
    ann.press("#chat-input", "Enter")
    bob.locator("#chat-phrases button", has_text="good game").click()
    for page in (ann, bob, watcher):
        page.wait_for_selector("#chat-lines .chat-line:nth-child(2)")
        texts = page.locator("#chat-lines .chat-text").all_inner_texts()
        assert texts == [HOSTILE, "good game"]  # the markup shows as the letters typed
        assert page.locator("#chat-lines img, #chat-lines script").count() == 0
        assert page.evaluate("window.__pwned") is None

    # The box takes at most 300 characters (and the server refuses more: test_chat.py).
    bob.fill("#chat-input", "y" * 350)
    assert len(bob.input_value("#chat-input")) == 300
    bob.press("#chat-input", "Enter")
    ann.wait_for_selector("#chat-lines .chat-line:nth-child(3)")
    assert len(ann.locator("#chat-lines .chat-text").nth(2).inner_text()) == 300

    # The owner mutes Bob from one of his lines: his box closes, everyone sees it.
    assert bob.locator(".chat-mute").count() == 0  # only the owner has mute buttons
    ann.locator(".chat-line[data-seat='1'] .chat-mute").first.click()
    wait_js(bob, "document.querySelector('#chat-input').disabled")
    assert "muted" in bob.get_attribute("#chat-input", "placeholder")
    watcher.wait_for_selector("#chat-muted >> text=Bob is muted")
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(SHOTS / "table-chat.png"), full_page=True)
    ann.click(".chat-unmute")
    wait_js(bob, "!document.querySelector('#chat-input').disabled")
    for page in (ann, bob, watcher):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
