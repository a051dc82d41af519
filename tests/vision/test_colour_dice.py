"""The Last Camel's colour dice: read on rendered frames of calibrated tables under every light,
settled once per landing, and through `camel-companion read-dice --game last-camel`."""

import json
import re
from collections import Counter

import cv2
import numpy as np
import pytest

from companion.cli import main
from tests.vision.conftest import SMOOTH_LIGHTS, darker_and_warmer, drawn_seed
from training.scoring import Score, TrueDie, score
from vision.calibrate import CalibrationError, calibrate_table
from vision.colour_dice import BODY, ColourDiceReader, learn_face_colours, nominal_colours
from vision.colours import colour_distance, colour_feature
from vision.dicesets import LAST_CAMEL
from vision.light import LightChange
from vision.settle import GONE, LANDED, Settler
from vision.synth import LIGHTS, random_light, render
from vision.synth_colour_dice import (
    ColourDiePose,
    calibration_frame,
    colour_dice_table,
    random_frame,
    roll_frame,
    roll_sequence,
)


def calibrated(seed, light):
    """A rendered Last Camel table under `light`, its markers found and the faces' colours
    learned from one shot of the two dice, and that shot's light."""
    rng = np.random.default_rng(seed)
    table = colour_dice_table(int(rng.integers(1 << 30)))
    lit = random_light(rng, light)
    shot = calibration_frame(table, lit, int(rng.integers(1 << 30)))
    found = calibrate_table(shot.image, table.layout)
    return (table, lit, found, learn_face_colours(shot.image, LAST_CAMEL, table=found),
            LightChange.of_shot(shot.image))


def truth_of(frame):
    seen = [TrueDie(d.box, d.face) for d in frame.dice if d.visible]
    return seen, [d.box for d in frame.dice if not d.visible]


@pytest.fixture(scope="module")
def result() -> Score:
    total = Score()
    for k, light in enumerate(LIGHTS * 2):
        table, lit, found, colours, _ = calibrated(900 + k, light)
        reader = ColourDiceReader(LAST_CAMEL, colours, table=found)
        rng = np.random.default_rng(k)
        for _ in range(8):
            frame = roll_frame(table, lit, rng)
            seen, hidden = truth_of(frame)
            total.add(score(seen, reader.read(frame.image), ignore=hidden))
    return total


def test_the_two_dice_are_mostly_read_right_and_seldom_wrong_under_every_light(result):
    assert result.dice >= 180
    assert result.share(result.right) >= 0.95, result.summary()
    assert result.share(result.wrong) <= 0.01, result.summary()


LIGHT_CHANGED_TABLES = drawn_seed(2_400_000, 2_500_000)


def test_the_dice_are_read_after_the_light_has_changed_since_the_colours_were_learned():
    """Frames 40 % darker and warmer than the shot the colours were learned from (a cloud, a
    lamp switched off): with the shot's light, the reader brings each frame back to it.
    Tuning tables 800,000-800,029 so lit read 82.5 % right and 16.9 % unknown without it,
    99.4 % with it, none wrong. Two tables a light, 80 dice: a die now and then is read
    wrong all the same (test table 2,498,866, dim: a side face taken for the gold star at
    0.56), and on 40 dice that one die was more than the 2 % asked."""
    total = Score()
    lights = SMOOTH_LIGHTS * 2
    for k, name in enumerate(lights):
        table, light, found, colours, shot = calibrated(LIGHT_CHANGED_TABLES + k, name)
        reader = ColourDiceReader(LAST_CAMEL, colours, table=found, light=shot)
        changed, rng = darker_and_warmer(light), np.random.default_rng(k)
        for _ in range(4):
            frame = roll_frame(table, changed, rng)
            seen, hidden = truth_of(frame)
            total.add(score(seen, reader.read(frame.image), ignore=hidden))
    last = LIGHT_CHANGED_TABLES + len(lights) - 1
    said = f"tables {LIGHT_CHANGED_TABLES}-{last}: {total.summary()}"
    assert total.share(total.right) >= 0.9, said
    assert total.share(total.wrong) <= 0.02, said


def test_nothing_in_the_roll_zone_but_a_die_is_read_as_one(result):
    assert result.false <= 1, result.summary()


@pytest.mark.parametrize("top", range(6))
def test_the_top_face_is_read_and_never_a_side_face_the_camera_sees_better(top):
    table, lit, found, colours, _ = calibrated(31, "neutral")
    reader = ColourDiceReader(LAST_CAMEL, colours, table=found)
    seen = []
    for k, (x, y, yaw) in enumerate(((70.0, 140.0, 0.2), (120.0, 40.0, 0.9), (190.0, 100.0, 1.4))):
        pose = ColourDiePose(LAST_CAMEL, x, y, yaw, top, spin=k)
        frame = render(table, [pose], lit, rng=np.random.default_rng(k), jpeg=None)
        seen += [r.face for r in reader.read(frame.image)]
    # a top face the reader is unsure of says null; a side face is never read for it
    assert set(seen) <= {LAST_CAMEL.faces[top].name, None} and len(seen) <= 3
    assert seen.count(LAST_CAMEL.faces[top].name) >= 2


def read_on_tuning_table(session, light, roll):
    """The score of a tuning table's roll (its first is 1) read as the benchmark reads it:
    the table calibrated from its own shot, each frame brought back to that shot's light."""
    rng = np.random.default_rng(session)
    table = colour_dice_table(int(rng.integers(1 << 30)))
    lit = random_light(rng, light)
    shot = calibration_frame(table, lit, int(rng.integers(1 << 30))).image
    found = calibrate_table(shot, table.layout)
    reader = ColourDiceReader(LAST_CAMEL, learn_face_colours(shot, LAST_CAMEL, table=found),
                              table=found, light=LightChange.of_shot(shot))
    for _ in range(roll):
        frame = roll_frame(table, lit, rng)
    seen, hidden = truth_of(frame)
    return score(seen, reader.read(frame.image), ignore=hidden)


def test_no_more_dice_are_read_than_the_game_throws():
    """Tuning table 800,878 in uneven light, its fourth roll: a side face's gold star was read
    as a third die at 0.59 beside the two dice read surely. The game throws two, so the two
    surest readings are all there is."""
    result = read_on_tuning_table(800_878, "uneven", 4)
    assert (result.right, result.false) == (2, 0), result.summary()


@pytest.mark.parametrize("session, roll", [(803_336, 4), (802_106, 8)])
def test_a_die_beside_one_read_surely_is_looked_for_again_and_read(session, roll):
    """Two dice touching, in cool light on tuning tables: a blue die on the blue mat beside a
    black star (803,336), and two red faces (802,106). The die read surely was the only busy
    place there, so the other was never looked at; with the first die and its side faces
    taken out, the other shows a busy place of its own."""
    result = read_on_tuning_table(session, "cool", roll)
    assert (result.right, result.false) == (2, 0), result.summary()


def test_a_reading_not_sure_enough_says_null_and_keeps_its_box():
    table, lit, found, colours, _ = calibrated(32, "dim")
    frame = roll_frame(table, lit, np.random.default_rng(3), hands=False)
    sure = ColourDiceReader(LAST_CAMEL, colours, table=found).read(frame.image)
    doubtful = ColourDiceReader(LAST_CAMEL, colours, table=found, threshold=1.01)
    assert [(None, r.box) for r in sure] == [(r.face, r.box) for r in doubtful.read(frame.image)]


@pytest.mark.parametrize("seed", [0, 3])
def test_a_roll_of_the_two_dice_lands_once_each_and_each_is_gone_once_taken(seed):
    frames, truth = roll_sequence(seed)
    table = calibrate_table(frames[0].image, frames[0].layout)
    settler = Settler(ColourDiceReader(LAST_CAMEL, table=table), zone=table.zone)
    events = []
    for k, frame in enumerate(frames):
        events += [(k, e.kind, e.reading.face) for e in settler.feed(frame.image, k / 30)]
    assert sorted(kind for _, kind, _ in events) == [GONE, GONE, LANDED, LANDED]
    for kind in (LANDED, GONE):
        assert sorted(face for _, k, face in events if k == kind) == \
            sorted(t.face for t in truth if t.kind == kind)
    for (k, _, _), t in zip(sorted(events), sorted(truth, key=lambda t: t.frame), strict=True):
        assert t.frame <= k <= t.frame + settler.stable_frames + 2


def test_the_light_is_learned_from_the_faces_read_surely_not_from_a_doubtful_one():
    """On this table the two dice lie side by side: one's red face is read surely, the
    other's gold star is half taken for a black one (0.26 here, 0.54 with OpenCV 4.6), its
    shaded corners for the bare wood in full light. Were that face to set the light's colour
    too, the wood would be learned a cold grey, and every star face would be hard to find on
    it."""
    _, lit, _, colours, _ = calibrated(2_000_442, "neutral")
    under_light = np.array(nominal_colours(LAST_CAMEL).references[BODY]) * lit.colour
    learned = colour_feature(np.array(colours.references[BODY]))
    assert np.abs(learned[:2] - colour_feature(under_light)[:2]).max() < 0.02


def test_a_dark_colour_s_tint_is_allowed_what_noise_does_to_it_and_a_bright_one_s_is_not():
    """Three grey levels of noise move the chromaticity of a black seen in dim light far more
    than that of a light colour: a tint it could give a black is ordinary, one no noise could
    give a light colour is not, and gold stays far from black."""
    dim_black, tinted = colour_feature(np.array([17.5, 17.5, 17.5])), colour_feature(
        np.array([20.0, 21.0, 15.0]))
    assert colour_distance(tinted, dim_black) > 2.0
    assert colour_distance(tinted, dim_black, noise=3.0) < 1.0
    light, tinted_light = colour_feature(np.array([175.0, 175.0, 175.0])), colour_feature(
        np.array([200.0, 210.0, 150.0]))
    assert colour_distance(tinted_light, light, noise=3.0) > 2.0
    gold = colour_feature(np.array([20.0, 160.0, 215.0]))
    assert colour_distance(gold, dim_black, noise=3.0) > 4.0


#: tables drawn afresh each run for the black star, from a range no tuning or benchmark draws
#: from
BLACK_STAR_TABLES = drawn_seed(2_100_000, 2_200_000)


def test_a_black_star_is_read_in_dim_and_warm_light():
    """A black star's chromaticity is mostly the camera's noise and the light's tint. Judged
    as a bright colour's is, it left black stars in dim or warm light unknown: on 78 test
    tables (2,000,500-529 and 2,100,000-047) 175 of 188 were read right, against 187 now."""
    black = Score()
    for seed in range(BLACK_STAR_TABLES, BLACK_STAR_TABLES + 12):
        table, lit, found, colours, _ = calibrated(seed, ("dim", "warm")[seed % 2])
        reader = ColourDiceReader(LAST_CAMEL, colours, table=found)
        rng = np.random.default_rng(seed)
        for _ in range(8):
            frame = roll_frame(table, lit, rng)
            seen, hidden = truth_of(frame)
            result = score(seen, reader.read(frame.image), ignore=hidden)
            black.add(of_stars(result, sum(d.value == "black" for d in seen)))
    said = f"tables {BLACK_STAR_TABLES} on: {black.summary()}"
    assert black.dice >= 15, said
    assert black.share(black.right) >= 0.93, said
    assert black.wrong == 0, said


def of_stars(result: Score, stars: int) -> Score:
    """What `result`, every die of a frame scored, says of the `stars` black stars among
    them: each is right unless a miss names it. Every die is scored, so that the reading of
    a die lying against a star answers for that die; scored alone, the stars once took a
    green die's reading for a missed star's, a star read wrong (test tables 2,136,436 on)."""
    star = Score(dice=stars, misses=[miss for miss in result.misses
                                     if miss[1] is not None and miss[1].value == "black"])
    kinds = Counter(kind for kind, _, _ in star.misses)
    star.wrong = kinds["wrong"]
    star.unknown = kinds["unknown"] + kinds["colour unknown"]
    star.missed = kinds["not found"]
    star.right = stars - star.wrong - star.unknown - star.missed
    return star


def test_calibration_without_a_die_in_view_says_so():
    table = colour_dice_table(4)
    light = random_light(np.random.default_rng(4), "neutral")
    bare = render(table, [], light, rng=np.random.default_rng(4))
    with pytest.raises(CalibrationError, match="found no die"):
        learn_face_colours(bare.image, LAST_CAMEL,
                           table=calibrate_table(bare.image, table.layout))


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_read_dice_prints_each_die_s_face_as_json_after_learning_the_light(capsys, tmp_path):
    table = colour_dice_table(21)
    light = random_light(np.random.default_rng(21), "warm")
    shot = tmp_path / "calibration.png"
    cv2.imwrite(str(shot), calibration_frame(table, light, 21).image)
    frame = roll_frame(table, light, np.random.default_rng(6), hands=False)
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), frame.image)
    status, out, err = run(capsys, "read-dice", str(path), "--game", "last-camel",
                           "--calibration", str(shot), "--json")
    assert (status, err) == (0, "")
    (result,) = json.loads(out)
    assert result["image"] == str(path)
    assert sorted(d["face"] for d in result["dice"]) == sorted(d.face for d in frame.dice)
    for die in result["dice"]:
        assert list(die) == ["die", "face", "box", "confidence"]
        assert die["die"] is None and 0.5 <= die["confidence"] <= 1
        x0, y0, x1, y1 = die["box"]
        assert 0 <= x0 < x1 < 640 and 0 <= y0 < y1 < 480
    # the table's configuration names the game, so the command needs no --game
    config = tmp_path / "table.toml"
    config.write_text('[vision]\ngame = "last-camel"\n')
    status, out, _ = run(capsys, "read-dice", str(path), "--config", str(config),
                         "--calibration", str(shot))
    assert status == 0 and out.startswith(f"{path}: ") and out.count(" at ") == 2
    assert sorted(re.findall(r"die (\w+) at", out)) == sorted(d.face for d in frame.dice)


def test_without_calibration_dice_anywhere_in_a_photo_of_the_mat_are_read_or_left_unknown():
    result = Score()
    for seed in range(6):
        frame = random_frame(600 + seed, light="neutral", hands=False)
        x0, y0, x1, y1 = (int(v) for v in cv2.boundingRect(
            calibrate_table(frame.image, frame.layout).zone.astype(np.float32)))
        x1, y1 = x0 + x1, y0 + y1
        photo = frame.image[y0:y1, x0:x1]
        truth = [TrueDie((d.box[0] - x0, d.box[1] - y0, d.box[2] - x0, d.box[3] - y0), d.face)
                 for d in frame.dice]
        result.add(score(truth, ColourDiceReader(LAST_CAMEL).read(photo)))
    assert result.dice == 12 and result.right >= 7 and result.wrong == 0, result.summary()
