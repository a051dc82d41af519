"""Camel stacks, as both editions' rule books describe them.

"If a camel has several camels on its back, it carries all of the camels that are on top of
its back. Any camels that are below the camel being moved stay in their original space." (000)
A unit moving onto camels goes on top; pushed backwards onto them it goes under (002, 003).
"""

from companion.rules.track import Track


def board(stacks: dict[int, str]) -> Track:
    """A track written as `{space: "bottom ... top"}`."""
    return Track.from_stacks({space: camels.split() for space, camels in stacks.items()})


def test_a_camel_at_the_bottom_carries_the_whole_stack_and_leaves_its_space_empty():
    track, unit, space = board({4: "blue green yellow", 7: "orange"}).lift("blue")

    assert (unit, space) == (("blue", "green", "yellow"), 4)
    assert track == board({7: "orange"})
    assert track.is_empty_at(4)


def test_a_camel_in_the_middle_of_a_stack_carries_only_the_camels_above_it():
    track, unit, space = board({4: "blue green yellow white"}).lift("green")

    assert (unit, space) == (("green", "yellow", "white"), 4)
    assert track == board({4: "blue"})


def test_the_top_camel_of_a_stack_moves_alone():
    track, unit, _ = board({4: "blue green yellow"}).lift("yellow")

    assert unit == ("yellow",)
    assert track == board({4: "blue green"})


def test_the_camels_a_move_would_carry_are_those_above_the_moving_camel():
    track = board({4: "blue green yellow", 9: "white"})

    assert track.above("blue") == ("green", "yellow")
    assert track.above("green") == ("yellow",)
    assert track.above("yellow") == ()
    assert track.above("white") == ()


def test_a_unit_landing_on_a_stack_goes_on_top_of_it():
    track, unit, _ = board({2: "blue green", 5: "orange yellow"}).lift("green")

    assert track.drop(unit, 5) == board({2: "blue", 5: "orange yellow green"})


def test_a_unit_pushed_back_onto_a_stack_goes_under_it():
    track, unit, _ = board({5: "orange yellow", 6: "blue green"}).lift("blue")

    assert track.drop(unit, 5, under=True) == board({5: "blue green orange yellow"})


def test_a_unit_landing_on_an_empty_space_stands_there_as_it_was():
    track, unit, _ = board({3: "white blue green"}).lift("blue")

    assert track.drop(unit, 6) == board({3: "white", 6: "blue green"})
    assert track.drop(unit, 6, under=True) == board({3: "white", 6: "blue green"})


def test_a_unit_from_the_middle_of_a_stack_can_land_back_under_the_camels_it_left():
    track, unit, _ = board({5: "white blue green"}).lift("blue")

    assert track.drop(unit, 5, under=True) == board({5: "blue green white"})


def test_a_camel_higher_in_a_stack_is_ahead_of_those_below_it():
    track = board({2: "orange", 6: "blue green", 9: "yellow white"})

    assert track.order(["blue", "green", "orange", "yellow", "white"]) == [
        "white", "yellow", "green", "blue", "orange"]
    assert track.order(["orange", "blue"]) == ["blue", "orange"]


def test_empty_spaces_are_left_out_and_stacks_keep_their_order_bottom_to_top():
    track = Track.from_stacks({9: ["yellow"], 3: [], 2: ["white", "blue"]})

    assert track.as_dict() == {2: ("white", "blue"), 9: ("yellow",)}
    assert track.camels == ("white", "blue", "yellow")
    assert track.space_of("blue") == 2
