"""The optional C accelerator of the endgame solver; everything else is in pyproject.toml.

``optional=True``: without a C compiler the install still succeeds and the game
uses the pure-Python solver (reversi_tui/engine/ai/endgame.py says which runs).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "_reversi_endgame",
            sources=["reversi_tui/engine/ai/native/endgame.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
