"""`Accounts`: the one object the server keeps for accounts, made of each concern's part
(sessions and seat links, ratings, profiles), all over the same database engine."""

from __future__ import annotations

from sqlalchemy import Engine

from gamenight.server.accounts.links import Links
from gamenight.server.accounts.profiles import Profiles
from gamenight.server.accounts.ratings import Ratings


class Accounts(Links, Ratings, Profiles):
    """Blocking storage calls (the routes run them in a thread), the password hashing pool
    and the ratings in flight."""

    def __init__(self, engine: Engine) -> None:
        Links.__init__(self, engine)
        Ratings.__init__(self, engine)
