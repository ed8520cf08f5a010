"""Training the pattern evaluation: self-play data (``generate``) and least squares (``fit``).

Only ``reversi train`` imports this package; the app and the engine never do. The
data are this project's own self-play, labelled by its own search and exact solver;
fitting needs numpy (the ``train`` extra), nothing else here does.
"""
