"""The output of `pbrain-pentad analyze`: text for people, one JSON object for programs, and the eval picture.

JSON (`--json`), points in "h8" notation (records.format_point), scores in centi-pawns; a proven result is
params.WIN (30000) minus the plies to the five, so |score| >= 29000 means forced:

Position: {"mode": "position", "width", "height", "rule" (freestyle, standard, renju, caro, caro_exact),
"history": [moves played], "to_move": "black" | "white", "game_over": null | {"winner": "black" | "white" | null},
"moves": [{"move", "eval" (from the side to move's view), "eval_text" ("+35", "win in 3", "loss in 2"), "proven",
"depth", "reason" (the engine's: search, vcf, vct, defend, win), "pv": [moves, starting with "move"]}] best first,
"threats": {"black": [...], "white": [...]} each {"makes" (five, open four, four-three, double four, four,
double three, open three), "shape" (the shape on the board: four, open four, open three; null for points to play),
"points", "text"}, "forbidden": [black's renju forbidden points]}.

Game: {"mode": "game", "width", "height", "rule", "black", "white" (names, may be ""), "moves": [{"number",
"color", "move", "eval" (after the move, from black's view; +/-30000 for a five), "eval_text", "best" (null when no
move was left), "best_eval" (black's view), "best_eval_text", "best_pv", "drop" (eval lost against the best move,
mover's view, proven results counted as +/-2000), "mark" (null, "missed win", "blunder", "mistake")}],
"summary": {"result" ("B+", "W+", "draw", "" unfinished), "result_text", "final_eval" (black's view of the final
position, null after a five or on a full board), "marks": {"black": [{"number", "move", "mark"}], "white": [...]},
"turning_point" (a move number or null)}}.
"""
from __future__ import annotations

import importlib
import json
import os
from typing import Dict, List, Optional, Sequence

from pbrain import records
from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.engine import Limits
from pbrain.frontends import screen
from pbrain.frontends.analyze import (
    BLUNDER,
    MISSED_WIN,
    MISTAKE,
    GameReport,
    Line,
    MoveReport,
    PositionReport,
    Threat,
    black_view_text,
    color_name,
    is_proven,
)
from pbrain.frontends.common import format_eval

PV_SHOWN = 10
"""Moves of a principal variation shown in text."""
PLOT_EVAL_LIMIT = 1000
"""The picture clips evals to +/- this; proven results are drawn at +/- PLOT_PROVEN, inside a band."""
PLOT_PROVEN = 1150
PLOT_BAND = (1050, 1400)
"""The proven results' band (black's above, white's below), labelled above the line drawn in it."""
MARK_COLORS = {MISSED_WIN: "#8e24aa", BLUNDER: "#d32f2f", MISTAKE: "#f57c00"}


class OutputError(Exception):
    """The picture could not be written."""


def _names(points: Sequence[records.Point], height: int) -> List[str]:
    return [records.format_point(point, height) for point in points]


def _rule_name(rule: Rule) -> str:
    return Rule(rule).name.lower()


def _either(names: List[str], word: str = "or") -> str:
    """'a', 'a or b', 'a, b or c'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


# ---------------------------------------------------------------- position

def threat_text(threat: Threat, height: int) -> str:
    """'four (five at k8)', 'open three (open four at d4 or h4)', 'four-three at j9'."""
    points = _either(_names(threat.points, height))
    if threat.shape is not None:
        return f"{threat.shape} ({threat.makes} at {points})"
    return f"{threat.makes} at {points}"


def threats_text(threats: List[Threat], height: int) -> str:
    """One colour's threats: its shapes, then '; can make a four at e5, an open three at c3 or f9'."""
    shapes = [threat_text(t, height) for t in threats if t.shape is not None]
    plays = [("an " if t.makes[0] in "aeiou" else "a ") + threat_text(t, height) for t in threats if t.shape is None]
    parts = shapes + (["can make " + ", ".join(plays)] if plays else [])
    return "; ".join(parts) or "nothing"


def line_note(line: Line) -> str:
    return {"defend": "forced block", "win": "five", "vcf": "forced win by fours",
            "vct": "forced win by threats"}.get(line.reason, f"depth {line.depth}" if line.depth else line.reason)


def position_text(report: PositionReport) -> str:
    """The position report for people: the board, the best moves, the threats and the forbidden points."""
    height = report.height
    who = color_name(report.to_move)
    out = [f"Position after {len(report.history)} moves ({_rule_name(report.rule)}, {report.width}x{height}): "
           + (f"{who} to move." if report.winner is None else "the game is over.")]
    stones = {p: BLACK if i % 2 == 0 else WHITE for i, p in enumerate(report.history)}
    last = report.history[-1] if report.history else None
    view = screen.BoardView(report.width, height, stones, last, forbidden=set(report.forbidden))
    out += ["", screen.render_board(view), ""]
    if report.winner is not None:
        out.append(f"{color_name(report.winner).capitalize()} has made five: nothing left to analyse."
                   if report.winner else "The board is full: a draw.")
        return "\n".join(out)
    out.append(f"Best moves for {who} (evals from {who}'s view):")
    width = max([len(format_eval(line.score)) for line in report.lines] + [4])
    for rank, line in enumerate(report.lines, 1):
        pv = " ".join(_names(line.pv[:PV_SHOWN], height)) + (" ..." if len(line.pv) > PV_SHOWN else "")
        out.append(f"  {rank}. {records.format_point(line.move, height):<4} {format_eval(line.score):>{width}}  "
                   f"{'(' + line_note(line) + ')':<22} {pv}")
    out.append("Threats:")
    for color in (BLACK, WHITE):
        out.append(f"  {color_name(color).capitalize()}: {threats_text(report.threats.get(color, []), height)}")
    if report.rule is Rule.RENJU:
        forbidden = _names(report.forbidden, height)
        out.append("Forbidden for black (renju, x on the board): " + (" ".join(forbidden) or "none"))
    return "\n".join(out)


def position_dict(report: PositionReport) -> Dict[str, object]:
    height = report.height
    return {
        "mode": "position", "width": report.width, "height": height, "rule": _rule_name(report.rule),
        "history": _names(report.history, height), "to_move": color_name(report.to_move),
        "game_over": None if report.winner is None else {"winner": color_name(report.winner) if report.winner
                                                         else None},
        "moves": [{"move": records.format_point(line.move, height), "eval": line.score,
                   "eval_text": format_eval(line.score), "proven": is_proven(line.score), "depth": line.depth,
                   "reason": line.reason, "pv": _names(line.pv, height)} for line in report.lines],
        "threats": {color_name(color): [{"makes": t.makes, "shape": t.shape, "points": _names(t.points, height),
                                         "text": threat_text(t, height)} for t in report.threats.get(color, [])]
                    for color in (BLACK, WHITE)},
        "forbidden": _names(report.forbidden, height),
    }


def position_json(report: PositionReport) -> str:
    return json.dumps(position_dict(report))


# ---------------------------------------------------------------- game

def _move_name(move: MoveReport, height: int) -> str:
    return f"{move.number}. {records.format_point(move.move, height)}"


def marks_text(report: GameReport, color: int) -> str:
    """'Black: 1 mistake, 1 blunder: 7. j10 mistake (best k9), 15. c3 blunder (best d4)'."""
    marked = [m for m in report.moves if m.color == color and m.mark]
    name = color_name(color).capitalize()
    if not marked:
        return f"{name}: no marked moves."
    counts = [f"{n} {kind}{'s' if n > 1 else ''}"
              for kind in (MISSED_WIN, BLUNDER, MISTAKE) for n in [sum(m.mark == kind for m in marked)] if n]
    items = [f"{_move_name(m, report.height)} {m.mark} (best {_best_name(m, report.height)})" for m in marked]
    return f"{name}: {', '.join(counts)}: {', '.join(items)}."


def _best_name(move: MoveReport, height: int) -> str:
    return records.format_point(move.best.move, height) if move.best.move is not None else "-"


def game_text(report: GameReport, source: str = "", limits: Optional[Limits] = None) -> str:
    """The game report for people: the per-move table and the summary; `source` (a file name) and `limits` (the
    search per position) are named in the heading."""
    height = report.height
    players = "".join(f", {c} {n}" for c, n in (("black", report.black), ("white", report.white)) if n)
    out = [f"Game: {source + ': ' if source else ''}{_rule_name(report.rule)} {report.width}x{height}, "
           f"{len(report.moves)} moves{players}."]
    if limits is not None:
        how = [f"{limits.turn_ms / 1000:g} s"] if limits.turn_ms else []
        how += [f"depth {limits.max_depth}"] if limits.max_depth else []
        out.append(f"Each position searched for {' and '.join(how)}; evals after each move, from black's view.")
    out.append(f"{'#':>4}  {'side':<6}{'move':<6}{'eval':<13}{'best':<6}{'best eval':<13}mark")
    for move in report.moves:
        out.append(f"{move.number:>4}  {color_name(move.color):<6}{records.format_point(move.move, height):<6}"
                   f"{move.score_text:<13}{_best_name(move, height):<6}{move.best_text:<13}{move.mark or ''}"
                   .rstrip())
    out += ["", "Summary:", "  " + report.result_text]
    if report.final is not None:
        to_move = BLACK if len(report.moves) % 2 == 0 else WHITE
        out.append(f"  Final position: {color_name(to_move)} to move, eval "
                   f"{black_view_text(report.final.score, to_move)} (black's view)"
                   + (f", best {records.format_point(report.final.move, height)}." if report.final.move else "."))
    out += ["  " + marks_text(report, color) for color in (BLACK, WHITE)]
    if report.turning_point is None:
        out.append("  Turning point: none (no marked move).")
    else:
        move = report.moves[report.turning_point]
        out.append(f"  Turning point: move {move.number}, {color_name(move.color)} "
                   f"{records.format_point(move.move, height)} ({move.mark}): {move.best_text} with "
                   f"{_best_name(move, height)}, {move.score_text} after the move played.")
    return "\n".join(out)


def _black_eval(move: MoveReport) -> int:
    return move.black_view(move.score)


def game_dict(report: GameReport) -> Dict[str, object]:
    height = report.height
    moves = []
    for m in report.moves:
        best = m.best.move
        moves.append({"number": m.number, "color": color_name(m.color), "move": records.format_point(m.move, height),
                      "eval": _black_eval(m), "eval_text": m.score_text,
                      "best": records.format_point(best, height) if best is not None else None,
                      "best_eval": m.black_view(m.best.score), "best_eval_text": m.best_text,
                      "best_pv": _names(m.best.pv, height), "drop": m.drop, "mark": m.mark})
    final = None
    if report.final is not None:
        final = report.final.score if len(report.moves) % 2 == 0 else -report.final.score
    summary = {"result": report.result, "result_text": report.result_text, "final_eval": final,
               "marks": {color_name(c): [{"number": m.number, "move": records.format_point(m.move, height),
                                          "mark": m.mark} for m in report.moves if m.color == c and m.mark]
                         for c in (BLACK, WHITE)},
               "turning_point": None if report.turning_point is None
               else report.moves[report.turning_point].number}
    return {"mode": "game", "width": report.width, "height": height, "rule": _rule_name(report.rule),
            "black": report.black, "white": report.white, "moves": moves, "summary": summary}


def game_json(report: GameReport) -> str:
    return json.dumps(game_dict(report))


# ---------------------------------------------------------------- the picture

def have_matplotlib() -> bool:
    """True when matplotlib can be imported (it is imported only for --png)."""
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        return False
    return True


def plot_value(score: int) -> float:
    """A black's-view score as drawn: proven results at +/- PLOT_PROVEN, others clipped to PLOT_EVAL_LIMIT."""
    if is_proven(score):
        return PLOT_PROVEN if score > 0 else -PLOT_PROVEN
    return max(-PLOT_EVAL_LIMIT, min(PLOT_EVAL_LIMIT, score))


def write_png(report: GameReport, path: str, title: str = "") -> None:
    """Draw the eval after every move (black's view) with the marked moves highlighted, as a PNG at `path`;
    OutputError when it cannot be written."""
    # imported by name: PyInstaller follows import statements, and the standalone brain must not ship matplotlib
    figure = importlib.import_module("matplotlib.figure").Figure(figsize=(9, 4.2), dpi=110)
    importlib.import_module("matplotlib.backends.backend_agg").FigureCanvasAgg(figure)
    axes = figure.add_subplot(1, 1, 1)
    numbers = [0] + [m.number for m in report.moves]
    values = [0.0] + [plot_value(_black_eval(m)) for m in report.moves]
    low, high = PLOT_BAND
    axes.axhspan(low, high, color="#222222", alpha=0.10, lw=0)
    axes.axhspan(-high, -low, color="#1565c0", alpha=0.10, lw=0)
    band_x = axes.get_yaxis_transform()  # x in axes fractions, y in data
    axes.text(0.99, PLOT_PROVEN + 150, "black wins (proven)", transform=band_x, ha="right", va="center",
              fontsize=8, color="#444444")
    axes.text(0.99, -PLOT_PROVEN - 150, "white wins (proven)", transform=band_x, ha="right", va="center",
              fontsize=8, color="#1565c0")
    axes.axhline(0, color="#888888", lw=0.8)
    axes.fill_between(numbers, values, 0, where=[v >= 0 for v in values], color="#333333", alpha=0.25, lw=0,
                      interpolate=True)
    axes.fill_between(numbers, values, 0, where=[v <= 0 for v in values], color="#90caf9", alpha=0.45, lw=0,
                      interpolate=True)
    axes.plot(numbers, values, color="#111111", lw=1.4, marker="o", markersize=2.5)
    for kind, color in MARK_COLORS.items():
        marked = [m for m in report.moves if m.mark == kind]
        if marked:
            axes.scatter([m.number for m in marked], [plot_value(_black_eval(m)) for m in marked], s=60,
                         color=color, zorder=5, label=kind, edgecolors="white", linewidths=0.8)
    if report.turning_point is not None:
        axes.axvline(report.moves[report.turning_point].number, color="#d32f2f", lw=0.8, ls="--",
                     label="turning point")
    axes.set_xlim(0, max(1, len(report.moves)))
    axes.set_ylim(-high - 50, high + 50)
    axes.set_xlabel("move")
    axes.set_ylabel("eval, black's view (centi)")
    players = " - ".join(n for n in (report.black, report.white) if n)
    axes.set_title(" | ".join(part for part in (os.path.basename(title), players, report.result or "unfinished")
                              if part), fontsize=10)
    if any(m.mark for m in report.moves):
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    axes.grid(True, alpha=0.25)
    try:
        figure.savefig(path, format="png", bbox_inches="tight")
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None

