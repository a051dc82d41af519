"""The table's camera in Camel Up Cards and The Last Camel: rendered films of racing cards laid
and of the two colour dice thrown, read by the settler the calibration gives each game, become
reveals and rolls on the table."""

import pytest

from companion.calibration import Calibrator
from companion.camera import TableCamera
from companion.game import Game
from companion.rules.last_camel import roll_ways
from companion.table import Table
from tests.film import Film
from tests.play import stored_game
from tests.test_table_readings import CARDS, LAST_CAMEL, LEG_SETUP
from tests.waiting import wait_until
from vision.calibrate import calibrate_table
from vision.cards import CardReader
from vision.colour_dice import ColourDiceReader, nominal_colours
from vision.config import calibration_toml
from vision.dice import DiceReader
from vision.dicesets import LAST_CAMEL as LAST_CAMEL_DICE
from vision.settle import CARD_REACH
from vision.synth_cards import card_sequence
from vision.synth_colour_dice import roll_sequence

WAIT = 120.0


def calibrator(tmp_path, image, layout, **found):
    """The table's calibration as the calibration page saves it, from a frame of the markers."""
    saved = tmp_path / "calibration.toml"
    saved.write_text(calibration_toml(calibration=calibrate_table(image, layout), **found))
    return Calibrator(None, saved)


def test_each_game_gets_a_settler_with_its_own_reader(tmp_path):
    colours = nominal_colours(LAST_CAMEL_DICE)
    saved = tmp_path / "calibration.toml"
    saved.write_text(calibration_toml(colours=colours, game="last-camel"))
    calibration = Calibrator(None, saved)
    cards = calibration.settler("camelup-cards")
    last_camel = calibration.settler("last-camel")
    assert isinstance(cards.reader, CardReader) and cards.reach == CARD_REACH
    assert isinstance(last_camel.reader, ColourDiceReader)
    assert last_camel.reader.colours.references == {
        name: tuple(float(round(c, 1)) for c in bgr) for name, bgr in colours.references.items()}
    assert isinstance(calibration.settler("camelup-2014").reader, DiceReader)
    assert calibration.settler("camelup-2014").reader.colours is not None
    assert calibration.settler("chess") is None


def test_racing_cards_laid_in_the_reveal_zone_are_revealed_in_turn(tmp_path):
    frames, truth = card_sequence(2, cards=3, light="neutral")
    laid = [(t.camel, t.value) for t in truth if t.kind == "landed"]
    film = [f.image for f in frames[:truth[len(laid) - 1].frame + 12]]
    settler = calibrator(tmp_path, frames[0].image, frames[0].layout).settler
    path = stored_game(tmp_path / "game.sqlite3", CARDS, [LEG_SETUP])
    with Table(path, beat_time=0.05) as table, \
            TableCamera(lambda: Film(film), settler, stall_time=WAIT).attach(table):
        seen = wait_until(table, lambda s: len(s.view["readings"]) == len(laid))
        assert [(r["camel"], r["value"]) for r in seen.view["readings"]] == laid
        # a card read with less confidence than the table wants waits for its OK
        after = seen
        while after.view["pending"]:
            after = table.accept_pending()
    reveals = [h["action"] for h in after.view["history"] if h["action"]["action"] == "reveal"]
    assert sorted((r["camel"], r["value"]) for r in reveals) == sorted(laid)
    assert [r["player"] for r in reveals] == ["Ann", "Bob", "Cy"]
    assert [r["outcome"] for r in after.view["readings"]] == ["accepted"] * len(laid)


def put_right(faces, rolled):
    """The faces read, each unread one (None) tapped right as the one left of `rolled`."""
    left = list(rolled)
    for face in faces:
        if face is not None:
            left.remove(face)
    return [face if face is not None else left.pop() for face in faces]


@pytest.mark.parametrize("seed", [0, 3])
def test_the_two_dice_thrown_are_one_roll_at_once_or_a_pair_waiting_for_the_camels(tmp_path,
                                                                                  seed):
    frames, truth = roll_sequence(seed, light="neutral")
    rolled = sorted(t.face for t in truth if t.kind == "landed")
    film = [f.image for f in frames[:truth[1].frame + 12]]
    settler = calibrator(tmp_path, frames[0].image, frames[0].layout).settler
    with Table(stored_game(tmp_path / "game.sqlite3", LAST_CAMEL), beat_time=0.05) as table, \
            TableCamera(lambda: Film(film), settler, stall_time=WAIT).attach(table):
        after = wait_until(table, lambda s: s.view["pending"] or s.view["history"])
        start = Game(LAST_CAMEL).state
        if after.view["history"]:
            # sure faces with one way to log them: the roll at once
            (roll,) = [h["action"] for h in after.view["history"]]
            assert sorted(roll["dice"]) == rolled
            assert [[m.to_json() for m in way] for way in roll_ways(start, tuple(roll["dice"]))] \
                == [roll["moves"]]
        else:
            # a pair the player must choose camels for (or with a face unread) waits; the
            # phone's tap of the camels (and of a face left unread) logs it
            (pair,) = after.view["pending"]
            dice = put_right(pair["faces"], rolled)
            moves = [m.to_json() for m in roll_ways(start, tuple(dice))[0]]
            roll = table.accept_pending(correction={"dice": dice, "moves": moves})
            assert roll.view["history"][-1]["action"] == {
                "player": "Ann", "action": "roll", "dice": dice, "moves": moves}
        assert [r["outcome"] for r in table.snapshot.view["readings"]] == ["accepted"] * 2
