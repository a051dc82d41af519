"""The page's words in every language, one JSON file per language in web/languages/.

A contributor adds a language by adding a file (`de.json`, its `_language` key naming it in
its own words); a word it lacks falls back to English, so a partial file already works.
"""

from __future__ import annotations

import json
from pathlib import Path

BASE = "en"


def load(folder: Path) -> dict[str, dict[str, str]]:
    """Every language in `folder` by its code, each completed from English."""
    found = {path.stem: json.loads(path.read_text(encoding="utf-8"))
             for path in sorted(folder.glob("*.json"))}
    base = found[BASE]
    return {code: {**base, **words} for code, words in found.items()}


def choose(languages: dict[str, dict[str, str]], wanted: list[str]) -> str:
    """The first known language among `wanted` (codes or tags like fr-CH), else English."""
    for tag in wanted:
        code = tag.split("-")[0].lower()
        if code in languages:
            return code
    return BASE
