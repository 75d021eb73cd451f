"""Many games at once: the runner and its summaries."""
