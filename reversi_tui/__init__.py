"""Reversi (Othello rules) for the terminal."""

__version__ = "0.1.0"
