"""What a terminal game does whatever the game (gomoku `play`, `play --game connect4`): the input loop, commands by
their first word, thinking on a worker thread under a status line, and output (TerminalSession); the state and the
commands of a person's game against Pentad that do not depend on the game (GameSession)."""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, TextIO, Tuple, Type, TypeVar

from pbrain.core.rules import opponent
from pbrain.frontends import screen
from pbrain.frontends.screen import paint

T = TypeVar("T")
ENGINE_NAME = "Pentad"
GAME_OVER = "The game is over: type new, undo, save FILE or quit."


class PlayError(Exception):
    """A problem with the command line of `play` (bad option value, unreadable --load file)."""
STATUS_INTERVAL_S = 0.1
"""How often the thinking status line is redrawn."""


class TerminalSession:
    """The game-independent part of a terminal game. A subclass supplies `start`, `prompt`, `human_move`, `draw`
    and `help_text`, and adds its own commands to `self.commands`.

    `read(prompt)` returns the next line (raising EOFError at the end, KeyboardInterrupt on Ctrl-C); everything
    is written to `out`. `color` turns on ANSI colour, `live` the status line updated in place while thinking.
    """

    def __init__(self, read: Callable[[str], str], out: TextIO, color: bool, live: bool) -> None:
        self.read = read
        self.out = out
        self.color = color
        self.status = screen.StatusLine(out, live)
        self.quitting = False
        self.commands: Dict[str, Callable[[str], None]] = {
            "help": self.cmd_help, "?": self.cmd_help, "quit": self.cmd_quit, "exit": self.cmd_quit,
            "q": self.cmd_quit, "board": self.cmd_board,
        }

    # --- what a game supplies ----------------------------------------------------------------------------------------
    def start(self) -> None:
        """The greeting and the first board (the engine moves if it is its turn)."""
        raise NotImplementedError

    def prompt(self) -> str:
        """The input prompt."""
        raise NotImplementedError

    def human_move(self, text: str) -> None:
        """Play the person's move given as text, or explain why not."""
        raise NotImplementedError

    def draw(self) -> None:
        """Print the board."""
        raise NotImplementedError

    def help_text(self) -> str:
        """The text of the help command."""
        raise NotImplementedError

    # --- running ---------------------------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until quit, end of input or Ctrl-C; returns the exit status (0)."""
        try:
            self.start()
            while not self.quitting:
                try:
                    line = self.read(self.prompt())
                except EOFError:
                    self.say("")
                    break
                self.handle(line)
        except KeyboardInterrupt:
            self.status.clear()
            self.say("")
        self.say("Goodbye.")
        return 0

    def handle(self, line: str) -> None:
        """One line of input: a command (its first word) or a move."""
        text = line.strip()
        if not text:
            return
        word, _, rest = text.partition(" ")
        command = self.commands.get(word.lower())
        if command is not None:
            command(rest.strip())
            return
        self.human_move(text)

    def run_worker(self, label: str, job: Callable[[threading.Event], T],
                   detail: Callable[[], str] = lambda: "") -> T:
        """Run `job(stop)` on a worker thread while the status line shows `label`, `detail()` and the time; Ctrl-C
        sets `stop` and propagates, and the job's own exception is raised here."""
        stop = threading.Event()
        box: Dict[str, object] = {}

        def work() -> None:
            try:
                box["result"] = job(stop)
            except BaseException as error:  # handed to the main thread
                box["error"] = error

        worker = threading.Thread(target=work, name="pentad-think", daemon=True)
        started = time.monotonic()
        worker.start()
        try:
            while worker.is_alive():
                worker.join(STATUS_INTERVAL_S)
                self.status.show(f"{label}... {detail()}{time.monotonic() - started:.1f} s")
        except KeyboardInterrupt:
            stop.set()
            worker.join(2.0)
            raise
        finally:
            self.status.clear()
        if "error" in box:
            raise box["error"]  # type: ignore[misc]
        return box["result"]  # type: ignore[return-value]

    # --- commands and output ---------------------------------------------------------------------------------------
    def cmd_board(self, _arg: str) -> None:
        """Draw the board again."""
        self.draw()

    def cmd_help(self, _arg: str) -> None:
        """Print the help text."""
        self.say(self.help_text())

    def cmd_quit(self, _arg: str) -> None:
        """Leave after this line."""
        self.quitting = True

    def say(self, text: str) -> None:
        """Write a line."""
        self.out.write(text + "\n")
        self.out.flush()

    def error(self, text: str) -> None:
        """Write a line as an error."""
        self.say(paint(text, "error", self.color))


def file_error(error: BaseException, path: str) -> str:
    """The message of a file error without the path that the caller names anyway."""
    if isinstance(error, OSError):
        return error.strerror or str(error)
    message = str(error)
    for prefix in (f"cannot read {path}: ", f"cannot write {path}: ", f"{path}: ", f"{path} "):
        if message.startswith(prefix):
            return message[len(prefix):]
    return message


@dataclass
class Outcome:
    """How a game ended."""

    winner: Optional[int]
    """The side that won, or None for a draw."""
    how: str
    """'line' (the winner's row: a five or a four), 'full' or 'resign'."""
    line: Tuple[Tuple[int, int], ...] = ()
    """The winning row's cells."""


class GameSession(TerminalSession):
    """A person against Pentad at a board game: whose side the person plays, how the game ended, the hint, and the
    commands that work alike in every game (undo, swap, new, save, load, resign, thinking). A subclass supplies the
    game through the hooks below, besides TerminalSession's, and its own `after_change`, `check_end` and hint."""

    file_errors: Tuple[Type[BaseException], ...] = (OSError,)
    """What reading or writing a game file may raise (reported, the game kept)."""
    save_usage = "Usage: save FILE"
    load_usage = "Usage: load FILE"
    thinking_template = ENGINE_NAME + "'s eval is {} with its moves."
    """The thinking command's answer; {} is 'shown' or 'hidden'."""

    def __init__(self, read: Callable[[str], str], out: TextIO, color: bool, live: bool, human: int,
                 show_thinking: bool) -> None:
        super().__init__(read, out, color, live)
        self.human = human
        """The side the person plays."""
        self.show_thinking = show_thinking
        self.outcome: Optional[Outcome] = None
        self.hint: Optional[object] = None
        """Pentad's suggestion for the person, drawn on the board (a point, a column) until the position changes."""
        self.commands.update({
            "undo": self.cmd_undo, "hint": self.cmd_hint, "swap": self.cmd_swap, "new": self.cmd_new,
            "save": self.cmd_save, "load": self.cmd_load, "resign": self.cmd_resign, "thinking": self.cmd_thinking,
        })

    # --- what a game supplies ----------------------------------------------------------------------------------------
    def moves_played(self) -> int:
        """Stones on the board."""
        raise NotImplementedError

    def side_label(self, side: int) -> str:
        """The side as the person reads it, e.g. 'X (black)' (coloured when the session is)."""
        raise NotImplementedError

    def stone_char(self, side: int) -> str:
        """The side's stone on the board, e.g. 'X'."""
        raise NotImplementedError

    def reset_game(self) -> None:
        """Empty the board for a new game (the rule, the size and the sides stay)."""
        raise NotImplementedError

    def take_back(self) -> List[str]:
        """Take back moves down to and including the person's last stone (there is one); their names, last first."""
        raise NotImplementedError

    def has_own_stone(self) -> bool:
        """Has the person a stone on the board?"""
        raise NotImplementedError

    def write_game(self, path: str) -> None:
        """Save the game to `path` (raises one of file_errors)."""
        raise NotImplementedError

    def load_file(self, path: str) -> str:
        """Continue the game saved in `path`, the person taking the side to move; what was loaded, for the person.
        Raises one of file_errors and keeps the game when the file cannot be played."""
        raise NotImplementedError

    def line_text(self) -> str:
        """What the winning row is, e.g. 'Five in a row (h8 i9 j10 k11 l12)'."""
        raise NotImplementedError

    def side_to_move(self) -> int:
        """The side whose turn it is."""
        raise NotImplementedError

    def check_end(self) -> None:
        """Set the outcome when the last move won or filled the board."""
        raise NotImplementedError

    def engine_move(self) -> Callable[[], None]:
        """Let the engine think and play its move; what says so once the board is drawn (report_move, or an error
        when it found none that can be played)."""
        raise NotImplementedError

    def cmd_hint(self, arg: str) -> None:
        """Pentad's suggestion for the person."""
        raise NotImplementedError

    # --- shared ----------------------------------------------------------------------------------------------------
    def after_change(self) -> None:
        """After a move or a new position: detect the end, let the engine answer when it is its turn, and draw
        the board with what happened."""
        self.check_end()
        if self.outcome is not None or self.side_to_move() == self.human:
            self.draw()
            self.announce()
            return
        report = self.engine_move()
        self.check_end()
        self.draw()
        report()
        self.announce()

    def report_move(self, name: str, description: str) -> None:
        """Say the engine's move, and with --show-thinking its `description` (eval, depth, line)."""
        self.say(f"{ENGINE_NAME} plays {paint(name, 'bold', self.color)}.")
        if self.show_thinking:
            self.say("  " + description)

    def prompt(self) -> str:
        """The input prompt: the game-over choices, or whose move it is."""
        if self.outcome is not None:
            return "Game over - new, undo, save FILE or quit: "
        return f"Move {self.moves_played() + 1}, you play {self.stone_char(self.human)}: "

    def announce(self) -> None:
        """Say how the game ended, if it did."""
        outcome = self.outcome
        if outcome is None:
            return
        if outcome.how == "line":
            if outcome.winner == self.human:
                self.say(paint(f"{self.line_text()}: You win!", "good", self.color))
            else:
                self.say(paint(f"{self.line_text()}: {ENGINE_NAME} wins.", "bold", self.color))
        elif outcome.how == "full":
            self.say(paint("The board is full: a draw.", "good", self.color))
        else:
            self.say(paint(f"You resign: {ENGINE_NAME} wins.", "bold", self.color))
        self.say("Game over. Type new for another game, undo to take back, save FILE, or quit.")

    def cmd_undo(self, _arg: str) -> None:
        """Take back moves down to and including the person's last stone, so it is their turn again."""
        if self.outcome is not None and self.outcome.how == "resign":
            self.outcome = None
            self.say("Resignation taken back.")
            self.draw()
            return
        if not self.has_own_stone():
            self.error("Nothing to take back: you have no stone on the board.")
            return
        taken = self.take_back()
        self.outcome = None
        self.hint = None
        self.say("Took back " + " and ".join(reversed(taken)) + ".")
        self.draw()

    def cmd_swap(self, _arg: str) -> None:
        """The person takes the other side; the engine moves if it is then its turn."""
        if self.outcome is not None:
            self.error(GAME_OVER)
            return
        self.human = opponent(self.human)
        self.hint = None
        self.say(f"You now play {self.side_label(self.human)}; {ENGINE_NAME} plays "
                 f"{self.side_label(opponent(self.human))}.")
        self.after_change()

    def cmd_new(self, _arg: str) -> None:
        """A new game, the same sides (and board and rule)."""
        self.reset_game()
        self.outcome = None
        self.hint = None
        self.say(f"New game: you play {self.side_label(self.human)}.")
        self.after_change()

    def cmd_save(self, arg: str) -> None:
        """Save the game to a file."""
        if not arg:
            self.error(self.save_usage)
            return
        path = os.path.expanduser(arg)
        try:
            self.write_game(path)
        except self.file_errors as error:
            self.error(f"Cannot save {path}: {file_error(error, path)}")
            return
        self.say(f"Saved {self.moves_played()} moves to {path}.")

    def cmd_load(self, arg: str) -> None:
        """Continue a saved game (the person takes the side to move)."""
        if not arg:
            self.error(self.load_usage)
            return
        path = os.path.expanduser(arg)
        try:
            loaded = self.load_file(path)
        except self.file_errors as error:
            self.error(f"Cannot load {path}: {file_error(error, path)}")
            return
        self.say(f"{loaded}; you play {self.side_label(self.human)}.")
        self.after_change()

    def cmd_resign(self, _arg: str) -> None:
        """Give the game up."""
        if self.outcome is not None:
            self.error("The game is already over.")
            return
        self.outcome = Outcome(opponent(self.human), "resign")
        self.announce()

    def cmd_thinking(self, _arg: str) -> None:
        """Toggle --show-thinking."""
        self.show_thinking = not self.show_thinking
        self.say(self.thinking_template.format("shown" if self.show_thinking else "hidden"))


def run_session(args: Any, options_from_args: Callable[[Any], T],
                make_session: Callable[[T, Callable[[str], str], TextIO, bool, bool], TerminalSession]) -> int:
    """`pbrain-pentad play` in this terminal: the options from the command line (`options_from_args` raises
    PlayError for a bad one), readline editing when both ends are a terminal, then the session made by
    `make_session(options, read, out, color, live)` until it ends. Returns the exit status: 2 after a PlayError
    (said on stderr), else 0."""
    import sys

    try:
        options = options_from_args(args)
    except PlayError as error:
        print(f"pbrain-pentad play: error: {error}", file=sys.stderr)
        return 2
    out = sys.stdout
    if screen.is_tty(sys.stdin) and screen.is_tty(out):
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    status = screen.StatusLine(out, screen.is_tty(out))
    try:
        status.show("Setting up the board...")
        session = make_session(options, input, out, screen.wants_color(out), screen.is_tty(out))
        status.clear()
        return session.run()
    except PlayError as error:
        status.clear()
        print(f"pbrain-pentad play: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        status.clear()
        print("Goodbye.")
        return 0
