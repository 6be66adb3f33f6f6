"""`make bench`: speed and memory figures (never asserted by tests)."""
