"""The worker thread and the watchdog: what is printed, in which order."""
from __future__ import annotations

import queue
import threading
import time
from typing import List

from pbrain import params
from pbrain.engine import SearchInfo
from pbrain.thinking import Answer, Job, Thinker
from pbrain.timeman import Budget

INFO = SearchInfo(3, 10, 100, 5, [(1, 1)])


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
