"""parser.py: bytes -> lines -> commands, argument parsing, reply formatting."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbrain import params
from pbrain.protocol import parser
from pbrain.protocol.parser import Command, CommandFramer, LineDecoder, ProtocolError


def decode_all(chunks: "list[bytes]") -> "list[str]":
    decoder = LineDecoder()
    out = []
    for chunk in chunks:
        out += decoder.feed(chunk)
    return out + decoder.finish()


def frame(lines: "list[str]") -> "list[Command]":
    framer = CommandFramer()
    out = []
    for line in lines:
        out += framer.feed(line, 1.0)
    return out + framer.finish(2.0)


# --- lines ----------------------------------------------------------------------------------------------------------
def test_lines_split_on_lf_and_crlf_and_skip_blank_ones() -> None:
    assert decode_all([b"START 15\r\nINFO rule 1\n\r\n   \nBEGIN"]) == ["START 15", "INFO rule 1", "BEGIN"]


def test_lines_may_arrive_in_any_chunks() -> None:
    data = b"START 20\r\nTURN 10,10\r\nEND\r\n"
    for cut in range(len(data)):
        assert decode_all([data[:cut], data[cut:]]) == ["START 20", "TURN 10,10", "END"]


def test_bad_utf8_is_replaced_not_fatal() -> None:
    assert decode_all([b"\xff\xfeABOUT\n"]) == ["\ufffd\ufffdABOUT"]


def test_a_too_long_line_becomes_one_marker_and_the_next_line_survives() -> None:
    huge = b"A" * (parser.MAX_LINE_BYTES + 10)
    assert decode_all([huge[:5000], huge[5000:], b"\nABOUT\n"]) == [parser.TOO_LONG, "ABOUT"]
    assert frame([parser.TOO_LONG])[0].problem.startswith("line longer than")


# --- framing --------------------------------------------------------------------------------------------------------
def test_words_are_upper_cased_and_arguments_kept() -> None:
    command = frame(["turn 7,8"])[0]
    assert (command.word, command.args) == ("TURN", "7,8")
    assert frame(["START\t15"])[0].args == "15"


def test_board_block_is_gathered_up_to_done() -> None:
    [command] = frame(["BOARD", "7,7,1", "8,8,2", "done"])
    assert command.word == "BOARD" and command.block == ("7,7,1", "8,8,2") and not command.problem


def test_a_command_inside_a_block_ends_it_with_a_problem_and_is_not_swallowed() -> None:
    board, end = frame(["BOARD", "7,7,1", "END"])
    assert board.problem == "BOARD not closed by DONE" and board.block == ("7,7,1",)
    assert end.word == "END"


def test_a_block_open_at_end_of_input_comes_out_with_a_problem() -> None:
    [command] = frame(["SWAP2BOARD", "7,7"])
    assert command.problem == "SWAP2BOARD not closed by DONE"


def test_foreign_yixin_blocks_are_one_command() -> None:
    [command] = frame(["YXQUERYDATABASEALL", "7,7", "8,8", "DONE"])
    assert command.word == "YXQUERYDATABASEALL" and len(command.block) == 2


def test_stray_stone_lines_have_no_word() -> None:
    assert frame(["7,7,1"])[0].word == ""


def test_blocks_are_capped() -> None:
    lines = ["BOARD"] + ["1,1,1"] * (parser.MAX_BLOCK_LINES + 5) + ["DONE"]
    [command] = frame(lines)
    assert len(command.block) == parser.MAX_BLOCK_LINES and "more than" in command.problem


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=30))
def test_framing_never_fails_and_keeps_every_command_word(lines: "list[str]") -> None:
    cleaned = [line.strip() for line in lines if line.strip()]
    commands = frame(cleaned)
    for command in commands:
        assert command.word == command.word.upper()


# --- parsing --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [("7,8", (7, 8)), (" 7 , 8 ", (7, 8)), ("0,14", (0, 14)), ("+3,4", (3, 4))])
def test_points_parse(text: str, expected: "tuple[int, int]") -> None:
    assert parser.parse_point(text, 15, 15, "TURN") == expected


@pytest.mark.parametrize("text", ["", "7", "7,8,9", "a,b", "7;8", "7.0,8", "15,0", "0,15", "-1,0",
                                  "1" * 40 + ",1", "\ufffd,\ufffd"])
def test_bad_points_raise_protocol_error(text: str) -> None:
    with pytest.raises(ProtocolError):
        parser.parse_point(text, 15, 15, "TURN")


def test_stones_need_known_fields_and_distinct_points() -> None:
    assert parser.parse_stone("3,4,2", 15, 15, "BOARD") == parser.StoneLine(3, 4, 2)
    assert parser.parse_stone("3,4", 15, 15, "SWAP2BOARD").field is None
    for bad in ("3,4,0", "3,4,4", "3,4,x", "3,4,1,1"):
        with pytest.raises(ProtocolError):
            parser.parse_stone(bad, 15, 15, "BOARD")
    with pytest.raises(ProtocolError, match="given twice"):
        parser.parse_stones(["3,4,1", "3,4,2"], 15, 15, "BOARD")


def test_sizes_and_counts() -> None:
    assert parser.parse_size("20") == 20
    assert parser.parse_rect("20,15") == (20, 15) == parser.parse_rect("20 15")
    assert parser.parse_count("", "YXNBEST", 1) == 1 and parser.parse_count("4", "YXNBEST", 1) == 4
    for call in (lambda: parser.parse_size("15 15"), lambda: parser.parse_rect("20"),
                 lambda: parser.parse_count("0", "YXNBEST", 1), lambda: parser.to_int("9" * 30, "x")):
        with pytest.raises(ProtocolError):
            call()


def test_info_keys_are_lower_cased_and_values_kept_whole() -> None:
    assert parser.parse_info("TIMEOUT_TURN 5000") == ("timeout_turn", "5000")
    assert parser.parse_info("folder C:\\My Brains\\x") == ("folder", "C:\\My Brains\\x")
    with pytest.raises(ProtocolError):
        parser.parse_info("")


# --- formatting -----------------------------------------------------------------------------------------------------
def test_moves_have_no_spaces() -> None:
    assert parser.format_point((7, 8)) == "7,8"
    assert parser.format_points([(1, 2), (3, 4), (5, 6)]) == "1,2 3,4 5,6"


def test_forbid_line_is_rapfis() -> None:
    assert parser.format_forbid([]) == "FORBID ."
    assert parser.format_forbid([(7, 8), (10, 3)]) == "FORBID 07081003."


def test_about_line() -> None:
    line = parser.format_about("1.2.3")
    assert line.startswith('name="Pentad", version="1.2.3", author="Pentad engineers", country="')
    assert [part.split("=")[0] for part in line.split(", ")] == ["name", "version", "author", "country", "www"]
    assert parser.PROTOCOL_LINE.fullmatch(line)


def test_search_message_is_readable_by_pygomo() -> None:
    pygomo = pytest.importorskip("pygomo")
    line = parser.format_search(9, 35, 123456, 150000, 823, [(7, 7), (8, 8)])
    info = pygomo.GomocupProtocol().parse_search_info(line)
    assert (info.depth, info.nodes, info.nps, info.time_ms) == (9, 123456, 150, 823)
    assert [m.to_tuple() for m in info.pv] == [(7, 7), (8, 8)]
    assert str(info.eval.score()) == "35"


def test_win_scores_read_as_plies() -> None:
    assert parser.format_score(params.WIN - 7) == "+M7"
    assert parser.format_score(-(params.WIN - 4)) == "-M4"
    assert parser.format_score(-12) == "-12"


@pytest.mark.parametrize("line", ["OK", "7,7", "1,2 3,4", "1,2 3,4 5,6", "SWAP", "FORBID 0102.", "ERROR x",
                                  "UNKNOWN x", "MESSAGE x y z", "DEBUG", "SUGGEST 3,4", 'name="Pentad", a="b"'])
def test_protocol_lines_pass_the_guard_unchanged(line: str) -> None:
    assert parser.protocol_line(line) == line


@pytest.mark.parametrize("line", ["7, 7", "hello", "", "OK OK", "7,7\nERROR", "1,2 3,4 5,6 7,8", "é"])
def test_anything_else_becomes_a_message(line: str) -> None:
    fixed = parser.protocol_line(line)
    assert fixed.startswith("MESSAGE") and parser.PROTOCOL_LINE.fullmatch(fixed)


def test_quotes_are_short_and_printable() -> None:
    quoted = parser.quote("\x00\xff" + "x" * 100)
    assert len(quoted) == parser.ECHO_CHARS and quoted.isprintable() and quoted.isascii()
