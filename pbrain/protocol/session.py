"""A protocol session: the state machine between the manager's commands and the engine, and its threads.

A reader thread turns stdin into Commands on the event queue; the main loop (Session.run) applies them one at a
time; thinking runs on a worker thread with a stop event, so END, STOP / YXSTOP and `INFO timeout_turn 0` act
mid-search. Commands that need the engine wait while it thinks; a watchdog stops a search that overruns its
deadline and, as a last resort, answers with a legal move itself. Exactly one object writes to stdout.
"""
from __future__ import annotations

import os
import queue
import threading
import time
from collections import deque
from typing import Callable, Deque, Dict, List, Optional, Protocol, Set, Tuple, cast

import pbrain
from pbrain import analysis, timeman
from pbrain.core.rules import BLACK, WHITE, RuleError, opponent
from pbrain.engine import MAX_SIZE, MIN_SIZE, BoardError, Engine, Limits, Point, SearchInfo
from pbrain.protocol import parser
from pbrain.protocol.parser import Command, ProtocolError, StoneLine
from pbrain.protocol.settings import Settings
from pbrain.protocol.thinking import Answer, Job, Stone, Thinker, Work

IMMEDIATE = frozenset({"END", "STOP", "YXSTOP", "ABOUT", "YXSHOWINFO"})
"""Commands applied at once even while the engine thinks; the others wait for the move."""


class Output(Protocol):
    """Where protocol lines go."""

    def send(self, line: str) -> None:
        """Print one protocol line, flushed."""


class LineWriter:
    """The one writer of a file descriptor: whole protocol lines, each written and flushed under a lock."""

    def __init__(self, fd: int = 1) -> None:
        self._fd = fd
        self._lock = threading.Lock()
        self._closed = False

    def send(self, line: str) -> None:
        """Write one line (made a protocol line if it is not one); silently nothing after close or a dead pipe."""
        data = (parser.protocol_line(line) + os.linesep).encode("ascii", "replace")
        with self._lock:
            if self._closed:
                return
            try:
                while data:
                    data = data[os.write(self._fd, data):]
            except OSError:
                self._closed = True

    def close(self) -> None:
        """No more output (after END)."""
        with self._lock:
            self._closed = True


_COMMAND, _JOB_DONE, _EOF = "command", "job-done", "eof"


class Session:
    """The brain's state: settings, the game, the job in flight; `run` is the protocol loop."""

    def __init__(self, output: Output, engine_factory: Callable[..., Engine] = Engine,
                 startup_ms: float = 0.0) -> None:
        self.out = output
        self.startup_ms = startup_ms
        """Time the process took to start, charged to the first move (the manager's clock ran meanwhile)."""
        self.latency = timeman.Latency()
        self.settings = Settings()
        self.engine: Optional[Engine] = None
        self.marked: Set[Point] = set()
        """Points marked 3 in BOARD (continuous game: a winning line): occupied for good, never played."""
        self.pending: List[str] = []
        """INFO problems, reported at the next non-INFO command."""
        self.events: "queue.Queue[Tuple[str, object]]" = queue.Queue()
        self.thinker = Thinker(self.events, _JOB_DONE, self._report_iteration)
        self.deferred: Deque[Command] = deque()
        self.match_used_ms = 0
        self._engine_factory = engine_factory
        self._handlers: Dict[str, Callable[[Command], None]] = {
            "START": self._start, "RECTSTART": self._rectstart, "RESTART": self._restart, "BEGIN": self._begin,
            "TURN": self._turn, "BOARD": self._board, "YXBOARD": self._yxboard, "TAKEBACK": self._takeback,
            "PLAY": self._play, "ABOUT": self._about, "STOP": self._stop, "YXSTOP": self._stop,
            "SWAP2BOARD": self._swap2board, "YXNBEST": self._nbest, "YXSHOWFORBID": self._showforbid,
            "YXHASHCLEAR": self._hashclear, "YXSHOWINFO": self._showinfo, "DONE": self._stray_done,
            "": self._stray_stone, "YXSWAP2STEP1": self._swap2step, "YXSWAP2STEP2": self._swap2step,
            "YXSWAP2STEP3": self._swap2step,
        }

    # --- the loop --------------------------------------------------------------------------------------------------
    def run(self, input_fd: int = 0) -> int:
        """Read commands from `input_fd` until END or end of input; returns the exit status."""
        reader = threading.Thread(target=self._read, args=(input_fd,), name="pentad-reader", daemon=True)
        reader.start()
        eof = False
        while True:
            try:
                kind, payload = self.events.get(timeout=self.thinker.wait_time())
            except queue.Empty:
                self._watchdog()
                continue
            if kind == _EOF:
                eof = True
            elif kind == _JOB_DONE:
                job, outcome = cast(Tuple[Job, object], payload)
                self._finish(job, outcome)
            elif self.thinker.job is not None:
                if self._while_thinking(cast(Command, payload)):
                    return self._end()
            elif self._dispatch(cast(Command, payload)):
                return self._end()
            while self.thinker.job is None and self.deferred:
                if self._dispatch(self.deferred.popleft()):
                    return self._end()
            if eof and self.thinker.job is None:
                return 0

    def _read(self, fd: int) -> None:
        decoder, framer = parser.LineDecoder(), parser.CommandFramer()
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            now = time.monotonic()
            for line in decoder.feed(data) if data else decoder.finish():
                for command in framer.feed(line, now):
                    self.events.put((_COMMAND, command))
            if not data:
                for command in framer.finish(now):
                    self.events.put((_COMMAND, command))
                self.events.put((_EOF, None))
                return

    def _end(self) -> int:
        self.thinker.stop()
        close = getattr(self.out, "close", None)
        if close is not None:
            close()
        return 0

    def _while_thinking(self, command: Command) -> bool:
        """A command arriving mid-search: END, STOP, YXSTOP and read-only queries act now, the rest waits."""
        if command.word == "INFO" and not command.problem:
            key, _, value = command.args.partition(" ")
            if key.lower() == "timeout_turn" and value.strip().lstrip("+-").isdigit() and int(value) == 0:
                self.thinker.stop()
        if command.word in IMMEDIATE and not command.problem:
            return self._dispatch(command)
        self.deferred.append(command)
        return False

    def _dispatch(self, command: Command) -> bool:
        """Apply one command; True when the session must end."""
        if command.word == "END" and not command.problem:
            return True
        if command.word != "INFO" or command.problem:
            self._report_pending()
        try:
            if command.problem:
                raise ProtocolError(command.problem)
            if command.word == "INFO":
                self._info(command)
            elif command.word in self._handlers:
                self._handlers[command.word](command)
            else:
                self.out.send(f"UNKNOWN command '{parser.quote(command.word)}' is not supported")
        except (ProtocolError, BoardError) as exc:
            self.out.send(f"ERROR {exc}")
        except Exception as exc:  # last resort: report and keep serving
            self.out.send(f"ERROR internal: {parser.quote(type(exc).__name__ + ': ' + str(exc))}")
        return False

    def _report_pending(self) -> None:
        for message in self.pending:
            self.out.send(f"ERROR {message}")
        self.pending.clear()

    # --- game setup ------------------------------------------------------------------------------------------------
    def _game(self) -> Engine:
        if self.engine is None:
            raise ProtocolError("no game: send START first")
        return self.engine

    def _new_game(self, width: int, height: int) -> None:
        try:
            if self.engine is None:
                self.engine = self._engine_factory(width, height, self.settings.rule, self.settings.memory_bytes)
                if self.settings.hash_bytes:
                    self.engine.set_hash_bytes(self.settings.hash_bytes)
                self.engine.set_threads(self.settings.threads)
                self.engine.set_strength(self.settings.strength)
                self.engine.set_search_kind(self.settings.search)
            else:
                self.engine.new_game(width, height, self.settings.rule)
            self.engine.prepare()  # START is outside the turn's time: the hash table is made now, not in move 1
        except BoardError:
            raise ProtocolError(f"unsupported board size {width}x{height} "
                                f"(Pentad plays {MIN_SIZE}..{MAX_SIZE})") from None
        self.marked = set()
        self.match_used_ms = 0
        self.settings.time_left_ms = None
        self.out.send("OK")

    def _start(self, command: Command) -> None:
        size = parser.parse_size(command.args)
        self._new_game(size, size)

    def _rectstart(self, command: Command) -> None:
        self._new_game(*parser.parse_rect(command.args))

    def _restart(self, command: Command) -> None:
        parser.no_args(command)
        engine = self._game()
        self._new_game(engine.width, engine.height)

    def _stones(self, command: Command, with_field: bool = True) -> List[StoneLine]:
        engine = self._game()
        stones = parser.parse_stones(command.block, engine.width, engine.height, command.word)
        if with_field and any(s.field is None for s in stones):
            raise ProtocolError(f"{command.word} lines are x,y,field")
        return stones

    def _set_position(self, stones: List[StoneLine]) -> None:
        """Replace the position by a BOARD / YXBOARD list; the brain (field 1) is to move."""
        played = [s for s in stones if s.field in (1, 2)]
        own = sum(1 for s in played if s.field == 1)
        theirs = len(played) - own
        if own == theirs:
            me = BLACK
        elif theirs == own + 1:
            me = WHITE
        else:  # counts no game can reach (a problem position): the first stone listed is black
            me = BLACK if played[0].field == 1 else WHITE
        position = [(s.x, s.y, me if s.field == 1 else opponent(me)) for s in played]
        self._game().set_position(position, side_to_move=me)
        self.marked = {(s.x, s.y) for s in stones if s.field == 3}

    # --- commands --------------------------------------------------------------------------------------------------
    def _begin(self, command: Command) -> None:
        parser.no_args(command)
        if self._game().stones() or self.marked:
            raise ProtocolError("BEGIN on a board with stones (use BOARD to give a position)")
        self._search(command)

    def _free_point(self, command: Command, what: str) -> Point:
        engine = self._game()
        point = parser.parse_point(command.args, engine.width, engine.height, what)
        if point in self.marked:
            raise ProtocolError(f"{what}: {parser.format_point(point)} is occupied")
        return point

    def _turn(self, command: Command) -> None:
        engine = self._game()
        point = self._free_point(command, "TURN")
        engine.play(*point)
        self._search(command)

    def _board(self, command: Command) -> None:
        self._set_position(self._stones(command))
        self._search(command)

    def _yxboard(self, command: Command) -> None:
        self._set_position(self._stones(command))

    def _takeback(self, command: Command) -> None:
        engine = self._game()
        point = parser.parse_point(command.args, engine.width, engine.height, "TAKEBACK")
        stones = engine.stones()
        if not stones:
            raise ProtocolError("TAKEBACK: no move to take back")
        if point not in {(x, y) for x, y, _ in stones}:
            raise ProtocolError(f"TAKEBACK: {parser.format_point(point)} is empty")
        engine.take_back(*point)
        self.out.send("OK")

    def _play(self, command: Command) -> None:
        engine = self._game()
        point = self._free_point(command, "PLAY")
        engine.play(*point)
        self.out.send(parser.format_point(point))

    def _about(self, command: Command) -> None:
        self.out.send(parser.format_about(pbrain.__version__))

    def _stop(self, command: Command) -> None:
        self.thinker.stop()

    def _showforbid(self, command: Command) -> None:
        engine = self._game()
        points: List[Point] = []
        if engine.side_to_move == BLACK:
            points = sorted(engine.forbidden_points(), key=lambda p: (p[1], p[0]))
        self.out.send(parser.format_forbid(points))

    def _hashclear(self, command: Command) -> None:
        if self.engine is not None:
            self.engine.clear_hash()
        self.out.send("MESSAGE hash cleared")

    def _showinfo(self, command: Command) -> None:
        self.out.send(f"MESSAGE Pentad {pbrain.__version__}")
        self.out.send(f"MESSAGE INFO MAX_THREAD_NUM {Engine.max_threads()}")
        self.out.send("MESSAGE INFO MAX_HASH_SIZE 20")

    def _stray_done(self, command: Command) -> None:
        raise ProtocolError("DONE without BOARD, YXBOARD or SWAP2BOARD")

    def _stray_stone(self, command: Command) -> None:
        raise ProtocolError(f"'{parser.quote(command.args)}' outside BOARD ... DONE")

    # --- INFO ------------------------------------------------------------------------------------------------------
    def _info(self, command: Command) -> None:
        """Apply one INFO setting; a problem waits for the next non-INFO command (the protocol's rule)."""
        try:
            key, value = parser.parse_info(command.args)
            try:
                self.settings.apply(key, value, self.engine)
            except RuleError as exc:
                raise ProtocolError(f"INFO {key}: {exc}") from None
        except ProtocolError as exc:
            self.pending.append(str(exc))

    # --- thinking --------------------------------------------------------------------------------------------------
    def _limits(self, received: float) -> Limits:
        """The manager's limits less the time the command has already waited (queue, table building)."""
        settings = self.settings
        waited = int((time.monotonic() - received) * 1000 + self.startup_ms)
        self.startup_ms = 0.0
        turn = settings.turn_ms
        if turn is not None and turn > 0:
            turn = max(0, turn - waited)
        left = settings.time_left_ms
        if left is None and settings.match_ms:
            left = settings.match_ms - self.match_used_ms
        if left is not None and left < timeman.UNLIMITED_MS:
            left -= waited
        return Limits(turn, settings.match_ms, left, settings.max_depth, settings.max_nodes,
                      timeman.margin_ms(settings.turn_ms, self.latency.ms))

    def _legal_points(self) -> Set[Point]:
        """Points the side to move may play (black keeps away from renju forbidden points while it can)."""
        engine = self._game()
        taken = {(x, y) for x, y, _ in engine.stones()} | self.marked
        free = {(x, y) for y in range(engine.height) for x in range(engine.width)} - taken
        if free and engine.side_to_move == BLACK and engine.rule.has_forbidden:
            allowed = free - set(engine.forbidden_points())
            free = allowed or free
        return free

    def _fallback_point(self, legal: Set[Point]) -> Point:
        """The move played when the engine fails or overruns with nothing to show: a five if the side to move
        has one, else the point that stops the opponent's five, else a legal point near the last stone (or the
        centre)."""
        engine = self._game()
        side = engine.side_to_move
        for color in (side, opponent(side)):
            fives = [p for p in legal if engine.wins_at(*p, color)]
            if fives:
                return min(fives)
        stones = engine.stones()
        cx, cy = (stones[-1][0], stones[-1][1]) if stones else (engine.width // 2, engine.height // 2)
        return min(legal, key=lambda p: (max(abs(p[0] - cx), abs(p[1] - cy)), p[1], p[0]))

    def _prepare(self) -> Tuple[Engine, Set[Point], Point]:
        """Before thinking: the engine, the legal points and a fallback move; ERROR when there is no move."""
        engine = self._game()
        legal = self._legal_points()
        if not legal:
            raise ProtocolError("no legal move: the board is full")
        return engine, legal, self._fallback_point(legal)

    def _search(self, command: Command) -> None:
        """Think and answer one move (BEGIN, TURN, BOARD)."""
        engine, legal, fallback = self._prepare()
        plain = Answer(parser.format_point(fallback), [], [fallback])
        if engine.last_move_wins():
            plain.chatter = ["MESSAGE the game is already won"]
            self._apply(plain, command.received)
            return
        limits = self._limits(command.received)

        def work(stop: threading.Event, on_info: Callable[[SearchInfo], None]) -> Answer:
            result = engine.think(limits, on_info, stop)
            if result.move is None:
                return plain
            summary = parser.format_search(result.depth, result.score, result.nodes, result.nps, result.time_ms,
                                             result.pv or [result.move])
            return Answer(parser.format_point(result.move), [summary], [result.move])

        self._launch(work, plain, legal, limits, command)

    def _nbest(self, command: Command) -> None:
        """YXNBEST n: a MESSAGE line for each of the n best moves, then the best is played."""
        count = parser.parse_count(command.args, "YXNBEST", 1)
        engine, legal, fallback = self._prepare()
        plain = Answer(parser.format_point(fallback), [], [fallback])
        limits = self._limits(command.received)

        def work(stop: threading.Event, on_info: Callable[[SearchInfo], None]) -> Answer:
            ranked = analysis.n_best(engine, count, limits, stop, on_info)
            if not ranked:
                return plain
            lines = [parser.format_search(r.result.depth, r.score, r.result.nodes, r.result.nps,
                                            r.result.time_ms, r.pv, multipv=rank)
                     for rank, r in enumerate(ranked, 1)]
            return Answer(parser.format_point(ranked[0].move), lines, [ranked[0].move])

        self._launch(work, plain, legal, limits, command)

    def _swap2board(self, command: Command) -> None:
        stones = self._stones(command, with_field=False)
        self._swap2([(s.x, s.y) for s in stones], command, yixin_step=0)

    def _swap2step(self, command: Command) -> None:
        parser.no_args(command)
        step = int(command.word[-1])
        points = [] if step == 1 else [(x, y) for x, y, _ in self._game().stones()]
        self._swap2(points, command, yixin_step=step)

    def _swap2(self, points: List[Point], command: Command, yixin_step: int) -> None:
        """SWAP2BOARD (yixin_step 0) and YXSWAP2STEP1..3: propose, swap, play on or add two stones."""
        decide = analysis.swap2_stage(len(points))
        expected = {1: 0, 2: 3, 3: 5}.get(yixin_step)
        if decide is None or (expected is not None and len(points) != expected):
            raise ProtocolError(f"{command.word}: a swap2 board has 0, 3 or 5 stones, not {len(points)}")
        engine = self._game()
        position = [(x, y, colour) for (x, y), colour in zip(points, analysis.opening_colours(len(points)))]
        engine.set_position(position)
        self.marked = set()
        legal = self._legal_points()
        limits = self._limits(command.received)
        fallback_moves = [self._fallback_point(legal)]
        if not points:
            fallback_moves = analysis.swap2_openings(engine.width, engine.height)[0]
        fallback = self._swap2_answer(analysis.Swap2Choice("open" if not points else "move", fallback_moves),
                                      position, yixin_step)

        def work(stop: threading.Event, on_info: Callable[[SearchInfo], None]) -> Answer:
            return self._swap2_answer(decide(engine, limits, stop, on_info), position, yixin_step)

        self._launch(work, fallback, legal, limits, command)

    @staticmethod
    def _swap2_answer(choice: analysis.Swap2Choice, position: List[Stone], yixin_step: int) -> Answer:
        moves = list(choice.moves)
        answer = Answer("SWAP" if choice.action == "swap" else parser.format_points(moves), [], moves, position)
        if yixin_step == 0:
            return answer
        if choice.action in ("open", "put2"):
            first = 1 if choice.action == "open" else 4
            answer.reply = ""
            answer.chatter = [f"MESSAGE SWAP2 MOVE{first + i} {y} {x}" for i, (x, y) in enumerate(moves)]
        else:
            which = "SWAP1" if yixin_step == 2 else "SWAP2"
            answer.chatter = [f"MESSAGE SWAP2 {which} {'YES' if choice.action == 'swap' else 'NO'}"]
            answer.reply = "" if choice.action == "swap" else parser.format_point(moves[0])
        return answer

    def _launch(self, work: Work, fallback: Answer, legal: Set[Point], limits: Limits, command: Command) -> None:
        budget = timeman.budget(limits.turn_ms, limits.match_ms, limits.time_left_ms, len(self._game().stones()),
                                limits.margin_ms)
        self.thinker.launch(work, fallback, legal, budget, command.received)

    def _report_iteration(self, job: Job, info: SearchInfo) -> None:
        """An iteration finished (worker thread): one MESSAGE line with show_detail 2 or 3."""
        if self.settings.show_detail >= 2:
            self.out.send(parser.format_search(info.depth, info.score, info.nodes, info.nps, info.time_ms,
                                                 info.pv))

    def _watchdog(self) -> None:
        job = self.thinker.job
        answer = self.thinker.overdue()
        if job is not None and answer is not None:
            self._print(answer)
            self._account(job.received)
            self.latency.observe((time.monotonic() - job.hard_at) * 1000)

    def _finish(self, job: Job, outcome: object) -> None:
        """The worker is done: settle the position and answer, unless the watchdog already has."""
        self.thinker.done(job)
        if job.answered is not None:
            self._settle(job.answered)
            return
        if isinstance(outcome, Answer):
            problem = self._problem(outcome, job.legal)
        else:
            problem = f"internal error ({parser.quote(f'{type(outcome).__name__}: {outcome}')})"
        answer = outcome if isinstance(outcome, Answer) and not problem else job.fallback
        if problem:
            answer.chatter = [f"MESSAGE {problem}: playing {answer.reply or 'the fallback'} instead"] + answer.chatter
        self._apply(answer, job.received)
        self.latency.observe((time.monotonic() - job.hard_at) * 1000)

    def _problem(self, answer: Answer, legal: Set[Point]) -> str:
        """Why an answer cannot be played ('' when it can): moves must be distinct and on free points."""
        marked = [m for m in answer.moves if m in self.marked]
        if marked:
            return f"{parser.format_point(marked[0])} is marked (BOARD field 3)"
        if len(set(answer.moves)) != len(answer.moves) or any(m not in legal for m in answer.moves):
            return f"internal error (illegal answer '{parser.quote(answer.reply)}')"
        return ""

    def _apply(self, answer: Answer, received: float) -> None:
        self._settle(answer)
        self._print(answer)
        self._account(received)

    def _settle(self, answer: Answer) -> None:
        engine = self._game()
        if answer.position is not None:
            engine.set_position(answer.position)
        for move in answer.moves:
            engine.play(*move)

    def _print(self, answer: Answer) -> None:
        for line in answer.chatter:
            if self.settings.show_detail > 0 or not line.startswith("MESSAGE depth"):
                self.out.send(line)
        if answer.reply:
            self.out.send(answer.reply)

    def _account(self, received: float) -> None:
        used = int((time.monotonic() - received) * 1000)
        self.match_used_ms += used
        left = self.settings.time_left_ms
        if left is not None and left < timeman.UNLIMITED_MS:
            self.settings.time_left_ms = left - used
