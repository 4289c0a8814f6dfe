"""`pbrain-pentad play`: a game against Pentad in a terminal.

`PlaySession` is the whole game and command logic; it reads lines through a function (prompt -> line, raising
EOFError at the end of input) and writes to a text stream, so tests drive it with a list of lines and a StringIO.
`run_play` connects it to the terminal: readline editing, colour when stdout is a tty (and NO_COLOR is unset), the
status line while the engine thinks, and Ctrl-C / Ctrl-D leaving cleanly. The drawing is in screen.py.
"""
from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass
from typing import Callable, List, Optional, Set, TextIO, Tuple

import pbrain
from pbrain import levels, records, screen
from pbrain.board import BoardError
from pbrain.engine import Engine, Limits, SearchInfo, SearchResult
from pbrain.games import RULES, format_eval, parse_size, replay, winning_line
from pbrain.rules import BLACK, WHITE, Rule, opponent
from pbrain.screen import BoardView, paint, stone_name
from pbrain.terminal import TerminalSession

Point = Tuple[int, int]
ENGINE_NAME = "Pentad"
_POINT_LIKE = re.compile(r"^(?:[a-z]\d+|\d+,\d+)$")

HELP = """\
Moves: a column letter and a row number, e.g. h8 (the centre of 15x15), or x,y
counted from 0 at the top left, e.g. 7,7. Pentad then answers.
Commands:
  undo        take back your last move and Pentad's answer
  hint        Pentad's suggestion for you at full strength, with its eval
  swap        change colours with Pentad (it moves if it is then its turn)
  new         a new game with the same board, rule and colours
  save FILE   save the game (.psq Piskvork, .sgf, anything else a move list)
  load FILE   continue a saved game (you take the side to move)
  level [N]   list the playing levels, or let Pentad play at level N
  thinking    show or hide Pentad's eval and expected line with its moves
  board       draw the board again
  resign      give the game up (undo takes the resignation back)
  help        this text
  quit        leave (Ctrl-D and Ctrl-C leave too)
Board: X black, O white, . empty, [X] the last move, (X) the winning five,
x a point black may not play (renju), ? the hint.
Evals count from the side that moves (Pentad in its answers, you in a hint):
+50 to +100 is about the worth of having the move, +300 a clear advantage.
'win in N' is a forced five with the winner's Nth move from here, 'loss in N'
one for the opponent, 'forced' a move that had to be played."""


class PlayError(Exception):
    """A problem with the command line of `play` (bad option value, unreadable --load file)."""


@dataclass
class PlayOptions:
    """How a session starts (the command line of `play`)."""

    width: int = 15
    height: int = 15
    rule: Rule = Rule.FREESTYLE
    human: int = BLACK
    """The colour the person plays."""
    level: Optional[int] = None
    """Playing level number (levels.LEVELS); None: full strength."""
    time_s: float = 1.0
    """Thinking time per engine move."""
    show_thinking: bool = False
    load: Optional[str] = None
    """A game file to continue."""
    rule_given: bool = False
    """--rule was given: it overrides a loaded file's rule."""
    human_given: bool = False
    """--black was given: a loaded game keeps the colours instead of giving the person the side to move."""
    engine_kind: Optional[str] = None
    """--engine: 'alphabeta', 'mcts' (the Monte Carlo tree search, at full strength) or None (alphabeta)."""


@dataclass
class Outcome:
    """How a game ended."""

    winner: Optional[int]
    """BLACK, WHITE, or None for a draw."""
    how: str
    """'five', 'full' or 'resign'."""
    five: Tuple[Point, ...] = ()


class PlaySession(TerminalSession):
    """One person against the engine: the board, the commands, and the engine's turns (the loop, the thinking
    worker and the output are TerminalSession's)."""

    def __init__(self, options: PlayOptions, read: Callable[[str], str], out: TextIO, color: bool = False,
                 live: bool = False, engine: Optional[Engine] = None) -> None:
        super().__init__(read, out, color, live)
        self.options = options
        self.human = options.human
        self.show_thinking = options.show_thinking
        self.turn_ms = max(1, int(round(options.time_s * 1000)))
        self.level = levels.LEVELS[-1] if options.level is None else levels.level_by_number(options.level)
        if engine is None:
            engine = Engine(options.width, options.height, options.rule)
        else:
            engine.new_game(options.width, options.height, options.rule)
        self.engine = engine
        self.outcome: Optional[Outcome] = None
        self.hint: Optional[Point] = None
        self.commands.update({
            "undo": self.cmd_undo, "hint": self.cmd_hint, "swap": self.cmd_swap, "new": self.cmd_new,
            "save": self.cmd_save, "load": self.cmd_load, "resign": self.cmd_resign, "level": self.cmd_level,
            "thinking": self.cmd_thinking,
        })

    # --- running ---------------------------------------------------------------------------------------------------
    def start(self) -> None:
        """The greeting, the --load file (PlayError when it cannot be read), the board, and the engine's move if
        it is its turn."""
        if self.options.load:
            try:
                self.load_game(records.load(self.options.load), self.options.rule if self.options.rule_given
                               else None, keep_colours=self.options.human_given)
            except (records.RecordError, BoardError) as error:
                raise PlayError(f"cannot load {self.options.load}: {file_error(error, self.options.load)}") \
                    from None
        self.say(paint(f"{ENGINE_NAME} {pbrain.__version__}", "bold", self.color)
                 + f" - {self.rule_name()} on {self.engine.width}x{self.engine.height}, level "
                 f"{self.level.number} of {len(levels.LEVELS)} ({self.level.name}){self.search_name()}, "
                 f"{self.options.time_s:g} s a move.")
        self.say(f"You play {stone_name(self.human, self.color)}. Type a move such as {self.example_point()}, "
                 "or help.")
        if self.options.load:
            self.say(f"Loaded {self.options.load}: {self.engine.board.move_count} moves.")
        self.after_change()

    def prompt(self) -> str:
        """The input prompt: the game-over choices, or whose move it is."""
        if self.outcome is not None:
            return "Game over - new, undo, save FILE or quit: "
        return f"Move {self.engine.board.move_count + 1}, you play {screen.STONE_CHAR[self.human]}: "

    # --- moves ---------------------------------------------------------------------------------------------------
    def human_move(self, text: str) -> None:
        """Play the person's move given as text, or explain why not."""
        width, height = self.engine.width, self.engine.height
        compact = re.sub(r"\s+", "", text.lower())
        try:
            point = records.parse_point(compact, width, height)
        except records.RecordError:
            if _POINT_LIKE.match(compact):
                last = screen.column_letter(width - 1)
                self.error(f"{text} is off the board (columns a-{last}, rows 1-{height}; or x,y from 0,0 to "
                           f"{width - 1},{height - 1}).")
            else:
                self.error(f"'{text}' is neither a move nor a command: type a point such as "
                           f"{self.example_point()}, or help.")
            return
        if self.outcome is not None:
            self.error("The game is over: type new, undo, save FILE or quit.")
            return
        name = self.point_name(point)
        if self.engine.board.stone(self.engine.board.index(*point)) != 0:
            self.error(f"{name} is already taken.")
            return
        if self.engine.side_to_move == BLACK and self.engine.is_forbidden(*point):
            self.error(f"{name} is forbidden for black under renju (double three, double four or overline).")
            return
        self.engine.play(*point)
        self.hint = None
        self.after_change()

    def after_change(self) -> None:
        """After a move or a new position: detect the end, let the engine answer when it is its turn, and draw
        the board with what happened."""
        self.check_end()
        if self.outcome is not None or self.engine.side_to_move == self.human:
            self.draw()
            self.announce()
            return
        kind = self.options.engine_kind or "alphabeta"
        result = self.think(f"{ENGINE_NAME} is thinking", self.level.strength, kind)
        if result.move is not None:
            self.engine.play(*result.move)
        self.check_end()
        self.draw()
        if result.move is not None:
            self.say(f"{ENGINE_NAME} plays {paint(self.point_name(result.move), 'bold', self.color)}.")
            if self.show_thinking:
                self.say("  " + self.describe(result))
        self.announce()

    def check_end(self) -> None:
        """Set the outcome when the last move made five or filled the board."""
        if self.outcome is not None:
            return
        if self.engine.last_move_wins():
            board = self.engine.board
            self.outcome = Outcome(board.stone(board.last_move()), "five", winning_line(self.engine))
        elif self.engine.board.is_full():
            self.outcome = Outcome(None, "full")

    def announce(self) -> None:
        """Say how the game ended, if it did."""
        outcome = self.outcome
        if outcome is None:
            return
        if outcome.how == "five":
            line = " ".join(self.point_name(p) for p in outcome.five)
            if outcome.winner == self.human:
                self.say(paint(f"Five in a row ({line}): You win!", "good", self.color))
            else:
                self.say(paint(f"Five in a row ({line}): {ENGINE_NAME} wins.", "bold", self.color))
        elif outcome.how == "full":
            self.say(paint("The board is full: a draw.", "good", self.color))
        else:
            self.say(paint(f"You resign: {ENGINE_NAME} wins.", "bold", self.color))
        self.say("Game over. Type new for another game, undo to take back, save FILE, or quit.")

    # --- thinking --------------------------------------------------------------------------------------------------
    def think(self, label: str, strength: int, kind: str) -> SearchResult:
        """Run the engine at `strength` with the search `kind` ('alphabeta' or 'mcts') on a worker thread, showing
        the status line; Ctrl-C stops it and propagates."""
        engine = self.engine
        engine.set_strength(strength)
        engine.set_search_kind(kind)
        latest: List[SearchInfo] = []
        return self.run_worker(
            label, lambda stop: engine.think(Limits(turn_ms=self.turn_ms), on_info=latest.append, stop=stop),
            lambda: f"depth {latest[-1].depth}, " if latest else "")

    def describe(self, result: SearchResult) -> str:
        """The eval, depth and principal variation of an answer, e.g. 'eval +35, depth 9, pv h8 i9 j10'."""
        pv = " ".join(self.point_name(p) for p in result.pv[:12])
        if result.reason == "level":
            return f"level {self.level.number} ({self.level.name}) picks by shape: no search, no eval"
        if result.reason == "defend":
            text = "forced: the only defence"
        elif result.reason == "win":
            text = "five"
        elif result.reason.startswith("mcts"):
            text = f"eval {format_eval(result.score)}, {result.nodes} simulations"
        else:
            text = f"eval {format_eval(result.score)}"
            text += f", depth {result.depth}" if result.depth else f" ({result.reason})"
        text += f", {result.time_ms / 1000:.1f} s"
        return text + (f", pv {pv}" if pv else "")

    # --- commands ---------------------------------------------------------------------------------------------------
    def cmd_undo(self, _arg: str) -> None:
        """Take back moves down to and including the person's last stone, so it is their turn again."""
        if self.outcome is not None and self.outcome.how == "resign":
            self.outcome = None
            self.say("Resignation taken back.")
            self.draw()
            return
        stones = self.engine.stones()
        if not any(color == self.human for _, _, color in stones):
            self.error("Nothing to take back: you have no stone on the board.")
            return
        taken = []
        while True:
            x, y, color = stones.pop()
            self.engine.undo()
            taken.append(self.point_name((x, y)))
            if color == self.human:
                break
        self.outcome = None
        self.hint = None
        self.say("Took back " + " and ".join(reversed(taken)) + ".")
        self.draw()

    def cmd_hint(self, _arg: str) -> None:
        """The engine's choice for the person at full strength (not played)."""
        if self.outcome is not None:
            self.error("The game is over: type new, undo, save FILE or quit.")
            return
        result = self.think("Looking for a hint", levels.FULL_STRENGTH, "alphabeta")
        if result.move is None:
            self.error("No move is left.")
            return
        self.hint = result.move
        self.draw()
        self.say(f"Hint: {paint(self.point_name(result.move), 'bold', self.color)} ({self.describe(result)}).")

    def cmd_swap(self, _arg: str) -> None:
        """The person takes the other colour; the engine moves if it is then its turn."""
        if self.outcome is not None:
            self.error("The game is over: type new, undo, save FILE or quit.")
            return
        self.human = opponent(self.human)
        self.hint = None
        self.say(f"You now play {stone_name(self.human, self.color)}; {ENGINE_NAME} plays "
                 f"{stone_name(opponent(self.human), self.color)}.")
        self.after_change()

    def cmd_new(self, _arg: str) -> None:
        """A new game, same board, rule and colours."""
        self.engine.new_game(self.engine.width, self.engine.height, self.engine.rule)
        self.outcome = None
        self.hint = None
        self.say(f"New game: you play {stone_name(self.human, self.color)}.")
        self.after_change()

    def cmd_save(self, arg: str) -> None:
        """Save the game to a file."""
        if not arg:
            self.error("Usage: save FILE (.psq Piskvork, .sgf, anything else a plain move list).")
            return
        path = os.path.expanduser(arg)
        try:
            records.save(path, self.record())
        except (records.RecordError, OSError) as error:
            self.error(f"Cannot save {path}: {file_error(error, path)}")
            return
        self.say(f"Saved {self.engine.board.move_count} moves to {path}.")

    def cmd_load(self, arg: str) -> None:
        """Continue a saved game (the person takes the side to move)."""
        if not arg:
            self.error("Usage: load FILE (.psq, .sgf or a plain move list).")
            return
        path = os.path.expanduser(arg)
        try:
            game = records.load(path)
            self.load_game(game)
        except (records.RecordError, BoardError, OSError) as error:
            self.error(f"Cannot load {path}: {file_error(error, path)}")
            return
        self.say(f"Loaded {path}: {self.rule_name()} on {self.engine.width}x{self.engine.height}, "
                 f"{len(game.moves)} moves; you play {stone_name(self.human, self.color)}.")
        self.after_change()

    def cmd_resign(self, _arg: str) -> None:
        """Give the game up."""
        if self.outcome is not None:
            self.error("The game is already over.")
            return
        self.outcome = Outcome(opponent(self.human), "resign")
        self.announce()

    def cmd_level(self, arg: str) -> None:
        """List the levels, or set one."""
        if arg:
            try:
                self.level = levels.level_by_number(int(arg))
            except ValueError:
                self.error(f"There is no level '{arg}': choose 1..{len(levels.LEVELS)}.")
                return
            self.say(f"{ENGINE_NAME} plays at level {self.level.number} ({self.level.name}) from now on.")
            return
        for level in levels.LEVELS:
            mark = "*" if level is self.level else " "
            self.say(f" {mark} {level.number}  {level.name:<9} {level.description}")
        self.say("Type level N to change.")

    def cmd_thinking(self, _arg: str) -> None:
        """Toggle --show-thinking."""
        self.show_thinking = not self.show_thinking
        self.say(f"Pentad's eval and principal variation are {'shown' if self.show_thinking else 'hidden'}.")

    def help_text(self) -> str:
        """The help command's text."""
        return HELP

    # --- position --------------------------------------------------------------------------------------------------
    def load_game(self, game: records.Game, rule: Optional[Rule] = None, keep_colours: bool = False) -> None:
        """Set up a recorded game (games.replay: raises RecordError / BoardError and keeps the current game when it
        cannot be played); the person takes the side to move unless `keep_colours` or the game is already over."""
        engine = self.engine
        replay(engine, game, rule)
        self.outcome = None
        self.hint = None
        self.check_end()
        if self.outcome is None and not keep_colours:
            self.human = engine.side_to_move

    def record(self) -> records.Game:
        """The game as a record."""
        engine = self.engine
        you = os.environ.get("USER") or "You"
        me = f"{ENGINE_NAME} {pbrain.__version__} level {self.level.number}"
        result = ""
        if self.outcome is not None:
            result = {BLACK: "B+", WHITE: "W+", None: "draw"}[self.outcome.winner]
        return records.Game(engine.width, engine.height, engine.rule, [(x, y) for x, y, _ in engine.stones()],
                            black=you if self.human == BLACK else me, white=me if self.human == BLACK else you,
                            result=result)

    # --- output ------------------------------------------------------------------------------------------------------
    def draw(self) -> None:
        """Print the board."""
        engine = self.engine
        board = engine.board
        stones = {(x, y): color for x, y, color in engine.stones()}
        last = board.xy(board.last_move()) if board.move_count else None
        forbidden: Set[Point] = set()
        if self.outcome is None and engine.rule.has_forbidden and engine.side_to_move == BLACK:
            forbidden = set(engine.forbidden_points())
        five = set(self.outcome.five) if self.outcome is not None else set()
        view = BoardView(engine.width, engine.height, stones, last, five, forbidden, self.hint)
        self.say("")
        self.say(screen.render_board(view, self.color))

    def point_name(self, point: Point) -> str:
        return records.format_point(point, self.engine.height)

    def example_point(self) -> str:
        return self.point_name((self.engine.width // 2, self.engine.height // 2))

    def search_name(self) -> str:
        """', Monte Carlo tree search' when --engine mcts chose it (it plays at full strength), else ''."""
        if self.options.engine_kind == "mcts" and self.level.strength == levels.FULL_STRENGTH:
            return ", Monte Carlo tree search"
        return ""

    def rule_name(self) -> str:
        return self.engine.rule.name.lower().replace("_", " ")


def file_error(error: BaseException, path: str) -> str:
    """The message of a file error without the path that the caller names anyway."""
    if isinstance(error, OSError):
        return error.strerror or str(error)
    message = str(error)
    for prefix in (f"cannot read {path}: ", f"cannot write {path}: ", f"{path}: ", f"{path} "):
        if message.startswith(prefix):
            return message[len(prefix):]
    return message


# --- the terminal ----------------------------------------------------------------------------------------------------
def options_from_args(args: argparse.Namespace) -> PlayOptions:
    """PlayOptions from the parsed command line; raises PlayError for a bad value."""
    try:
        width, height = parse_size(args.size) if args.size else (15, 15)
    except ValueError as error:
        raise PlayError(str(error)) from None
    if args.level is not None:
        try:
            levels.level_by_number(args.level)
        except ValueError:
            raise PlayError(f"--level must be 1..{len(levels.LEVELS)}: " + ", ".join(
                f"{level.number} {level.name}" for level in levels.LEVELS)) from None
    if not (args.time > 0 and args.time <= 3600):
        raise PlayError("--time must be more than 0 and at most 3600 seconds")
    engine_kind = getattr(args, "engine", None)
    if engine_kind == "uct":
        raise PlayError("--engine uct is only for --game connect4 (gomoku: alphabeta or mcts)")
    if getattr(args, "first", None) is not None:
        raise PlayError("--first is for --game connect4: in gomoku say who plays black with --black human|engine")
    return PlayOptions(width=width, height=height, rule=RULES[args.rule or "freestyle"],
                       human=WHITE if args.black == "engine" else BLACK, level=args.level, time_s=args.time,
                       show_thinking=args.show_thinking, load=args.load, rule_given=args.rule is not None,
                       human_given=args.black is not None, engine_kind=engine_kind)


def run_play(args: argparse.Namespace) -> int:
    """`pbrain-pentad play`: the game in this terminal. Returns the exit status."""
    import sys

    try:
        options = options_from_args(args)
    except PlayError as error:
        print(f"pbrain-pentad play: error: {error}", file=sys.stderr)
        return 2
    out = sys.stdout
    interactive = screen.is_tty(sys.stdin) and screen.is_tty(out)
    if interactive:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    status = screen.StatusLine(out, screen.is_tty(out))
    try:
        status.show("Setting up the board...")
        session = PlaySession(options, input, out, color=screen.wants_color(out), live=screen.is_tty(out))
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
