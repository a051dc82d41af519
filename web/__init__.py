"""The dashboard: a Flask app that shows the table's game live on every phone and takes commands.

`create_app(table)` builds the app and nothing else: the table (commands in, snapshots out) is
started elsewhere, so the app tests with nothing attached. A blueprint per feature: the page,
the JSON API, the live stream, the PIN, the camera.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from companion.seams import ServedTable
from companion.snapshot import REFUSALS, sentence
from web import api, auth, backup, camera, events, pages, setup, translations

LANGUAGES = Path(__file__).with_name("languages")

DEFAULTS: dict[str, Any] = {
    "PIN": None,
    "MAX_STREAMS": 100,
    "KEEPALIVE_TIME": 15.0,
    "PIN_TRIES": 5,
    "PIN_WINDOW": 60.0,
    "SESSION_COOKIE_NAME": "camel_companion",
    "SESSION_COOKIE_SAMESITE": "Strict",
    "SESSION_COOKIE_HTTPONLY": True,
    "PERMANENT_SESSION_LIFETIME": timedelta(days=3),
    "MAX_CONTENT_LENGTH": 64 * 1024,
}
"""PIN: the table's PIN (None: one is made up and logged). MAX_STREAMS: live streams open at
once (keep it below the server's threads). KEEPALIVE_TIME: seconds between keep-alive lines
on an idle stream. PIN_TRIES wrong PINs per PIN_WINDOW seconds from one address, then wait."""


def create_app(table: ServedTable, config: Mapping[str, Any] | None = None) -> Flask:
    """The dashboard of `table`, which is already running (or a stand-in with its interface)."""
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS, SECRET_KEY=secrets.token_hex(32))
    if config:
        app.config.from_mapping(config)
    if not app.config["PIN"]:
        app.config["PIN"] = make_pin()
        app.logger.warning("the table's PIN is %s", app.config["PIN"])
    app.extensions["table"] = table

    app.extensions["languages"] = translations.load(LANGUAGES)
    auth.init_app(app)
    events.init_app(app)
    for blueprint in (pages.bp, auth.bp, api.bp, events.bp, camera.bp, setup.bp, backup.bp):
        app.register_blueprint(blueprint)
    app.register_error_handler(HTTPException, _error)
    app.after_request(_security_headers)
    return app


def make_pin() -> str:
    """Six digits, easy to type on a phone's keypad."""
    return f"{secrets.randbelow(10**6):06d}"


ERRORS = REFUSALS + [(key, re.compile(pattern)) for key, pattern in [
    ("request.pin_needed", r"enter the table's PIN first \(or send it in an X-Table-Pin "
                           r"header\)"),
    ("request.wrong_pin", r"wrong PIN: ask the table's host for it \(it is printed where the "
                          r"companion was started\)"),
    ("request.pin_wait", r"too many wrong PINs: wait (?P<seconds>\d+) s and try again"),
    ("request.stale_page", r"missing or stale X-CSRF-Token: reload the page \(API clients: "
                           r".+\)"),
    ("request.no_answer", r"the table did not answer in time; look at the state before "
                          r"trying again"),
    ("request.not_playing", r'"player" must be one of (?P<players>.+) or null, not '
                            r"""(?P<player>'.*'|".*")"""),
]]
"""The errors a page can be answered, each as the key of a sentence in every language and the
values it names (see `companion.snapshot.sentence`): the table's refusals and the app's own."""


def _error(e: HTTPException) -> Any:
    """Every error, from any route, is JSON {"error": ...} with its status, and the `key` and
    `params` of its sentence in a page's language when there is one: a setup page's call has
    its own (`setup.ERRORS`, tried first), a bad field among them, which elsewhere only a
    script sends."""
    patterns = setup.ERRORS + ERRORS if request.blueprint == setup.bp.name else ERRORS
    response = jsonify(error=e.description, **sentence(e.description or "", patterns) or {})
    response.status_code = e.code or 500
    if isinstance(e, MethodNotAllowed) and e.valid_methods:
        response.headers["Allow"] = ", ".join(e.valid_methods)
    return response


def _security_headers(response: Any) -> Any:
    """Everything comes from the companion itself: no other origin may script or frame it."""
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    if request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response
