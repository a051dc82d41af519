"""Reading the fields of a game-log object: each check names the key and what it must hold.

JSON is strict here as the log format promises: a number is a JSON integer (`"2"` and `true`
are refused), a name is a non-empty string, a choice is one of the words the game uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.errors import CompanionError


def require(obj: Mapping[str, Any], key: str, error: type[CompanionError]) -> Any:
    if key not in obj:
        raise error(f'"{key}" is missing')
    return obj[key]


def as_int(value: Any, key: str, error: type[CompanionError], *, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f'"{key}" must be a whole number from {low} to {high}, not {value!r}')
    if not low <= value <= high:
        raise error(f'"{key}" must be from {low} to {high}, not {value}')
    return value


def as_name(value: Any, key: str, error: type[CompanionError]) -> str:
    if not isinstance(value, str) or not value.strip() or not value.isprintable():
        raise error(f'"{key}" must be a name on one line, not {value!r}')
    return value


def as_choice(value: Any, key: str, choices: Iterable[str], error: type[CompanionError]) -> str:
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise error(f'"{key}" must be one of {", ".join(choices)}, not {value!r}')
    return value


def as_list(value: Any, key: str, error: type[CompanionError]) -> list[Any]:
    if not isinstance(value, list):
        raise error(f'"{key}" must be a list, not {value!r}')
    return value


def as_object(value: Any, key: str, error: type[CompanionError]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise error(f'"{key}" must be an object, not {value!r}')
    return value


def as_space_key(key: str, where: str, error: type[CompanionError], *, low: int, high: int) -> int:
    """A space number written as an object key: `"6"`, from `low` to `high`."""
    if not (key.isascii() and key.isdigit() and str(int(key)) == key and low <= int(key) <= high):
        raise error(f"{where}: space {key!r} must be a number from {low} to {high}")
    return int(key)
