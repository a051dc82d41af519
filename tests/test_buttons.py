"""The button panel, on gpiozero's mock pins and a clock the test drives: presses become the
table's actions, and every press is answered by a light and the buzzer."""

import logging
import time
from pathlib import Path

import pytest
from gpiozero import LED, Device
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from companion.buttons import BadPinMap, Contact, Gesture, Panel, PinMap
from companion.table import Table
from tests.play import HEADERS, stored_game
from tests.test_table import HEADER_2014

PIN_MAP = PinMap.from_toml(Path(__file__).parents[1] / "firmware_config" / "buttons.toml")
TICK = 0.01

ACCEPTED = {"accepted": 1, "buzzer": 1}
"""What a person notices of an accepted press: one blink of the accepted light, one pip."""
REFUSED = {"refused": 3, "buzzer": 3}
WAITING = {"pending": 1, "buzzer": 1}
NOTHING: dict[str, int] = {}


class Clock:
    """Seconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Hands:
    """A person at the panel: presses, holds and waits (the panel ticking every 10 ms), and
    counts how often each light and the buzzer came on meanwhile."""

    def __init__(self, panel: Panel, factory: MockFactory, clock: Clock) -> None:
        self.panel, self.factory, self.clock = panel, factory, clock
        self.refusals: list[str] = []
        panel.when_refused.append(self.refusals.append)
        self.outputs = {**{name: factory.pin(pin) for name, pin in panel.pin_map.lights.items()},
                        **({"buzzer": factory.pin(panel.pin_map.buzzer)}
                           if panel.pin_map.buzzer is not None else {})}

    def button(self, name: str):
        return self.factory.pin(self.panel.pin_map.buttons[name])

    def wait(self, seconds: float) -> dict[str, int]:
        came_on: dict[str, int] = {}
        was = self.lit()
        for _ in range(round(seconds / TICK)):
            self.clock.now += TICK
            self.panel.tick()
            now = self.lit()
            for name in now - was:
                came_on[name] = came_on.get(name, 0) + 1
            was = now
        return came_on

    def press(self, name: str, *, for_time: float = 0.1, then: float = 1.0) -> dict[str, int]:
        """Press `name` for `for_time`, let go and watch for `then` seconds: what was noticed."""
        self.button(name).drive_low()
        during = self.wait(for_time)
        self.button(name).drive_high()
        after = self.wait(then)
        return {k: during.get(k, 0) + after.get(k, 0) for k in {*during, *after}}

    def hold(self, name: str, for_time: float = 1.2) -> dict[str, int]:
        return self.press(name, for_time=for_time)

    def lit(self) -> set[str]:
        """The lights on, and the buzzer if it sounds, right now."""
        return {name for name, pin in self.outputs.items() if pin.state}


@pytest.fixture
def factory():
    """gpiozero's mock pins for one test; the factory before it is put back after."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def header():
    return HEADER_2014


@pytest.fixture
def table(tmp_path, header):
    with Table(stored_game(tmp_path / "game.sqlite3", header)) as table:
        yield table


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def panel(factory, table, clock):
    with Panel(table, PIN_MAP, clock=clock, tick_time=None) as panel:
        yield panel


@pytest.fixture
def hands(panel, factory, clock):
    return Hands(panel, factory, clock)


def doubtful(die: str, value: int) -> dict:
    """A camera reading too unsure to roll by itself: it waits for OK or NO."""
    return {"die": die, "value": value, "confidence": 0.5}


def test_a_whole_leg_is_played_by_presses_alone(table, hands):
    assert hands.press("blue") == ACCEPTED
    assert hands.press("blue") == ACCEPTED
    assert hands.press("blue") == ACCEPTED
    assert table.snapshot.view["leg_bets_left"]["blue"] == []

    assert hands.press("blue") == REFUSED
    assert hands.press("red") == REFUSED
    assert hands.refusals == ["no blue leg betting tile is left this leg",
                              "camelup-2014 has no red racing camel to bet on"]
    assert table.snapshot.view["turn"] == "Ann"

    assert hands.press("winner", then=0.3) == ACCEPTED
    assert hands.press("yellow") == ACCEPTED
    assert table.snapshot.view["race_bets"]["winner"] == [{"player": "Ann", "camel": "yellow"}]

    table.see(doubtful("blue", 3))
    assert hands.wait(0.5) == WAITING
    assert hands.lit() == {"pending"}
    assert hands.press("ok") == ACCEPTED
    assert hands.lit() == set()

    table.see(doubtful("green", 1))
    assert hands.wait(0.5) == WAITING
    assert hands.press("no") == ACCEPTED
    table.see({"die": "green", "value": 2, "confidence": 0.99})

    assert hands.press("orange") == ACCEPTED
    assert hands.press("undo") == NOTHING
    assert table.snapshot.view["players"][0]["leg_bets"] == [{"camel": "blue", "value": 5},
                                                             {"camel": "orange", "value": 5}]
    assert hands.hold("undo") == ACCEPTED
    assert table.snapshot.view["turn"] == "Ann"
    assert hands.press("green") == ACCEPTED

    for die, value in (("orange", 1), ("yellow", 2), ("white", 1)):
        table.see(doubtful(die, value))
        assert hands.wait(0.5) == WAITING
        assert hands.press("ok") == ACCEPTED

    view = table.snapshot.view
    assert [e["action"] for e in view["history"]] == [
        {"player": "Ann", "action": "leg_bet", "camel": "blue"},
        {"player": "Bob", "action": "leg_bet", "camel": "blue"},
        {"player": "Cy", "action": "leg_bet", "camel": "blue"},
        {"player": "Ann", "action": "race_bet", "pile": "winner", "camel": "yellow"},
        {"player": "Bob", "action": "roll", "die": "blue", "value": 3},
        {"player": "Cy", "action": "roll", "die": "green", "value": 2},
        {"player": "Ann", "action": "leg_bet", "camel": "green"},
        {"player": "Bob", "action": "roll", "die": "orange", "value": 1},
        {"player": "Cy", "action": "roll", "die": "yellow", "value": 2},
        {"player": "Ann", "action": "roll", "die": "white", "value": 1},
    ]
    assert view["leg"] == 2
    assert view["track"] == {"4": ["blue", "green", "orange"], "8": ["white", "yellow"]}
    assert [(p["name"], p["money"]) for p in view["players"]] == [
        ("Ann", 2), ("Bob", 4), ("Cy", 4)]
    assert [(r["die"], r["outcome"]) for r in view["readings"]] == [
        ("blue", "accepted"), ("green", "rejected"), ("green", "accepted"),
        ("orange", "accepted"), ("yellow", "accepted"), ("white", "accepted")]
    assert view["leg_bets_left"]["blue"] == [5, 3, 2]
    assert hands.lit() == set()


def test_every_refusal_is_logged_with_its_reason(hands, caplog):
    with caplog.at_level(logging.WARNING, logger="companion.buttons"):
        assert hands.press("ok") == REFUSED
        assert hands.press("no") == REFUSED
    assert [r.getMessage() for r in caplog.records] == [
        "OK button refused: no reading is waiting for OK or NO",
        "NO button refused: no reading is waiting for OK or NO"]
    assert hands.refusals == ["no reading is waiting for OK or NO"] * 2


@pytest.mark.parametrize(("header", "colour"), [
    (HEADER_2014, "red"), (HEADER_2014, "purple"),
    (HEADERS["camelup-2018"], "white"), (HEADERS["camelup-2018"], "orange")])
def test_a_colour_the_game_does_not_race_is_refused(table, hands, colour):
    before = table.snapshot
    assert hands.press(colour) == REFUSED
    assert hands.press("winner", then=0.3) == ACCEPTED
    assert hands.press(colour) == REFUSED
    assert hands.refusals == [f"{before.view['game']} has no {colour} racing camel to bet on"] * 2
    assert table.snapshot.game_version == before.game_version


def test_a_refused_press_tells_every_page_why(table, hands):
    before = table.snapshot
    assert hands.press("ok") == REFUSED
    shown = table.wait_for_snapshot(before.version, timeout=5)
    assert shown is not None and shown.game_version == before.game_version
    assert shown.view["notice"]["text"] == "OK button: no reading is waiting for OK or NO"


@pytest.mark.parametrize("cancel", ["winner", "loser", "no"])
def test_a_second_winner_or_loser_or_no_cancels_the_overall_bet(table, hands, panel, cancel):
    hands.press("winner", then=0.3)
    assert panel.overall_bet_pile == "winner"
    assert hands.press(cancel, then=0.3) == ACCEPTED
    assert panel.overall_bet_pile is None
    assert hands.press("blue") == ACCEPTED
    assert table.snapshot.view["history"][-1]["action"] == {
        "player": "Ann", "action": "leg_bet", "camel": "blue"}


def test_the_accepted_light_blinks_while_an_overall_bet_waits_for_its_camel(hands, panel):
    hands.press("loser", then=0.3)
    assert hands.wait(2.0) == {"accepted": 4}
    assert panel.overall_bet_pile == "loser"
    assert hands.press("ok")["refused"] == 3
    assert hands.refusals == ["an overall bet waits for its camel: press a colour, or NO to "
                              "cancel it"]
    assert hands.press("green") == ACCEPTED
    assert hands.wait(1.0) == NOTHING


def test_an_overall_bet_with_no_colour_in_time_is_not_laid(table, hands, panel):
    hands.press("winner", then=0.3)
    noticed = hands.wait(PIN_MAP.overall_bet_time + 1)
    assert (noticed["refused"], noticed["buzzer"]) == (3, 3)
    assert hands.refusals == ["no camel chosen within 5 s of WINNER: no overall bet was laid"]
    assert panel.overall_bet_pile is None
    assert hands.press("blue") == ACCEPTED
    assert table.snapshot.view["race_bets"]["winner"] == []
    assert table.snapshot.view["players"][0]["leg_bets"] == [{"camel": "blue", "value": 5}]


def test_undo_held_undoes_once_however_long_it_is_held(table, hands):
    hands.press("blue")
    hands.press("green")
    assert hands.press("undo", for_time=0.9) == NOTHING
    assert len(table.snapshot.view["history"]) == 2
    assert hands.hold("undo", 3.0) == ACCEPTED
    assert [e["action"]["camel"] for e in table.snapshot.view["history"]] == ["blue"]


def test_undo_with_nothing_to_undo_is_refused(hands):
    assert hands.hold("undo") == REFUSED
    assert hands.refusals == ["there is nothing to undo: no action has been played"]


def test_a_bouncing_contact_is_one_press_and_a_blip_is_none(table, hands, clock, panel):
    blue = hands.button("blue")
    for level in (False, True, False, True, False):
        (blue.drive_high if level else blue.drive_low)()
        clock.now += 0.004
    hands.wait(0.1)
    for level in (True, False, True, False, True):
        (blue.drive_high if level else blue.drive_low)()
        clock.now += 0.004
    hands.wait(0.5)
    blue.drive_low()
    clock.now += PIN_MAP.bounce_time / 2
    blue.drive_high()
    hands.wait(0.5)
    assert table.snapshot.view["leg_bets_left"]["blue"] == [3, 2]


def test_a_press_between_two_ticks_is_not_lost(table, hands, clock, panel):
    hands.button("green").drive_low()
    clock.now += 0.05
    hands.button("green").drive_high()
    clock.now += 0.05
    panel.tick()
    assert table.snapshot.view["leg_bets_left"]["green"] == [3, 2]


def test_a_reading_waiting_lights_the_pending_light_until_no_sets_it_aside(table, hands):
    table.see(doubtful("yellow", 2))
    table.see(doubtful("white", 3))
    assert hands.wait(0.5) == WAITING
    assert hands.press("no") == ACCEPTED
    assert hands.lit() == {"pending"}
    assert hands.press("ok") == ACCEPTED
    assert hands.lit() == set()
    view = table.snapshot.view
    assert [(r["die"], r["outcome"]) for r in view["readings"]] == [
        ("yellow", "rejected"), ("white", "accepted")]
    assert view["history"][-1]["action"] == {"player": "Ann", "action": "roll",
                                             "die": "white", "value": 3}


def test_a_panel_wires_only_the_parts_it_has(factory, table, clock):
    pin_map = PinMap(buttons={"blue": 17, "undo": 16})
    with Panel(table, pin_map, clock=clock, tick_time=None) as panel:
        hands = Hands(panel, factory, clock)
        assert hands.press("blue") == NOTHING
        assert hands.hold("undo") == NOTHING
        assert hands.hold("undo") == NOTHING
        assert hands.refusals == ["there is nothing to undo: no action has been played"]
    assert table.snapshot.view["history"] == []


def test_a_panel_that_cannot_take_a_pin_frees_those_it_took(factory, table, clock):
    with LED(PIN_MAP.lights["refused"]), pytest.raises(GPIOPinInUse):
        Panel(table, PIN_MAP, clock=clock, tick_time=None)
    with Panel(table, PIN_MAP, clock=clock, tick_time=None) as panel:
        assert not panel.is_closed


def test_close_puts_the_lights_out_frees_the_pins_and_can_be_called_twice(factory, table,
                                                                          clock):
    panel = Panel(table, PIN_MAP, clock=clock, tick_time=None)
    hands = Hands(panel, factory, clock)
    table.see(doubtful("blue", 1))
    hands.press("blue", then=0.05)
    assert hands.lit() == {"accepted", "pending"}
    panel.close()
    panel.close()
    panel.tick()
    assert panel.is_closed
    assert hands.lit() == set()
    with Panel(table, PIN_MAP, clock=clock, tick_time=None):
        pass


def test_a_panel_ticks_by_itself(factory, table):
    blue, accepted = factory.pin(PIN_MAP.buttons["blue"]), factory.pin(PIN_MAP.lights["accepted"])
    with Panel(table, PIN_MAP, tick_time=0.002):
        blue.drive_low()
        deadline = time.monotonic() + 5
        while not accepted.state and time.monotonic() < deadline:
            time.sleep(0.002)
        blue.drive_high()
        assert accepted.state
    assert table.snapshot.view["history"][0]["action"]["camel"] == "blue"


def test_a_contact_down_at_start_counts_only_once_let_go():
    contact = Contact("undo", is_closed=True, at=0.0, bounce_time=0.03, hold_time=1.0)
    assert contact.advance(5.0) == []
    assert contact.change(False, 5.0) == []
    assert contact.change(True, 6.0) == []
    assert contact.advance(7.5) == [Gesture("undo", "pressed", 6.0), Gesture("undo", "held", 7.0)]
    assert contact.change(False, 8.0) == []
    assert contact.advance(8.1) == [Gesture("undo", "released", 8.0)]
    assert (contact.is_pressed, contact.is_held) == (False, False)


def test_a_contact_let_go_just_before_the_hold_time_is_not_held():
    contact = Contact("undo", is_closed=False, at=0.0, bounce_time=0.03, hold_time=1.0)
    contact.change(True, 1.0)
    assert contact.change(False, 1.99) == [Gesture("undo", "pressed", 1.0)]
    assert contact.advance(2.01) == []
    assert contact.advance(3.0) == [Gesture("undo", "released", 1.99)]


def test_the_shipped_pin_map_wires_every_button_light_and_the_buzzer():
    assert sorted(PIN_MAP.buttons) == sorted(["blue", "green", "orange", "yellow", "white",
                                              "red", "purple", "winner", "loser", "ok", "no",
                                              "undo"])
    assert sorted(PIN_MAP.lights) == ["accepted", "pending", "refused"]
    assert PIN_MAP.buzzer is not None
    assert (PIN_MAP.pull_up, PIN_MAP.hold_time) == (True, 1.0)


@pytest.mark.parametrize(("text", "why"), [
    ("[buttons]\nblu = 17", "no button is called 'blu'"),
    ("[buttons]\nblue = 17\nok = 17", "GPIO17 is given to both the blue button and the ok button"),
    ("buzzer = 17\n[buttons]\nblue = 17", "GPIO17 is given to both the blue button and the buzzer"),
    ("[buttons]\nblue = 40", "the blue button needs a GPIO number from 0 to 27, not 40"),
    ("[buttons]\nblue = 'GPIO17'", "needs a GPIO number from 0 to 27, not 'GPIO17'"),
    ("[buttons]\nblue = 17\n[lights]\ngreen = 4", "no light is called 'green'"),
    ("hold_time = 0\n[buttons]\nundo = 16", "hold_time is a number of seconds above 0, not 0"),
    ("bounce_time = true\n[buttons]\nundo = 16", "bounce_time is a number of seconds"),
    ("pull_up = 1\n[buttons]\nundo = 16", "pull_up is true or false, not 1"),
    ("hold = 1\n[buttons]\nundo = 16", "unknown setting 'hold'"),
    ("buttons = 3", "[buttons] is a table"),
    ("pull_up = true", "[buttons] is missing"),
    ("[buttons\n", "buttons.toml: "),
])
def test_a_bad_pin_map_is_refused_in_one_line(tmp_path, text, why):
    path = tmp_path / "buttons.toml"
    path.write_text(text)
    with pytest.raises(BadPinMap) as refused:
        PinMap.from_toml(path)
    assert why in str(refused.value)
    assert str(refused.value).startswith(str(path))
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("header", [HEADERS["camelup-2018"]])
def test_a_second_edition_table_bets_red_and_takes_the_grey_die_on_ok(table, hands):
    assert hands.press("red") == ACCEPTED
    assert hands.press("loser", then=0.3) == ACCEPTED
    assert hands.press("purple") == ACCEPTED
    table.see({"die": "grey", "value": 2, "numeral": "black", "confidence": 0.6})
    assert hands.wait(0.5) == WAITING
    assert hands.press("ok") == ACCEPTED
    view = table.snapshot.view
    assert [e["action"] for e in view["history"]] == [
        {"player": "Ann", "action": "leg_bet", "camel": "red"},
        {"player": "Bob", "action": "race_bet", "pile": "loser", "camel": "purple"},
        {"player": "Cy", "action": "roll", "die": "grey", "value": 2, "numeral": "black"}]
    assert view["leg_bets_left"]["red"] == [3, 2, 2]
    assert view["dice_out"] == ["grey"]
