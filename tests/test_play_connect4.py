"""`pbrain-pentad play --game connect4`: the session driven by scripted lines, the board drawing, the options, and
the real program in a pseudo-terminal (pexpect)."""
from __future__ import annotations

import io
import re
from argparse import Namespace
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

import pytest

from pbrain import cli
from pbrain.connect4 import players
from pbrain.connect4.bitboard import FIRST, SECOND, Connect4
from pbrain.frontends import play
from pbrain.frontends.play import PlayError
from pbrain.frontends.play_connect4 import (
    Connect4Options,
    Connect4Session,
    find_player,
    options_from_args,
    parse_moves,
    render_board,
)
from tests import terminal_child

ROOT = Path(__file__).resolve().parent.parent
TIME_S = 0.05
Cell = Tuple[int, int]

# 42 moves that fill the board with no four (the columns alternate colours, their bottoms X X O O X X O).
FULL_DRAW = "111111222222533333344444455555666667777776"
# X has 1-2-3 on the bottom row and is to move: 4 wins.
X_TO_WIN = "112233"
# X has 1-2-3 on the bottom row and O is to move.
X_THREATENS = "11223"


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


def make_session(lines: Iterable[str] = (), **options: object) -> Tuple[Connect4Session, io.StringIO]:
    """A session at 0.05 s a move, plain text."""
    out = io.StringIO()
    opts = Connect4Options(time_s=TIME_S, **options)  # type: ignore[arg-type]
    return Connect4Session(opts, Script(lines, out), out), out


def started(moves: str = "", **options: object) -> Tuple[Connect4Session, io.StringIO]:
    """A started session on the position after `moves` (the person takes the side to move); output taken."""
    session, out = make_session(**options)
    session.set_game(Connect4(moves))
    session.start()
    take(out)
    return session, out


def take(out: io.StringIO) -> str:
    """What was written since the last take."""
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


def boards(text: str) -> List[List[str]]:
    """The plain-text boards drawn in `text`, each as its 6 rows from the top (the 15 characters between the
    walls)."""
    found: List[List[str]] = []
    rows: List[str] = []
    for raw in text.replace("\r", "").split("\n"):
        match = re.match(r"^\s*\|(.{15})\|\s*$", raw)
        if match:
            rows.append(match.group(1))
            if len(rows) == 6:
                found.append(rows)
                rows = []
        else:
            rows = []
    return found


def last_board(text: str) -> Dict[Cell, str]:
    """The cells of the last board drawn in `text`, by (column, row) from 0 with row 0 at the bottom."""
    found = boards(text)
    assert found, f"no board in {text!r}"
    rows = found[-1]
    return {(column, 5 - index): row[2 * column + 1] for index, row in enumerate(rows) for column in range(7)}


def row_text(text: str, row: int) -> str:
    """Row `row` (0: the bottom) of the last board, walls excluded, as drawn."""
    return boards(text)[-1][5 - row]


def engine_reply(text: str) -> int:
    """The 1-based column of 'Pentad plays N.' in `text`."""
    match = re.search(r"Pentad plays (\d)\.", text)
    assert match is not None, text
    return int(match.group(1))


def args(**given: object) -> Namespace:
    """A parsed `play` command line with defaults."""
    values = dict(game="connect4", engine=None, first=None, size=None, rule=None, black=None, level=None,
                  time=1.0, load=None, show_thinking=False)
    values.update(given)
    return Namespace(**values)


# --- drawing and options -------------------------------------------------------------------------------------------
def test_render_board_shape_and_marks() -> None:
    game = Connect4("44")
    lines = render_board(game).split("\n")
    assert len(lines) == 8
    assert lines[-1].split() == [str(column) for column in range(1, 8)]
    assert lines[-2].strip() == "+---------------+"
    assert lines[4].strip() == "| . . .[O]. . . |"
    assert lines[5].strip() == "| . . . X . . . |"
    # the numbers sit under the cells
    assert [lines[-1].index(str(column + 1)) for column in range(7)] == [lines[5].index("|") + 2 + 2 * column
                                                                         for column in range(7)]
    with_hint = render_board(game, hint=2).split("\n")
    assert with_hint[5].strip() == "| . . ? X . . . |"
    assert "\x1b[" not in render_board(game, hint=2)
    colored = render_board(game, color=True)
    assert "\x1b[1;31mX" in colored and "\x1b[1;94mO" in colored


def test_render_the_winning_four() -> None:
    across = Connect4("1122334")
    text = render_board(across, tuple(across.winning_cells()))
    assert "|(X-X-X[X]. . . |" in text
    up = Connect4("1212121")
    text = render_board(up, tuple(up.winning_cells()))
    assert text.count("(X)") == 3 and text.count("[X]") == 1


def test_parse_moves() -> None:
    assert parse_moves(" 44 53\n1\n") == "44531"
    assert parse_moves("") == ""
    for bad in ("4a", "48", "40", "4-5", "４"):
        with pytest.raises(ValueError):
            parse_moves(bad)


def test_options_from_the_command_line() -> None:
    options = options_from_args(args())
    assert (options.human, options.engine, options.time_s, options.human_given) == (FIRST, "alphabeta", 1.0, False)
    options = options_from_args(args(first="engine", time=0.5, show_thinking=True, load="game.txt"))
    assert (options.human, options.human_given, options.time_s, options.show_thinking, options.load) == (
        SECOND, True, 0.5, True, "game.txt")
    for bad, message in ((dict(size="9"), "--size is for gomoku"), (dict(rule="renju"), "--rule is for gomoku"),
                         (dict(level=3), "--level is for gomoku"), (dict(black="engine"), "--first"),
                         (dict(time=0), "--time"), (dict(time=-1.0), "--time")):
        with pytest.raises(PlayError, match=message):
            options_from_args(args(**bad))


def test_missing_engine_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(players, "PLAYERS", {"alphabeta": players.PLAYERS["alphabeta"]})
    with pytest.raises(PlayError, match=r"engine 'uct' is not available .*\(have: alphabeta\)"):
        options_from_args(args(engine="uct"))
    with pytest.raises(PlayError, match="'mcts' is not available"):
        find_player("mcts")
    session, out = started()
    monkeypatch.setattr(players, "PLAYERS", {})
    session.handle("hint")
    text = take(out)
    assert "The Connect Four engine 'alphabeta' is not available" in text and text.count("\n") == 1
    session.handle("4")
    text = take(out)
    assert "not available" in text and session.game.moves_string() == "4"
    session.handle("5")
    assert "It is Pentad's turn" in take(out) and session.game.moves_string() == "4"


def test_gomoku_options_for_the_other_game() -> None:
    gomoku = dict(game="gomoku")
    assert play.options_from_args(args(**gomoku)).engine_kind is None
    assert play.options_from_args(args(engine="mcts", **gomoku)).engine_kind == "mcts"
    with pytest.raises(PlayError, match="--engine uct is only for --game connect4"):
        play.options_from_args(args(engine="uct", **gomoku))
    with pytest.raises(PlayError, match="--first is for --game connect4"):
        play.options_from_args(args(first="engine", **gomoku))


def test_command_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--game", "connect4", "--size", "9"]) == 2
    error = capsys.readouterr().err
    assert error == "pbrain-pentad play: error: --size is for gomoku: Connect Four is always 7 columns by 6 rows\n"
    assert cli.main(["play", "--engine", "uct"]) == 2
    assert "only for --game connect4" in capsys.readouterr().err


# --- the session ---------------------------------------------------------------------------------------------------
def test_moves_and_engine_answers() -> None:
    session, out = make_session()
    session.start()
    text = take(out)
    assert "Connect Four" in text and "You play X (first)" in text
    assert set(last_board(text).values()) == {"."}
    assert session.prompt() == "Move 1, you play X: "
    session.handle(" 4 ")
    text = take(out)
    reply = engine_reply(text)
    history = session.game.history()
    assert history == [3, reply - 1]
    board = last_board(text)
    assert board[(3, 0)] == "X"
    reply_row = 1 if reply == 4 else 0
    assert board[(reply - 1, reply_row)] == "O"
    assert "[O]" in row_text(text, reply_row)
    assert session.prompt() == "Move 3, you play X: "


def test_bad_input_lines() -> None:
    session, out = started()
    expected = {"foo": "neither a column nor a command", "8": "There is no column 8", "0": "There is no column 0",
                "44": "There is no column 44", "d4": "neither a column nor a command", "save": "Usage: save FILE",
                "load": "Usage: load FILE", "-1": "neither a column nor a command"}
    for line, message in expected.items():
        session.handle(line)
        text = take(out)
        assert message in text and text.count("\n") == 1, (line, text)
    assert session.game.move_count == 0
    session.handle("")
    session.handle("   ")
    assert take(out) == ""
    session.handle("help")
    assert "undo" in take(out)


def test_full_column_is_refused() -> None:
    session, out = started("444444")
    session.handle("4")
    text = take(out)
    assert "Column 4 is full." in text and text.count("\n") == 1
    assert session.game.move_count == 6


def test_undo_takes_back_a_pair() -> None:
    session, out = started()
    session.handle("undo")
    assert "Nothing to take back" in take(out)
    session.handle("4")
    reply = engine_reply(take(out))
    session.handle("undo")
    assert f"Took back 4 and {reply}." in take(out)
    assert session.game.move_count == 0 and session.game.side == FIRST


def test_undo_when_the_engine_moves_first() -> None:
    session, out = make_session(human=SECOND)
    session.start()
    first = session.game.moves_string()
    assert len(first) == 1 and "Pentad plays" in take(out)
    session.handle("undo")
    assert "Nothing to take back" in take(out)
    session.handle("1")
    assert session.game.move_count == 3
    session.handle("undo")
    assert session.game.moves_string() == first and session.game.side == SECOND


def test_swap() -> None:
    session, out = started()
    session.handle("swap")
    text = take(out)
    assert "You now play O (second); Pentad plays X (first)." in text and "Pentad plays" in text
    assert session.human == SECOND and session.game.move_count == 1
    session.handle("swap")
    assert session.human == FIRST and session.game.move_count == 2 and session.game.side == FIRST


def test_hint_is_shown_not_played() -> None:
    session, out = started(X_TO_WIN)
    session.handle("hint")
    text = take(out)
    assert re.search(r"Hint: 4 \(win", text), text
    assert last_board(text)[(3, 0)] == "?"
    assert session.game.moves_string() == X_TO_WIN and session.outcome is None
    session.handle("board")
    assert last_board(take(out))[(3, 0)] == "?"


def test_thinking_shows_the_eval() -> None:
    session, out = started(show_thinking=True)
    session.handle("4")
    assert re.search(r"Pentad plays \d\.\n  .+(, depth \d+)?, \d+ nodes, [\d.]+ s\n", take(out))
    session.handle("thinking")
    assert "hidden" in take(out)
    session.handle("1")
    assert "nodes" not in take(out)


def test_your_four_wins_and_game_over_commands() -> None:
    session, out = started(X_TO_WIN)
    assert session.human == FIRST
    session.handle("4")
    text = take(out)
    assert "Four in a row: You win!" in text
    assert row_text(text, 0) == "(X-X-X[X]. . . "
    assert session.outcome is not None and session.outcome.winner == FIRST
    assert session.prompt().startswith("Game over - new, undo, save FILE or quit")
    for line in ("5", "hint", "swap"):
        session.handle(line)
        text = take(out)
        assert "The game is over" in text and text.count("\n") == 1, line
    session.handle("resign")
    assert "already over" in take(out)
    session.handle("8")
    assert "There is no column 8" in take(out)
    session.handle("undo")
    assert "Took back 4." in take(out) and session.outcome is None
    assert session.game.moves_string() == X_TO_WIN


def test_engine_four_wins_and_is_saved(tmp_path: Path) -> None:
    session, out = started(X_THREATENS)
    assert session.human == SECOND
    session.handle("7")
    text = take(out)
    assert engine_reply(text) == 4
    assert "Four in a row: Pentad wins." in text
    assert row_text(text, 0) == "(X-X-X[X]. . O "
    assert session.outcome is not None and session.outcome.winner == FIRST
    path = tmp_path / "lost.txt"
    session.handle(f"save {path}")
    assert "Saved 7 moves" in take(out)
    assert path.read_text() == X_THREATENS + "74\n"
    session.handle("new")
    text = take(out)
    assert session.game.move_count == 1 and session.outcome is None  # Pentad moves first again
    assert "New game: you play O (second)." in text and "Pentad plays" in text


def test_full_board_is_a_draw() -> None:
    session, out = started(FULL_DRAW[:-1])
    assert session.human == SECOND
    session.handle(FULL_DRAW[-1])
    text = take(out)
    assert "The board is full: a draw." in text and "Pentad plays" not in text
    assert session.outcome is not None and session.outcome.winner is None
    assert "." not in "".join(last_board(text).values())


def test_resign_and_take_it_back() -> None:
    session, out = started()
    session.handle("resign")
    assert "You resign: Pentad wins." in take(out)
    session.handle("undo")
    assert "Resignation taken back" in take(out) and session.outcome is None


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    session, out = started()
    session.handle("4")
    session.handle("3")
    moves = session.game.moves_string()
    path = tmp_path / "game.c4"
    session.handle(f"save {path}")
    assert f"Saved 4 moves to {path}." in take(out)
    assert path.read_text() == moves + "\n"
    fresh, fresh_out = started()
    fresh.handle(f"load {path}")
    assert fresh.game.moves_string() == moves and fresh.human == FIRST
    assert "Loaded" in take(fresh_out)
    spaced = tmp_path / "spaced.txt"
    spaced.write_text(" 4 4\n5\t3 \n\n")
    fresh.handle(f"load {spaced}")
    assert fresh.game.moves_string() == "4453" and fresh.human == FIRST
    odd = tmp_path / "odd.txt"
    odd.write_text("445")
    fresh.handle(f"load {odd}")  # you take the side to move
    assert fresh.game.moves_string() == "445" and fresh.human == SECOND
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    fresh.handle(f"load {empty}")
    assert fresh.game.move_count == 0


def test_load_option(tmp_path: Path) -> None:
    path = tmp_path / "three.txt"
    path.write_text("445\n")
    session, out = make_session(load=str(path))
    session.start()
    assert session.human == SECOND and session.game.moves_string() == "445"
    assert "Loaded" in out.getvalue()
    kept, _ = make_session(load=str(path), human=FIRST, human_given=True)
    kept.start()
    assert kept.human == FIRST and kept.game.move_count == 4  # the sides kept: Pentad answered
    broken = tmp_path / "broken.txt"
    broken.write_text("44x\n")
    bad, _ = make_session(load=str(broken))
    with pytest.raises(PlayError, match=f"cannot load {broken}: 'x' \\(move 3\\) is not a column digit"):
        bad.start()


def test_bad_files_keep_the_game(tmp_path: Path) -> None:
    session, out = started()
    session.handle("4")
    before = session.game.moves_string()
    take(out)
    files = {"letters.txt": ("4453 h8\n", "is not a column digit"), "eight.txt": ("4483\n", "column 8"),
             "zero.txt": ("04\n", "column 0"), "full.txt": ("4444444\n", ""), "after.txt": ("12121215\n", ""),
             "binary.txt": (b"\xff\xfe\x00", "not a text file"), "long.txt": ("4" * 5000, "more than")}
    for name, (content, reason) in files.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        session.handle(f"load {path}")
        text = take(out)
        assert text.startswith(f"Cannot load {path}: ") and text.count("\n") == 1, (name, text)
        assert reason in text, (name, text)
        assert session.game.moves_string() == before
    for path in (tmp_path / "missing.txt", tmp_path):
        session.handle(f"load {path}")
        text = take(out)
        assert text.startswith("Cannot load") and text.count("\n") == 1, text
    session.handle(f"save {tmp_path / 'no' / 'such' / 'dir.txt'}")
    text = take(out)
    assert text.startswith("Cannot save") and "No such file" in text
    assert session.game.moves_string() == before


def test_run_ends_cleanly_on_eof_and_quit() -> None:
    session, out = make_session(["4", "bogus"])
    assert session.run() == 0
    assert out.getvalue().rstrip().endswith("Goodbye.")
    session, out = make_session(["quit", "4"])
    assert session.run() == 0 and session.game.move_count == 0


def test_ctrl_c_at_the_prompt() -> None:
    def interrupted(_prompt: str) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    session = Connect4Session(Connect4Options(time_s=TIME_S), interrupted, out)
    assert session.run() == 0 and out.getvalue().endswith("Goodbye.\n")


# --- the program in a pseudo-terminal ------------------------------------------------------------------------------
pexpect = pytest.importorskip("pexpect")


def spawn(*arguments: str, color: bool = False) -> "pexpect.spawn":  # noqa: F821
    return terminal_child.spawn(("play", "--game", "connect4", *arguments), color=color)


def finish(child: "pexpect.spawn") -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def test_terminal_session(tmp_path: Path) -> None:
    child = spawn("--time", "0.05", "--show-thinking")
    child.expect("Move 1, you play X: ")
    assert set(last_board(child.before).values()) == {"."}
    child.sendline("4")
    child.expect(r"Pentad plays (\d)\.")
    first_reply = int(child.match.group(1))
    assert last_board(child.before)[(3, 0)] == "X"
    child.expect(r"\d+ nodes, [\d.]+ s")
    child.expect("Move 3, you play X: ")
    child.sendline("3")
    child.expect(r"Pentad plays (\d)\.")
    child.expect("Move 5, you play X: ")
    child.sendline("hint")
    child.expect(r"Hint: (\d) \(")
    hint = int(child.match.group(1))
    assert "?" in "".join(last_board(child.before).values())
    assert 1 <= hint <= 7
    child.expect("Move 5, you play X: ")
    child.sendline("9")
    child.expect("There is no column 9")
    child.expect("Move 5, you play X: ")
    child.sendline("undo")
    child.expect(r"Took back 3 and \d\.")
    child.expect("Move 3, you play X: ")
    game = tmp_path / "game.txt"
    child.sendline(f"save {game}")
    child.expect("Saved 2 moves")
    child.expect("Move 3, you play X: ")
    child.sendeof()
    child.expect("Goodbye.")
    assert finish(child) == 0
    assert game.read_text() == f"4{first_reply}\n"
    assert "\x1b[1;31m" not in (child.before or "")  # NO_COLOR: no colour


def test_terminal_ctrl_c_while_thinking() -> None:
    child = spawn("--time", "20", "--first", "engine", color=True)
    child.expect(r"Pentad is thinking\.\.\. ")
    child.sendintr()
    child.expect("Goodbye.")
    assert finish(child) == 0


def test_terminal_colour_and_bad_option() -> None:
    child = spawn("--time", "0.05", color=True)
    child.expect("you play X: ")
    assert "\x1b[" in child.before
    child.sendintr()
    child.expect("Goodbye.")
    assert finish(child) == 0
    child = spawn("--rule", "renju")
    child.expect("--rule is for gomoku")
    assert finish(child) == 2
