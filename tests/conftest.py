"""Settings every test shares.

Admission control (server/admission.py) refuses new tables and watchers while the event
loop lags with work: right on a server, but a test machine running two test workers,
browsers and servers at a load of 15 trips it in tests about something else (an
in-process server shares the GIL with a test thread making hypothesis examples: a clean CI
once saw a 503 "the server is full" in tests/test_i18n_errors.py). Tests run with a lag
threshold of a minute, which no test about something else reaches; the admission tests
(tests/server/test_health.py) set their own.
"""

from __future__ import annotations

import os

os.environ.setdefault("GAMENIGHT_MAX_LAG_MS", "60000")
# one test address makes many tables with thinking bots over a module's server; the cap
# itself is tested with its own rates (test_security_budget.py)
os.environ.setdefault("GAMENIGHT_THINKING_TABLES_PER_ADDRESS", "10000")
os.environ.setdefault("GAMENIGHT_THINKING_TABLES_PER_PERSON", "10000")
