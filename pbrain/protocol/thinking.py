"""Thinking off the main thread: one job at a time on a worker thread, with a stop flag and a watchdog.

A job is any function of (stop flag, iteration callback) that returns an Answer; it may use the engine freely
while it runs, and nothing else touches the engine until the job is over. The watchdog stops a job that runs
past its deadline and, if it still has not answered a little later, hands the session the fallback answer.
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Set, Tuple

from pbrain import params
from pbrain.engine import Point, SearchInfo
from pbrain.timeman import Budget

Stone = Tuple[int, int, int]


@dataclass
class Answer:
    """The reply to a thinking command and what it does to the position."""

    reply: str
    """The reply line ('' when everything is in `chatter`, as for Yixin's swap2 steps)."""
    chatter: List[str] = field(default_factory=list)
    """MESSAGE lines printed before the reply."""
    moves: List[Point] = field(default_factory=list)
    """Stones played after the answer, in order, from the side to move."""
    position: Optional[List[Stone]] = None
    """When set, the position is replaced by these stones (black to move first) before `moves`."""


Work = Callable[[threading.Event, Callable[[SearchInfo], None]], Answer]


@dataclass
class Job:
    """One thinking command in flight."""

    work: Work
    fallback: Answer
    """What the watchdog answers if the engine overruns (legal moves known before thinking started)."""
    legal: Set[Point]
    """The points free when thinking started."""
    received: float
    """time.monotonic() when the command arrived."""
    hard_at: float
    """time.monotonic() of the engine's own hard deadline."""
    stop_at: float
    answer_at: float
    stop: threading.Event = field(default_factory=threading.Event)
    answered: Optional[Answer] = None
    """Set when the watchdog answered for the engine."""
    last_info: Optional[SearchInfo] = None


class Thinker:
    """Runs one Job at a time on a daemon thread; its outcome (an Answer or an exception) goes to `events`."""

    def __init__(self, events: "queue.Queue[Tuple[str, object]]", done_tag: str,
                 on_info: Callable[[Job, SearchInfo], None]) -> None:
        self.events = events
        self.done_tag = done_tag
        self.on_info = on_info
        self.job: Optional[Job] = None
        self._answering = threading.Lock()
        """Held while a progress line is printed and while the watchdog takes over the answer, so no progress
        line can follow the watchdog's answer."""

    def launch(self, work: Work, fallback: Answer, legal: Set[Point], budget: Budget, received: float) -> None:
        """Start `work` under `budget` (counted from now). The watchdog sets the stop flag just after the engine's
        own hard deadline and, as a last resort, answers for it just before the manager's limit."""
        now = time.monotonic()
        stop_at = now + (budget.hard_ms + params.WATCHDOG_STOP_GRACE_MS) / 1000
        if budget.limit_ms is None:
            answer_at = now + (budget.hard_ms + params.WATCHDOG_UNLIMITED_GRACE_MS) / 1000
        else:
            answer_at = now + max(0.0, budget.limit_ms - params.WATCHDOG_ANSWER_MARGIN_MS) / 1000
        self.job = Job(work, fallback, legal, received, now + budget.hard_ms / 1000, stop_at, answer_at)
        threading.Thread(target=self._run, args=(self.job,), name="pentad-search", daemon=True).start()

    def _run(self, job: Job) -> None:
        def on_info(info: SearchInfo) -> None:
            job.last_info = info
            with self._answering:
                if job.answered is None:
                    self.on_info(job, info)

        try:
            outcome: object = job.work(job.stop, on_info)
        except Exception as exc:  # the session reports it and plays the fallback
            outcome = exc
        self.events.put((self.done_tag, (job, outcome)))

    def stop(self) -> None:
        """Ask the job in flight, if any, to answer now."""
        if self.job is not None:
            self.job.stop.set()

    def wait_time(self) -> Optional[float]:
        """Seconds until the watchdog must look again (None: no deadline pending)."""
        job = self.job
        if job is None or job.answered is not None:
            return None
        deadline = job.answer_at if job.stop.is_set() else min(job.stop_at, job.answer_at)
        return max(0.0, deadline - time.monotonic())

    def overdue(self) -> Optional[Answer]:
        """Past the stop deadline: stop the job. Past the answer deadline: the answer to give in its place (the
        last iteration's best move when it has one, else the fallback), once."""
        job = self.job
        if job is None or job.answered is not None:
            return None
        now = time.monotonic()
        if now >= job.stop_at:
            job.stop.set()
        if now < job.answer_at:
            return None
        answer = job.fallback
        info = job.last_info
        if len(answer.moves) == 1 and info is not None and info.pv and info.pv[0] in job.legal:
            answer = Answer(f"{info.pv[0][0]},{info.pv[0][1]}", list(answer.chatter), [info.pv[0]], answer.position)
        answer.chatter = ["MESSAGE the search overran its deadline: answering with the best move known"] + [
            line for line in answer.chatter if not line.startswith("MESSAGE the search overran")]
        with self._answering:  # a progress line being printed goes out first; none comes after this answer
            job.answered = answer
        return answer

    def done(self, job: Job) -> None:
        """The worker has finished `job`."""
        if self.job is job:
            self.job = None
