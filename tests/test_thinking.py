"""The worker thread and the watchdog: what is printed, in which order."""
from __future__ import annotations

import queue
import threading
import time
from typing import List

from pbrain import params
from pbrain.engine import SearchInfo
from pbrain.protocol.thinking import Answer, Job, Thinker
from pbrain.timeman import Budget

INFO = SearchInfo(3, 10, 100, 5, [(1, 1)])


def _idle_thinker() -> Thinker:
    return Thinker(queue.Queue(), "done", lambda _job, _info: None)  # type: ignore[arg-type]


def test_the_watchdog_stops_just_after_the_hard_deadline_and_answers_just_before_the_limit() -> None:
    thinker = _idle_thinker()
    release = threading.Event()
    before = time.monotonic()
    thinker.launch(lambda _stop, _on_info: release.wait(5), Answer("0,0", [], [(0, 0)]), {(0, 0)},
                   Budget(300, 377, 400), before)
    after = time.monotonic()
    job = thinker.job
    assert job is not None
    stop_ms = (377 + params.WATCHDOG_STOP_GRACE_MS) / 1000
    answer_ms = (400 - params.WATCHDOG_ANSWER_MARGIN_MS) / 1000
    assert before + stop_ms <= job.stop_at <= after + stop_ms
    assert before + answer_ms <= job.answer_at <= after + answer_ms
    assert job.answer_at < before + 0.4, "the last-resort answer is inside the manager's limit"
    release.set()


def test_without_a_manager_limit_the_watchdog_answers_a_grace_after_the_hard_deadline() -> None:
    thinker = _idle_thinker()
    release = threading.Event()
    before = time.monotonic()
    thinker.launch(lambda _stop, _on_info: release.wait(5), Answer("0,0", [], [(0, 0)]), {(0, 0)},
                   Budget(300, 377, None), before)
    after = time.monotonic()
    job = thinker.job
    assert job is not None
    grace = (377 + params.WATCHDOG_UNLIMITED_GRACE_MS) / 1000
    assert before + grace <= job.answer_at <= after + grace
    release.set()


def test_a_progress_line_being_printed_goes_out_before_the_watchdog_answer() -> None:
    """The worker is inside the progress printer (slow output) when the watchdog takes over: the line it is
    printing must go out before the watchdog's answer, and no later line may follow it."""
    order: List[str] = []
    printing = threading.Event()
    release = threading.Event()

    def print_progress(_job: Job, _info: SearchInfo) -> None:
        printing.set()
        release.wait(5)
        order.append("progress")

    events: "queue.Queue[object]" = queue.Queue()
    thinker = Thinker(events, "done", print_progress)  # type: ignore[arg-type]
    finish = threading.Event()

    def work(_stop: threading.Event, on_info) -> Answer:  # type: ignore[no-untyped-def]
        on_info(INFO)
        finish.wait(5)
        on_info(INFO)  # after the watchdog answered: must not be printed
        return Answer("1,1", [], [(1, 1)])

    limit_ms = params.WATCHDOG_ANSWER_MARGIN_MS + 1
    thinker.launch(work, Answer("0,0", [], [(0, 0)]), {(0, 0), (1, 1)}, Budget(1, 1, limit_ms), time.monotonic())
    assert printing.wait(5)
    time.sleep(0.05)

    def watchdog() -> None:
        answer = thinker.overdue()
        assert answer is not None
        order.append("answer")

    taking_over = threading.Thread(target=watchdog)
    taking_over.start()
    time.sleep(0.1)  # the watchdog is waiting for the line in print
    release.set()
    taking_over.join(5)
    finish.set()
    events.get(timeout=5)
    assert order == ["progress", "answer"]
