"""Time management: the deadlines of one move from the protocol's time settings, and the measured latency."""
from __future__ import annotations

import pytest

from pbrain import params, timeman


@pytest.mark.parametrize("turn_ms", [300, 1000, 5000])
def test_a_turn_limit_alone_is_spent_whole(turn_ms: int) -> None:
    budget = timeman.budget(turn_ms, None, None, 20, timeman.margin_ms(turn_ms, 10))
    assert budget.soft_ms == budget.hard_ms, "an unfinished iteration still helps: no early stop on a turn limit"
    assert 0.85 * turn_ms <= budget.hard_ms < turn_ms
    assert budget.limit_ms == turn_ms


def test_the_margin_grows_with_the_turn_and_the_measured_latency() -> None:
    assert timeman.margin_ms(300) < timeman.margin_ms(5000)
    assert timeman.margin_ms(1000, 40) == pytest.approx(timeman.margin_ms(1000) + 40)
    assert timeman.margin_ms(1000) >= params.TIME_MARGIN_MS


def test_turn_zero_answers_at_once() -> None:
    budget = timeman.budget(0, None, None, 10)
    assert budget.instant and budget.limit_ms is None


def test_a_game_clock_is_spread_over_the_moves_to_come() -> None:
    budget = timeman.budget(5000, 60000, 60000, 0)
    assert budget.soft_ms == pytest.approx(60000 / params.MATCH_MOVES_TO_GO)
    assert budget.soft_ms < budget.hard_ms <= 3 * budget.soft_ms
    assert budget.limit_ms == 5000
    late = timeman.budget(5000, 60000, 2000, 200)
    assert late.hard_ms <= 2000 * params.MAX_SHARE_OF_REMAINING and late.limit_ms == 2000


def test_no_time_left_answers_at_once() -> None:
    budget = timeman.budget(5000, 60000, 10, 50)
    assert budget.instant


def test_an_untimed_match_uses_the_turn_limit() -> None:
    budget = timeman.budget(1000, 0, timeman.UNLIMITED_MS, 30)
    assert budget.soft_ms == budget.hard_ms and budget.limit_ms == 1000


def test_latency_follows_a_new_maximum_at_once_and_forgets_slowly() -> None:
    latency = timeman.Latency(0)
    latency.observe(-50)
    assert latency.ms == 0
    latency.observe(30)
    assert latency.ms == 30
    for _ in range(5):
        latency.observe(-10)
    assert 0 < latency.ms < 30
    latency.observe(10_000)
    assert latency.ms == params.LATENCY_CAP_MS
