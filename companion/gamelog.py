"""The game log: a JSON Lines file, a header line and then one action per line.

It is the format people and other parts rely on (docs/game-log.md). Reading it checks every
line as the table would have: a line that is not JSON, holds a bad value or an illegal action
is refused with its line number (the header is line 1), and nothing after it is read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.errors import BadHeader, BadLogLine, IllegalAction, UnreadableFile
from companion.game import Game


def parse_line(text: str, number: int) -> dict[str, Any]:
    """One line as a JSON object, or `BadLogLine` saying why it is not one."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise BadLogLine(number, f"not JSON: {e.msg} (column {e.colno})") from None
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
    (U+2028, form feed). A byte-order mark left by a text editor is passed over.
    """
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as e:
        raise UnreadableFile(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise UnreadableFile(f"cannot read {path}: it is not UTF-8 text") from None
    try:
        return read_game(text.split("\n"))
    except BadLogLine as e:
        raise BadLogLine(e.line_number, e.reason, path) from None


def dump_line(line: dict[str, Any]) -> str:
    """One game-log line as written: compact JSON, keys in the order given."""
    return json.dumps(line, ensure_ascii=False)


def game_text(game: Game) -> str:
    """The whole game log of `game`, actions as they now stand."""
    return "".join(dump_line(line) + "\n" for line in game.lines())
