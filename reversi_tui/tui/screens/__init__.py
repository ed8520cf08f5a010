"""Modal screens: confirmation, new game, game over, help."""
