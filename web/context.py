"""What every view may reach: the table this app serves, handed over by `create_app`."""

from __future__ import annotations

from typing import Any

from flask import current_app


def current_table() -> Any:
    """The running table: commands in, snapshots out."""
    return current_app.extensions["table"]
