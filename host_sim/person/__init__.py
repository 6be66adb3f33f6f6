"""The seeded person at the virtual board: replays of recorded games, the stress games and the corpus runs."""
