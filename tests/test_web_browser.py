"""The page of `pbrain-pentad serve` driven in a real browser (Debian's chromium and chromium-driver, through
Selenium), as a person uses it: clicks on the board, the panel's buttons, an uploaded file, the keyboard.

Each test saves a screenshot of its screen in tests/screenshots/ (or $PENTAD_SCREENSHOTS); the README's picture is
one of them. The README's test command installs the browser.
"""
from __future__ import annotations

import asyncio
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import pbrain
from pbrain.frontends.web import server, tables

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("PENTAD_SCREENSHOTS", ROOT / "tests" / "screenshots"))
State = Dict[str, Any]


def _browser() -> Optional[str]:
    return next((path for name in ("chromium", "chromium-browser", "google-chrome")
                 if (path := shutil.which(name))), None)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """A server on a free port, on its own thread, for the module's tests."""
    found: Dict[str, Any] = {}
    ready = threading.Event()

    def run() -> None:
        async def main() -> None:
            runner, found["url"] = await server.start("127.0.0.1", 0)
            found["stop"] = stop = asyncio.Event()
            found["loop"] = asyncio.get_running_loop()
            ready.set()
            await stop.wait()
            await runner.cleanup()

        asyncio.run(main())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(30), "the server did not start"
    yield found["url"]
    found["loop"].call_soon_threadsafe(found["stop"].set)
    thread.join(30)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    """Headless Chromium through chromedriver, 1200x900."""
    browser, chromedriver = _browser(), shutil.which("chromedriver")
    if browser is None or chromedriver is None:
        pytest.fail("these tests need Debian's chromium and chromium-driver: run the README's test command "
                    "(apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1200,900", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chrome = webdriver.Chrome(options=options, service=Service(chromedriver))
    yield chrome
    chrome.quit()


@pytest.fixture
def page(driver: Any, url: str) -> Iterator[Any]:
    """A fresh page (a new game with the panel's defaults), with no script error at the end of the test."""
    driver.set_window_size(1200, 900)
    driver.get(url)
    wait(driver, lambda s: s is not None and not s["busy"])
    yield driver
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []


def state(driver: Any) -> Optional[State]:
    return driver.execute_script("return window.pentad.state")  # type: ignore[no-any-return]


def wait(driver: Any, test: Callable[[Optional[State]], bool], timeout: float = 60.0) -> State:
    """The page's state once `test` passes."""
    end = time.monotonic() + timeout
    while True:
        current = state(driver)
        try:
            if test(current):
                return current  # type: ignore[return-value]
        except (KeyError, TypeError):
            pass
        if time.monotonic() > end:
            raise AssertionError(f"the page never got there: {current}")
        time.sleep(0.05)


def idle(driver: Any, test: Callable[[State], bool] = lambda s: True, timeout: float = 60.0) -> State:
    return wait(driver, lambda s: s is not None and not s["busy"] and test(s), timeout)


def shot(driver: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def new_game(driver: Any, **fields: Any) -> State:
    """Fill the new-game panel (select and input fields by name) and start."""
    form = driver.find_element(By.ID, "new-form")
    for name, value in fields.items():
        element = form.find_element(By.NAME, name)
        if element.tag_name == "select":
            Select(element).select_by_value(str(value))
        else:
            element.clear()
            element.send_keys(str(value))
    before = state(driver)
    driver.find_element(By.ID, "new").click()
    return idle(driver, lambda s: before is None or s["table"] != before["table"])


def click(driver: Any, name: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f'#board [data-name="{name}"]').click()


def error_text(driver: Any) -> str:
    return str(driver.find_element(By.ID, "error").text)


def play_to_five(driver: Any, you: str, rule: pbrain.Rule) -> State:
    """Click the facade's choice for the person (a short search) until someone has five; the final state."""
    current = idle(driver)
    engine = pbrain.Engine(15, rule=rule, memory_bytes=16 * 1024 * 1024)
    for _ in range(120):
        if current["outcome"]:
            return current
        engine.new_game(15, rule=rule)
        for point in current["moves"]:
            engine.play(*point)
        assert current["your_turn"] and current["to_move"] == you
        move = engine.think(pbrain.Limits(max_nodes=3000)).move
        count = len(current["moves"])
        click(driver, pbrain.format_point(move, 15))
        current = idle(driver, lambda s: s["outcome"] or (len(s["moves"]) >= count + 2 and s["your_turn"]))
    raise AssertionError("no five in 120 moves")


@pytest.mark.parametrize("you", ["black", "white"])
def test_a_freestyle_game_clicked_to_five(page: Any, you: str) -> None:
    new_game(page, game="gomoku", size="15x15", rule="freestyle", you=you, level=1, time_s="0.2", nodes=0)
    final = play_to_five(page, you, pbrain.Rule.FREESTYLE)
    assert final["outcome"]["how"] == "five" and len(final["outcome"]["line"]) >= 5
    assert page.find_elements(By.CSS_SELECTOR, "#board .win-line")
    status = page.find_element(By.ID, "status").text
    assert ("You win" if final["outcome"]["winner"] == you else "Pentad wins") in status
    assert len(page.find_elements(By.CSS_SELECTOR, "#board circle.stone")) == len(final["moves"])
    shot(page, f"freestyle-{you}")


def test_a_renju_game_and_a_forbidden_point(page: Any) -> None:
    new_game(page, rule="renju", you="black", level=1, time_s="0.2")
    final = play_to_five(page, "black", pbrain.Rule.RENJU)
    assert final["outcome"]["how"] == "five" and final["rule"] == "renju"
    new_game(page, rule="renju", you="both")
    page.find_element(By.ID, "paste").send_keys("i8 a1 j8 a3 h9 a5 h10 a7")
    page.find_element(By.ID, "load").click()
    shown = idle(page, lambda s: len(s["moves"]) == 8)
    assert [7, 7] in shown["forbidden"]
    assert page.find_elements(By.CSS_SELECTOR, '#board [data-forbidden="7,7"]')
    click(page, "h8")
    wait(page, lambda s: "forbidden" in error_text(page), 10)
    assert "forbidden for black" in error_text(page) and len(state(page)["moves"]) == 8  # type: ignore[index]
    shot(page, "renju-forbidden")


def test_undo_hint_and_new_game(page: Any) -> None:
    new_game(page, rule="freestyle", you="black", level=3, time_s="0.2")
    click(page, "h8")
    idle(page, lambda s: len(s["moves"]) == 2)
    page.find_element(By.ID, "hint").click()
    hinted = idle(page, lambda s: s["hint"] is not None)
    assert page.find_elements(By.CSS_SELECTOR, "#board .hint-mark")
    assert hinted["message"].startswith("Hint")
    page.find_element(By.ID, "undo").click()
    undone = idle(page, lambda s: s["moves"] == [])
    assert undone["your_turn"] and page.find_element(By.ID, "undo").get_attribute("disabled")
    click(page, "g7")
    idle(page, lambda s: len(s["moves"]) == 2)
    fresh = new_game(page, you="white")
    assert fresh["names"] == ["h8"] or len(fresh["moves"]) == 1  # Pentad opens as black


def test_thinking_is_shown_live_and_stop_moves_now(page: Any) -> None:
    new_game(page, you="black", level=7, time_s="10")
    click(page, "h8")
    wait(page, lambda s: s["busy"] == "move")
    end = time.monotonic() + 30
    while int(page.find_element(By.ID, "thinking").get_attribute("data-depth") or 0) < 4:
        assert time.monotonic() < end, "no thinking shown"
        time.sleep(0.05)
    text = page.find_element(By.ID, "thinking").text
    assert "depth" in text and "nodes/s" in text and "eval" in text
    assert page.find_elements(By.CSS_SELECTOR, "#board .pv-stone")
    assert float(page.find_element(By.ID, "evalbar-black").value_of_css_property("width").rstrip("px")) > 0
    shot(page, "thinking")
    page.find_element(By.ID, "stop").click()
    done = idle(page, timeout=5)
    assert len(done["moves"]) == 2 and done["your_turn"]


def test_an_uploaded_game_is_analysed_with_its_graph(page: Any, tmp_path: Path) -> None:
    record = tmp_path / "game.psq"
    moves = "h8 i9 h9 h10 g9 f10 i7 j6 g7 g8 f8 e9 j8 k8 g6 f5 g10"
    game = pbrain.Game(15, 15, pbrain.Rule.FREESTYLE, pbrain.parse_moves(moves, 15, 15))
    record.write_text(pbrain.write_psq(game))
    new_game(page, you="both", time_s="0.2")
    page.find_element(By.ID, "upload").send_keys(str(record))
    loaded = idle(page, lambda s: len(s["moves"]) == 17)
    assert loaded["cursor"] == 17
    page.find_element(By.ID, "graph").click()
    analysed = idle(page, lambda s: s["graph"] is not None, timeout=120)
    assert len(analysed["graph"]["values"]) == 18
    points = page.find_element(By.CSS_SELECTOR, "#graph-plot polyline").get_attribute("points").split()
    assert len(points) == 18
    page.find_element(By.ID, "analyze").click()
    idle(page, lambda s: len(s["lines"]) == 3, timeout=60)
    assert len(page.find_elements(By.CSS_SELECTOR, "#lines li")) == 3
    assert len(page.find_elements(By.CSS_SELECTOR, "#board .line-label")) == 3
    shot(page, "analysis")
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    idle(page, lambda s: s["cursor"] == 16)
    body.send_keys(Keys.HOME)
    idle(page, lambda s: s["cursor"] == 0)
    body.send_keys(Keys.END)
    idle(page, lambda s: s["cursor"] == 17)
    page.find_element(By.ID, "upload").send_keys(str(ROOT / "README.md"))
    wait(page, lambda s: "Cannot read README.md" in error_text(page), 10)
    assert len(state(page)["moves"]) == 17  # type: ignore[index]


def test_a_connect_four_game(page: Any) -> None:
    new_game(page, game="connect4", you="black", time_s="0.2", engine="alphabeta")
    current = idle(page)
    assert current["game"] == "connect4"
    assert not page.find_element(By.ID, "analysis").is_displayed()
    for _ in range(25):
        if current["outcome"]:
            break
        count = len(current["moves"])
        column = current["playable"][count // 2 % len(current["playable"])]
        page.find_element(By.CSS_SELECTOR, f'#board [data-column="{column}"]').click()
        current = idle(page, lambda s: s["outcome"] or (len(s["moves"]) >= count + 2 and s["your_turn"]))
    assert current["outcome"] is not None
    assert "wins" in page.find_element(By.ID, "status").text or "Draw" in page.find_element(By.ID, "status").text
    shot(page, "connect4")


def test_page_move_is_the_facade_move(page: Any) -> None:
    new_game(page, game="gomoku", you="white", level=7, nodes=20000)
    idle(page, lambda s: len(s["moves"]) == 1)
    click(page, "j9")
    moves: List[str] = idle(page, lambda s: len(s["moves"]) == 3)["names"]
    engine = pbrain.Engine(15, memory_bytes=tables.ENGINE_MEMORY)
    answer = engine.think(pbrain.Limits(max_nodes=20000))
    assert pbrain.format_point(answer.move, 15) == moves[0]
    engine.play(*answer.move)
    engine.play(*pbrain.parse_point("j9", 15, 15))
    assert pbrain.format_point(engine.think(pbrain.Limits(max_nodes=20000)).move, 15) == moves[2]


def test_two_tabs_and_a_tab_closed_mid_think(page: Any, url: str) -> None:
    new_game(page, you="both")
    click(page, "h8")
    idle(page, lambda s: len(s["moves"]) == 1)
    first = page.current_window_handle
    page.switch_to.new_window("tab")
    page.get(url)
    idle(page)
    new_game(page, you="black", level=7, time_s="10")
    click(page, "c3")
    wait(page, lambda s: s["busy"] == "move")
    page.close()  # mid-think
    page.switch_to.window(first)
    click(page, "i9")
    kept = idle(page, lambda s: len(s["moves"]) == 2)
    assert kept["names"] == ["h8", "i9"]


def test_a_phone_sized_window(page: Any) -> None:
    page.set_window_size(400, 860)
    idle(page)
    board = page.find_element(By.ID, "board").rect
    panel = page.find_element(By.ID, "panel").rect
    assert board["width"] <= 400 and panel["y"] >= board["y"] + board["height"]
    click(page, "h8")
    idle(page, lambda s: len(s["moves"]) == 2)
    shot(page, "phone")


def test_the_server_survives_what_the_browser_cannot_send(page: Any, url: str) -> None:
    try:
        page.execute_script("window.pentad.socket.send('{\"op\": \"play\", \"point\": [99, 99]}')")
        wait(page, lambda s: "not a point" in error_text(page), 10)
        page.execute_script("for (let i = 0; i < 200; i++) window.pentad.socket.send('{\"op\": \"state\"}')")
    except WebDriverException as error:  # pragma: no cover - a broken page is a failure
        pytest.fail(str(error))
    click(page, "h8")
    idle(page, lambda s: len(s["moves"]) == 2)


def test_board_sizes_and_rectangles(page: Any) -> None:
    for size, (width, height) in (("20x15", (20, 15)), ("7", (7, 7)), ("22x22", (22, 22))):
        shown = new_game(page, size=size, you="both")
        assert (shown["width"], shown["height"]) == (width, height)
        assert len(page.find_elements(By.CSS_SELECTOR, "#board rect.hit")) == width * height
    click(page, "v22")  # the far corner: 'v' is the 22nd column
    assert idle(page, lambda s: len(s["moves"]) == 1)["moves"] == [[21, 0]]
    table = state(page)["table"]  # type: ignore[index]
    for bad in ("abc", "4", "23x15"):
        form = page.find_element(By.ID, "new-form")
        form.find_element(By.NAME, "size").clear()
        form.find_element(By.NAME, "size").send_keys(bad)
        page.find_element(By.ID, "new").click()
        wait(page, lambda s: "not a size" in error_text(page) or "out of range" in error_text(page), 10)
    assert state(page)["table"] == table  # type: ignore[index]  # the game on the board is kept
