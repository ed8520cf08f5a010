"""The command palette (Ctrl+P): the game's own actions beside Textual's Theme.

The game's entries run the same actions as the keys, so the palette follows the
same rules: Quit asks while a game is in progress, Undo steps back in review.
They are offered only when the palette is opened over a game itself, not over a
dialog, so a command never stacks a second dialog on the first; an online game
offers only those it has (Copy moves, Help). Textual's entries come from
``App.get_system_commands``, which the app trims to those that fit a game; this
one provider lists both, so the order is the same every time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from textual.command import DiscoveryHit, Hit, Hits, Provider

from reversi_tui.tui.keys import GAME_COMMANDS, HELP, QUIT, KeyAction
from reversi_tui.tui.screens.match_view import MatchScreen


class PaletteCommand(NamedTuple):
    """One palette entry: its name, a line of help, and what it runs."""

    name: str
    help: str
    run: Callable[[], Any]


def game_commands(screen: MatchScreen) -> Iterator[PaletteCommand]:
    """The game screen's actions, in the order a player thinks of them (Quit comes later);
    those the screen has (an online game has no undo).

    Names, help and order come from the key table (tui/keys.py).
    """

    async def show_help() -> None:
        await screen.app.run_action("app.help")

    for action in GAME_COMMANDS:
        if action is HELP or hasattr(screen, action.method):
            yield _command(screen, action, show_help)


def _command(
    screen: MatchScreen, action: KeyAction, show_help: Callable[[], Any] | None = None
) -> PaletteCommand:
    """The palette entry of one of the table's actions, running the screen's method."""
    if action is HELP:
        assert show_help is not None
        return PaletteCommand(action.command, action.command_help, show_help)
    run: Callable[[], Any] = getattr(screen, action.method)
    return PaletteCommand(action.command, action.command_help, run)


class GameCommands(Provider):
    """Palette entries for the game's actions, then Textual's Theme (and Screenshot)."""

    def _commands(self) -> Iterator[PaletteCommand]:
        screen = self.screen
        game = screen if isinstance(screen, MatchScreen) else None
        if game is not None:
            yield from game_commands(game)
        system = [PaletteCommand(*c[:3]) for c in self.app.get_system_commands(screen)]
        yield from (c for c in system if c.name == "Theme")
        if game is not None and hasattr(game, QUIT.method):
            yield _command(game, QUIT)
        yield from (c for c in system if c.name != "Theme")

    async def discover(self) -> Hits:
        """Shown before anything is typed, in a fixed order."""
        for command in self._commands():
            yield DiscoveryHit(command.name, command.run, help=command.help)

    async def search(self, query: str) -> Hits:
        """The entries whose names match what was typed (the palette puts the best first)."""
        matcher = self.matcher(query)
        for command in self._commands():
            score = matcher.match(command.name)
            if score > 0:
                yield Hit(score, matcher.highlight(command.name), command.run, help=command.help)
