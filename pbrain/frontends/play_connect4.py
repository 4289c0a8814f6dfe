"""`pbrain-pentad play --game connect4`: Connect Four against Pentad in a terminal.

The same shape as play.py: `Connect4Session` is the game and command logic, reading lines through a function
(prompt -> line, EOFError at the end of input) and writing to a text stream, so tests script it; `run_connect4`
connects it to the terminal (readline, colour on a tty unless NO_COLOR, the thinking status line, Ctrl-C / Ctrl-D
leaving cleanly). The rules are pbrain.connect4.bitboard's, the players pbrain.connect4.players' PLAYERS, looked
up by name when they are needed. Columns are numbered 1..7 for people and in files; the bitboard counts them from 0.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Callable, List, Optional, Set, TextIO, Tuple, cast

import pbrain
from pbrain.connect4 import players
from pbrain.connect4.bitboard import FIRST, HEIGHT, SECOND, WIDTH, Connect4, Connect4Error
from pbrain.frontends import screen
from pbrain.frontends.screen import paint
from pbrain.frontends.terminal import ENGINE_NAME, GAME_OVER, GameSession, Outcome, PlayError, file_error, run_session

Cell = Tuple[int, int]
"""(column, row), both from 0; row 0 is the bottom."""
DEFAULT_ENGINE = "alphabeta"
HINT_ENGINE = "alphabeta"
"""The player that gives hints: the strongest one (an exact solver once it sees the end)."""
MAX_FILE_CHARS = 4096
"""A saved game is at most 42 digits; anything much longer is not one."""

STONE_CHAR = {FIRST: "X", SECOND: "O"}
EMPTY_CHAR = "."
HINT_CHAR = "?"
# ANSI styles, the same as the gomoku board's (screen.py): X bold red, O bold bright blue.
_STONE_STYLE = {FIRST: "\x1b[1;31m", SECOND: "\x1b[1;94m"}
_EMPTY_STYLE = "\x1b[2m"
_FOUR_STYLE = "\x1b[7m"
_MARK_STYLE = "\x1b[1;33m"
_HINT_STYLE = "\x1b[1;32m"
_FRAME_STYLE = "\x1b[2m"

HELP = """\
Moves: a column number 1 to 7; your stone drops to the lowest free cell.
Four in a row (across, up or diagonal) wins. Pentad then answers.
Commands:
  undo        take back your last move and Pentad's answer
  hint        Pentad's suggestion for you from its strongest player, with its eval
  swap        change sides with Pentad (it moves if it is then its turn)
  new         a new game, same sides
  save FILE   save the game as one line of column digits, e.g. 4453
  load FILE   continue a saved game (you take the side to move)
  thinking    show or hide Pentad's eval with its moves
  board       draw the board again
  resign      give the game up (undo takes the resignation back)
  help        this text
  quit        leave (Ctrl-D and Ctrl-C leave too)
Board: X moves first, O second, . empty, [X] the last move, (X) the winning
four, ? the hint. Evals count from the side that moves (Pentad in its answers,
you in a hint): 'win in N' is a forced win with the winner's Nth stone,
'loss in N' one for the opponent."""


def side_name(side: int, color: bool = False) -> str:
    """'X (first)' or 'O (second)', the letter coloured when `color`."""
    letter = STONE_CHAR[side]
    if color:
        letter = f"{_STONE_STYLE[side]}{letter}{screen.RESET}"
    return f"{letter} ({'first' if side == FIRST else 'second'})"


def find_player(name: str) -> Callable[..., players.Answer]:
    """The Connect Four player called `name` in players.PLAYERS now; PlayError naming the ones there are."""
    player = players.PLAYERS.get(name)
    if player is None:
        have = ", ".join(sorted(players.PLAYERS)) or "none"
        raise PlayError(f"the Connect Four engine '{name}' is not available in this version (have: {have})")
    return player


def parse_moves(text: str) -> str:
    """The digits of a saved game (whitespace anywhere is dropped); Connect4Error for anything but columns 1-7."""
    digits = "".join(text.split())
    for number, char in enumerate(digits, 1):
        if not char.isdigit() or not char.isascii():
            raise Connect4Error(f"'{char}' (move {number}) is not a column digit: a game is a line like 4453")
        if not 1 <= int(char) <= WIDTH:
            raise Connect4Error(f"move {number} is column {char}: columns are 1-{WIDTH}")
    return digits


def read_game(path: str) -> Connect4:
    """The game saved in `path` (OSError, or Connect4Error with the reason)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(MAX_FILE_CHARS + 1)
    except UnicodeDecodeError:
        raise Connect4Error("not a text file: a game is a line of column digits like 4453") from None
    if len(text) > MAX_FILE_CHARS:
        raise Connect4Error(f"more than {MAX_FILE_CHARS} characters: a game is at most {WIDTH * HEIGHT} digits")
    return Connect4(parse_moves(text))


@dataclass
class Connect4Options:
    """How a Connect Four session starts (the command line of `play --game connect4`)."""

    human: int = FIRST
    """The side the person plays (FIRST moves first)."""
    engine: str = DEFAULT_ENGINE
    """The name of Pentad's player in players.PLAYERS."""
    time_s: float = 1.0
    """Thinking time per engine move (and per hint)."""
    show_thinking: bool = False
    load: Optional[str] = None
    """A saved game to continue."""
    human_given: bool = False
    """--first was given: a loaded game keeps the sides instead of giving the person the side to move."""


class Connect4Session(GameSession):
    """One person against the engine at Connect Four: the board, the game's commands, and the engine's turns (the
    commands every game shares are GameSession's; the loop, the thinking worker and the output TerminalSession's)."""

    def __init__(self, options: Connect4Options, read: Callable[[str], str], out: TextIO, color: bool = False,
                 live: bool = False) -> None:
        super().__init__(read, out, color, live, options.human, options.show_thinking)
        self.options = options
        self.engine_name = options.engine
        self.game = Connect4()

    # --- running ---------------------------------------------------------------------------------------------------
    def start(self) -> None:
        """The greeting, the --load file (PlayError when it cannot be read), the board, and the engine's move if
        it is its turn."""
        find_player(self.engine_name)
        if self.options.load:
            try:
                self.set_game(read_game(self.options.load), keep_sides=self.options.human_given)
            except (Connect4Error, OSError) as error:
                raise PlayError(f"cannot load {self.options.load}: {file_error(error, self.options.load)}") \
                    from None
        self.say(paint(f"{ENGINE_NAME} {pbrain.__version__}", "bold", self.color)
                 + f" - Connect Four, {WIDTH} columns by {HEIGHT} rows, the {self.engine_name} engine, "
                 f"{self.options.time_s:g} s a move.")
        self.say(f"You play {side_name(self.human, self.color)}. Type a column 1-{WIDTH}, or help.")
        if self.options.load:
            self.say(f"Loaded {self.options.load}: {self.game.move_count} moves.")
        self.after_change()

    # --- moves -----------------------------------------------------------------------------------------------------
    def human_move(self, text: str) -> None:
        """Play the person's column given as text, or explain why not."""
        if not (text.isdigit() and text.isascii()):
            self.error(f"'{text}' is neither a column nor a command: type a column 1-{WIDTH}, or help.")
            return
        if not 1 <= int(text) <= WIDTH:
            self.error(f"There is no column {text}: type a column 1-{WIDTH}.")
            return
        if self.outcome is not None:
            self.error(GAME_OVER)
            return
        if self.game.side != self.human:
            self.error(f"It is {ENGINE_NAME}'s turn: type swap, undo or new.")
            return
        column = int(text) - 1
        if not self.game.can_play(column):
            self.error(f"Column {text} is full.")
            return
        self.game.play(column)
        self.hint = None
        self.after_change()

    def side_to_move(self) -> int:
        return self.game.side

    def engine_move(self) -> Callable[[], None]:
        answer = self.think(f"{ENGINE_NAME} is thinking", self.engine_name)
        if answer is None:
            return lambda: None
        column = answer.column
        if not self.game.can_play(column):
            return lambda: self.error(f"The {self.engine_name} engine chose column {column + 1}, which cannot be "
                                      "played: type swap, undo or new.")
        self.game.play(column)
        return lambda: self.report_move(str(column + 1), describe(answer))

    def check_end(self) -> None:
        """Set the outcome when the last move made four or filled the board."""
        if self.outcome is not None:
            return
        winner = self.game.winner()
        if winner:
            self.outcome = Outcome(winner, "line", tuple(self.game.winning_cells()))
        elif self.game.is_full():
            self.outcome = Outcome(None, "full")

    def line_text(self) -> str:
        return "Four in a row"

    # --- thinking --------------------------------------------------------------------------------------------------
    def think(self, label: str, name: str) -> Optional[players.Answer]:
        """Run the player `name` on a copy of the game on a worker thread, showing the status line; None (after
        saying why) when there is no such player. Ctrl-C stops the search and propagates."""
        try:
            player = find_player(name)
        except PlayError as error:
            self.error(f"{str(error)[:1].upper()}{str(error)[1:]}.")
            return None
        position = self.game.copy()
        return self.run_worker(label, lambda stop: player(position, self.options.time_s, stop))

    # --- the game's part of the shared commands ---------------------------------------------------------------------
    file_errors = (Connect4Error, OSError)
    save_usage = "Usage: save FILE (the game as one line of column digits, e.g. 4453)."
    load_usage = "Usage: load FILE (a line of column digits 1-7, e.g. 4453)."

    def moves_played(self) -> int:
        return self.game.move_count

    def side_label(self, side: int) -> str:
        return side_name(side, self.color)

    def stone_char(self, side: int) -> str:
        return STONE_CHAR[side]

    def reset_game(self) -> None:
        self.game = Connect4()

    def has_own_stone(self) -> bool:
        return any(mover(number) == self.human for number in range(self.game.move_count))

    def take_back(self) -> List[str]:
        taken: List[str] = []
        while True:
            number = self.game.move_count - 1
            taken.append(str(self.game.undo() + 1))
            if mover(number) == self.human:
                return taken

    def write_game(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(self.game.moves_string() + "\n")

    def load_file(self, path: str) -> str:
        game = read_game(path)
        self.set_game(game)
        return f"Loaded {path}: {game.move_count} moves"

    # --- commands ---------------------------------------------------------------------------------------------------
    def cmd_hint(self, _arg: str) -> None:
        """The strongest player's choice for the person (not played), with its eval."""
        if self.outcome is not None:
            self.error(GAME_OVER)
            return
        if self.game.side != self.human:
            self.error(f"It is {ENGINE_NAME}'s turn: type swap, undo or new.")
            return
        answer = self.think("Looking for a hint", HINT_ENGINE)
        if answer is None:
            return
        if not self.game.can_play(answer.column):
            self.error(f"The hint, column {answer.column + 1}, cannot be played.")
            return
        self.hint = answer.column
        self.draw()
        self.say(f"Hint: {paint(str(answer.column + 1), 'bold', self.color)} ({describe(answer)}).")

    def help_text(self) -> str:
        """The help command's text."""
        return HELP

    # --- position and output ---------------------------------------------------------------------------------------
    def set_game(self, game: Connect4, keep_sides: bool = False) -> None:
        """Continue `game`; the person takes the side to move unless `keep_sides` or the game is already over."""
        self.game = game
        self.outcome = None
        self.hint = None
        self.check_end()
        if self.outcome is None and not keep_sides:
            self.human = game.side

    def draw(self) -> None:
        """Print the board."""
        self.say("")
        hint = cast(Optional[int], self.hint)  # a column
        self.say(render_board(self.game, self.outcome.line if self.outcome else (), hint, self.color))


def mover(number: int) -> int:
    """The side that plays move `number` (counted from 0)."""
    return FIRST if number % 2 == 0 else SECOND


def describe(answer: players.Answer) -> str:
    """An answer's eval and effort, e.g. 'eval +3, depth 12, 20514 nodes, 0.3 s' (no depth for a proof)."""
    depth = f", depth {answer.depth}" if answer.depth else ""
    return f"{answer.text}{depth}, {answer.nodes} nodes, {answer.time_ms / 1000:.1f} s"


# --- the board -----------------------------------------------------------------------------------------------------
def render_board(game: Connect4, four: Tuple[Cell, ...] = (), hint: Optional[int] = None,
                 color: bool = False) -> str:
    """The board as lines of text (no trailing newline): the top row first, a frame, columns numbered below.

    Every cell takes two characters, a separator and the cell. The separators around the last move are '[' and
    ']'; around the stones of the winning four '(' and ')', joined by '-' along a row. `hint` is a column: '?'
    shows where its stone would land.
    """
    history = game.history()
    last_cell: Optional[Cell] = (history[-1], _landing(game, history[-1]) - 1) if history else None
    marked = set(four)
    joined = _row_runs(marked)
    hint_cell: Optional[Cell] = None
    if hint is not None and game.can_play(hint):
        hint_cell = (hint, _landing(game, hint))
    side = _style("|", _FRAME_STYLE, color)
    lines = []
    for row in reversed(range(HEIGHT)):
        parts = ["  ", side]
        for column in range(WIDTH + 1):
            parts.append(_separator(column, row, last_cell, marked, joined, color))
            if column < WIDTH:
                parts.append(_cell(game, (column, row), marked, hint_cell, color))
        parts.append(side)
        lines.append("".join(parts))
    lines.append("  " + _style("+" + "-" * (2 * WIDTH + 1) + "+", _FRAME_STYLE, color))
    lines.append("    " + _style(" ".join(str(column + 1) for column in range(WIDTH)), _FRAME_STYLE, color))
    return "\n".join(lines)


def _landing(game: Connect4, column: int) -> int:
    """The row a stone dropped into `column` would land on (HEIGHT when the column is full)."""
    row = 0
    while row < HEIGHT and game.stone(column, row) != 0:
        row += 1
    return row


def _row_runs(cells: Set[Cell]) -> Set[Cell]:
    """The cells of `cells` that start a join to their right neighbour in a run of four or more along a row."""
    joined: Set[Cell] = set()
    for column, row in cells:
        if (column - 1, row) in cells:
            continue
        length = 1
        while (column + length, row) in cells:
            length += 1
        if length >= 4:
            joined.update((column + step, row) for step in range(length - 1))
    return joined


def _separator(column: int, row: int, last: Optional[Cell], four: Set[Cell], joined: Set[Cell],
               color: bool) -> str:
    """The character between column-1 and column (column = WIDTH: after the last column) on `row`."""
    before, after = (column - 1, row), (column, row)
    if last == after and column < WIDTH:
        char = "["
    elif last == before and column > 0:
        char = "]"
    elif before in joined:
        char = "-"
    elif after in four and column < WIDTH:
        char = "("
    elif before in four and column > 0:
        char = ")"
    else:
        return " "
    return _style(char, _MARK_STYLE if char in "[]" else _FOUR_STYLE, color)


def _cell(game: Connect4, cell: Cell, four: Set[Cell], hint: Optional[Cell], color: bool) -> str:
    """One cell: its stone, '?' for the hint, or '.'."""
    stone = game.stone(*cell)
    if stone:
        style = _STONE_STYLE[stone] + (_FOUR_STYLE if cell in four else "")
        return _style(STONE_CHAR[stone], style, color)
    if cell == hint:
        return _style(HINT_CHAR, _HINT_STYLE, color)
    return _style(EMPTY_CHAR, _EMPTY_STYLE, color)


def _style(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{screen.RESET}" if color else text


# --- the terminal --------------------------------------------------------------------------------------------------
GOMOKU_ONLY = (("size", "Connect Four is always 7 columns by 6 rows"), ("rule", "Connect Four has one rule"),
               ("level", "for Connect Four choose --engine and --time"),
               ("black", "for Connect Four say who moves first with --first human|engine"))
"""Options of gomoku's `play` that Connect Four refuses, with the reason."""


def options_from_args(args: argparse.Namespace) -> Connect4Options:
    """Connect4Options from the parsed command line; raises PlayError for a bad value."""
    for name, why in GOMOKU_ONLY:
        if getattr(args, name, None) is not None:
            raise PlayError(f"--{name} is for gomoku: {why}")
    if not (args.time > 0 and args.time <= 3600):
        raise PlayError("--time must be more than 0 and at most 3600 seconds")
    engine = getattr(args, "engine", None) or DEFAULT_ENGINE
    find_player(engine)
    first = getattr(args, "first", None)
    return Connect4Options(human=SECOND if first == "engine" else FIRST, engine=engine, time_s=args.time,
                           show_thinking=args.show_thinking, load=args.load, human_given=first is not None)


def run_connect4(args: argparse.Namespace) -> int:
    """`pbrain-pentad play --game connect4`: the game in this terminal. Returns the exit status."""
    return run_session(args, options_from_args, Connect4Session)
