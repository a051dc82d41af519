"""The racing card reader on rendered frames: accuracy with and without calibration, colour
calibration, settling, and `camel-companion read-cards`."""

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from tests.vision.conftest import SMOOTH_LIGHTS, darker_and_warmer, drawn_seed
from training.scoring import Score, score_cards
from vision.calibrate import CalibrationError, DiceNotFound, TableCalibration, calibrate_table
from vision.cards import CardReader, learn_card_colours
from vision.colours import DiceColours
from vision.light import LightChange
from vision.settle import CARD_REACH, GONE, LANDED, Settler
from vision.synth import LIGHTS, Light, Table, random_light, random_table
from vision.synth_cards import (
    CardPose,
    card_calibration_frame,
    card_frame,
    card_sequence,
    random_card_frame,
    render_cards,
)
from vision.table import TableLayout


def calibrated_cards(table: Table, light: Light, seed: int
                     ) -> tuple[TableCalibration, DiceColours, LightChange]:
    """The table's markers and the cards' colours, learned as at set-up from one card of each
    camel, and that shot's light; laid out again when calibration asks for it, as a person
    would (three tries)."""
    for attempt in range(3):
        shot = card_calibration_frame(table, light, seed * 10 + attempt).image
        found = calibrate_table(shot, table.layout)
        try:
            return found, learn_card_colours(shot, table=found), LightChange.of_shot(shot)
        except CalibrationError as refusal:
            if attempt == 2:
                refusal.add_note(f"set-up refused three times on table {seed}")
                raise
    raise AssertionError("unreachable")


def read_tables(tables: int, frames: int) -> tuple[Score, Score, Score]:
    """Cards read on rendered tables: in full view on the calibrated table, in full view with
    no calibration at all, and every card (hidden ones too) on the calibrated table."""
    calibrated, anywhere, every = Score(), Score(), Score()
    for seed in range(tables):
        rng = np.random.default_rng(400 + seed)
        table = random_table(int(rng.integers(1 << 30)))
        light = random_light(rng, LIGHTS[seed % len(LIGHTS)])
        found, colours, _ = calibrated_cards(table, light, seed)
        reader = CardReader(colours, table=found)
        for _ in range(frames):
            frame = card_frame(table, light, rng)
            in_view, all_cards = score_cards(frame, reader.read(frame.image))
            calibrated.add(in_view)
            every.add(all_cards)
            anywhere.add(score_cards(frame, CardReader().read(frame.image))[0])
    return calibrated, anywhere, every


def test_cards_in_the_reveal_zone_are_read_right_or_left_unknown_never_wrong():
    calibrated, anywhere, every = read_tables(12, 5)
    assert calibrated.dice >= 50
    assert calibrated.share(calibrated.right) >= 0.85
    assert calibrated.share(calibrated.wrong) <= 0.01 and calibrated.false == 0
    assert every.share(every.wrong) <= 0.01
    assert anywhere.share(anywhere.right) >= 0.7
    assert anywhere.share(anywhere.wrong) <= 0.02 and anywhere.false <= 1


LIGHT_CHANGED_TABLES = drawn_seed(2_500_000, 2_600_000)


def test_cards_are_read_after_the_light_has_changed_since_the_colours_were_learned():
    """Frames 40 % darker and warmer than the shot the colours were learned from: with the
    shot's light, the reader brings each frame back to it. Tuning tables 700,000-700,039 so
    lit read 86.7 % right and 9.7 % unknown without it, 98.5 % with it."""
    total = Score()
    for k, name in enumerate(SMOOTH_LIGHTS):
        seed = LIGHT_CHANGED_TABLES + k
        rng = np.random.default_rng(seed)
        table = random_table(int(rng.integers(1 << 30)))
        light = random_light(rng, name)
        found, colours, shot = calibrated_cards(table, light, seed)
        reader = CardReader(colours, table=found, light=shot)
        changed = darker_and_warmer(light)
        for _ in range(5):
            frame = card_frame(table, changed, rng)
            total.add(score_cards(frame, reader.read(frame.image))[0])
    last = LIGHT_CHANGED_TABLES + len(SMOOTH_LIGHTS) - 1
    said = f"tables {LIGHT_CHANGED_TABLES}-{last}: {total.summary()}"
    assert total.share(total.right) >= 0.85, said
    assert total.share(total.wrong) <= 0.02, said


def test_a_lone_card_in_full_view_is_read_at_any_turn():
    for seed in range(6):
        frame = random_card_frame(seed, count=1, hands=False, light="neutral")
        (truth,) = frame.cards
        # the board's light squares at the frame's edge may be taken for cards it cannot
        # read (camel and value None); what it names is the one card
        (card,) = [c for c in CardReader().read(frame.image) if c.camel or c.value]
        assert (card.camel, card.value) == (truth.camel, truth.value)
        assert abs(card.centre[0] - (truth.box[0] + truth.box[2]) / 2) < 6


def test_card_colours_are_learned_from_one_card_of_each_camel():
    rng = np.random.default_rng(3)
    table = random_table(3)
    light = random_light(rng, "warm")
    shot = card_calibration_frame(table, light, 1).image
    colours = learn_card_colours(shot, table=calibrate_table(shot, table.layout))
    assert sorted(colours.references) == ["blue", "green", "orange", "white", "yellow"]
    frame = card_frame(table, light, rng, count=1, hands=False)
    (card,) = CardReader(colours).read(frame.image)
    assert card.camel == frame.cards[0].camel


def test_colour_calibration_without_every_camel_says_so_in_one_line():
    with pytest.raises(CalibrationError, match=r"^found 0 racing cards, need one of each"):
        learn_card_colours(np.full((480, 640, 3), 120, np.uint8))


def test_a_card_left_out_is_named_with_where_the_others_were_found():
    """For a picture of where the reader looked: each card found, taken for its own camel."""
    table = random_table(5)
    shot = card_calibration_frame(table, random_light(np.random.default_rng(5), "neutral"), 5,
                                  leaving_out=["green"])
    with pytest.raises(DiceNotFound, match=r"^found 4 racing cards") as refusal:
        learn_card_colours(shot.image, table=calibrate_table(shot.image, table.layout))
    assert refusal.value.missing == ("green",)
    truth = {card.camel: card.box for card in shot.cards}
    places = {place.colour: place.box for place in refusal.value.places}
    assert places.keys() == truth.keys()
    for camel, box in places.items():
        assert np.abs(np.subtract(box, truth[camel])).max() <= 4


def test_colour_calibration_refuses_two_cards_of_one_camel_for_two_camels():
    table = random_table(7)
    light = random_light(np.random.default_rng(1), "neutral")
    places = [(50, 136), (120, 136), (190, 136), (76, 40), (164, 40)]
    cards = [CardPose(camel, 1, x, y, 0.0) for camel, (x, y)
             in zip(["blue", "green", "orange", "orange", "white"], places, strict=True)]
    shot = render_cards(table, cards, light, rng=np.random.default_rng(2)).image
    with pytest.raises(DiceNotFound, match=r"^the orange and yellow cards look alike") as \
            refusal:
        learn_card_colours(shot, table=calibrate_table(shot, table.layout))
    assert refusal.value.missing == ("orange", "yellow")
    assert sorted((p.colour, p.sure) for p in refusal.value.places) == [
        ("blue", True), ("green", True), ("orange", False), ("white", True), ("yellow", False)]


def settled(frames):
    """The events of a film's frames, settled from the first frame's calibration, with the
    frame each came at."""
    table = calibrate_table(frames[0].image, frames[0].layout)
    settler = Settler(CardReader(table=table), zone=table.zone, reach=CARD_REACH)
    events = []
    for k, frame in enumerate(frames):
        events += [(k, e.kind, e.reading.camel, e.reading.value)
                   for e in settler.feed(frame.image, k / 30)]
    return events, settler


@pytest.mark.parametrize(("seed", "light"), [(1, "neutral"), (3, "glare")])
def test_each_card_laid_is_read_once_and_reported_gone_when_gathered(seed, light):
    frames, truth = card_sequence(seed, cards=3, light=light)
    events, settler = settled(frames)
    assert [(kind, camel, value) for _, kind, camel, value in events] == \
        [(t.kind, t.camel, t.value) for t in truth]
    assert {kind for _, kind, _, _ in events} == {LANDED, GONE}
    for (k, *_), t in zip(events, truth, strict=True):
        assert t.frame <= k <= t.frame + settler.stable_frames + 2


def on_the_pile(camel: str, value: int, yaw: float, *, off: tuple[float, float] = (0, 0)
                ) -> CardPose:
    """A card laid turned by `yaw` on the revealed cards' pile in the middle of the reveal
    zone, `off` it by (x, y) mm."""
    x0, y0, x1, y1 = TableLayout().roll_zone
    return CardPose(camel, value, (x0 + x1) / 2 + off[0], (y0 + y1) / 2 + off[1], yaw)


def test_a_card_laid_on_the_pile_over_another_value_of_its_camel_is_another_card():
    """An orange +2 laid on an orange +1, nearer it than the reach a nudged card keeps: before,
    the settler took it for the +1 nudged, and the players logged it by hand."""
    laid = [on_the_pile("orange", 1, 0.3), on_the_pile("orange", 2, 0.45, off=(8, 8))]
    frames, truth = card_sequence(2_700_001, light="neutral", laid=laid)
    events, _ = settled(frames)
    assert [(kind, camel, value) for _, kind, camel, value in events] == [
        (LANDED, "orange", 1), (LANDED, "orange", 2), (GONE, "orange", 2), (GONE, "orange", 1)]
    assert [(t.kind, t.value) for t in truth] == [(LANDED, 1), (LANDED, 2), (GONE, 2), (GONE, 1)]


def test_a_card_laid_on_the_pile_over_its_twin_turned_otherwise_is_another_card():
    """An orange +1 laid on an orange +1, nearer it than the reach a nudged card keeps, but
    turned otherwise, as a card laid by hand is: before, the settler took it for the first
    nudged, and the players logged it by hand. Lying on its twin, it may be read unsure (the
    table then asks which card it is), never as another camel's."""
    laid = [on_the_pile("orange", 1, 0.3), on_the_pile("orange", 1, 1.0, off=(6, -6))]
    frames, _ = card_sequence(2_700_002, light="neutral", laid=laid)
    events, _ = settled(frames)
    assert [kind for _, kind, _, _ in events] == [LANDED, LANDED, GONE, GONE]
    assert events[0][2:] == ("orange", 1)
    assert events[1][2] in ("orange", None) and events[1][3] in (1, None)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_read_cards_prints_each_card_as_json_after_learning_the_colours(capsys, tmp_path):
    table = random_table(5)
    light = random_light(np.random.default_rng(5), "neutral")
    shot = tmp_path / "calibration.png"
    cv2.imwrite(str(shot), card_calibration_frame(table, light, 2).image)
    frame = card_frame(table, light, np.random.default_rng(8), count=1, hands=False)
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), frame.image)
    status, out, err = run(capsys, "read-cards", str(path), "--calibration", str(shot),
                           "--json")
    assert (status, err) == (0, "")
    (result,) = json.loads(out)
    (card,) = result["cards"]
    (truth,) = frame.cards
    assert result["image"] == str(path)
    assert (card["camel"], card["value"]) == (truth.camel, truth.value)
    assert 0.5 <= card["confidence"] <= 1 and len(card["box"]) == 4


def test_an_unreadable_image_gets_an_error_and_status_2_after_the_rest(capsys, tmp_path):
    frame = random_card_frame(2, count=1, hands=False, light="neutral")
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), frame.image)
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a png")
    status, out, err = run(capsys, "read-cards", str(broken), str(path), "--json")
    assert status == 2 and len(err.splitlines()) == 1
    first, second = json.loads(out)
    assert first == {"image": str(broken), "error": "not an image OpenCV can read"}
    assert [(c["camel"], c["value"]) for c in second["cards"]] == \
        [(frame.cards[0].camel, frame.cards[0].value)]
    status, out, _ = run(capsys, "read-cards", str(path))
    assert status == 0 and out.startswith(f"{path}: {frame.cards[0].camel} "
                                          f"+{frame.cards[0].value} at ")
