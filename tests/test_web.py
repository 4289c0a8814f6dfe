"""`pbrain-pentad serve` through its WebSocket, as the page speaks it: games, bad input, floods, several tabs.

The page itself is driven in a real browser by test_web_browser.py.
"""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from typing import Any, Awaitable, Callable, Dict, List, Optional

import aiohttp
import pytest

import pbrain
from pbrain.frontends.web import server, tables
from pbrain.frontends.web.tables import WebError, parse_settings

Message = Dict[str, Any]
FAST = {"level": 1, "time_s": 0.1}
"""Pentad's weakest level: it answers at once."""


class Page:
    """One tab's WebSocket, with helpers that wait for the messages the page would draw."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.seen: List[Message] = []

    async def send(self, **command: Any) -> None:
        await self.socket.send_json(command)

    async def receive(self, timeout: float = 30.0) -> Message:
        message = await asyncio.wait_for(self.socket.receive_json(), timeout)
        self.seen.append(message)
        return message

    async def until(self, test: Callable[[Message], bool], timeout: float = 30.0) -> Message:
        """The first message (from now) that passes `test`."""
        end = time.monotonic() + timeout
        while True:
            message = await self.receive(max(0.01, end - time.monotonic()))
            if test(message):
                return message

    async def idle_state(self, timeout: float = 30.0) -> Message:
        """The next state with nothing thinking."""
        return await self.until(lambda m: m["type"] == "state" and not m["busy"], timeout)

    async def error(self, timeout: float = 10.0) -> str:
        return str((await self.until(lambda m: m["type"] == "error", timeout))["message"])

    async def new(self, **settings: Any) -> Message:
        await self.send(op="new", settings=settings)
        return await self.idle_state(60)


def serve(test: Callable[..., Awaitable[None]], max_tables: int = server.MAX_TABLES) -> None:
    """Run `test(url, session)` against a fresh server on a free port."""
    async def main() -> None:
        runner, url = await server.start("127.0.0.1", 0, max_tables)
        try:
            async with aiohttp.ClientSession() as session:
                await test(url, session)
        finally:
            await runner.cleanup()

    asyncio.run(main())


async def open_page(url: str, session: aiohttp.ClientSession) -> Page:
    page = Page(await session.ws_connect(url + "ws", max_msg_size=0))
    hello = await page.receive()
    assert hello["type"] == "hello" and hello["levels"][-1][0] == len(pbrain.levels.LEVELS)
    return page


def test_settings_are_checked() -> None:
    assert parse_settings({}) == tables.Settings()
    custom = parse_settings({"width": "20", "height": 15, "rule": "renju", "black": "engine", "white": "human",
                             "level": 3, "time_s": 0.5, "engine": "mcts", "nodes": 5000})
    assert (custom.width, custom.height, custom.rule, custom.level, custom.nodes) == (20, 15, "renju", 3, 5000)
    for bad, field in [({"width": 4}, "width"), ({"height": 23}, "height"), ({"width": "x"}, "width"),
                       ({"rule": "go"}, "rule"), ({"level": 0}, "level"), ({"time_s": 0}, "time_s"),
                       ({"time_s": float("nan")}, "time_s"), ({"engine": "uct"}, "engine"), ({"nodes": -1}, "nodes"),
                       ({"black": "robot"}, "black"), ({"game": "chess"}, "game"), ({"width": True}, "width"),
                       ({"level": [1]}, "level")]:
        with pytest.raises(WebError, match=field):
            parse_settings(bad)
    with pytest.raises(WebError):
        parse_settings("15")
    assert parse_settings({"game": "connect4", "engine": "uct"}).engine == "uct"


def test_the_page_and_nothing_else_is_served() -> None:
    async def test(url: str, session: aiohttp.ClientSession) -> None:
        async with session.get(url) as response:
            assert response.status == 200 and "<svg id=\"board\"" in await response.text()
        for name in ("app.js", "style.css"):
            async with session.get(f"{url}static/{name}") as response:
                assert response.status == 200
        for path in ("static/../server.py", "static/tables.py", "etc/passwd", "static/%2e%2e/server.py"):
            async with session.get(url + path) as response:
                assert response.status == 404
        async with session.ws_connect(url + "ws", headers={"Origin": "http://evil.example"}) as _:
            pytest.fail("a page of another site was let in")

    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        serve(test)
    assert refused.value.status == 403


def test_a_game_against_pentad_to_the_end() -> None:
    async def test(url: str, session: aiohttp.ClientSession) -> None:
        page = await open_page(url, session)
        state = await page.new(black="engine", white="human", level=3, time_s=0.2)  # a level that blocks fours
        assert state["names"] == ["h8"] and state["your_turn"] and state["to_move"] == "white"
        # the person plays badly (a column on the edge); Pentad wins with five
        for row in range(1, 16):
            if state["outcome"]:
                break
            await page.send(op="play", point=f"a{row}")
            state = await page.until(lambda m: m["type"] == "state" and not m["busy"] and (
                m["outcome"] or m["to_move"] == "white"))
        assert state["outcome"]["winner"] == "black" and state["outcome"]["how"] == "five"
        assert len(state["outcome"]["line"]) >= 5 and "Black made five" in state["message"]
        await page.send(op="play", point="o15")
        assert "game is over" in await page.error()
        await page.send(op="undo")
        state = await page.idle_state()
        assert state["outcome"] is None and state["to_move"] == "white" and state["your_turn"]
        await page.send(op="resign")
        state = await page.idle_state()
        assert state["outcome"] == {"winner": "black", "how": "resign", "line": []}
        await page.send(op="export", format="psq")
        record = await page.until(lambda m: m["type"] == "file")
        game = pbrain.read_psq(record["text"])
        assert game.moves == [tuple(p) for p in state["moves"]] and record["name"].endswith(".psq")
        await page.send(op="export", format="sgf")
        assert pbrain.read_sgf((await page.until(lambda m: m["type"] == "file"))["text"]).moves == game.moves

    serve(test)


def test_bad_moves_get_a_message_and_change_nothing() -> None:
    async def test(url: str, session: aiohttp.ClientSession) -> None:
        page = await open_page(url, session)
        await page.send(op="play", point="h8")
        assert "start a game first" in await page.error()
        state = await page.new(**FAST)
        for point, words in [("z99", "not a point"), ([15, 0], "not a point"), ([-1, 3], "not a point"),
                             ("", "not a point"), (None, "not a point"), ([1.5, 2], "not a point"),
                             ("x" * 5000, "not a point"), ({"x": 1}, "not a point")]:
            await page.send(op="play", point=point)
            assert words in await page.error(), point
        await page.send(op="play", point="h8")
        state = await page.idle_state()
        await page.send(op="play", point="h8")
        assert "already taken" in await page.error()
        for command, words in [({"op": "fly"}, "unknown command"), ({"op": 3}, "JSON object"), ({}, "JSON object"),
                               ({"op": "goto", "ply": 99}, "no move 99"), ({"op": "goto", "ply": "1"}, "no move"),
                               ({"op": "analyze", "count": 0}, "best moves"), ({"op": "export", "format": "doc"},
                                                                                "not a format"),
                               ({"op": "new", "settings": {"width": 99}}, "width"), ({"op": "stop"}, "not thinking")]:
            await page.send(**command)
            assert words in await page.error(), command
        await page.socket.send_str("{not json")
        assert "not a JSON command" in await page.error()
        await page.socket.send_bytes(b"\x00\xff")
        await page.send(op="state")
        after = await page.idle_state()
        assert after["names"] == state["names"] and after["width"] == 15

    serve(test)


def test_renju_forbidden_point_is_refused() -> None:
    async def test(url: str, session: aiohttp.ClientSession) -> None:
        page = await open_page(url, session)
        await page.new(rule="renju", black="human", white="human")
        await page.send(op="load", name="setup.txt", text="# 15x15 renju\ni8 a1 j8 a3 h9 a5 h10 a7")
        state = await page.idle_state()
        assert state["rule"] == "renju" and [7, 7] in state["forbidden"]  # h8: a double three for black
        await page.send(op="play", point="h8")
        assert "forbidden for black" in await page.error()
        await page.send(op="play", point="o15")
        state = await page.idle_state()
        assert state["forbidden"] == [] and state["to_move"] == "white"  # shown for black only

    serve(test)


def test_uploads_are_checked() -> None:
    async def test(url: str, session: aiohttp.ClientSession) -> None:
        page = await open_page(url, session)
        await page.new(black="human", white="human")
        await page.send(op="load", name="good.psq", text="Piskvorky 15x15, 0:0, 0\n8,8,0\n9,7,0\n8,7,0\n-1\n")
        state = await page.idle_state()
        assert state["names"] == ["h8", "i9", "h9"]
        for name, text, words in [
                ("bad.psq", "Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,0\n-1\n", "Cannot read bad.psq"),
                ("off.psq", "Piskvorky 15x15, 0:0, 0\n30,8,0\n-1\n", "Cannot read off.psq"),
                ("junk.sgf", "(;GM[4]SZ[15];B[zz];W[", "Cannot read junk.sgf"),
                ("binary.txt", "\x00\x01\x02\u00ff", "Cannot read binary.txt"),
                ("moves.txt", "h8 h8", "Cannot read moves.txt"),
                ("big.txt", "h8 " * 30000, "larger than 64 KB"),
                ("none.txt", None, "record is missing")]:
            await page.send(op="load", name=name, text=text)
            assert words in await page.error(), name
        await page.send(op="state")
        assert (await page.idle_state())["names"] == ["h8", "i9", "h9"]  # the game shown before is kept
        await page.socket.send_str("x" * (server.MAX_MESSAGE_BYTES + 10))  # past the limit: the tab is closed
        closed = await page.socket.receive(10)
        assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)
        other = await open_page(url, session)  # and the server goes on
        assert (await other.new(**FAST))["width"] == 15

    serve(test)


def test_thinking_is_pushed_and_stop_answers_at_once() -> None:
    async def test(url: str, session: aiohttp.ClientSession) -> None:
        page = await open_page(url, session)
        await page.new(black="human", white="engine", time_s=20)
        await page.send(op="play", point="h8")
        await page.until(lambda m: m["type"] == "state" and m["busy"] == "move")
        info = await page.until(lambda m: m["type"] == "thinking" and m["depth"] >= 3)
        assert info["pv"] and 0 <= info["black_win"] <= 1 and info["nodes"] > 0
        await page.send(op="play", point="a1")
        assert "thinking" in await page.error()
        asked = time.monotonic()
        await page.send(op="stop")
        state = await page.idle_state()
        assert time.monotonic() - asked < 2.0  # the search notices the stop flag within milliseconds
        assert len(state["names"]) == 2 and state["your_turn"] and "Pentad played" in state["message"]
        await page.send(op="hint")  # a hint thinks as long as a move: stopped, it shows the best found so far
        await page.until(lambda m: m["type"] == "thinking" and m["purpose"] == "hint" and m["depth"] >= 3)
        await page.send(op="stop")
        state = await page.idle_state(10)
        assert state["hint"] is not None and state["message"].startswith("Hint")

    serve(test)


def test_analysis_of_a_position_and_of_a_game() -> None:
    async def test(url: str, session: aiohttp.ClientSession) -> None:
        page = await open_page(url, session)
        await page.new(black="human", white="human", time_s=0.2)
        await page.send(op="load", name="pasted", text="h8 i9 h9 h10 g9 f10 i7 j6")
        await page.idle_state()
        await page.send(op="analyze", count=3)
        state = await page.idle_state(60)
        assert len(state["lines"]) == 3 and all(line["pv"] for line in state["lines"])
        await page.send(op="goto", ply=3)
        state = await page.idle_state()
        assert state["cursor"] == 3 and state["last"] == [7, 6] and len(state["moves"]) == 8
        await page.send(op="graph")
        await page.until(lambda m: m["type"] == "progress")
        state = await page.idle_state(120)
        graph = state["graph"]
        assert len(graph["values"]) == 9 and len(graph["moves"]) == 8 and graph["limit"] > 0
        await page.send(op="play", point="a1")  # a move in the middle of the record drops the rest
        state = await page.idle_state()
        assert state["names"] == ["h8", "i9", "h9", "a1"] and state["graph"] is None

    serve(test)


def test_connect_four() -> None:
    async def test(url: str, session: aiohttp.ClientSession) -> None:
        page = await open_page(url, session)
        state = await page.new(game="connect4", black="human", white="engine", time_s=0.05)
        assert state["game"] == "connect4" and state["your_turn"]
        for bad in (7, -1, "3", None):
            await page.send(op="play", point=bad)
            assert "not a column" in await page.error()
        for _ in range(30):
            if state["outcome"]:
                break
            await page.send(op="play", point=state["playable"][0])
            state = await page.until(lambda m: m["type"] == "state" and not m["busy"] and (
                m["outcome"] or m["your_turn"]))
        assert state["outcome"] is not None
        await page.send(op="undo")
        state = await page.idle_state()
        assert state["outcome"] is None and state["your_turn"]

    serve(test)


def test_two_tabs_a_closed_tab_and_a_full_house() -> None:
    async def test(url: str, session: aiohttp.ClientSession) -> None:
        first, second = await open_page(url, session), await open_page(url, session)
        await first.new(black="human", white="engine", time_s=20)
        await second.new(game="connect4", **FAST)
        await first.send(op="play", point="h8")
        await first.until(lambda m: m["type"] == "thinking")
        await first.socket.close()  # closed mid-think: the think ends, the server goes on
        await second.send(op="play", point=3)
        state = await second.until(lambda m: m["type"] == "state" and not m["busy"] and len(m["moves"]) == 2)
        assert state["game"] == "connect4"
        third = await open_page(url, session)
        fourth = Page(await session.ws_connect(url + "ws"))
        assert "games open already" in (await fourth.receive())["message"]
        assert (await third.new(**FAST))["names"] == []

    serve(test, max_tables=2)


def test_a_flood_of_requests_is_answered() -> None:
    async def test(url: str, session: aiohttp.ClientSession) -> None:
        page = await open_page(url, session)
        await page.new(black="human", white="human")
        statuses = await asyncio.gather(*[session.get(url) for _ in range(200)])
        assert [response.status for response in statuses] == [200] * 200
        for response in statuses:
            response.release()
        for i in range(100):  # moves, nonsense and undos as fast as they can be sent
            await page.send(**[{"op": "play", "point": [i % 15, i // 15]}, {"op": "fly"}, {"op": "undo"}][i % 3])
        await page.send(op="state")
        state = await page.until(lambda m: m["type"] == "state" and len(page.seen) > 100)
        assert state["busy"] is None
        async with session.get(url) as response:
            assert response.status == 200

    serve(test)


def test_serve_command_prints_its_url() -> None:
    process = subprocess.Popen([sys.executable, "-m", "pbrain", "serve", "--port", "0"], stdout=subprocess.PIPE,
                               text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("Pentad is serving a board at http://127.0.0.1:"), line
        url = line.split()[6]

        async def fetch() -> str:
            async with aiohttp.ClientSession() as session:
                async with session.get(url) as response:
                    return await response.text()

        assert "Pentad" in asyncio.run(fetch())
    finally:
        process.terminate()
        process.wait(10)
    refused = subprocess.run([sys.executable, "-m", "pbrain", "serve", "--port", "70000"], capture_output=True,
                             text=True, timeout=60)
    assert refused.returncode == 2 and "--port" in refused.stderr


def test_page_move_is_the_facade_move() -> None:
    """The same engine with the same limits: at a node limit, the move the page gets is the facade's."""
    moves: Optional[List[str]] = None

    async def test(url: str, session: aiohttp.ClientSession) -> None:
        nonlocal moves
        page = await open_page(url, session)
        await page.new(black="human", white="engine", nodes=30000)
        for point in ("h8", "j9"):
            await page.send(op="play", point=point)
            state = await page.until(lambda m: m["type"] == "state" and not m["busy"] and m["your_turn"])
        moves = state["names"]

    serve(test)
    assert moves is not None and len(moves) == 4
    engine = pbrain.Engine(15, memory_bytes=tables.ENGINE_MEMORY)
    for index in (0, 2):
        engine.play(*pbrain.parse_point(moves[index], 15, 15))
        answer = engine.think(pbrain.Limits(max_nodes=30000))
        assert pbrain.format_point(answer.move, 15) == moves[index + 1]
        engine.play(*answer.move)
