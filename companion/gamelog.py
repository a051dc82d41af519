"""The game log: a JSON Lines file, a header line and then one action per line.

It is the format people and other parts rely on (docs/game-log.md). Reading it checks every
line as the table would have: a line that is not JSON, holds a bad value or an illegal action
is refused with its line number (the header is line 1), and nothing after it is read. A log
is read a line at a time, so its size never decides the memory it takes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from companion.errors import BadHeader, BadLogLine, IllegalAction, UnreadableFile
from companion.game import Game

MAX_DEPTH = 32
"""Arrays and objects nested deeper than this are refused: no header, action or reading
needs more than a few levels."""
LONGEST_LINE = 1024 * 1024
"""Characters a game-log line may have; a whole game's header is a few hundred."""


def parse_json(text: str) -> Any:
    """JSON text as its value, or `ValueError` saying in one line why the companion will not
    take it: not JSON, or JSON it could not keep and send on as it came (nested past
    `MAX_DEPTH`, a number of thousands of digits, NaN, a lone surrogate that is no text)."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e.msg} (column {e.colno})") from None
    except RecursionError:
        raise ValueError(f"not JSON the companion reads: nested more than {MAX_DEPTH} "
                         "deep") from None
    except ValueError as e:
        what = "a number of more than 4300 digits" if "digits" in str(e) else str(e)
        raise ValueError(f"not JSON the companion reads: {what}") from None
    _check_value(value)
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _check_value(value: Any) -> None:
    """Refuse nesting past `MAX_DEPTH` and text that is not Unicode; iterative, never deep."""
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    raise ValueError("not JSON the companion reads: it holds a lone surrogate "
                                     f"({item[_surrogate_at(item)]!a}), which is not "
                                     "text") from None
            continue
        if not isinstance(item, dict | list):
            continue
        if depth >= MAX_DEPTH:
            raise ValueError(f"not JSON the companion reads: nested more than {MAX_DEPTH} deep")
        children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
        todo.extend((child, depth + 1) for child in children)


def _surrogate_at(text: str) -> int:
    return next(i for i, c in enumerate(text) if 0xD800 <= ord(c) <= 0xDFFF)


def parse_line(text: str, number: int) -> dict[str, Any]:
    """One line as a JSON object, or `BadLogLine` saying why it is not one."""
    try:
        value = parse_json(text)
    except ValueError as e:
        raise BadLogLine(number, str(e)) from None
    if not isinstance(value, dict):
        raise BadLogLine(number, "a game-log line must be a JSON object {...}")
    return value


def read_game(lines: Iterable[str]) -> Game:
    """Replay a game log's lines; blank lines are passed over but still counted."""
    game: Game | None = None
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        line = parse_line(text, number)
        try:
            if game is None:
                game = Game(line)
            else:
                game.push(game.parse_action(line))
        except (BadHeader, IllegalAction) as e:
            raise BadLogLine(number, str(e)) from None
    if game is None:
        raise BadLogLine(1, "the game log is empty: its first line must be the game's header")
    return game


def load_game(path: str | Path) -> Game:
    """Read a game-log file; a bad line is a `BadLogLine` naming the file and the line.

    Lines end at a newline only, as JSON Lines says: a name may hold any other separator
    (U+2028, form feed). A byte-order mark left by a text editor is passed over. The file is
    read a line at a time, each at most `LONGEST_LINE` long.
    """
    try:
        with open(path, encoding="utf-8-sig", newline="\n") as log:
            return read_game(_lines(log))
    except OSError as e:
        raise UnreadableFile(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise UnreadableFile(f"cannot read {path}: it is not UTF-8 text") from None
    except BadLogLine as e:
        raise BadLogLine(e.line_number, e.reason, path) from None


def _lines(log: Any) -> Iterator[str]:
    """The file's lines, refusing one longer than `LONGEST_LINE` without holding it whole."""
    number = 0
    while line := log.readline(LONGEST_LINE + 1):
        number += 1
        if len(line) > LONGEST_LINE and not line.endswith("\n"):
            raise BadLogLine(number, f"longer than {LONGEST_LINE} characters: a game-log line "
                                     "is one header or one action")
        yield line


def dump_line(line: dict[str, Any]) -> str:
    """One game-log line as written: compact JSON, keys in the order given."""
    return json.dumps(line, ensure_ascii=False)


def game_text(game: Game) -> str:
    """The whole game log of `game`, actions as they now stand."""
    return "".join(dump_line(line) + "\n" for line in game.lines())
