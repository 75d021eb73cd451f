"""Issue 46: a refused display name is said in the request's language (names.BadName was
passed through in English)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import new_table


@pytest.mark.parametrize(
    ("name", "lang", "said"),
    [
        ("...", "de", "ein Name braucht mindestens einen Buchstaben oder eine Ziffer"),
        ("Ann\u202e", "ru", "в имени не может быть управляющих символов"),
        (7, "nl", "'name' moet tekst zijn"),
        ("...", "en", "a name needs at least one letter or digit"),
    ],
)
def test_a_refused_name_is_said_in_the_requests_language(
    client: TestClient, name: object, lang: str, said: str
) -> None:
    table = new_table(client, seats=["open", "open"])
    answer = client.post(
        f"/api/tables/{table['id']}/join",
        json={"seat": 0, "name": name},
        headers={"Accept-Language": lang},
    )
    assert answer.status_code == 400
    assert answer.json()["error"].startswith(said), answer.json()
