"""Optional accounts, sessions, profiles and openskill ratings.

Guests play without an account, as before. A person who signs up gets a session in an
HttpOnly, SameSite=Lax cookie; a seat taken while signed in is linked to the account, so
finished games count on the profile and, when rated, on the leaderboard.

  schema.py    the tables
  sessions.py  sign-up, log-in, log-out, a new password, deletion; whose a session is
  links.py     seats linked to accounts (link_seat, account_seat, account_tables, ...)
  ratings.py   rating finished tables with openskill; bots as fixed anchors
  profiles.py  profiles, leaderboards, an account's own data
  opt_out.py   keeping an account's games out of the open archive (server/archive.py)
  store.py     `Accounts`, made of the parts above
  routes.py    the HTTP routes and pages (imported by app.py, not here: it reads bodies
               through routes/models.py, which imports this package)

CSRF: every state-changing request here must be `application/json` (a cross-site HTML form
cannot send that without a CORS preflight, which this server never grants) and come from
this server's own pages (`guard.cross_origin`, applied by `Guard` to every POST/DELETE).
Passwords (`passwords.py`), the limits on guessing them (`login_limits.py`) and names
that read alike (`names.py`) have modules of their own one level up.
"""

from gamenight.server.accounts.links import (
    Links,
    account_seat,
    account_seats,
    account_tables,
    link_seat,
    refresh_account_seats,
    unlink_seat,
)
from gamenight.server.accounts.profiles import EXPORT_GAMES, PROVISIONAL_GAMES, Profiles
from gamenight.server.accounts.ratings import (
    BOT_ANCHORS,
    BOT_SIGMA,
    SETTLE_SECONDS,
    Ratings,
    bot_anchor,
    bot_level,
    rated,
)
from gamenight.server.accounts.schema import rated_tables, seat_accounts
from gamenight.server.accounts.sessions import (
    NAME,
    NAME_RULE,
    PASSWORD_LENGTH,
    SESSION_COOKIE,
    SESSION_DAYS,
    Sessions,
    account_of,
    address_of,
    check_name,
    check_password,
    session_of,
    tidy_name,
)
from gamenight.server.accounts.store import Accounts

__all__ = [
    "BOT_ANCHORS",
    "BOT_SIGMA",
    "EXPORT_GAMES",
    "NAME",
    "NAME_RULE",
    "PASSWORD_LENGTH",
    "PROVISIONAL_GAMES",
    "SESSION_COOKIE",
    "SESSION_DAYS",
    "SETTLE_SECONDS",
    "Accounts",
    "Links",
    "Profiles",
    "Ratings",
    "Sessions",
    "account_of",
    "account_seat",
    "account_seats",
    "account_tables",
    "address_of",
    "bot_anchor",
    "bot_level",
    "check_name",
    "check_password",
    "link_seat",
    "rated",
    "rated_tables",
    "refresh_account_seats",
    "seat_accounts",
    "session_of",
    "tidy_name",
    "unlink_seat",
]
