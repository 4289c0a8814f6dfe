"""`pbrain-pentad play`: a game against Pentad in a terminal.

`PlaySession` is the game and command logic (the commands every terminal game shares are terminal.GameSession's);
it reads lines through a function (prompt -> line, raising EOFError at the end of input) and writes to a text
stream, so tests drive it with a list of lines and a StringIO.
`run_play` connects it to the terminal: readline editing, colour when stdout is a tty (and NO_COLOR is unset), the
status line while the engine thinks, and Ctrl-C / Ctrl-D leaving cleanly. The drawing is in screen.py.
"""
from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass
from typing import Callable, List, Optional, Set, TextIO, Tuple, cast

import pbrain
from pbrain import levels, records
from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.engine import BoardError, Engine, Limits, SearchInfo, SearchResult
from pbrain.frontends import screen
from pbrain.frontends.common import RULES, format_eval, parse_size
from pbrain.frontends.screen import BoardView, paint, stone_name
from pbrain.frontends.terminal import ENGINE_NAME, GAME_OVER, GameSession, Outcome, PlayError, file_error, run_session

Point = Tuple[int, int]
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


class PlaySession(GameSession):
    """One person against the engine at gomoku: the board, the game's commands, and the engine's turns (the
    commands every game shares are GameSession's; the loop, the thinking worker and the output TerminalSession's)."""

    def __init__(self, options: PlayOptions, read: Callable[[str], str], out: TextIO, color: bool = False,
                 live: bool = False, engine: Optional[Engine] = None) -> None:
        super().__init__(read, out, color, live, options.human, options.show_thinking)
        self.options = options
        self.turn_ms = max(1, int(round(options.time_s * 1000)))
        self.level = levels.LEVELS[-1] if options.level is None else levels.level_by_number(options.level)
        if engine is None:
            engine = Engine(options.width, options.height, options.rule)
        else:
            engine.new_game(options.width, options.height, options.rule)
        engine.prepare()  # the hash table is made now, not out of the engine's first turn
        self.engine = engine
        self.commands["level"] = self.cmd_level

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
            self.say(f"Loaded {self.options.load}: {self.engine.move_count} moves.")
        self.after_change()

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
            self.error(GAME_OVER)
            return
        name = self.point_name(point)
        if self.engine.stone(*point) != 0:
            self.error(f"{name} is already taken.")
            return
        if self.engine.side_to_move == BLACK and self.engine.is_forbidden(*point):
            self.error(f"{name} is forbidden for black under renju (double three, double four or overline).")
            return
        self.engine.play(*point)
        self.hint = None
        self.after_change()

    def side_to_move(self) -> int:
        return self.engine.side_to_move

    def engine_move(self) -> Callable[[], None]:
        result = self.think(f"{ENGINE_NAME} is thinking", self.level.strength, self.options.engine_kind or "alphabeta")
        move = result.move
        if move is None:
            return lambda: None
        self.engine.play(*move)
        return lambda: self.report_move(self.point_name(move), self.describe(result))

    def check_end(self) -> None:
        """Set the outcome when the last move made five or filled the board."""
        if self.outcome is not None:
            return
        if self.engine.last_move_wins():
            self.outcome = Outcome(self.engine.stones()[-1][2], "line", self.engine.winning_line())
        elif self.engine.is_full():
            self.outcome = Outcome(None, "full")

    def line_text(self) -> str:
        """'Five in a row (h8 i9 j10 k11 l12)'."""
        assert self.outcome is not None
        return f"Five in a row ({' '.join(self.point_name(p) for p in self.outcome.line)})"

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
            text += f", eval {format_eval(result.score)}, depth {result.depth}" if result.depth else ""
        elif result.reason == "win":
            text = "five"
        elif result.reason.startswith("mcts"):
            text = f"eval {format_eval(result.score)}, {result.nodes} simulations"
        else:
            text = f"eval {format_eval(result.score)}"
            text += f", depth {result.depth}" if result.depth else f" ({result.reason})"
        text += f", {result.time_ms / 1000:.1f} s"
        return text + (f", pv {pv}" if pv else "")

    # --- the game's part of the shared commands ---------------------------------------------------------------------
    file_errors = (records.RecordError, BoardError, OSError)
    save_usage = "Usage: save FILE (.psq Piskvork, .sgf, anything else a plain move list)."
    load_usage = "Usage: load FILE (.psq, .sgf or a plain move list)."
    thinking_template = ENGINE_NAME + "'s eval and principal variation are {}."

    def moves_played(self) -> int:
        return self.engine.move_count

    def side_label(self, side: int) -> str:
        return stone_name(side, self.color)

    def stone_char(self, side: int) -> str:
        return screen.STONE_CHAR[side]

    def reset_game(self) -> None:
        self.engine.new_game(self.engine.width, self.engine.height, self.engine.rule)

    def has_own_stone(self) -> bool:
        return any(color == self.human for _, _, color in self.engine.stones())

    def take_back(self) -> List[str]:
        stones = self.engine.stones()
        taken = []
        while True:
            x, y, color = stones.pop()
            self.engine.undo()
            taken.append(self.point_name((x, y)))
            if color == self.human:
                return taken

    def write_game(self, path: str) -> None:
        records.save(path, self.record())

    def load_file(self, path: str) -> str:
        game = records.load(path)
        self.load_game(game)
        return f"Loaded {path}: {self.rule_name()} on {self.engine.width}x{self.engine.height}, {len(game.moves)} moves"

    # --- commands ---------------------------------------------------------------------------------------------------
    def cmd_hint(self, _arg: str) -> None:
        """The engine's choice for the person at full strength (not played)."""
        if self.outcome is not None:
            self.error(GAME_OVER)
            return
        result = self.think("Looking for a hint", levels.FULL_STRENGTH, "alphabeta")
        if result.move is None:
            self.error("No move is left.")
            return
        self.hint = result.move
        self.draw()
        self.say(f"Hint: {paint(self.point_name(result.move), 'bold', self.color)} ({self.describe(result)}).")

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

    def help_text(self) -> str:
        """The help command's text."""
        return HELP

    # --- position --------------------------------------------------------------------------------------------------
    def load_game(self, game: records.Game, rule: Optional[Rule] = None, keep_colours: bool = False) -> None:
        """Set up a recorded game (games.replay: raises RecordError / BoardError and keeps the current game when it
        cannot be played); the person takes the side to move unless `keep_colours` or the game is already over."""
        engine = self.engine
        engine.load_game(game, rule)
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
        stones = {(x, y): color for x, y, color in engine.stones()}
        last = engine.last_move()
        forbidden: Set[Point] = set()
        if self.outcome is None and engine.rule.has_forbidden and engine.side_to_move == BLACK:
            forbidden = set(engine.forbidden_points())
        five = set(self.outcome.line) if self.outcome is not None else set()
        hint = cast(Optional[Point], self.hint)
        view = BoardView(engine.width, engine.height, stones, last, five, forbidden, hint)
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
    return run_session(args, options_from_args, PlaySession)
