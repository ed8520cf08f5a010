"""Workarounds of Textual's internals, written for the Textual pinned in .ci/constraints.txt.

Each one reaches into Textual (a private module, a private method it overrides or
patches, a private attribute it reads) and is listed in ``WORKAROUNDS``: what it
relies on, the upstream issue or behaviour it works around, and when to delete it.
``tests/tui/test_textual_compat.py`` checks that the installed Textual is the pinned
one and that every name below still exists, naming the workaround to re-check when
one is gone. Raising the pin: re-check each workaround against the new Textual.

The ones not yet moved here live where the table says.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Workaround:
    """One workaround: where it is, why, when it goes, and the Textual names it uses.

    ``relies_on`` holds (module, attribute) pairs; an attribute may be dotted
    (``Class.method``), and a last part missing from the class may be an instance
    attribute that the class (or a base) assigns as ``self.<name>``.
    """

    where: str
    upstream: str
    delete_when: str
    relies_on: tuple[tuple[str, str], ...]


_PARSER = "textual._xterm_parser"
_PALETTE = "textual.command"

WORKAROUNDS: dict[str, Workaround] = {
    "input decoder and parser (SafeParser)": Workaround(
        where="reversi_tui/tui/compat/input.py",
        upstream="Textual #6456: non-UTF-8 bytes, huge numbers, absurd sizes, terminal "
        "replies and pastes holding ESC kill the app in the input thread or the parser",
        delete_when="Textual's decoder and XTermParser survive HOSTILE_INPUT of "
        "tests/tui/test_input_survival.py without SafeParser and input_decoder",
        relies_on=(
            ("textual._parser", "ParseEOF"),
            ("textual._parser", "ParseError"),
            ("textual._parser", "ParseTimeout"),
            ("textual._parser", "Peek1"),
            ("textual._parser", "Read1"),
            ("textual._parser", "TokenCallback"),
            ("textual._parser", "Parser._gen"),
            ("textual._parser", "Parser._awaiting"),
            ("textual._parser", "Parser._timeout_time"),
            ("textual._time", "get_time"),
            (_PARSER, "XTermParser.parse"),
            (_PARSER, "XTermParser.feed"),
            (_PARSER, "XTermParser._sequence_to_key_events"),
            (_PARSER, "XTermParser.terminal_size"),
            (_PARSER, "XTermParser.terminal_pixel_size"),
        ),
    ),
    "key burst guard (BurstGuard)": Workaround(
        where="reversi_tui/tui/compat/input.py",
        upstream="no upstream issue filed: an unbracketed paste is played as keys, "
        "one by one (1 MB took a minute)",
        delete_when="never by a Textual upgrade alone: it is the app's policy, but it "
        "sits in the driver's copied input loop and goes with it",
        relies_on=(("textual.drivers.linux_driver", "LinuxDriver.run_input_thread"),),
    ),
    "driver input loop (ReversiDriver.run_input_thread)": Workaround(
        where="reversi_tui/tui/compat/driver.py",
        upstream="Textual #6456 (the strict decoder and parser of "
        "LinuxDriver.run_input_thread); a hung-up terminal blocking the writer: "
        "no upstream issue filed",
        delete_when="LinuxDriver takes a parser and decoder to use, and survives EIO "
        "on output and on input",
        relies_on=(
            ("textual.drivers.linux_driver", "LinuxDriver.run_input_thread"),
            ("textual.drivers.linux_driver", "LinuxDriver._get_terminal_size"),
            ("textual.drivers.linux_driver", "LinuxDriver._file"),
            ("textual.drivers.linux_driver", "LinuxDriver.fileno"),
            ("textual.drivers.linux_driver", "LinuxDriver.exit_event"),
            ("textual.driver", "Driver._debug"),
            ("textual._parser", "ParseError"),
        ),
    ),
    "OptionList paging (guard_option_list_paging)": Workaround(
        where="reversi_tui/tui/compat/option_list.py",
        upstream="no upstream issue filed: OptionList._move_page raises KeyError "
        "before the list has been laid out",
        delete_when="PageUp in a palette or drop-down opened in the same burst "
        "(test_input_survival.py) passes without the patch",
        relies_on=(
            ("textual.widgets._option_list", "OptionList._move_page"),
            ("textual.widgets._option_list", "OptionList._options"),
            ("textual.widgets._option_list", "OptionList._index_to_line"),
            ("textual.widgets._option_list", "OptionList._lines"),
        ),
    ),
    "command palette (GamePalette)": Workaround(
        where="reversi_tui/tui/compat/palette.py",
        upstream="no upstream issue filed: CommandPalette's worker, watchers and "
        "timer raise NoMatches once it is closing; App.action_command_palette opens "
        "a second palette under one id; a double dismiss pops the screen under it",
        delete_when="the palette bursts of tests/tui/test_input_survival.py and "
        "test_bursts.py pass with Textual's CommandPalette",
        relies_on=(
            (_PALETTE, "CommandPalette._GATHER_COMMANDS_GROUP"),
            (_PALETTE, "CommandPalette._gather_commands"),
            (_PALETTE, "CommandPalette._on_message"),
            (_PALETTE, "CommandPalette._watch__list_visible"),
            (_PALETTE, "CommandPalette._watch__show_busy"),
            (_PALETTE, "CommandPalette._start_no_matches_countdown"),
            (_PALETTE, "SearchIcon.icon"),
            (_PALETTE, "CommandInput"),
        ),
    ),
    "ASCII scrollbar (AsciiScrollBarRender)": Workaround(
        where="reversi_tui/tui/ascii.py",
        upstream="no upstream issue filed: scrollbars are drawn in eighth blocks, "
        "with no ASCII renderer",
        delete_when="Textual draws scrollbars in ASCII on its own (then also drop "
        "the active_app lookup)",
        relies_on=(
            ("textual._context", "active_app"),
            ("textual.scrollbar", "ScrollBar.renderer"),
            ("textual.scrollbar", "ScrollBarRender.render_bar"),
        ),
    ),
    "Select with its parts gone (SafeSelect)": Workaround(
        where="reversi_tui/tui/compat/select.py",
        upstream="no upstream issue filed: Select's mount and watchers raise "
        "NoMatches when its dialog closes in the same burst",
        delete_when="the new-game bursts of test_input_survival.py pass with Select",
        relies_on=(
            ("textual.widgets._select", "NoSelection"),
            ("textual.widgets._select", "SelectType"),
            ("textual.widgets._select", "Select._on_mount"),
            ("textual.widgets._select", "Select._watch_value"),
            ("textual.widgets._select", "Select._watch_prompt"),
        ),
    ),
    "dismissed once (ClosesOnce)": Workaround(
        where="reversi_tui/tui/compat/dismiss.py",
        upstream="no upstream issue filed: Screen.dismiss pops the screen on top "
        "each time it is called, answered already or not",
        delete_when="test_a_dialog_dismissed_twice_at_once_answers_once passes without ClosesOnce",
        relies_on=(("textual.screen", "Screen.dismiss"), ("textual.screen", "Screen.is_current")),
    ),
    "footer keys (KeyFooter)": Workaround(
        where="reversi_tui/tui/widgets/footer.py",
        upstream="no upstream issue filed: watchers of closed footer keys are only "
        "dropped when compact changes",
        delete_when="a recompose of Footer lets go of the old keys' compact watchers",
        relies_on=(
            ("textual.widgets._footer", "FooterKey"),
            ("textual.reactive", "Reactive._check_watchers"),
        ),
    ),
    "bindings of a widget (bindings_without)": Workaround(
        where="reversi_tui/tui/screens/save_game.py",
        upstream="no upstream issue filed: no public way to read a widget class's merged bindings",
        delete_when="Textual offers the merged bindings publicly",
        relies_on=(("textual.dom", "DOMNode._merge_bindings"),),
    ),
}
