"""`pbrain-pentad play`: the game and command logic (PlaySession driven by scripted lines), the board drawing, and
the real program in a pseudo-terminal (pexpect)."""
from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

import pytest

from pbrain import records
from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.engine import Engine
from pbrain.frontends.play import PlayError, PlayOptions, PlaySession, format_eval, options_from_args, parse_size
from pbrain.frontends.screen import BoardView, render_board, wants_color
from tests import terminal_child

ROOT = Path(__file__).resolve().parent.parent
TIME_S = 0.05
Point = Tuple[int, int]

# Black to move; white has an open four b10-e10 (it wins next move unless black wins first: it cannot).
WHITE_FOUR = [(10, 10), (1, 5), (12, 12), (2, 5), (10, 12), (3, 5), (12, 10), (4, 5)]
# Black to move with an open four h8-k8.
BLACK_FOUR = [(7, 7), (0, 14), (8, 7), (0, 12), (9, 7), (0, 10), (10, 7), (0, 8)]
# Renju, black to move: i8 (8, 7) would make two open threes (g8-i8 and i10-i8).
DOUBLE_THREE = [(6, 7), (0, 0), (7, 7), (0, 14), (8, 5), (14, 0), (8, 6), (14, 14)]


class Script:
    """Input lines for a session; EOFError when they run out. Prompts are written to the output like input()."""

    def __init__(self, lines: Iterable[str], out: io.StringIO) -> None:
        self.lines = list(lines)
        self.out = out

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        self.out.write(line + "\n")
        return line


_ENGINES: Dict[Rule, Engine] = {}


def make_session(lines: Iterable[str] = (), **options: object) -> Tuple[PlaySession, io.StringIO]:
    """A session with a small hash table (one engine per rule, reused), 0.05 s a move, plain text."""
    opts = PlayOptions(time_s=TIME_S, **options)  # type: ignore[arg-type]
    engine = _ENGINES.setdefault(opts.rule, Engine(15, 15, opts.rule, memory_bytes=64 * 1024 * 1024))
    out = io.StringIO()
    return PlaySession(opts, Script(lines, out), out, engine=engine), out


def take(out: io.StringIO) -> str:
    """What was written since the last take."""
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


def with_position(moves: List[Point], rule: Rule = Rule.FREESTYLE, **options: object) -> Tuple[PlaySession,
                                                                                              io.StringIO]:
    """A started session on a loaded position (the person takes the side to move)."""
    session, out = make_session(rule=rule, **options)
    session.load_game(records.Game(15, 15, rule, list(moves)))
    session.start()
    return session, out


def last_board(text: str) -> Dict[Point, str]:
    """The characters of the last plain-text board drawn in `text`, by point (15 high boards and smaller)."""
    boards: List[Dict[Point, str]] = []
    height = 0
    for raw in text.replace("\r", "").split("\n"):
        match = re.match(r"^\s*(\d+) ([ .XOx?\[\]()\-]+) (\d+)\s*$", raw)
        if match is None or match.group(1) != match.group(3):
            continue
        row = int(match.group(1))
        if row > height or not boards:
            boards.append({})
        height = row
        cells = match.group(2)[1::2]
        for x, char in enumerate(cells):
            boards[-1][(x, row)] = char
    assert boards, f"no board in {text!r}"
    top = max(r for _, r in boards[-1])
    return {(x, top - r): char for (x, r), char in boards[-1].items()}


def stones_of(session: PlaySession) -> List[Tuple[int, int, int]]:
    return session.engine.stones()


def free_point(session: PlaySession) -> str:
    """An empty point near the centre, in letter notation."""
    taken = {(x, y) for x, y, _ in stones_of(session)}
    free = min((abs(x - 7) + abs(y - 7), (x, y)) for y in range(15) for x in range(15) if (x, y) not in taken)[1]
    return records.format_point(free, 15)


# --- pure helpers ------------------------------------------------------------------------------------------------
def test_parse_size() -> None:
    assert parse_size("15") == (15, 15)
    assert parse_size("20x12") == (20, 12)
    for bad in ("4", "23", "15x30", "big", "0x0"):
        with pytest.raises(ValueError):
            parse_size(bad)


def test_options_from_the_command_line() -> None:
    from argparse import Namespace

    def args(**given: object) -> Namespace:
        values = dict(size=None, rule=None, black=None, level=None, time=1.0, load=None, show_thinking=False)
        values.update(given)
        return Namespace(**values)

    options = options_from_args(args())
    assert (options.width, options.height, options.rule, options.human, options.level) == (
        15, 15, Rule.FREESTYLE, BLACK, None)
    assert not options.rule_given and not options.human_given
    options = options_from_args(args(size="20x9", rule="renju", black="engine", level=2, time=0.5))
    assert (options.width, options.height, options.rule, options.human, options.level, options.time_s) == (
        20, 9, Rule.RENJU, WHITE, 2, 0.5)
    assert options.rule_given and options.human_given
    for bad in (dict(size="3"), dict(level=0), dict(level=99), dict(time=0), dict(time=-1.0)):
        with pytest.raises(PlayError):
            options_from_args(args(**bad))


def test_format_eval() -> None:
    assert format_eval(35) == "+35"
    assert format_eval(-120) == "-120"
    assert format_eval(0) == "+0"
    assert format_eval(30000 - 7) == "win in 4"   # five with the 4th own move
    assert format_eval(30000 - 1) == "win in 1"
    assert format_eval(-(30000 - 6)) == "loss in 3"


def test_render_board_marks() -> None:
    stones = {(7, 7): BLACK, (8, 8): WHITE}
    text = render_board(BoardView(15, 15, stones, last=(8, 8), forbidden={(0, 0)}, hint=(1, 1)))
    lines = text.split("\n")
    assert lines[0].split() == list("abcdefghijklmno") and lines[-1] == lines[0]
    assert lines[1].startswith("15  x") and lines[1].endswith(" 15")
    assert lines[8].split()[0] == "8" and " X " in lines[8]
    assert "[O]" in lines[9] and lines[9].startswith(" 7")
    assert "?" in lines[2]
    assert "\x1b[" not in text
    assert "\x1b[" in render_board(BoardView(15, 15, stones, last=(8, 8)), color=True)


def test_render_winning_five() -> None:
    row = {(x, 3): BLACK for x in range(2, 7)}
    text = render_board(BoardView(9, 9, row, last=(6, 3), five=set(row)))
    assert "(X-X-X-X[X]" in text
    column = {(1, y): WHITE for y in range(5)}
    text = render_board(BoardView(9, 9, column, last=(1, 0), five=set(column)))
    assert text.count("(O)") == 4 and text.count("[O]") == 1


def test_wants_color(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert wants_color(Tty()) and not wants_color(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_color(Tty())


# --- the session ---------------------------------------------------------------------------------------------------
def test_moves_in_both_notations_and_engine_answers() -> None:
    session, out = make_session()
    session.start()
    assert "Move 1" in session.prompt()
    take(out)
    session.handle("h8")
    text = take(out)
    stones = stones_of(session)
    assert stones[0] == (7, 7, BLACK) and len(stones) == 2 and stones[1][2] == WHITE
    answer = re.search(r"Pentad plays ([a-o]\d+)\.", text)
    assert answer is not None
    wx, wy = records.parse_point(answer.group(1), 15, 15)
    assert (wx, wy) == stones[1][:2]
    board = last_board(text)
    assert board[(7, 7)] == "X" and board[(wx, wy)] == "O"
    assert re.search(r"\[O\]", text)  # the last move is bracketed
    point = records.parse_point(free_point(session), 15, 15)
    session.handle(f"{point[0]},{point[1]}")
    assert stones_of(session)[2] == (*point, BLACK)


def test_uppercase_and_spaces() -> None:
    session, out = make_session()
    session.start()
    session.handle("  H8 ")
    assert stones_of(session)[0] == (7, 7, BLACK)
    session.handle("undo")
    session.handle("7, 7")
    assert stones_of(session)[0] == (7, 7, BLACK)


def test_undo_takes_back_a_pair() -> None:
    session, out = make_session()
    session.start()
    session.handle("undo")
    assert "Nothing to take back" in take(out)
    session.handle("h8")
    session.handle("undo")
    assert stones_of(session) == []
    assert re.search(r"Took back h8 and [a-o]\d+\.", take(out))
    assert session.engine.side_to_move == BLACK


def test_undo_when_the_engine_plays_black() -> None:
    session, out = make_session(human=WHITE)
    session.start()
    first = stones_of(session)
    assert len(first) == 1 and first[0][2] == BLACK
    session.handle("undo")
    assert "Nothing to take back" in take(out)
    session.handle(free_point(session))
    assert len(stones_of(session)) == 3
    session.handle("undo")
    assert stones_of(session) == first and session.engine.side_to_move == WHITE


def test_swap() -> None:
    session, out = make_session()
    session.start()
    take(out)
    session.handle("swap")
    text = take(out)
    assert "You now play white (O)" in text and "Pentad plays" in text
    assert session.human == WHITE and len(stones_of(session)) == 1 and stones_of(session)[0][2] == BLACK
    assert session.engine.side_to_move == WHITE
    session.handle("swap")
    assert session.human == BLACK and len(stones_of(session)) == 2
    assert session.engine.side_to_move == BLACK


def test_hint_is_not_played() -> None:
    session, out = make_session()
    session.start()
    session.handle("h8")
    take(out)
    before = stones_of(session)
    session.handle("hint")
    text = take(out)
    assert stones_of(session) == before
    hint = re.search(r"Hint: ([a-o]\d+) \(eval ", text)
    assert hint is not None
    assert last_board(text)[records.parse_point(hint.group(1), 15, 15)] == "?"
    assert session.engine.strength == 100


def test_level_and_thinking() -> None:
    session, out = make_session(level=1, show_thinking=True)
    session.start()
    assert "level 1 of" in take(out)
    session.handle("h8")
    assert "picks by shape" in take(out)
    session.handle("level 99")
    assert "There is no level" in take(out)
    session.handle("level 3")
    assert session.level.number == 3
    session.handle(free_point(session))
    assert re.search(r"eval [-+]\d+, depth \d+, [\d.]+ s, pv [a-o]\d+", take(out))


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    session, out = make_session(rule=Rule.RENJU)
    session.start()
    session.handle("h8")
    session.handle("save")
    assert "Usage: save FILE" in take(out)
    moves = [(x, y) for x, y, _ in stones_of(session)]
    for name in ("game.psq", "game.sgf", "game.txt"):
        session.handle(f"save {tmp_path / name}")
        assert f"Saved 2 moves to {tmp_path / name}" in take(out)
        game = records.load(str(tmp_path / name))
        assert (game.moves, game.rule) == (moves, Rule.RENJU)
        fresh, fresh_out = make_session()
        fresh.start()
        fresh.handle(f"load {tmp_path / name}")
        assert [(x, y) for x, y, _ in stones_of(fresh)] == moves and fresh.engine.rule is Rule.RENJU
        assert "Loaded" in take(fresh_out) and fresh.human == BLACK


def test_load_option_and_side_to_move(tmp_path: Path) -> None:
    path = tmp_path / "three.txt"
    path.write_text("# 9x9 standard\ne5 f6 d4\n")
    session, out = make_session(load=str(path))
    session.start()
    assert session.engine.width == 9 and session.engine.rule is Rule.STANDARD
    assert session.human == WHITE and len(stones_of(session)) == 3  # you continue with the side to move
    assert "Loaded" in out.getvalue()
    kept, _ = make_session(load=str(path), human=BLACK, human_given=True, rule=Rule.FREESTYLE, rule_given=True)
    kept.start()
    assert kept.human == BLACK and kept.engine.rule is Rule.FREESTYLE and len(stones_of(kept)) == 4


def test_bad_files_keep_the_game(tmp_path: Path) -> None:
    session, out = make_session()
    session.start()
    session.handle("h8")
    before = stones_of(session)
    take(out)
    bad = tmp_path / "bad.psq"
    bad.write_text("not a game\n")
    twice = tmp_path / "twice.txt"
    twice.write_text("h8 i9 h8\n")
    after_five = tmp_path / "after.txt"
    after_five.write_text("a1 h8 b1 h9 c1 h10 d1 h11 e1 h12\n")
    for path in (tmp_path / "missing.sgf", bad, twice, after_five):
        session.handle(f"load {path}")
        text = take(out)
        assert text.startswith("Cannot load") and text.count("\n") == 1, text
        assert stones_of(session) == before
    session.handle(f"save {tmp_path / 'no' / 'such' / 'dir.txt'}")
    assert take(out).startswith("Cannot save")


def test_bad_input_messages() -> None:
    session, out = make_session()
    session.start()
    take(out)
    expected = {"foo": "neither a move nor a command", "z99": "off the board", "16,3": "off the board",
                "p1": "off the board", "load": "Usage: load FILE"}
    for line, message in expected.items():
        session.handle(line)
        text = take(out)
        assert message in text and text.count("\n") == 1, (line, text)
    session.handle("h8")
    take(out)
    session.handle("h8")
    assert "h8 is already taken" in take(out)
    session.handle("")
    assert take(out) == ""
    session.handle("help")
    assert "undo" in take(out)


def test_forbidden_point_refused_under_renju() -> None:
    session, out = with_position(DOUBLE_THREE, Rule.RENJU)
    assert session.human == BLACK and session.engine.is_forbidden(8, 7)
    assert last_board(take(out))[(8, 7)] == "x"
    session.handle("i8")
    text = take(out)
    assert "i8 is forbidden for black under renju" in text and text.count("\n") == 1
    assert len(stones_of(session)) == len(DOUBLE_THREE)


def test_human_five_is_detected_and_marked() -> None:
    session, out = with_position(BLACK_FOUR)
    take(out)
    session.handle("l8")
    text = take(out)
    assert "Five in a row (h8 i8 j8 k8 l8): You win!" in text
    assert "(X-X-X-X[X]" in text
    assert session.outcome is not None and session.outcome.winner == BLACK
    assert session.prompt().startswith("Game over - new, undo, save FILE or quit")
    session.handle("m8")
    assert "The game is over" in take(out)
    session.handle("hint")
    assert "The game is over" in take(out)
    session.handle("undo")
    assert "Took back l8." in take(out) and session.outcome is None
    assert len(stones_of(session)) == len(BLACK_FOUR)


def test_engine_five_and_result_saved(tmp_path: Path) -> None:
    session, out = with_position(WHITE_FOUR)
    take(out)
    session.handle("o1")
    text = take(out)
    assert re.search(r"Pentad plays (a10|f10)\.", text)
    assert "Pentad wins." in text
    assert session.outcome is not None and session.outcome.winner == WHITE
    assert len(session.engine.winning_line()) == 5
    session.handle(f"save {tmp_path / 'lost.sgf'}")
    assert records.load(str(tmp_path / "lost.sgf")).result == "W+"
    session.handle("new")
    assert stones_of(session) == [] and session.outcome is None


def test_full_board_is_a_draw() -> None:
    rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"]
    black = [(x, y) for y in range(5) for x in range(5) if rows[y][x] == "X" and (x, y) != (4, 4)]
    white = [(x, y) for y in range(5) for x in range(5) if rows[y][x] == "O"]
    moves = [point for pair in zip(black, white) for point in pair]
    session, out = make_session(width=5, height=5)
    session.load_game(records.Game(5, 5, Rule.FREESTYLE, moves))
    session.start()
    session.handle("e1")
    assert "The board is full: a draw." in take(out)


def test_resign_and_take_it_back() -> None:
    session, out = make_session()
    session.start()
    session.handle("resign")
    assert "You resign: Pentad wins." in take(out)
    session.handle("resign")
    assert "already over" in take(out)
    session.handle("undo")
    assert "Resignation taken back" in take(out) and session.outcome is None


def test_run_ends_cleanly_on_eof_and_quit() -> None:
    session, out = make_session(["h8", "bogus"])
    assert session.run() == 0
    assert out.getvalue().rstrip().endswith("Goodbye.")
    session, out = make_session(["quit", "h8"])
    assert session.run() == 0 and stones_of(session) == []


def test_ctrl_c_at_the_prompt() -> None:
    def interrupted(_prompt: str) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    session = PlaySession(PlayOptions(time_s=TIME_S), interrupted, out,
                          engine=Engine(15, 15))
    assert session.run() == 0 and "Goodbye." in out.getvalue()


# --- the program in a pseudo-terminal ------------------------------------------------------------------------------
pexpect = pytest.importorskip("pexpect")


def spawn(*args: str, color: bool = False) -> "pexpect.spawn":  # noqa: F821
    return terminal_child.spawn(("play", *args), color=color)


def finish(child: "pexpect.spawn") -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def test_terminal_session(tmp_path: Path) -> None:
    child = spawn("--time", "0.1", "--show-thinking")
    child.expect("Move 1, you play X: ")
    assert last_board(child.before)[(7, 7)] == "."
    child.sendline("h8")
    child.expect(r"Pentad plays ([a-o]\d+)\.")
    reply = records.parse_point(child.match.group(1), 15, 15)
    board = last_board(child.before)
    assert board[(7, 7)] == "X" and board[reply] == "O"
    child.expect(r"eval [-+]\d+, depth \d+")
    child.expect("Move 3, you play X: ")
    child.sendline("hint")
    child.expect(r"Hint: ([a-o]\d+) \(")
    child.expect("Move 3, you play X: ")
    child.sendline("what")
    child.expect("neither a move nor a command")
    child.expect("Move 3, you play X: ")
    game = tmp_path / "game.sgf"
    child.sendline(f"save {game}")
    child.expect("Saved 2 moves")
    child.expect("Move 3, you play X: ")
    child.sendline("undo")
    child.expect(r"Took back h8 and [a-o]\d+\.")
    child.expect("Move 1, you play X: ")
    child.sendline("quit")
    child.expect("Goodbye.")
    assert finish(child) == 0
    assert records.load(str(game)).moves == [(7, 7), reply]
    transcript = child.before or ""
    assert "\x1b[1;31m" not in transcript  # NO_COLOR: no colour


def test_terminal_game_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "near.txt"
    path.write_text("# 15x15 freestyle\n" + records.format_moves(WHITE_FOUR, 15) + "\n")
    child = spawn("--time", "0.1", "--load", str(path))
    child.expect("Move 9, you play X: ")
    child.sendline("o1")
    child.expect(r"Pentad plays (a10|f10)\.")
    child.expect(r"Five in a row \(([a-o]\d+ ?){5}\): Pentad wins\.")
    child.expect("Game over - new, undo, save FILE or quit: ")
    child.sendline("n1")
    child.expect("The game is over")
    child.expect("Game over - new, undo, save FILE or quit: ")
    child.sendeof()
    child.expect("Goodbye.")
    assert finish(child) == 0


def test_terminal_ctrl_c_while_thinking() -> None:
    child = spawn("--time", "20", "--black", "engine", color=True)
    child.expect(r"Pentad is thinking\.\.\. ")
    child.sendintr()
    child.expect("Goodbye.")
    assert finish(child) == 0


def test_terminal_colour_and_bad_option() -> None:
    child = spawn("--time", "0.05", color=True)
    child.expect("you play ")
    assert "\x1b[" in child.before
    child.sendintr()
    child.expect("Goodbye.")
    assert finish(child) == 0
    child = spawn("--size", "40")
    child.expect("out of range")
    assert finish(child) == 2


def test_the_tree_search_plays_when_asked() -> None:
    session, out = make_session(["h8", "hint"], engine_kind="mcts", show_thinking=True)
    session.run()
    text = take(out)
    assert "Monte Carlo tree search" in text.splitlines()[0]
    answer, hint = text.split("hint\n")
    assert "Pentad plays" in answer and "simulations" in answer, "the tree search answered"
    assert "Hint:" in hint and "simulations" not in hint, "hints come from the alpha-beta search"
    session.engine.set_search_kind("alphabeta")
