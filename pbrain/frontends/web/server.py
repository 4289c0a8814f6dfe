"""`pbrain-pentad serve`: a local web server with a board to play and study gomoku and Connect Four on.

aiohttp serves the page (three files from this package, held in memory) and one WebSocket per browser tab. Each tab
has its own table (tables.py), made by the tab's first 'new' message and gone when the tab closes. The page sends
JSON commands ({"op": "play", "point": "h8"} ...); the server answers each with the table's whole state, pushes
Pentad's thinking as it goes (depth, eval, line) and its move when it is done, and an {"type": "error"} line for
anything it cannot do. Thinks run on a small pool of worker threads, one at a time a table; at most MAX_TABLES
tables are open at once.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import threading
import webbrowser
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any, Dict, Optional, Set
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

import pbrain
from pbrain import levels, records
from pbrain.frontends.analyze import Interrupted
from pbrain.frontends.web import tables
from pbrain.frontends.web.tables import Table, Think, WebError

MAX_TABLES = 16
"""Tables (browser tabs) open at once; one more is refused with a message."""
THINK_THREADS = 4
"""Worker threads for thinks, shared by all tables (more thinks wait their turn)."""
MAX_MESSAGE_BYTES = 256 * 1024
"""The largest WebSocket message the page may send (a record is at most tables.MAX_RECORD_BYTES)."""
STATIC = {"index.html": "text/html", "app.js": "text/javascript", "style.css": "text/css"}
"""The page's files (pbrain/frontends/web/static): the only files the server reads."""
log = logging.getLogger("pbrain.serve")
TABS: "web.AppKey[Set[Tab]]" = web.AppKey("tabs")
"""The open tabs."""
MAX_OPEN = web.AppKey("max_tables", int)
POOL = web.AppKey("pool", ThreadPoolExecutor)


class Tab:
    """One browser tab's connection: its table, its think, and the queue of what it is sent."""

    def __init__(self, socket: web.WebSocketResponse, pool: ThreadPoolExecutor) -> None:
        self.socket = socket
        self.pool = pool
        self.table: Optional[Table] = None
        self.stop = threading.Event()
        self.think: Optional[asyncio.Task] = None
        self.outbox: "asyncio.Queue[Optional[Dict[str, Any]]]" = asyncio.Queue()

    def send(self, payload: Dict[str, Any]) -> None:
        self.outbox.put_nowait(payload)

    def send_state(self) -> None:
        if self.table is not None:
            self.send(self.table.state())

    async def writer(self) -> None:
        """Send the queued messages in order until the tab closes."""
        while True:
            payload = await self.outbox.get()
            if payload is None or self.socket.closed:
                return
            try:
                await self.socket.send_str(json.dumps(payload))
            except (ConnectionError, RuntimeError):
                return

    def start(self, purpose: str, think: Think) -> None:
        """Run a think that the table has begun (its `begin_*` call), off the event loop."""
        loop = asyncio.get_running_loop()
        self.stop = threading.Event()
        stop = self.stop

        def progress(payload: Dict[str, Any]) -> None:
            loop.call_soon_threadsafe(self.send, payload)

        async def run() -> None:
            table = self.table
            assert table is not None
            try:
                answer = await loop.run_in_executor(self.pool, think, stop, progress)
            except Interrupted:
                table.interrupted()
                table.message = "Stopped."
            except Exception:  # a bug: say so in the page and the server's log, and keep serving
                log.exception("think failed")
                table.interrupted()
                self.send({"type": "error", "message": "Pentad failed to think about this position (see the "
                                                       "server's log)."})
            else:
                if table is self.table:
                    table.finish(purpose, answer)
            if table is self.table and not self.socket.closed:
                self.engine_moves()
                self.send_state()

        self.think = asyncio.ensure_future(run())

    def engine_moves(self) -> None:
        """Start Pentad's move when it is its turn."""
        if self.table is not None and self.table.engine_to_move() and not self.socket.closed:
            self.start("move", self.table.begin_move("move"))

    async def end_think(self) -> None:
        """Stop the think in progress, if any, and wait for it."""
        if self.think is not None and not self.think.done():
            self.stop.set()
            await asyncio.shield(self.think)

    async def handle(self, message: Any) -> None:
        """Carry out one command of the page; WebError for what cannot be done."""
        if not isinstance(message, dict) or not isinstance(message.get("op"), str):
            raise WebError("a command is a JSON object with an 'op'")
        op = message["op"]
        if op == "new":
            settings = tables.parse_settings(message.get("settings"))
            await self.end_think()
            # off the loop: a rule's first board loads its pattern tables (about a second)
            self.table = await asyncio.get_running_loop().run_in_executor(self.pool, tables.new_table, settings)
            self.engine_moves()
            self.send_state()
            return
        table = self.table
        if table is None:
            raise WebError("start a game first")
        if op == "stop":
            if table.busy is None:
                raise WebError("Pentad is not thinking.")
            self.stop.set()
            return
        if op == "state":
            pass
        elif op == "play":
            table.play(message.get("point"))
        elif op == "undo":
            table.undo()
        elif op == "swap":
            table.swap()
        elif op == "resign":
            table.resign()
        elif op == "hint":
            self.start("hint", table.begin_move("hint"))
        elif isinstance(table, tables.GomokuTable) and op in GOMOKU_ONLY:
            if op == "goto":
                table.goto(message.get("ply"))
            elif op == "load":
                table.load(message.get("name", ""), message.get("text"))
            elif op == "export":
                self.send(dict(table.export(message.get("format")), type="file"))
                return
            elif op == "analyze":
                self.start("analyze", table.begin_analysis(message.get("count", 3)))
            elif op == "graph":
                self.start("graph", table.begin_graph())
        else:
            raise WebError(f"unknown command '{op[:30]}'")
        self.engine_moves()
        self.send_state()


GOMOKU_ONLY = ("goto", "load", "export", "analyze", "graph")
HELLO = {"type": "hello", "version": pbrain.__version__,
         "levels": [[level.number, level.name] for level in levels.LEVELS], "min_size": records.MIN_SIZE,
         "max_size": records.MAX_SIZE, "rectangles": [[15, 10], [20, 15], [22, 15]]}
"""What a tab is told first: the choices of its new-game panel."""


def _same_origin(request: web.Request) -> bool:
    """True when the request comes from the server's own page (or from no page at all)."""
    origin = request.headers.get("Origin")
    return origin is None or urlsplit(origin).netloc == request.host


async def websocket(request: web.Request) -> web.StreamResponse:
    """One tab's game."""
    app = request.app
    if not _same_origin(request):
        raise web.HTTPForbidden(text="another site's page may not play here")
    socket = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES, heartbeat=30)
    await socket.prepare(request)
    if len(app[TABS]) >= app[MAX_OPEN]:
        await socket.send_str(json.dumps({"type": "error", "message": f"The server has {app[MAX_OPEN]} games "
                                          "open already: close a tab and reload."}))
        await socket.close()
        return socket
    tab = Tab(socket, app[POOL])
    app[TABS].add(tab)
    writer = asyncio.ensure_future(tab.writer())
    tab.send(HELLO)
    try:
        async for msg in socket:
            if msg.type != WSMsgType.TEXT:
                continue
            try:
                await tab.handle(json.loads(msg.data))
            except json.JSONDecodeError:
                tab.send({"type": "error", "message": "not a JSON command"})
            except WebError as error:
                tab.send({"type": "error", "message": str(error)})  # and nothing changed
    finally:
        app[TABS].discard(tab)
        tab.stop.set()  # a tab closed mid-think: the think ends at once and its answer goes nowhere
        tab.outbox.put_nowait(None)
        await writer
    return socket


def _static_handler(body: bytes, content_type: str) -> Any:
    async def handler(_request: web.Request) -> web.Response:
        return web.Response(body=body, content_type=content_type, charset="utf-8",
                            headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})
    return handler


def make_app(max_tables: int = MAX_TABLES, threads: int = THINK_THREADS) -> web.Application:
    """The server's application: the page and its WebSocket."""
    app = web.Application(client_max_size=MAX_MESSAGE_BYTES)
    app[TABS] = set()
    app[MAX_OPEN] = max_tables
    app[POOL] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="pentad-think")
    folder = resources.files("pbrain.frontends.web") / "static"
    for name, content_type in STATIC.items():
        body = (folder / name).read_bytes()
        path = "/" if name == "index.html" else f"/static/{name}"
        app.router.add_get(path, _static_handler(body, content_type))
    app.router.add_get("/ws", websocket)

    async def shut(app: web.Application) -> None:
        for tab in list(app.get(TABS, ())):
            tab.stop.set()
            await tab.socket.close()
        app[POOL].shutdown(wait=False, cancel_futures=True)

    app.on_shutdown.append(shut)
    return app


async def start(host: str, port: int, max_tables: int = MAX_TABLES) -> "tuple[web.AppRunner, str]":
    """Start serving; (the runner to clean up, the page's URL)."""
    runner = web.AppRunner(make_app(max_tables), access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0]
    shown = f"[{bound[0]}]" if ":" in str(bound[0]) else bound[0]
    return runner, f"http://{shown}:{bound[1]}/"


def run_serve(args: argparse.Namespace) -> int:
    """`pbrain-pentad serve`: serve until Ctrl-C."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    async def main() -> None:
        runner, url = await start(args.host, args.port, args.max_games)
        print(f"Pentad is serving a board at {url}  (Ctrl-C to stop)", flush=True)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print("Warning: the board is open to other machines on this network.", flush=True)
        if args.open:
            webbrowser.open(url)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        print("Stopped.", flush=True)
    except OSError as error:
        print(f"pbrain-pentad serve: cannot listen on {args.host}:{args.port}: {error.strerror or error}")
        return 1
    return 0
