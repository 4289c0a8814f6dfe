"""`pbrain-pentad analyze`: position analysis (best moves, threats, renju forbidden points against the `renju`
referee), game analysis (per-move evals and marks, summary, the PNG), --json, and bad input / Ctrl-C handling."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from pbrain import params, records
from pbrain.cli import main
from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.engine import Engine, Limits
from pbrain.frontends import analyze, analyze_cli, analyze_output
from pbrain.frontends.analyze import BLUNDER, MISSED_WIN, Threat, analyze_game, analyze_position, setup
from pbrain.frontends.play import format_eval
from tests import terminal_child

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "data" / "records"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DEPTH = 4
Point = Tuple[int, int]

QUIET = "h8 i9 g7 i7 i8 g8"
"""Black to move in an opening with no four on the board."""
BLACK_FOUR = "h8 g8 i8 h9 j8 g10 k8 a1"
"""Black to move: h8-k8 is a four blocked at g8 (five at l8); white has a three g8 g10 ... and h9."""
BLUNDER_GAME = "h8 h9 i8 i9 j8 j9 k8 g8 l8"
"""Black makes an open three h8-j8 (move 5); white ignores it (6. j9), black's open four (7. k8) wins at 9. l8."""
MISSED_WIN_GAME = "h8 h9 i8 i9 j8 g8 k8 j9 a1 l8"
"""White blocks the three (6. g8) but ignores black's four (8. j9); black misses the five l8 (9. a1)."""
RENJU_MOVES = "g8 a15 h8 a13 i6 a11 i7 o15 b2 o13 c2 o11 d2 o9 f2 o1 g2 m1"
"""Renju, black to move: i8 is a double three (g8 h8 and i6 i7), e2 an overline (b2-g2)."""


def game_of(moves: str, rule: Rule = Rule.FREESTYLE) -> records.Game:
    return records.Game(15, 15, rule, records.parse_moves(moves, 15, 15))


@pytest.fixture(scope="module")
def engine() -> Engine:
    """One engine with a small hash table for the function-API tests."""
    return Engine(15, 15, Rule.FREESTYLE, memory_bytes=64 << 20)


def run(capsys: pytest.CaptureFixture, *argv: str) -> Tuple[int, str, str]:
    status = main(["analyze", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def table(out: str) -> List[Dict[str, object]]:
    """The rows of the per-move table, cut at the header's columns ("#", side, move, eval, best, best eval,
    mark), with the move number also as an int under "number"."""
    lines = out.splitlines()
    header = next(line for line in lines if line.split()[:2] == ["#", "side"])
    names = ["#", "side", "move", "eval", "best", "best eval", "mark"]
    starts = [0] + [header.index(word) for word in names[1:]] + [None]
    rows = []
    for line in lines[lines.index(header) + 1:]:
        if not line.strip():
            break
        row: Dict[str, object] = {key: line[starts[i]:starts[i + 1]].strip() for i, key in enumerate(names)}
        row["number"] = int(str(row["#"]))
        rows.append(row)
    return rows


def name(point: Point) -> str:
    return records.format_point(point, 15)


def test_a_forced_block_is_scored_by_the_line_the_engine_searched_after_it() -> None:
    # White to move must block black's four at l8. Under a turn limit the engine spends the rest of the turn on the
    # position after the block and answers with that line: the evaluation takes it as it is, in one think (it used
    # to play the block and think a second time).
    engine = Engine(15, 15, Rule.FREESTYLE, memory_bytes=64 << 20)
    for point in records.parse_moves(BLACK_FOUR, 15, 15) + [(0, 0)]:
        engine.play(*point)
    thinks: List[object] = []
    original = engine.think

    def counted(*args: object, **kwargs: object) -> object:
        thinks.append(args)
        return original(*args, **kwargs)

    engine.think = counted  # type: ignore[method-assign]
    result = analyze.evaluate(engine, Limits(turn_ms=300))
    assert result.pv[0] == records.parse_moves("l8", 15, 15)[0] and result.depth >= 2 and len(result.pv) >= 2
    assert len(thinks) == 1


# ---------------------------------------------------------------- position

def test_position_api_gives_distinct_moves_with_evals_and_lines(engine: Engine) -> None:
    setup(game_of(QUIET), engine=engine)
    before = engine.stones()
    report = analyze_position(engine, 3, Limits(max_depth=DEPTH))
    assert engine.stones() == before  # the position is left as it was
    assert report.to_move == BLACK and report.winner is None
    moves = [line.move for line in report.lines]
    assert len(moves) == 3 and len(set(moves)) == 3
    taken = {(x, y) for x, y, _ in before}
    for line in report.lines:
        assert line.move not in taken
        assert line.pv and line.pv[0] == line.move
        assert isinstance(line.score, int) and not analyze.is_proven(line.score)
    assert report.lines[0].score >= max(line.score for line in report.lines[1:])
    assert report.forbidden == []


def test_a_four_is_listed_in_the_threats_and_taken(engine: Engine) -> None:
    setup(game_of(BLACK_FOUR), engine=engine)
    l8, g8 = records.parse_point("l8", 15, 15), records.parse_point("g8", 15, 15)
    black = engine.threats(BLACK)
    assert black[0] == Threat("five", [l8], "four")
    assert analyze_output.threat_text(black[0], 15) == "four (five at l8)"
    assert analyze_output.threats_text(black, 15).startswith("four (five at l8)")
    assert all(g8 not in t.points for t in black)  # an occupied point is never a threat point
    report = analyze_position(engine, 2, Limits(max_depth=DEPTH))
    assert report.lines[0].move == l8 and format_eval(report.lines[0].score) == "win in 1"


def test_open_three_and_open_four_are_named_with_their_points(engine: Engine) -> None:
    setup(game_of("h8 a1 i8 a3 j8 a15"), engine=engine)  # black's open three h8-j8, black to move
    found = engine.threats(BLACK)
    text = analyze_output.threats_text(found, 15)
    assert text.startswith("open three (open four at g8 or k8)"), text
    engine.play(*records.parse_point("k8", 15, 15))  # now an open four: fives at g8 and l8
    assert engine.threats(BLACK)[0] == Threat("five", [records.parse_point(p, 15, 15) for p in ("g8", "l8")],
                                                     "open four")


def test_position_cli_text(capsys: pytest.CaptureFixture) -> None:
    status, out, err = run(capsys, "--moves", BLACK_FOUR, "--depth", str(DEPTH))
    assert status == 0 and err == ""
    assert "black to move" in out
    ranked = [line.split() for line in out.splitlines() if line.strip()[:2] in ("1.", "2.", "3.")]
    assert len(ranked) == 3 and len({r[1] for r in ranked}) == 3
    assert ranked[0][1] == "l8" and "win in 1" in " ".join(ranked[0])
    assert "Black: four (five at l8)" in out


def test_position_json_has_the_documented_keys(capsys: pytest.CaptureFixture) -> None:
    status, out, _ = run(capsys, "--moves", QUIET, "--depth", "3", "--nbest", "4", "--json")
    assert status == 0
    data = json.loads(out)
    assert set(data) == {"mode", "width", "height", "rule", "history", "to_move", "game_over", "moves", "threats",
                         "forbidden"}
    assert data["mode"] == "position" and data["rule"] == "freestyle" and data["to_move"] == "black"
    assert data["history"] == QUIET.split() and data["game_over"] is None
    assert len(data["moves"]) == 4 and len({m["move"] for m in data["moves"]}) == 4
    for move in data["moves"]:
        assert set(move) == {"move", "eval", "eval_text", "proven", "depth", "reason", "pv"}
        assert move["pv"][0] == move["move"] and move["move"] not in data["history"]
        assert move["eval_text"] == format_eval(move["eval"])
        assert move["proven"] == (abs(move["eval"]) >= params.WIN_THRESHOLD)
    assert set(data["threats"]) == {"black", "white"}
    for entry in data["threats"]["black"] + data["threats"]["white"]:
        assert set(entry) == {"makes", "shape", "points", "text"} and entry["points"]
        assert all(point in entry["text"] for point in entry["points"])
    assert data["forbidden"] == []


# ---------------------------------------------------------------- renju

def test_renju_forbidden_points_agree_with_the_referee(capsys: pytest.CaptureFixture) -> None:
    referee = pytest.importorskip("renju.check_forbid")
    game = game_of(RENJU_MOVES, Rule.RENJU)
    engine = setup(game)
    grid = [[0] * 15 for _ in range(15)]
    for x, y, color in engine.stones():
        grid[x][y] = color
    expected = sorted((x, y) for x in range(15) for y in range(15)
                      if grid[x][y] == 0 and referee.get_foul_type(grid, x, y) != 0)
    assert {name(p) for p in expected} >= {"i8", "e2"}
    report = analyze_position(engine, 1, Limits(max_depth=2))
    assert report.forbidden == expected == sorted(engine.forbidden_points())
    forbidden_names = {name(p) for p in expected}
    assert all(not forbidden_names & {name(p) for p in t.points} for t in report.threats[BLACK])
    status, out, _ = run(capsys, "--rule", "renju", "--moves", RENJU_MOVES, "--depth", "2", "--json")
    assert status == 0 and sorted(json.loads(out)["forbidden"]) == sorted(forbidden_names)
    status, out, _ = run(capsys, "--rule", "renju", "--moves", RENJU_MOVES, "--depth", "2", "--nbest", "1")
    line = next(line for line in out.splitlines() if line.startswith("Forbidden for black"))
    assert set(line.split(":", 1)[1].split()) == forbidden_names


# ---------------------------------------------------------------- game

def test_game_api_marks_the_blunder(engine: Engine) -> None:
    report = analyze_game(game_of(BLUNDER_GAME), Limits(max_depth=DEPTH), engine=engine)
    assert [m.number for m in report.moves] == list(range(1, 10))
    assert [m.color for m in report.moves[:2]] == [BLACK, WHITE]
    assert report.moves[5].mark == BLUNDER and report.moves[5].best.move == records.parse_point("g8", 15, 15)
    assert [m.number for m in report.moves if m.color == WHITE and m.mark] == [6]
    assert report.result == "B+" and "Black won with a five at move 9" in report.result_text
    assert report.turning_point == 5
    assert report.moves[-1].score == params.WIN and report.moves[-1].score_text == "B five"
    assert report.moves[6].score_text.startswith("B wins in")  # black's open four: proven
    assert [(x, y) for x, y, _ in engine.stones()] == game_of(BLUNDER_GAME).moves


def test_game_cli_table_summary_and_png(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    picture = tmp_path / "evals.png"
    status, out, err = run(capsys, "--moves", MISSED_WIN_GAME, "--game", "--depth", str(DEPTH), "--png",
                           str(picture))
    assert status == 0 and err == ""
    rows = table(out)
    assert [int(row["#"]) for row in rows] == list(range(1, 11))
    assert [row["move"] for row in rows] == MISSED_WIN_GAME.split()
    assert [row["side"] for row in rows[:2]] == ["black", "white"]
    assert rows[8]["mark"] == MISSED_WIN and rows[8]["best"] == "l8"  # the five was there
    assert rows[8]["best eval"] == "B wins in 1"
    assert rows[7]["mark"] == BLUNDER  # white left the four open
    # Only 8 and 9 are decisive. Black's closed four 7. k8 (no follow-up, it spends a threat) may be called a
    # mistake at this shallow depth, depending on the evaluation; nothing before it is marked.
    assert [row["number"] for row in rows if row["mark"] in (BLUNDER, MISSED_WIN)] == [8, 9]
    assert [row["number"] for row in rows[:6] if row["mark"]] == []
    assert "Unfinished after 10 moves." in out
    assert "Turning point: move 9, black a1 (missed win)" in out
    data = picture.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 2000


def test_game_json(capsys: pytest.CaptureFixture) -> None:
    status, out, _ = run(capsys, "--moves", BLUNDER_GAME, "--game", "--depth", str(DEPTH), "--json")
    assert status == 0
    data = json.loads(out)
    assert set(data) == {"mode", "width", "height", "rule", "black", "white", "moves", "summary"}
    assert data["mode"] == "game" and len(data["moves"]) == 9
    for number, move in enumerate(data["moves"], 1):
        assert set(move) == {"number", "color", "move", "eval", "eval_text", "best", "best_eval", "best_eval_text",
                             "best_pv", "drop", "mark"}
        assert move["number"] == number and move["color"] == ("black" if number % 2 else "white")
        assert move["best_pv"][0] == move["best"]
        if move["move"] == move["best"]:
            assert move["mark"] is None and move["drop"] == 0
    assert data["moves"][-1]["eval"] == params.WIN and data["moves"][5]["mark"] == BLUNDER
    summary = data["summary"]
    assert set(summary) == {"result", "result_text", "final_eval", "marks", "turning_point"}
    assert summary["result"] == "B+" and summary["final_eval"] is None and summary["turning_point"] == 6
    assert [m["number"] for m in summary["marks"]["white"]] == [6]


def test_a_finished_record_file_gets_the_game_analysis(capsys: pytest.CaptureFixture) -> None:
    """The SGF fixture: white misses black's four at move 12 (its comment), black wins at 15."""
    status, out, _ = run(capsys, str(RECORDS / "site_export.sgf"), "--depth", "3", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["mode"] == "game" and data["rule"] == "renju" and len(data["moves"]) == 15
    assert data["moves"][11]["mark"] == BLUNDER and data["summary"]["turning_point"] == 12
    assert data["summary"]["result"] == "B+" and data["black"] == "Alice (1800)"
    status, out, _ = run(capsys, str(RECORDS / "site_export.sgf"), "--position", "--depth", "2", "--json")
    assert status == 0 and json.loads(out)["game_over"] == {"winner": "black"}


def test_png_without_matplotlib_is_one_line_and_status_1(capsys: pytest.CaptureFixture,
                                                         monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    status, out, err = run(capsys, "--moves", BLUNDER_GAME, "--depth", "2", "--png", str(tmp_path / "x.png"))
    assert status == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and "matplotlib" in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


# ---------------------------------------------------------------- bad input

def bad_inputs(tmp_path: Path) -> List[Tuple[List[str], str]]:
    psq = tmp_path / "broken.psq"
    psq.write_text("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,x,0\n")
    return [
        ([str(tmp_path / "missing.psq")], "cannot read"),
        ([str(psq)], "line 3"),
        (["--moves", "h8 i9 zz"], "bad move 'zz'"),
        (["--moves", "h8 i9 h8"], "duplicate move h8"),
        (["--moves", "h8 a1 i8 a2 j8 a3 k8 a4 l8 a5"], "move 10 (a5) comes after black's five"),
        (["--rule", "renju", "--moves", "g8 a15 h8 a13 i6 a11 i7 o15 i8"], "move 9 (i8) is forbidden"),
        (["--moves", "h8", "--size", "40"], "--size"),
        (["--moves", "h8", "--nbest", "0"], "--nbest"),
        ([], "FILE or --moves"),
    ]


def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    for argv, expected in bad_inputs(tmp_path):
        status, out, err = run(capsys, *argv, "--depth", "2")
        assert status == 2, argv
        assert out == "" and len(err.strip().splitlines()) == 1, (argv, err)
        assert err.startswith("pbrain-pentad analyze: error: ") and expected in err, (argv, err)


def test_the_program_reports_bad_input_without_a_traceback(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "pbrain", "analyze", "--moves", "h8 h8"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "pbrain-pentad analyze: error: --moves: duplicate move h8 (move 2)"


def test_ctrl_c_leaves_cleanly() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = terminal_child.spawn(["analyze", "--moves", QUIET, "--game", "--time", "30"],
                                 env=dict(os.environ, PYTHONPATH=str(ROOT)))
    child.expect("Analysing position 1 of 7")
    child.sendintr()
    child.expect(pexpect.EOF, timeout=10)
    child.close()
    assert child.exitstatus == analyze_cli.EXIT_INTERRUPTED
    assert "interrupted" in child.before and "Traceback" not in child.before


def test_analyze_with_the_tree_search(capsys: pytest.CaptureFixture) -> None:
    status, out, _ = run(capsys, "--moves", QUIET, "--engine", "mcts", "--time", "0.3", "--nbest", "2", "--json")
    assert status == 0
    data = json.loads(out)
    assert len(data["moves"]) == 2 and data["moves"][0]["move"] != data["moves"][1]["move"]
    assert all(move["reason"].startswith("mcts") or move["reason"] == "forced" for move in data["moves"])
    status, _, err = run(capsys, "--moves", QUIET, "--engine", "mcts", "--depth", "3")
    assert status == 2 and "--depth is for the alphabeta search" in err
