"""The reader on rendered Camel Up frames of both editions, calibrated as a table is at set-up,
under every light the renderer has."""

import math

import numpy as np
import pytest

from companion.readings import CONFIDENT
from tests.vision.conftest import calibrated_scene, drawn_seed
from training.scoring import Score, TrueDie, score
from vision.dice import UNEXPECTED_VALUE_FACTOR, DiceReader, DieReading
from vision.dicesets import STANDARD_D6, dice_set
from vision.rendered_set import EDITIONS, rendered_table
from vision.synth import DiePose, render


def truth_of(frame):
    seen = [TrueDie(d.box, d.value, d.colour, d.numeral) for d in frame.dice if d.visible]
    hidden = [d.box for d in frame.dice if not d.visible]
    return seen, hidden


#: tables drawn afresh each run (both editions under each light, twice), from a range no
#: tuning or benchmark draws from: about 220 dice, so that the floors below hold the line
#: without failing on a bad draw (74 draws of 12 tables gave at most 2 dice wrong in one)
TABLES = 24
FIRST_SEED = drawn_seed(2_000_000, 3_000_000, step=TABLES)


@pytest.fixture(scope="module")
def results() -> dict[str, Score]:
    out = {game: Score() for game in EDITIONS}
    for session in range(FIRST_SEED, FIRST_SEED + TABLES):
        table = rendered_table(session)   # calibrated as at set-up, three shots at most
        if table.reader is None:
            continue
        for _ in range(3):
            frame = table.roll()
            seen, hidden = truth_of(frame)
            out[table.game].add(score(seen, table.reader.read(frame.image), ignore=hidden))
    return out


@pytest.mark.parametrize("game", EDITIONS)
def test_calibrated_dice_are_mostly_read_right_and_seldom_wrong(results, game):
    result = results[game]
    assert result.dice >= 60, (FIRST_SEED, result.summary())
    # today about 99.5 % right and 0.3 % wrong (bench/vision.py): these floors hold the line
    # on some 110 dice drawn afresh, with room for a bad draw
    assert result.share(result.right) >= 0.92, (FIRST_SEED, result.summary())
    assert result.share(result.wrong) <= 0.05, (FIRST_SEED, result.summary())


@pytest.mark.parametrize("game", EDITIONS)
def test_nothing_in_the_roll_zone_but_dice_is_read_as_a_die(results, game):
    # today about 0.1 % of as many readings as dice (bench/vision.py), 0.7 % before side faces
    # were told apart: some 110 dice may show 2
    assert results[game].false <= 5, (FIRST_SEED, results[game].summary())


def test_rendered_frames_of_both_editions_are_read_right_nearly_always(results):
    # about 220 dice; the targets (99.5 % right, 0.1 % wrong) are measured by bench/vision.py
    # over thousands, and not yet met
    total = Score()
    for result in results.values():
        total.add(result)
    assert total.share(total.right) >= 0.95, (FIRST_SEED, total.summary())
    assert total.share(total.wrong) <= 0.035, (FIRST_SEED, total.summary())


def test_dice_unlike_the_game_s_own_are_calibrated_and_read():
    """Dice painted in other shades and pipped otherwise (another maker's, or another
    renderer's): colour calibration learns them as it learns the game's, and they are read
    as well. Before calibration allowed for other shades, it refused about a third of such
    set-up shots, and some tables on every shot."""
    result, refused = Score(), []
    first = drawn_seed(2_000_000, 3_000_000, step=12)
    for session in range(first, first + 12):
        table = rendered_table(session, unlike=True)
        if table.reader is None:
            refused.append(session)
            continue
        for _ in range(3):
            frame = table.roll()
            seen, hidden = truth_of(frame)
            result.add(score(seen, table.reader.read(frame.image), ignore=hidden))
    assert len(refused) <= 1, refused
    assert result.share(result.right) >= 0.92, (first, result.summary())
    assert result.share(result.wrong) <= 0.05, (first, result.summary())


def readings_on_tuning_table(session: int, rolls: int, colour: str) -> list[DieReading]:
    """The reader's readings of the `colour` die in `session`'s roll number `rolls`."""
    table = rendered_table(session)
    for _ in range(rolls):
        frame = table.roll()
    return [r for r in table.reader.read(frame.image) if r.die == colour]


def read_on_tuning_table(session: int, rolls: int, colour: str) -> list[tuple]:
    """What the reader reads of the `colour` die in `session`'s roll number `rolls`."""
    return [(r.die, r.value, r.numeral)
            for r in readings_on_tuning_table(session, rolls, colour)]


@pytest.mark.parametrize(("session", "rolls", "colour"),
                         [(500_288, 5, "blue"), (500_335, 2, "red")])
def test_a_die_is_read_at_its_top_s_middle_not_round_its_far_pip(session, rolls, colour):
    """Tuning tables 500,288 and 500,335: a die showing 2 has places the network is sure of
    across its top, the middle's 0.3 to 0.5 of a side nearer the camera than one round its
    far pip, where the window sees a 1. All are on the top (a side face's middle lies half a
    side nearer or more), and the surest is its middle."""
    assert read_on_tuning_table(session, rolls, colour) == [(colour, 2, None)]


@pytest.mark.parametrize(("session", "rolls"), [(500_149, 2), (500_168, 6)])
def test_a_die_seen_as_two_groups_of_places_is_read_once_at_its_top(session, rolls):
    """Tuning tables 500,149 and 500,168: the blue die shows 2. Its places fell into two
    groups, the first round its side face, the second round its top's far pip, where the
    network sees a 1, and surer; both were read blue. One colour is one die, so the two are
    pooled and the die is read at its top's middle."""
    assert read_on_tuning_table(session, rolls, "blue") == [("blue", 2, None)]


@pytest.mark.parametrize(("session", "rolls", "value", "numeral"),
                         [(500_365, 3, 2, "white"), (500_779, 1, 1, "black")])
def test_the_grey_die_s_numerals_are_read_where_its_face_s_pips_lie(session, rolls, value,
                                                                    numeral):
    """Tuning tables 500,365 (a 2 with white pips, a side face's black pip beside the top)
    and 500,779 (a 1 with a black pip in dim light, the table lighter beside the top): the
    pixels of the top's middle furthest from its colour were not its pips."""
    assert read_on_tuning_table(session, rolls, "grey") == [("grey", value, numeral)]


def test_the_grey_die_says_whether_its_pips_are_white_or_black():
    table, lit, found, colours = calibrated_scene(5, "camelup-2018", "neutral")
    grey = dice_set("camelup-2018").die("grey")
    reader = DiceReader(dice_set("camelup-2018"), colours, table=found)
    seen = []
    for top in range(6):
        pose = DiePose(grey, 120.0, 90.0, 0.3, top)
        frame = render(table, [pose], lit, rng=np.random.default_rng(top), jpeg=None)
        readings = [r for r in reader.read(frame.image) if r.value is not None]
        seen.append([(r.die, r.value, r.numeral) for r in readings])
    assert seen == [[("grey", v, n)] for v, n in grey.faces]


def test_what_the_network_gives_faces_a_camel_up_die_lacks_does_not_hold_a_face_back():
    """Tuning table 500,002, glare, the first roll: the blue die shows 2, and the network gives
    the 2 0.78, the 4 to 6 0.09 between them. A Camel Up die has no 4 to 6, so the 2's share is
    taken among no die and 1 to 3: 0.86, and the table applies it without a press."""
    reading, = readings_on_tuning_table(500_002, 1, "blue")
    assert reading.value == 2 and reading.confidence > CONFIDENT


def test_a_die_the_network_was_unsure_of_is_looked_at_again_before_the_table_asks():
    """Tuning table 500,001, the second roll: the yellow die shows 3, read at 0.66 by the
    first look, which the table would ask the players about. Looked at again in its eight
    turns (`second_look`) it is read at 0.99, and applied without a press. The blue die of
    table 500,008's third roll, read wrong as a 1, stays below the line after its second look:
    the players are asked about it."""
    sure, = readings_on_tuning_table(500_001, 2, "yellow")
    assert sure.value == 3 and sure.confidence > CONFIDENT
    misread, = readings_on_tuning_table(500_008, 3, "blue")
    assert misread.confidence <= CONFIDENT


def test_a_four_to_six_on_a_camel_up_die_lowers_confidence_but_another_die_still_reads():
    table, lit, found, colours = calibrated_scene(11, "camelup-2014", "neutral")
    pose = DiePose(STANDARD_D6, 100.0, 80.0, 0.5, 3)   # a white die showing five
    frame = render(table, [pose], lit, rng=np.random.default_rng(1), jpeg=None)
    any_die, = DiceReader(table=found).read(frame.image)
    camel_die, = DiceReader(dice_set("camelup-2014"), colours, table=found,
                            threshold=0.0).read(frame.image)
    assert (any_die.value, camel_die.value, camel_die.die) == (5, 5, "white")
    # however sure the network is of a five, a Camel Up die has none: the table asks
    assert camel_die.confidence <= UNEXPECTED_VALUE_FACTOR < any_die.confidence


def shadow_across(image: np.ndarray, box, turn: float, share: float = 0.6) -> np.ndarray:
    """`image` with a soft-edged shadow (a hand's, held over the table: `share` of the light
    gets through) over one side of a line that crosses the die in `box` off its centre, between
    its middle pip and its corner ones."""
    h, w = image.shape[:2]
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    side = (xs - cx) * math.cos(turn) + (ys - cy) * math.sin(turn) - 0.12 * (box[2] - box[0])
    dark = 0.5 * (1.0 + np.tanh(side / 2.4))
    shaded = image.astype(np.float32) * (1.0 - (1.0 - share) * dark)[..., None]
    return np.clip(shaded, 0, 255).astype(np.uint8)


def test_dice_half_in_a_hands_shadow_are_mostly_read_and_never_misread():
    right = wrong = 0
    for game, colour in (("camelup-2014", "white"), ("camelup-2018", "blue")):
        table, lit, found, colours = calibrated_scene(21, game, "neutral")
        spec = dice_set(game).die(colour)
        reader = DiceReader(dice_set(game), colours, table=found)
        cases = [(top, yaw, turn) for top in (0, 2, 4) for yaw in (0.2, 0.9)
                 for turn in (0.3, 1.9, 3.6, 5.0)]
        for k, (top, yaw, turn) in enumerate(cases):
            pose = DiePose(spec, 100.0 + 10 * (k % 3), 80.0, yaw, top)
            frame = render(table, [pose], lit, rng=np.random.default_rng(k), jpeg=None)
            image = shadow_across(frame.image, frame.dice[0].box, turn)
            readings = [(r.die, r.value) for r in reader.read(image) if r.value is not None]
            right += readings == [(colour, pose.value)]
            wrong += any(reading != (colour, pose.value) for reading in readings)
    # before shadows were allowed for, 16 of these 48 were read
    assert wrong == 0 and right >= 42, (right, wrong)
