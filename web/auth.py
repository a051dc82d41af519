"""Who may change the game: the table's PIN, the trusted phone, and which player a phone is.

Anyone on the network may watch. Changing the game needs the PIN, sent with each call in an
`X-Table-Pin` header, or entered once on a phone whose session is then trusted until the PIN
changes. Wrong PINs are counted per address: past the limit that address waits, longer each
time, while every other phone goes on as before.
Every state-changing call that leans on the session cookie must carry the session's CSRF
token in `X-CSRF-Token`, and a browser's `Origin`, when sent, must be this server.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, abort, current_app, g, jsonify, request, session

from companion.gamelog import parse_json
from web.context import current_table

bp = Blueprint("auth", __name__, url_prefix="/api")

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
LONGEST_WAIT = 3600.0
"""The longest an address that keeps guessing waits between tries: at a few tries an hour
from each of its machines, a six-digit PIN holds for years."""


@dataclass(frozen=True)
class Viewer:
    """The phone asking: trusted with the PIN or not, and the player it says it is, if any."""

    trusted: bool
    player: str | None

    def to_json(self) -> dict[str, Any]:
        return {"trusted": self.trusted, "player": self.player, "csrf": csrf_token()}


class PinGuard:
    """Wrong PINs counted per address, so only the guesser is slowed, never the table.

    An address (an IPv6 one by its /64, which one machine holds whole) may get `tries` wrong
    in a row; then it waits `window` seconds, and twice as long after each wrong one more, up
    to `LONGEST_WAIT`. A right PIN clears its count; an address that has not failed never
    waits, however many others guess. Thread-safe.
    """

    def __init__(self, tries: int, window: float, clock: Callable[[], float]) -> None:
        self.tries, self.window, self.clock = tries, window, clock
        self._wrong: dict[str, tuple[int, float]] = {}
        """Per address: wrong PINs in a row, and when it may try again."""
        self._lock = threading.Lock()

    def wait_time(self, address: str) -> float:
        """Seconds before `address` may try again (0: now)."""
        with self._lock:
            now = self.clock()
            self._forget(now)
            _, until = self._wrong.get(_guesser(address), (0, now))
            return max(0.0, until - now)

    def wrong(self, address: str) -> None:
        with self._lock:
            now = self.clock()
            key = _guesser(address)
            count = self._wrong.get(key, (0, now))[0] + 1
            wait = 0.0
            if count >= self.tries:
                wait = min(LONGEST_WAIT, self.window * 2.0 ** min(count - self.tries, 32))
            self._wrong[key] = (count, now + wait)

    def right(self, address: str) -> None:
        with self._lock:
            self._wrong.pop(_guesser(address), None)

    def _forget(self, now: float) -> None:
        """Drop the addresses that may try again and have been quiet for `LONGEST_WAIT`."""
        for key, (_, until) in list(self._wrong.items()):
            if until + LONGEST_WAIT <= now:
                del self._wrong[key]


def _guesser(address: str) -> str:
    """Who is guessing: the address, or an IPv6 address's /64."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def init_app(app: Flask) -> None:
    app.extensions["pin_guard"] = PinGuard(app.config["PIN_TRIES"], app.config["PIN_WINDOW"],
                                           app.config.get("CLOCK", time.monotonic))
    app.before_request(_guard_against_cross_site)


def csrf_token() -> str:
    """This session's token, made on first use."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return str(session["csrf"])


def viewer() -> Viewer:
    """Who is asking, from the session or a right `X-Table-Pin` header."""
    if "viewer" not in g:
        trusted = _pin_in_header_is_right() or session.get("trust") == _trust_tag()
        player = session.get("player") if trusted else None
        g.viewer = Viewer(trusted, player if player in _players() else None)
    return g.viewer


def trusted(view: Callable[..., Any]) -> Callable[..., Any]:
    """Only a trusted phone or a call carrying the PIN may run `view`."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not viewer().trusted:
            abort(401, "enter the table's PIN first (or send it in an X-Table-Pin header)")
        return view(*args, **kwargs)

    return wrapped


@bp.post("/pin")
def enter_pin() -> Any:
    """Check the PIN; a right one trusts this phone's session, optionally as one player."""
    body = json_body()
    pin = body.get("pin")
    if not isinstance(pin, str):
        abort(400, '"pin" must be the PIN as a string of digits')
    player = _player_in(body)
    _check_pin(pin)
    session.permanent = True
    session["trust"] = _trust_tag()
    session["player"] = player
    g.pop("viewer", None)
    return jsonify(viewer().to_json())


@bp.delete("/pin")
def forget_pin() -> Any:
    """Make this phone a watcher again."""
    session.pop("trust", None)
    session.pop("player", None)
    g.pop("viewer", None)
    return jsonify(viewer().to_json())


@bp.get("/viewer")
def who() -> Any:
    """Whether this phone is trusted, the player it says it is, and its CSRF token."""
    return jsonify(viewer().to_json())


@bp.put("/viewer")
@trusted
def become() -> Any:
    """Say which player this phone is (null: nobody in particular); it sees that one's cards."""
    session["player"] = _player_in(json_body())
    g.pop("viewer", None)
    return jsonify(viewer().to_json())


def json_body(*, required: bool = True) -> dict[str, Any]:
    """The request's JSON object, or a 4xx naming what is wrong with it."""
    if not request.get_data(cache=True) and not required:
        return {}
    if not request.is_json:
        abort(415, "send the body as JSON, with Content-Type: application/json")
    try:
        body = parse_json(request.get_data(cache=True).decode("utf-8"))
    except UnicodeDecodeError:
        abort(400, "the body is not valid JSON: it is not UTF-8 text")
    except ValueError as e:
        abort(400, f"the body is {str(e).replace('not JSON', 'not valid JSON', 1)}")
    if not isinstance(body, dict):
        abort(400, "the body must be a JSON object {...}")
    return body


def _player_in(body: dict[str, Any]) -> str | None:
    player = body.get("player")
    if player is not None and player not in _players():
        abort(400, f'"player" must be one of {", ".join(_players())} or null, not {player!r}')
    return player


def _players() -> list[str]:
    return [p["name"] for p in current_table().snapshot.view["players"]]


def _check_pin(pin: str) -> None:
    guard: PinGuard = current_app.extensions["pin_guard"]
    address = request.remote_addr or "?"
    wait = guard.wait_time(address)
    if wait > 0:
        abort(429, f"too many wrong PINs: wait {int(wait) + 1} s and try again")
    if not hmac.compare_digest(_bytes(pin), _bytes(str(current_app.config["PIN"]))):
        guard.wrong(address)
        abort(403, "wrong PIN: ask the table's host for it (it is printed where the "
                   "companion was started)")
    guard.right(address)


def _bytes(text: str) -> bytes:
    """Text as bytes to compare, whatever it holds (a lone surrogate from a JSON escape, or
    the undecodable bytes of a header)."""
    return text.encode("utf-8", "surrogatepass")


def _pin_in_header_is_right() -> bool:
    pin = request.headers.get("X-Table-Pin")
    if pin is None:
        return False
    _check_pin(pin)
    return True


def _trust_tag() -> str:
    """What a trusted session holds: it stops matching as soon as the PIN changes."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, str(current_app.config["PIN"]).encode(), hashlib.sha256).hexdigest()


def _guard_against_cross_site() -> None:
    """A state-changing call from a page of another origin is refused before it runs."""
    if request.method not in UNSAFE:
        return
    origin = request.headers.get("Origin")
    if origin is not None and _netloc(origin) != request.host:
        abort(403, "a call from another site is refused: use the companion's own page")
    if "X-Table-Pin" in request.headers:
        return
    sent = request.headers.get("X-CSRF-Token", "")
    if not sent or not hmac.compare_digest(_bytes(sent), csrf_token().encode()):
        abort(403, "missing or stale X-CSRF-Token: reload the page (API clients: send the "
                   "PIN in X-Table-Pin instead)")


def _netloc(url: str) -> str | None:
    """The host and port a URL names; None for one that does not parse."""
    try:
        return urlsplit(url).netloc
    except ValueError:
        return None
