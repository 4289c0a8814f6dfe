"""What a terminal game does whatever the game (gomoku `play`, `play --game connect4`): the input loop, commands by
their first word, thinking on a worker thread under a status line, and output."""
from __future__ import annotations

import threading
import time
from typing import Callable, Dict, TextIO, TypeVar

from pbrain import screen
from pbrain.screen import paint

T = TypeVar("T")
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
