"""Calibration: the table from its markers or from points tapped by hand, the cheap check that
the camera has not moved, and the dice's colours learned from one shot."""

import itertools
import tomllib

import numpy as np
import pytest

from tests.vision.conftest import calibrated_scene, drawn_seed
from vision.calibrate import (
    CalibrationError,
    DiceNotFound,
    TableCalibration,
    calibrate_table,
    find_markers,
    learn_colours,
)
from vision.config import calibration_toml, load_config
from vision.dicesets import dice_set
from vision.synth import (
    LIGHTS,
    calibration_frame,
    other_dice,
    random_light,
    random_table,
    render,
    scatter_dice,
)
from vision.table import TableLayout


@pytest.fixture(scope="module")
def scene():
    table = random_table(3, "camelup-2018")
    light = random_light(np.random.default_rng(3), "neutral")
    return table, calibration_frame(table, light, 3)


def test_the_markers_fix_the_table_where_the_camera_sees_it(scene):
    table, frame = scene
    found = calibrate_table(frame.image, table.layout)
    for corners, seen in ((table.layout.roll_zone_corners, found.zone),
                          (table.layout.board_corners, found.board)):
        points = np.array([[x, y, 0.0] for x, y in corners])
        truth = table.camera.project(points)
        # within 4 px in view; a corner far out of view (the board's) is extrapolated, and
        # held to 1 % of its distance from the image's middle
        reach = np.linalg.norm(truth - np.array(table.camera.size) / 2, axis=1)
        assert (np.linalg.norm(seen - truth, axis=1) < 4.0 + 0.01 * reach).all()
    die_px = np.linalg.norm(np.diff(table.camera.project(np.array(
        [[100.0, 90, 0], [116.0, 90, 0]])), axis=0))
    assert found.die_size == pytest.approx(die_px, rel=0.1)


def test_a_person_tapping_the_four_corners_gets_the_same_table(scene):
    table, frame = scene
    found = calibrate_table(frame.image, table.layout)
    corners = [found.markers[k] for k in range(4)]
    tapped = TableCalibration.from_points(corners, found.image_size, table.layout)
    assert np.abs(tapped.zone - found.zone).max() < 1e-6
    by_zone = TableCalibration.from_zone(found.zone, found.image_size, table.layout)
    assert np.abs(by_zone.zone - found.zone).max() < 1e-3
    assert by_zone.die_size == pytest.approx(found.die_size, rel=1e-4)


def test_the_check_notices_a_moved_camera_and_forgives_a_hidden_marker(scene):
    table, frame = scene
    found = calibrate_table(frame.image, table.layout)
    assert found.check(frame.image)
    assert not found.check(np.roll(frame.image, 12, axis=1))
    hidden = frame.image.copy()
    x, y = (int(v) for v in found.markers[2])
    hidden[y - 30:y + 30, x - 30:x + 30] = 120
    assert found.check(hidden)


def covered(image, markers):
    """`image` with `markers` (id -> centre) painted over, as a hand or a die hides them."""
    hidden = image.copy()
    for x, y in (map(int, centre) for centre in markers):
        hidden[y - 30:y + 30, x - 30:x + 30] = 120
    return hidden


@pytest.mark.parametrize("marker", [0, 1, 2, 3])
def test_three_markers_fix_the_table_when_the_fourth_is_hidden(scene, marker):
    table, frame = scene
    whole = calibrate_table(frame.image, table.layout)
    three = calibrate_table(covered(frame.image, [whole.markers[marker]]), table.layout)
    assert np.abs(three.zone - whole.zone).max() < 3.0
    assert np.abs(np.array(three.markers[marker]) - whole.markers[marker]).max() < 3.0


def test_without_three_markers_calibration_says_which_are_missing(scene):
    table, frame = scene
    found = find_markers(frame.image)
    with pytest.raises(CalibrationError, match=r"marker.s. 1, 3 not seen"):
        calibrate_table(covered(frame.image, [found[1], found[3]]), table.layout)


def test_every_colour_is_learned_from_one_shot_of_all_the_dice():
    table, light, _, colours = calibrated_scene(9, "camelup-2014", "warm")
    assert sorted(colours.references) == sorted(dice_set("camelup-2014").colours)
    shot = calibration_frame(table, light, 99)
    for die in shot.dice:
        x0, y0, x1, y1 = die.box
        top = shot.image[y0 + 4:(y0 + y1) // 2, x0 + 6:x1 - 6].reshape(-1, 3)
        assert colours.match(np.median(top, axis=0)).colour == die.colour


def test_calibration_round_trips_through_the_toml_it_writes(tmp_path):
    _, _, found, colours = calibrated_scene(4, "camelup-2018", "cool")
    path = tmp_path / "camel-companion.toml"
    path.write_text('[vision]\ngame = "camelup-2018"\n\n'
                    + calibration_toml(calibration=found, colours=colours, game="camelup-2018"))
    tomllib.loads(path.read_text())
    config = load_config(path)
    assert np.allclose(config.calibration.homography, found.homography)
    assert np.allclose(config.calibration.zone, found.zone)
    assert np.allclose(config.calibration.board, found.board)
    assert config.calibration.markers == found.markers
    assert config.colours_for("camelup-2018").references.keys() == colours.references.keys()
    assert config.colours_for("camelup-2014") is None
    assert config.layout == TableLayout()


#: tables drawn afresh each run, from a range no tuning or benchmark draws from
FIRST_SEED = drawn_seed(3_000_000, 4_000_000)


def table_of(seed: int, game: str, maker: str):
    """Table `seed` of `game`, its dice the game's own or painted by another maker."""
    if maker == "another maker's":
        return random_table(seed, game, dice_look=other_dice(np.random.default_rng(seed), game))
    return random_table(seed, game)


@pytest.mark.parametrize("maker", ["the game's", "another maker's"])
@pytest.mark.parametrize("game", ["camelup-2014", "camelup-2018"])
def test_calibration_is_not_refused_while_every_die_is_in_view(game, maker):
    """A refusal asks the person to lay the dice out again; a table refused twice running,
    every die in view both times, could never be calibrated. Dice of other shades than the
    game's (another maker's) are refused more often, and about one set in 100 on every shot
    (an orange near the yellow, validation: 1 of 103 tables): of these six, one may be."""
    refused = []
    shots = 2 if maker == "the game's" else 3
    for k, light in enumerate(LIGHTS):
        seed = FIRST_SEED + 10 * k
        table = table_of(seed, game, maker)
        lit = random_light(np.random.default_rng(seed), light)
        refusals = []
        for shot_seed in range(seed, seed + shots):
            shot = calibration_frame(table, lit, shot_seed)
            try:
                learn_colours(shot.image, dice_set(game),
                              table=calibrate_table(shot.image, table.layout))
                break
            except CalibrationError as refusal:
                refusals.append((shot_seed, light, str(refusal)))
        else:
            refused.append(refusals)
    assert len(refused) <= (0 if maker == "the game's" else 1), refused


def test_dice_touching_are_told_apart_by_the_colour_the_light_gives_them():
    """Two dice touching are one blob standing out from the mat, and the reader may see only
    one of their faces: the other is found by the colour the other dice show this light gives
    it."""
    table = random_table(3523406, "camelup-2018")
    shot = calibration_frame(table, random_light(np.random.default_rng(3523406), "dim"),
                             3523406)
    touching = {"green", "grey"}
    boxes = [d.box for d in shot.dice if d.colour in touching]
    assert _overlap(*boxes)
    colours = learn_colours(shot.image, dice_set("camelup-2018"),
                            table=calibrate_table(shot.image, table.layout))
    for die in shot.dice:
        x0, y0, x1, y1 = die.box
        top = shot.image[y0 + 4:(y0 + y1) // 2, x0 + 6:x1 - 6].reshape(-1, 3)
        assert colours.match(np.median(top, axis=0)).colour == die.colour


def _holds(outer, inner):
    """Whether box `inner`'s centre lies within box `outer`."""
    cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_die_not_in_view_is_named_when_calibration_is_refused():
    """And the refusal says where the reader found each of the others, and takes nothing
    else for the green die: a picture of where it looked."""
    table = random_table(4, "camelup-2018")
    light = random_light(np.random.default_rng(4), "neutral")
    rng = np.random.default_rng(4)
    dice = [d for d in table.dice.dice if d.colour != "green"]
    shot = render(table, scatter_dice(rng, dice, table.layout, touching=0.0), light, rng=rng)
    found = calibrate_table(shot.image, table.layout)
    with pytest.raises(DiceNotFound, match="could not find the green die") as refusal:
        learn_colours(shot.image, dice_set("camelup-2018"), table=found)
    assert refusal.value.missing == ("green",)
    truth = {d.colour: d.box for d in shot.dice}
    sure = {p.colour: p.box for p in refusal.value.places if p.sure}
    assert sure.keys() == truth.keys()
    for colour, box in sure.items():
        assert _holds(truth[colour], box)
    assert "green" not in [p.colour for p in refusal.value.places]


@pytest.mark.parametrize("maker", ["the game's", "another maker's"])
def test_a_die_left_out_is_never_learned_from_something_else(maker):
    """A person who forgot a die is told so, whatever the light: before, one such frame in
    five was taken, the die's colour learned from the mat's corner, a shadow or another die's
    side, and that die misnamed all game. Now about one in 200 (tuning tables; none of 300
    validation tables): of these 24 one may be taken, which the old rule passed once in 50.
    The refusal names the die left out; of another maker's dice, one refusal in 40 to 60
    names another (its shade nearer the missing die's than its own; as often under the rule
    before, which took far fewer of their shots), so here up to three of 24 may."""
    accepted, misnamed = [], []
    for k, (light, shot_seed) in enumerate(itertools.product(LIGHTS, (7, 8))):
        seed = FIRST_SEED + 20 * k + shot_seed
        for game in ("camelup-2014", "camelup-2018"):
            table = table_of(seed, game, maker)
            lit = random_light(np.random.default_rng(seed), light)
            colours = dice_set(game).colours
            gone = colours[seed % len(colours)]
            shot = calibration_frame(table, lit, seed, leaving_out=[gone])
            try:
                learn_colours(shot.image, dice_set(game),
                              table=calibrate_table(shot.image, table.layout))
                accepted.append((seed, game, light, gone))
            except DiceNotFound as refusal:
                if gone not in refusal.missing:
                    misnamed.append((seed, game, light, gone, refusal.missing))
    assert len(accepted) <= 1, accepted
    assert len(misnamed) <= (0 if maker == "the game's" else 3), misnamed


@pytest.mark.parametrize(("seed", "leaving_out"), [(3_500_013, ["white"]),
                                                  (3_500_012, ["blue", "orange"])])
def test_dice_left_out_are_named_with_where_the_others_were_found(seed, leaving_out):
    table = random_table(seed, "camelup-2014")
    light = random_light(np.random.default_rng(seed), "neutral")
    shot = calibration_frame(table, light, 7, leaving_out=leaving_out)
    with pytest.raises(DiceNotFound) as refusal:
        learn_colours(shot.image, dice_set("camelup-2014"),
                      table=calibrate_table(shot.image, table.layout))
    assert refusal.value.missing == tuple(leaving_out)
    assert f"could not find the {', '.join(leaving_out)} die" in str(refusal.value)
    truth = {d.colour: d.box for d in shot.dice}
    assert {p.colour for p in refusal.value.places if p.sure} == truth.keys()
    for place in refusal.value.places:
        if place.sure:
            assert _holds(truth[place.colour], place.box)
