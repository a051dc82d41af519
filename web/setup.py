"""Setting up the table from a phone: starting a new game, and calibrating the camera.

A Pi beside the table has no keyboard: the next game is started on the New game page, and
the camera is calibrated on the Calibrate page, both by a phone that entered the PIN. A table
whose camera reads the board (its `board_camera`, any object with `board_stacks()`) offers
the camels as it last saw them as the new game's start. The
calibration itself is done by the calibrator `create_app` is handed (config `CALIBRATOR`,
absent on a table without a camera); this module only carries requests to it. When the
colours step is refused for a die not found, the page shows the frame it was tried on, drawn
with where each die was found (`GET /api/calibration/refused.jpg`), under the refusal.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template

from companion.errors import CompanionError
from companion.rules import GAMES
from companion.snapshot import sentence
from web.api import change
from web.auth import json_body, trusted, viewer
from web.context import current_board_camera, current_table
from web.pages import page_language

bp = Blueprint("setup", __name__)

@bp.get("/new")
def new_game_page() -> Any:
    """The New game page: the game, the players in seating order, and where the camels start
    in a game whose start the players place (`GameRules.start_pieces`, else None)."""
    lang, words = page_language()
    games = {name: rules.start_pieces() for name, rules in GAMES.items()}
    now = current_table().snapshot.view
    boot = {"lang": lang, "words": words, "viewer": viewer().to_json(), "games": games,
            "game": now["game"], "players": [p["name"] for p in now["players"]],
            "board_camera": current_table().board_camera is not None}
    return render_template("new_game.html", lang=lang, t=words, boot=boot)


@bp.get("/api/board")
def board() -> Any:
    """The camels as the camera last read the board, for a new game to start from."""
    read = current_board_camera().board_stacks()
    if read is None:
        abort(404, "the camera has not read the board yet: keep hands off it a moment, "
                   "then try again")
    game, stacks = read
    return jsonify(game=game, stacks=stacks)


@bp.post("/api/games")
@trusted
def new_game() -> Any:
    """Start a new game: a whole game-log header, or any game's `game` and `players` (and
    `start`, as the players placed it), the rest set up here as its rule book does
    (`GameRules.new_header`: Camel Up's start rolled, Camel Up Cards' Leg Setup card and
    start dealt, The Last Camel's board)."""
    header = json_body()
    game = header.get("game")
    if "start" not in header and isinstance(game, str) and game in GAMES:
        players = header.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            abort(400, '"players" must be a list of names, in seating order')
        header = {**GAMES[game].new_header(players, random.Random()), **header}
    return change(lambda table: table.new_game(header))


@bp.get("/calibrate")
def calibrate_page() -> Any:
    """The Calibrate page: what the camera sees, and each step of calibration in turn."""
    lang, words = page_language()
    boot = {"lang": lang, "words": words, "viewer": viewer().to_json(),
            "has_camera": current_app.config.get("CALIBRATOR") is not None,
            "game": current_table().snapshot.view["game"]}
    return render_template("calibrate.html", lang=lang, t=words, boot=boot)


@bp.get("/api/calibration")
def calibration() -> Any:
    """What is calibrated now, what was found since and not yet saved, and the colours step
    refused, its line in a page's language too (`key`, `params`)."""
    status = _calibrator().status()
    refused = status.get("refused")
    if refused is not None:
        status["refused"] = {**refused, **(sentence(refused["error"], ERRORS) or {})}
    return jsonify(status)


@bp.get("/api/calibration/refused.jpg")
def refused_picture() -> Any:
    """The frame the colours step was refused on, with the roll zone and each die found on it
    boxed with the colour it was taken for: where the reader looked."""
    picture = _calibrator().refused_picture()
    if picture is None:
        abort(404, "no colours step is refused now: there is no picture of where the camera "
                   "looked")
    return Response(picture, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.post("/api/calibration/points")
@trusted
def mark_points() -> Any:
    """Four points tapped on the camera view: the markers' places or the roll zone's corners."""
    body = json_body()
    return _step(lambda c: c.mark(body.get("points"), body.get("kind", "markers")))


STEPS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "markers": lambda c: c.find_markers(),
    "exposure": lambda c: c.lock_exposure(),
    "colours": lambda c: c.learn_colours(current_table().snapshot.view["game"]),
    "camels": lambda c: c.learn_camels(current_table().snapshot.view["game"]),
    "save": lambda c: c.save(),
}
"""The steps taken on the camera's latest frame: find the board's markers, lock the exposure
the camera settled on, learn the colours of the game's dice laid in the roll zone, learn the
game's camels each standing alone on the track, and keep what was found (the camera reads
with it from the next frame)."""


@bp.post("/api/calibration/<step>")
@trusted
def take_step(step: str) -> Any:
    """One step of calibration, named in STEPS."""
    json_body(required=False)
    if step not in STEPS:
        abort(404, f"no calibration step {step!r}: {', '.join(STEPS)} or points")
    return _step(STEPS[step])


def _calibrator() -> Any:
    calibrator = current_app.config.get("CALIBRATOR")
    if calibrator is None:
        abort(404, "this table has no camera to calibrate")
    return calibrator


def _step(step: Callable[[Any], dict[str, Any]]) -> Any:
    try:
        return jsonify(step(_calibrator()))
    except CompanionError as e:
        abort(422, str(e))


_FIELD = r'"(?P<field>[^"]+)"'
_NAME = r"""(?P<player>'.*'|".*")"""
_PART = (r"""(?P<where>tiles '\d+'|race_bets (?:winner|loser)|partnerships|pyramid_tickets"""
         r"""|"final_bets"|"finish_order"|"start '\d+'")""")
_BODY = r"the body is not valid JSON the companion reads: "
_CALIBRATE_AGAIN = r"make sure all four are in view and lit, or mark the corners by hand"
ERRORS = [(key, re.compile(pattern)) for key, pattern in [
    ("refusal.board_not_read", r"the camera has not read the board yet: keep hands off it a "
                               r"moment, then try again"),
    ("refusal.header.players_list", r'"players" must be a list of names, in seating order'),
    ("refusal.header.too_deep", rf"{_BODY}nested more than (?P<depth>\d+) deep"),
    ("refusal.header.not_text", rf"{_BODY}it holds a lone surrogate \((?P<char>[^)]+)\), "
                                r"which is not text"),
    ("refusal.header.player_count", r"[\w-]+ is played by (?P<low>\d+) to (?P<high>\d+) "
                                    r"players, not (?P<count>\d+)"),
    ("refusal.header.players_twice", r'"players" names someone twice: each player needs a '
                                     r"name of their own"),
    ("refusal.header.player_name", r'"players" must be a name on one line, not .+'),
    ("refusal.header.unknown_game", r'unknown game (?P<game>.+): "game" must be one of '
                                    r"(?P<games>.+)"),
    ("refusal.header.start_twice", r'"start" places (?P<camels>.+) more than once'),
    ("refusal.header.start_missing", r'"start" leaves out (?P<camels>.+): every camel stands on '
                                     r"the track"),
    ("refusal.header.start_off", r'"start" must have at least one camel off the Start card'),
    ("refusal.header.order_twice", r'"start" and "finish_order" hold (?P<camels>.+) more than '
                                   r"once"),
    ("refusal.header.order_missing", r'"start" and "finish_order" leave out (?P<camels>.+): '
                                     r"every camel of the race stands on the track or has "
                                     r"finished"),
    ("refusal.header.oases_count", r'"oases" must list the three oasis spaces, not '
                                   r"(?P<count>\d+)"),
    ("refusal.header.oases_order", r'"oases" must be three different spaces in increasing '
                                   r"order, not (?P<oases>\[.*\])"),
    ("refusal.header.money_stranger", rf'"money" names {_NAME}, who is not among the players'),
    ("refusal.header.dice_out_twice", r'"dice_out" names a die twice'),
    ("refusal.header.dice_out_full", r'"dice_out" lists (?P<count>\d+) dice, but a leg ends '
                                     r"when (?P<most>\d+) are out: start the next leg instead"),
    ("refusal.header.tickets", r'"pyramid_tickets" hold more tickets than there are dice in '
                               r'"dice_out"'),
    ("refusal.header.pairs", r'"partnerships" holds pairs of two players'),
    ("refusal.header.setup_kept", r'"setup": kept \((?P<kept>\d+)\) must be dealt '
                                  r"\((?P<dealt>\d+)\) - discarded \((?P<discarded>\d+)\)"),
    ("refusal.header.setup_left", r'"setup": left \((?P<left>\d+)\) must be kept '
                                  r"\((?P<kept>\d+)\) - deck \((?P<deck>\d+)\)"),
    ("refusal.header.setup_players", r'"setup": with (?P<players>\d+) players each keeps left '
                                     r"(?P<want_left>\d+) and intel (?P<want_intel>\d+), not "
                                     r"(?P<left>\d+) and (?P<intel>\d+)"),
    ("refusal.header.setup_deck", r'"setup": the racing deck holds 10 or 12 cards, not '
                                  r"(?P<players>\d+) x \((?P<deck>\d+) \+ (?P<intel>\d+)\) = "
                                  r"(?P<size>\d+)"),
    ("refusal.header.setup_dealt", r'"setup": (?P<players>\d+) players dealt (?P<dealt>\d+) '
                                   r"each need more than the 30 racing cards"),
    ("refusal.header.sandstorm", r'"sandstorm" (?P<spaces>\[.*\]) cannot be: a sandstorm card '
                                 r"stands where a two-space card began, each space once"),
    ("refusal.header.figure_space", r'"figures": space (?P<space>\d+) is not empty'),
    ("refusal.header.final_twice", r'"final_bets": the (?P<camel>[\w-]+) final (?P<pile>\w+) '
                                   r"card is held twice"),
    ("refusal.header.part", rf"{_PART}: (?P<reason>.+)"),
    ("refusal.header.part_item", r"(?P<field>leg_bets) item (?P<item>\d+): (?P<reason>.+)"),
    ("refusal.header.not_player", rf"{_NAME} is not among the players"),
    ("refusal.partner.few", r"betting partnerships are played only with (?P<count>\d+) or more "
                            r"players"),
    ("refusal.partner.none", r"(?P<game>[\w-]+) has no partnership action"),
    ("refusal.unknown_player", rf"unknown player {_NAME}: the players are (?P<players>.+)"),
    ("refusal.field.missing", rf"{_FIELD} is missing"),
    ("refusal.field.list", rf"{_FIELD} must be a list, not (?P<value>.+)"),
    ("refusal.field.object", rf"{_FIELD} must be an object, not (?P<value>.+)"),
    ("refusal.field.whole_number", rf"{_FIELD} must be a whole number from (?P<low>-?\d+) to "
                                   r"(?P<high>\d+), not (?P<value>.+)"),
    ("refusal.field.range", rf"{_FIELD} must be from (?P<low>-?\d+) to (?P<high>\d+), not "
                            r"(?P<value>-?\d+)"),
    ("refusal.field.choice", rf"{_FIELD} must be one of (?P<choices>.+), not (?P<value>.+)"),
    ("refusal.field.name", rf"{_FIELD} must be a name on one line, not (?P<value>.+)"),
    ("refusal.field.space", r"(?P<where>.+): space (?P<space>.+) must be a number from "
                            r"(?P<low>\d+) to (?P<high>\d+)"),
    ("refusal.calibration.no_picture.camera", r"the camera has no picture: check it is "
                                              r"plugged in and try again"),
    ("refusal.calibration.no_picture.board_camera", r"the board camera has no picture: check "
                                                    r"it is plugged in and try again"),
    ("refusal.calibration.markers_not_seen", rf"marker\(s\) (?P<markers>[\d, ]+) not seen; "
                                             rf"{_CALIBRATE_AGAIN}"),
    ("refusal.calibration.marker_astray", rf"marker (?P<marker>\d+) not seen, and the other "
                                          r"three are not where the table's layout puts them; "
                                          rf"{_CALIBRATE_AGAIN}"),
    ("refusal.calibration.markers_askew", r"the four corners do not make a quadrilateral; "
                                          r"mark them again, far left first, clockwise"),
    ("refusal.calibration.zone_askew", r"the roll zone's corners do not make a quadrilateral; "
                                       r"mark them again, far left first, clockwise"),
    ("refusal.calibration.no_exposure", r"only a Pi camera's exposure can be locked; this "
                                        r"camera keeps its own"),
    ("refusal.calibration.not_measured", r"the camera could not be measured: (?P<why>.+)"),
    ("refusal.calibration.dice_missing", r"found (?P<found>\d+) dice, the game has "
                                         r"(?P<count>\d+): could not find the (?P<dice>.+) "
                                         r"die; lay all of them in view, apart, and try again"),
    ("refusal.calibration.dice_unsure", r"could not find the (?P<dice>.+) die for sure: lay "
                                        r"all the dice in the roll zone, apart and in full "
                                        r"light, and try again"),
    ("refusal.calibration.no_die", r"found no die: lay the (?P<count>\d+) dice in view, apart, "
                                   r"and try again"),
    ("refusal.calibration.cards_missing", r"found (?P<found>\d+) racing cards, need one of "
                                          r"each of the (?P<count>\d+) camels "
                                          r"\((?P<camels>.+)\): lay them face up in view, "
                                          r"apart, and try again"),
    ("refusal.calibration.cards_alike", r"the (?P<camels>.+) cards look alike: lay one card of "
                                        r"each camel face up in view, apart, and try again"),
    ("refusal.calibration.board_first", r"the board is not calibrated: find the markers first"),
    ("refusal.calibration.board_camera_markers", r"the board camera does not see marker\(s\) "
                                                 r"(?P<markers>[\d, ]+): make sure all four "
                                                 r"are in its picture and lit, and try again"),
    ("refusal.calibration.board_camera", r"the board camera: (?P<reason>.+)"),
    ("refusal.calibration.straight_down", r"the camera looks straight down on the table: the "
                                          r"board is read from an angle \(25 to 55 degrees "
                                          r"off vertical\)"),
    ("refusal.calibration.tilt", r"the camera looks straight down on the table: tilt it and "
                                 r"calibrate again"),
    ("refusal.calibration.camels_missing", r"found (?P<found>\d+) camels on the board, the game "
                                           r"has (?P<count>\d+): could not find the "
                                           r"(?P<camels>.+) camels?; stand every camel alone "
                                           r"on its own space, in view, and try again"),
    ("refusal.calibration.nothing_to_save", r"nothing new to save: find the markers, learn the "
                                            r"colours or the camels first"),
    ("refusal.calibration.cannot_write", r"cannot write (?P<path>.+?): (?P<why>.+)"),
]]
"""The errors the New game and Calibrate pages' calls can meet besides `web.ERRORS`, read the
same way and tried before them: a new game's first line refused by the rules (a field of it,
a part of a game brought in part-way with the rule that part breaks, a first line typed on the
page that is JSON the companion does not read), and a calibration step that cannot be done
(vision's words, most of them)."""
