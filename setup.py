"""The optional C accelerator of the endgame solver; everything else is in pyproject.toml.

``optional=True``: without a C compiler the install still succeeds and the game
uses the pure-Python solver (``reversi --version`` says which runs and why).
The module carries the SHA-256 of the source it was compiled from; the package
ships that source too, and reversi_tui/engine/ai/native_endgame.py ignores a
module whose hash differs from it (a stale build left by an editable install).
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCE = "reversi_tui/engine/ai/native/endgame.c"
SOURCE_SHA256 = hashlib.sha256((Path(__file__).parent / SOURCE).read_bytes()).hexdigest()

setup(
    ext_modules=[
        Extension(
            "reversi_tui.engine.ai._endgame",
            sources=[SOURCE],
            define_macros=[("SOURCE_SHA256", SOURCE_SHA256)],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
