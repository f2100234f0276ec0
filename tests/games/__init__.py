"""Each game's own tests, one folder per game of plaisante/games/ (the same id)."""
