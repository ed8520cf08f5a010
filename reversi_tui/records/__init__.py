"""Games kept: the data directory, autosaves, game files and the records database.

The formats (``pgn``, ``ggf``, ``formats``) are pure text in, text out; the
storage modules (``paths``, ``atomic``, ``autosave``, ``settings_file``,
``database``) are the only code besides the front ends that touches the disk.
Nothing here imports Textual.
"""
