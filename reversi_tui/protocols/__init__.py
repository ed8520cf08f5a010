"""The engine protocols, NBoard and GTP: our engine serving a front end, and pure helpers.

Nothing here imports Textual: a protocol session takes lines and produces lines.
"""
