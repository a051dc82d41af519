"""The dashboard page: one HTML shell with the current state in it; the script keeps it live."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, make_response, render_template, request

from web.auth import viewer
from web.context import current_table
from web.translations import choose

bp = Blueprint("pages", __name__)

LANGUAGE_COOKIE = "lang"
A_YEAR = 365 * 24 * 3600


@bp.get("/")
def dashboard() -> Any:
    """The page every phone at the table opens; `?lang=fr` picks and remembers a language."""
    languages = current_app.extensions["languages"]
    lang, _ = page_language()
    me = viewer()
    boot = {
        "lang": lang,
        "words": languages[lang],
        "languages": {code: words["_language"] for code, words in languages.items()},
        "viewer": me.to_json(),
        "state": current_table().snapshot.json_for(me.player),
    }
    response = make_response(render_template(
        "dashboard.html", lang=lang, t=languages[lang], boot=boot, languages=boot["languages"],
        join_urls=join_urls(), hotspot=_hotspot_shown()))
    if request.args.get("lang") in languages:
        response.set_cookie(LANGUAGE_COOKIE, lang, max_age=A_YEAR, samesite="Lax")
    return response


@bp.get("/join.svg")
def join_code() -> Any:
    """A QR code of the address a phone opens to join the table (never the PIN)."""
    import segno

    svg = segno.make(join_urls()[0], error="m").svg_inline(scale=6, border=2)
    response = make_response(svg)
    response.mimetype = "image/svg+xml"
    return response


@bp.get("/wifi.svg")
def wifi_code() -> Any:
    """A Wi-Fi QR code that joins the table's hotspot: for the Pi's own screen only."""
    import segno

    hotspot = _hotspot_shown()
    if hotspot is None:
        abort(404, "no hotspot to show here")
    response = make_response(segno.make(hotspot.wifi_code(), error="m").svg_inline(
        scale=6, border=2))
    response.mimetype = "image/svg+xml"
    return response


def join_urls() -> list[str]:
    """The addresses a phone opens, the surest first: the table's own hotspot's while it is
    on, those found when the server started, else the one this page was opened at."""
    urls = current_app.config.get("JOIN_URLS") or [request.host_url]
    hotspot = current_app.config.get("HOTSPOT")
    if hotspot is not None and hotspot.is_on():
        port = urlsplit(urls[0]).port or 80
        urls = [f"http://{hotspot.address}:{port}/", *urls]
    return urls


def _hotspot_shown() -> Any:
    """The table's hotspot, to show on the Pi's own screen (a browser on the Pi) while it is
    on; None anywhere else."""
    hotspot = current_app.config.get("HOTSPOT")
    if hotspot is None or request.remote_addr not in ("127.0.0.1", "::1") \
            or not hotspot.is_on():
        return None
    return hotspot


def page_language() -> tuple[str, dict[str, str]]:
    """The language this phone asked for (`?lang=`, its cookie, its browser's), and its words."""
    languages = current_app.extensions["languages"]
    asked = [request.args.get("lang", ""), request.cookies.get(LANGUAGE_COOKIE, "")]
    lang = choose(languages, [*asked, *request.accept_languages.values()])
    return lang, languages[lang]
