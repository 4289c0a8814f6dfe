"""benchmarks/brain_match.py: games between two brain processes, refereed, with the colours swapped."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "brain_match.py"
SPEC = importlib.util.spec_from_file_location("brain_match", SCRIPT)
brain_match = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(brain_match)  # type: ignore[union-attr]

PENTAD = f"{sys.executable} -m pbrain"


def fake_brain(tmp_path: Path, name: str, body: str) -> str:
    """A command starting a scripted brain: it answers START with OK and every turn as `body` decides."""
    script = tmp_path / f"{name}.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    word = line.split()[0] if line.split() else ''\n"
        "    if word == 'START':\n"
        "        print('OK', flush=True)\n"
        "    elif word in ('TURN', 'DONE', 'BEGIN'):\n"
        f"{body}"
        "    elif word == 'END':\n"
        "        break\n")
    return f"{sys.executable} {script}"


def test_openings_are_read_as_offsets_from_the_centre(tmp_path: Path) -> None:
    path = tmp_path / "openings.txt"
    path.write_text("# balanced\n-2,-1, 2,0, 2,-1\n\n0,0, 1,1, -1,1\n")
    assert brain_match.read_openings(path, 15) == [((5, 6), (9, 7), (9, 6)), ((7, 7), (8, 8), (6, 8))]


def test_the_shipped_extra_openings_are_all_openings_as_c_gomoku_cli_reads_them() -> None:
    # c-gomoku-cli takes every line of an offset file as an opening (a comment line made the gauntlet play no games)
    path = SCRIPT.parent / "data" / "freestyle-15-extra.txt"
    lines = path.read_text().splitlines()
    openings = brain_match.read_openings(path, 15)
    assert len(openings) == len(lines) == 154
    for opening in openings:
        assert len(opening) == 3 and len(set(opening)) == 3
        assert all(0 <= x < 15 and 0 <= y < 15 for x, y in opening)


def test_an_occupied_cell_loses_the_game(tmp_path: Path) -> None:
    centre = fake_brain(tmp_path, "centre", "        print('7,7', flush=True)\n")
    spec = brain_match.GameSpec(PENTAD, centre, ((7, 7), (8, 8), (6, 6)), 15, 0, 500, 0)
    record = brain_match.play_game(spec)
    assert record["winner"] == 1 and record["reason"] == "white: illegal move 7,7"
    assert record["moves"] == [(7, 7), (8, 8), (6, 6)]


def test_a_brain_that_exits_loses_the_game(tmp_path: Path) -> None:
    quitter = fake_brain(tmp_path, "quitter", "        sys.exit(0)\n")
    record = brain_match.play_game(brain_match.GameSpec(quitter, PENTAD, ((7, 7), (8, 8), (6, 6)), 15, 0, 500, 0))
    # white (Pentad) moves first after the 3-stone opening; black then exits
    assert record["winner"] == 2 and record["reason"] == "black: the brain exited"


def test_two_pentads_play_a_legal_game_to_a_five() -> None:
    record = brain_match.play_game(brain_match.GameSpec(PENTAD, PENTAD, ((7, 7), (8, 8), (6, 8)), 15, 0, 2000, 0))
    moves = record["moves"]
    assert record["reason"] == "five" and record["winner"] in (1, 2)
    assert len(set(moves)) == len(moves) and all(0 <= x < 15 and 0 <= y < 15 for x, y in moves)
    assert record["winner"] == 2 - len(moves) % 2  # the side that played the last stone won


def test_the_match_swaps_colours_and_scores_the_first_brain(tmp_path: Path, capsys) -> None:
    # both play the centre: white (to move after the 3-stone opening) takes it, black then plays on it and loses
    centre = fake_brain(tmp_path, "centre", "        print('7,7', flush=True)\n")
    also_centre = fake_brain(tmp_path, "also_centre", "        print('7,7', flush=True)\n")
    openings = tmp_path / "openings.txt"
    openings.write_text("-2,-1, 2,0, 2,-1\n1,1, -1,-1, 2,2\n")
    assert brain_match.main([centre, also_centre, "--openings", str(openings), "--nodes", "100"]) == 0
    out = capsys.readouterr().out
    assert f"| {centre} vs {also_centre} | 4 | 2 | 2 | 0 | 50.0 % |" in out
    assert "pairs (first's points over both colours): 1: 2" in out
    assert "endings: error: 4" in out


def test_a_brain_gets_the_position_with_its_own_stones_as_1_then_the_opponents_moves(tmp_path: Path) -> None:
    log = tmp_path / "heard.txt"
    listener = fake_brain(tmp_path, "listener", "        print('0,0' if word == 'DONE' else '0,1', flush=True)\n")
    script = tmp_path / "listener.py"
    script.write_text(f"log = open({str(log)!r}, 'w')\n" + script.read_text().replace(
        "for line in sys.stdin:\n", "for line in sys.stdin:\n    log.write(line); log.flush()\n"))
    spec = brain_match.GameSpec(listener, PENTAD, ((7, 7), (8, 8), (6, 8)), 15, 0, 500, 0)
    brain = brain_match.BrainProcess(listener, spec)
    try:
        assert brain.move([(7, 7), (8, 8), (6, 8), (9, 9)]) == (0, 0)  # black to move: its stones are 1
        assert brain.move([(7, 7), (8, 8), (6, 8), (9, 9), (0, 0), (3, 3)]) == (0, 1)
    finally:
        brain.close()
    heard = log.read_text().splitlines()
    assert heard[heard.index("BOARD"):] == ["BOARD", "7,7,1", "8,8,2", "6,8,1", "9,9,2", "DONE", "TURN 3,3", "END"]


def test_in_renju_a_point_forbidden_to_black_is_white_s_to_play_and_black_s_loss(tmp_path: Path) -> None:
    centre = fake_brain(tmp_path, "centre", "        print('7,7', flush=True)\n")
    # black's (5,7) (6,7) and (7,5) (7,6) make (7,7) a double three: forbidden to black, not to white
    opening = ((5, 7), (0, 0), (6, 7), (0, 14), (7, 5), (14, 0), (7, 6))
    record = brain_match.play_game(brain_match.GameSpec(PENTAD, centre, opening, 15, 4, 500, 0))
    assert record["moves"][7] == (7, 7) and record["reason"] == "white: illegal move 7,7"
    opening = opening + ((14, 14),)  # black to move
    record = brain_match.play_game(brain_match.GameSpec(centre, PENTAD, opening, 15, 4, 500, 0))
    assert record["winner"] == 2 and record["reason"] == "black: illegal move 7,7" and len(record["moves"]) == 8


def test_a_brain_that_gives_no_move_is_stopped_and_loses(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(brain_match, "ANSWER_TIMEOUT_S", 1.0)
    silent = fake_brain(tmp_path, "silent", "        pass\n")
    record = brain_match.play_game(brain_match.GameSpec(PENTAD, silent, ((7, 7), (8, 8), (6, 8)), 15, 0, 500, 0))
    assert record["winner"] == 1 and record["reason"] == "white: no move in 1 s"


def test_a_brain_against_the_same_command_scores_each_game_by_colour(tmp_path: Path, capsys) -> None:
    centre = fake_brain(tmp_path, "centre", "        print('7,7', flush=True)\n")
    assert brain_match.main([centre, centre, "--pairs", "1", "--nodes", "100"]) == 0
    assert f"| {centre} vs {centre} | 2 | 1 | 1 | 0 | 50.0 % |" in capsys.readouterr().out
