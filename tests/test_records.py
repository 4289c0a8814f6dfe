"""Game records: coordinates, Piskvork .psq, SGF and move lists (pbrain.records)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.records import (
    Game,
    RecordError,
    format_moves,
    format_point,
    load,
    parse_moves,
    parse_point,
    read_move_list,
    read_psq,
    read_sgf,
    save,
    write_move_list,
    write_psq,
    write_sgf,
)

DATA = Path(__file__).resolve().parent / "data" / "records"

# The game in the hand-written fixtures: black makes five in column g (g8 .. g12).
FIXTURE_MOVES = "h8 i9 i8 j8 g8 f8 h9 h7 g10 f11 g9 g7 g11 k9 g12"
FORMATS = [(write_psq, read_psq), (write_sgf, read_sgf), (write_move_list, read_move_list)]


# ---------------------------------------------------------------- coordinates

@pytest.mark.parametrize("text, point", [
    ("h8", (7, 7)), ("H8", (7, 7)), ("a1", (0, 14)), ("a15", (0, 0)), ("o1", (14, 14)), ("o15", (14, 0)),
    ("i9", (8, 6)), ("I10", (8, 5)), ("j8", (9, 7)), ("7,7", (7, 7)), (" 7 , 7 ", (7, 7)), ("0,14", (0, 14)),
])
def test_parse_point_15x15(text: str, point: tuple) -> None:
    assert parse_point(text, 15, 15) == point


def test_parse_point_other_boards() -> None:
    assert parse_point("v1", 22, 22) == (21, 21)
    assert parse_point("a20", 20, 20) == (0, 0)
    assert parse_point("k11", 20, 20) == (10, 9)
    assert parse_point("h6", 15, 13) == (7, 7)      # rows count from the bottom of a 13 high board
    assert parse_point("o1", 15, 13) == (14, 12)


@pytest.mark.parametrize("text", ["p8", "h0", "h16", "15,0", "0,15", "w1", "", "h", "8", "16,x", "-1,3", "h8 i9",
                                  "hh", "8,8,8"])
def test_parse_point_rejects(text: str) -> None:
    with pytest.raises(RecordError):
        parse_point(text, 15, 15)


@pytest.mark.parametrize("point, height, text", [
    ((7, 7), 15, "h8"), ((0, 14), 15, "a1"), ((0, 0), 15, "a15"), ((8, 6), 15, "i9"), ((8, 8), 15, "i7"),
    ((21, 0), 22, "v22"), ((10, 9), 20, "k11"),
])
def test_format_point(point: tuple, height: int, text: str) -> None:
    assert format_point(point, height) == text
    assert parse_point(text, 22, height) == point


def test_format_point_rejects_off_board() -> None:
    with pytest.raises(RecordError):
        format_point((0, 15), 15)


def test_parse_moves_notations_and_separators() -> None:
    expected = [(7, 7), (8, 6), (9, 5)]
    for text in ("h8 i9 j10", "H8 I9 J10", "h8,i9,j10", "h8; i9;j10", "7,7 8,6 9,5", "7,7;8,6;9,5", "h8 8,6 j10",
                 "\n h8\ti9 \n j10\n", "h8i9j10"):
        assert parse_moves(text, 15, 15) == expected, text
    assert parse_moves("", 15, 15) == []
    assert format_moves(expected, 15) == "h8 i9 j10"


@pytest.mark.parametrize("text, words", [
    ("h8 h8", ["duplicate", "h8"]), ("h8 7,7", ["duplicate"]), ("h8 16,x", ["16,x"]), ("h8 p8", ["p8", "off"]),
    ("h8 zz", ["zz"]), ("h8 7 8", ["'7'"]),
])
def test_parse_moves_rejects(text: str, words: list) -> None:
    with pytest.raises(RecordError) as error:
        parse_moves(text, 15, 15)
    for word in words:
        assert word in str(error.value)


def test_stones_colours() -> None:
    game = Game(moves=[(7, 7), (8, 8), (9, 9)])
    assert game.stones() == [(7, 7, BLACK), (8, 8, WHITE), (9, 9, BLACK)]


# ---------------------------------------------------------------- fixtures

def check_fixture_game(game: Game) -> None:
    assert (game.width, game.height) == (15, 15)
    assert game.moves == parse_moves(FIXTURE_MOVES, 15, 15)
    assert game.moves[0] == (7, 7)                  # h8, the centre
    assert game.moves[1] == (8, 6)                  # i9: one right of and one above the centre
    assert game.moves[9] == (5, 4)                  # f11
    assert game.moves[-1] == (6, 3)                 # g12, the fifth stone
    assert format_point(game.moves[-1], 15) == "g12"
    assert game.stones()[-1] == (6, 3, BLACK)


def test_fixture_psq_as_piskvork_writes_it() -> None:
    game = load(str(DATA / "tournament.psq"))
    check_fixture_game(game)
    assert (game.black, game.white) == ("pbrain-pentad.exe", "pbrain-embryo21_e.exe")
    assert game.rule is Rule.FREESTYLE and game.result == ""


def test_fixture_psq_gomocup_20x20() -> None:
    game = load(str(DATA / "gomocup20.psq"))
    assert (game.width, game.height) == (20, 20)
    assert game.moves == [(10, 10), (11, 11), (9, 11), (0, 0), (19, 19)]
    assert format_point(game.moves[0], 20) == "k10"
    assert game.black == "C:\\gomocup\\pbrain-alpha.zip"


def test_fixture_sgf_site_export() -> None:
    game = load(str(DATA / "site_export.sgf"))
    check_fixture_game(game)                        # the main line, not the variation W[gd]
    assert game.rule is Rule.RENJU
    assert (game.black, game.white, game.result) == ("Alice (1800)", "Bob", "B+")


def test_fixture_move_list() -> None:
    game = load(str(DATA / "moves.txt"))
    check_fixture_game(game)
    assert game.rule is Rule.STANDARD
    assert (game.black, game.white, game.result) == ("Alice", "Bob", "B+")


def test_fixtures_agree_with_each_other() -> None:
    games = [load(str(DATA / name)) for name in ("tournament.psq", "site_export.sgf", "moves.txt")]
    assert games[0].moves == games[1].moves == games[2].moves


# ---------------------------------------------------------------- round trips

ROUND_TRIP_GAMES = [
    Game(),
    Game(moves=parse_moves(FIXTURE_MOVES, 15, 15), black="Alice", white="Bob", result="B+"),
    Game(width=20, height=20, moves=[(10, 10), (0, 0), (19, 19), (0, 19)], result="draw"),
    Game(width=15, height=15, rule=Rule.RENJU, moves=[(7, 7), (8, 6), (9, 5)], black="Pentad", result="W+"),
    Game(width=17, height=11, rule=Rule.CARO_EXACT, moves=[(16, 0), (0, 10), (8, 5)], white="x]y\\z"),
    Game(width=5, height=22, rule=Rule.STANDARD, moves=[(4, 21), (0, 0)]),
    Game(width=22, height=5, rule=Rule.CARO, moves=[(21, 4), (0, 0), (11, 2)]),
]


@pytest.mark.parametrize("writer, reader", FORMATS)
@pytest.mark.parametrize("game", ROUND_TRIP_GAMES)
def test_round_trip(writer, reader, game: Game) -> None:
    assert reader(writer(game)) == game


@pytest.mark.parametrize("suffix", [".psq", ".sgf", ".txt", ""])
def test_save_load_round_trip(tmp_path: Path, suffix: str) -> None:
    game = ROUND_TRIP_GAMES[4]
    path = tmp_path / f"game{suffix}"
    save(str(path), game)
    assert load(str(path)) == game


def test_save_chooses_format_by_extension(tmp_path: Path) -> None:
    game = ROUND_TRIP_GAMES[3]
    for suffix, start in ((".psq", "Piskvorky 15x15, "), (".SGF", "(;GM[4]"), (".moves", "# 15x15 renju")):
        save(str(tmp_path / f"g{suffix}"), game)
        assert (tmp_path / f"g{suffix}").read_text().startswith(start)


def test_written_formats() -> None:
    game = Game(width=15, height=13, rule=Rule.RENJU, moves=[(7, 7), (8, 6)])
    psq = write_psq(game).splitlines()
    assert psq[:3] == ["Piskvorky 15x13, 0:0, 0", "8,8,0", "9,7,0"]
    assert psq[3:] == ["homo-1", "homo-2", "-1", ",Renju"]
    sgf = write_sgf(game)
    assert sgf.startswith("(;GM[4]FF[4]") and "SZ[15:13]" in sgf and "RU[renju]" in sgf and ";B[hh];W[ig])" in sgf
    assert write_move_list(game) == "# 15x13 renju\nh6 i7\n"


def test_psq_reader_reads_pentads_rule_line_only_after_the_error_code() -> None:
    assert read_psq("Piskvorky 15x15, 0:0, 0\n8,8,0\n-1\n2,Renju\n") == Game(rule=Rule.RENJU, moves=[(7, 7)],
                                                                            result="W+")
    assert read_psq("Piskvorky 15x15, 0:0, 0\n8,8,0\n-1\n1,Nonsense\n") == Game(moves=[(7, 7)])
    assert read_psq("Piskvorky 15x15, 0:0, 0\n8,8\n9,9\n") == Game(moves=[(7, 7), (8, 8)])   # no time, no trailer
    assert read_psq("Piskvorky 15x15, 0:0, 0\nhomo-1\nhomo-2\n-1\n") == Game()


move_points = st.lists(st.tuples(st.integers(0, 21), st.integers(0, 21)), max_size=60, unique=True)
names = st.from_regex(r"\A([A-Za-z][A-Za-z0-9_.:\[\]\\()-]{0,10})?\Z")


@settings(max_examples=60, deadline=None)
@given(width=st.integers(5, 22), height=st.integers(5, 22), rule=st.sampled_from(list(Rule)), points=move_points,
       black=names, white=names, result=st.sampled_from(["", "B+", "W+", "draw"]))
def test_round_trip_property(width: int, height: int, rule: Rule, points: list, black: str, white: str,
                             result: str) -> None:
    moves = [(x, y) for x, y in points if x < width and y < height]
    game = Game(width=width, height=height, rule=rule, moves=moves, black=black, white=white, result=result)
    for writer, reader in FORMATS:
        assert reader(writer(game)) == game, writer.__name__


# ---------------------------------------------------------------- malformed input

PSQ_HEAD = "Piskvorky 15x15, 11:11, 0\n"


@pytest.mark.parametrize("text, line, words", [
    (PSQ_HEAD + "8,8,0\n16,x,0\n", 3, ["16,x"]),
    (PSQ_HEAD + "8,8,0\n9,9,0\n8,8,10\n", 4, ["duplicate", "h8"]),
    (PSQ_HEAD + "8,8,0\n16,1,0\n", 3, ["off"]),
    (PSQ_HEAD + "0,5,0\n", 2, ["off"]),
    ("Piskvorky 25x25, 11:11, 0\n1,1,0\n", 1, ["25x25"]),
    ("Piskvorky 4x4, 11:11, 0\n", 1, ["4x4"]),
    ("8,8,0\n9,9,0\n", 1, ["Piskvorky"]),
])
def test_psq_errors(text: str, line: int, words: list) -> None:
    with pytest.raises(RecordError) as error:
        read_psq(text, "bad.psq")
    assert f"bad.psq line {line}:" in str(error.value)
    for word in words:
        assert word in str(error.value)


SGF_HEAD = "(;GM[4]FF[4]SZ[15]\n"


@pytest.mark.parametrize("text, line, words", [
    (SGF_HEAD + ";B[hh]\n;W[hh])", 3, ["duplicate"]),
    (SGF_HEAD + ";B[hh];W[zz])", 2, ["zz", "off"]),
    (SGF_HEAD + ";B[hh];W[i9])", 2, ["i9"]),
    (SGF_HEAD + ";B[hh];B[ii])", 2, ["should be W"]),
    (SGF_HEAD + ";B[hh];W[])", 2, ["pass"]),
    (SGF_HEAD + ";B[hh]\n;W[ii]", 3, ["truncated"]),
    (SGF_HEAD + ";B[hh];W[ii", 2, ["truncated", "unterminated"]),
    ("(;GM[4]SZ[23];B[aa])", 1, ["23x23"]),
    ("(;GM[4]SZ[15:4];B[aa])", 1, ["15x4"]),
    ("(;GM[4]SZ[big];B[aa])", 1, ["SZ[big]"]),
    ("(;GM[1]SZ[15]\nAE[hh];B[hh])", 2, ["AE"]),
    ("(;GM[1]SZ[15]\nAB[hh][ii][jj];W[aa])", 2, ["setup stones", "not supported"]),
    ("(;GM[2]SZ[8];B[dd])", 1, ["GM[2]"]),
    ("hello", 1, ["SGF"]),
    (SGF_HEAD + ";B[hh][ii", 2, ["unterminated"]),
    ("(B[hh];W[ii])", 1, ["outside a node"]),
    (SGF_HEAD + "C[a comment\nover lines]\n;B[hh]\n;W[ii]\n\n;B[hh])", 7, ["duplicate"]),
    (SGF_HEAD + ";B[hh]\n;W[ii]\n;B[jj]\nAB[kk];W[aa])", 5, ["setup stones AB after the first move"]),
    (SGF_HEAD + ";B[hh]W[ii])", 2, ["both"]),
])
def test_sgf_errors(text: str, line: int, words: list) -> None:
    with pytest.raises(RecordError) as error:
        read_sgf(text, "bad.sgf")
    assert f"bad.sgf line {line}:" in str(error.value)
    for word in words:
        assert word in str(error.value)


def test_sgf_tolerance() -> None:
    # no GM/SZ (defaults 15x15 freestyle), lowercase letters in an FF[3] identifier, whitespace between everything
    assert read_sgf(" ( ; FF[3] PlayerBlack [A] \n ; B [hh] ; W\n[ii] ) ") == Game(moves=[(7, 7), (8, 8)], black="A")
    assert read_sgf("(;GM[4]SZ[15]RU[Yamaguchi]RE[0];B[hh])").rule is Rule.RENJU
    assert read_sgf("(;GM[4]SZ[15]RU[something else]RE[Draw];B[hh])") == Game(moves=[(7, 7)], result="draw")
    assert read_sgf("(;GM[4]SZ[15]RE[W+T];B[hh])(;GM[4]SZ[9];B[aa])").result == "W+"    # first game of a collection
    assert read_sgf("(;SZ[15](;B[hh](;W[ii])(;W[jj]))(;B[aa]))").moves == [(7, 7), (8, 8)]
    # setup stones are read as alternating moves, black first, and the moves continue from there
    assert read_sgf("(;GM[4]SZ[15]AB[hh][jj]AW[ii];W[kk])").moves == [(7, 7), (8, 8), (9, 9), (10, 10)]
    assert read_sgf("(;GM[4]SZ[15]AB[aa:ba]AW[ab:bb])").moves == [(0, 0), (0, 1), (1, 0), (1, 1)]


@pytest.mark.parametrize("text, line, words", [
    ("h8 i9\nj10 16,x\n", 2, ["16,x"]),
    ("h8 i9\n\nj10 h8\n", 3, ["duplicate", "h8"]),
    ("h8 p8\n", 1, ["p8", "off"]),
    ("# 15x15 renju\n# comment\nh8 h16\n", 3, ["h16"]),
    ("# 25x25 renju\nh8\n", 1, ["25x25"]),
    ("# 15x15 chess\nh8\n", 1, ["chess"]),
    ("# 9x9\nh8 i9 j9\n", 2, ["j9", "9x9"]),
])
def test_move_list_errors(text: str, line: int, words: list) -> None:
    with pytest.raises(RecordError) as error:
        read_move_list(text, "bad.txt")
    assert f"bad.txt line {line}:" in str(error.value)
    for word in words:
        assert word in str(error.value)


def test_move_list_arguments_and_header() -> None:
    assert read_move_list("k11", width=20, height=20, rule=Rule.RENJU) == Game(20, 20, Rule.RENJU, [(10, 9)])
    assert read_move_list("# 20x20\nk11 # centre\n") == Game(20, 20, Rule.FREESTYLE, [(10, 9)])
    assert read_move_list("\n# 20x20\nk11\n", rule=Rule.RENJU) == Game(20, 20, Rule.RENJU, [(10, 9)])
    assert read_move_list("h8\n# 20x20 renju\n") == Game(moves=[(7, 7)])      # a header only on the first line
    assert read_move_list("# 15x15 caro-exact\n").rule is Rule.CARO_EXACT
    assert read_move_list("# just a comment\n") == Game()
    with pytest.raises(RecordError, match="moves.txt"):
        read_move_list("h8", width=30, height=30)


@pytest.mark.parametrize("reader", [read_psq, read_sgf, read_move_list])
@pytest.mark.parametrize("text", ["", "\n  \n"])
def test_empty_file(reader, text: str) -> None:
    with pytest.raises(RecordError, match="empty"):
        reader(text)


@pytest.mark.parametrize("suffix, text, words", [
    (".psq", PSQ_HEAD + "8,8,0\n8,8,0\n", ["line 3", "duplicate"]),
    (".sgf", SGF_HEAD + ";B[hh];W[ii]", ["line 2", "truncated"]),
    (".txt", "h8\nq1\n", ["line 2", "q1"]),
    (".psq", "", ["empty"]),
])
def test_load_errors_name_the_file(tmp_path: Path, suffix: str, text: str, words: list) -> None:
    path = tmp_path / f"broken{suffix}"
    path.write_text(text)
    with pytest.raises(RecordError) as error:
        load(str(path))
    assert str(path) in str(error.value)
    for word in words:
        assert word in str(error.value)


def test_load_missing_file_and_unwritable_path(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load(str(tmp_path / "missing.psq"))
    with pytest.raises(RecordError, match="cannot write"):
        save(str(tmp_path / "no" / "such" / "dir.sgf"), Game())


@pytest.mark.parametrize("game", [Game(width=4), Game(moves=[(7, 7), (7, 7)]), Game(moves=[(15, 0)]),
                                  Game(width=30, height=30)])
@pytest.mark.parametrize("writer", [write_psq, write_sgf, write_move_list])
def test_writers_reject_invalid_games(writer, game: Game) -> None:
    with pytest.raises(RecordError):
        writer(game)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="()[];:,\\ \n#abhiBWGMSZAERU0123456789x-Piskvorky", max_size=60))
def test_readers_raise_only_record_error(text: str) -> None:
    for reader in (read_psq, read_sgf, read_move_list):
        try:
            reader(text)
        except RecordError:
            pass
