"""Learned bots: training (`gamenight train`, needs the `[learn]` extra: sb3-contrib and
CPU torch) and numpy inference of shipped policies (bot `learned`, no torch needed)."""
