"""The board reader: camels' colours learned from a set-up frame, stacks read from rendered
frames drawn afresh each run, hands over the board, `[vision.board]`, and `read-board`."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.errors import BadConfig
from tests.vision.conftest import darker_and_warmer, drawn_seed
from training.scoring import BoardScore, score_board
from vision.board import (
    BoardReader,
    BoardReading,
    Stack,
    _bins,
    _Standing,
    _swapped,
    learn_camels,
    set_up,
)
from vision.calibrate import CalibrationError, calibrate_table
from vision.camels import camel_set
from vision.config import load_config
from vision.synth_board import BoardSession, board_frame, board_session, stacks_of
from vision.table import TRACK_SPACES, BoardLayout, TableLayout

#: four tables drawn afresh each run (both editions, two lights each), from a range no tuning
#: or benchmark draws from
FIRST_SEED = drawn_seed(3_000_000, 4_000_000, step=4)


def calibrated(session: BoardSession) -> BoardReader:
    """The session's reader, calibrated as at set-up: markers, then the camels alone; laid out
    again when the set-up is refused, as a person would (three tries; the benchmark counts
    refusals: 1 table of 60)."""
    table = calibrate_table(session.setup.image, session.table.layout)
    camels = camel_set(session.game)
    for _ in range(2):
        try:
            return set_up(session.setup.image, table, session.table.track, camels)
        except CalibrationError:
            session.set_up_again()
    return set_up(session.setup.image, table, session.table.track, camels)


@pytest.fixture(scope="module")
def sessions() -> list[tuple[BoardSession, BoardReader]]:
    calibrated_sessions = []
    for seed in range(FIRST_SEED, FIRST_SEED + 4):
        session = board_session(seed)
        try:
            calibrated_sessions.append((session, calibrated(session)))
        except CalibrationError as refused:   # name the table, so it can be drawn again
            pytest.fail(f"table {seed} ({session.game}, {session.light.name} light): set-up "
                        f"refused three times: {refused}")
    return calibrated_sessions


def test_the_set_up_frame_teaches_where_each_camel_stood(sessions):
    for seed, (session, reader) in enumerate(sessions, FIRST_SEED):
        truth = {pile[0]: space for space, pile in session.setup.stacks.items()}
        assert set(reader.names) == set(camel_set(session.game).names)
        assert reader.colours.spaces == truth, (
            f"table {seed} ({session.game}, {session.light.name} light)")


def test_a_set_up_frame_without_every_camel_names_the_one_missing(sessions):
    named = []
    for session, reader in sessions:
        names = camel_set(session.game).names
        gone = names[FIRST_SEED % len(names)]
        camels = [c for c in session.setup.camels if c.colour != gone]
        shot = board_frame(session.table, camels, session.light,
                           np.random.default_rng(FIRST_SEED), hand=False, tiles=False)
        with pytest.raises(CalibrationError, match=f"found {len(names) - 1} camels on the board"
                           ) as refused:
            learn_camels(shot.image, reader.view.table, session.table.track,
                         camel_set(session.game))
        named.append(f"could not find the {gone} camel;" in str(refused.value))
    # the light's cast is taken out before the camels found are named: 39 of 40 tuning
    # tables name the camel taken away
    assert sum(named) >= 3, (FIRST_SEED, named)


def scored(sessions, frames: int, *, hand: bool) -> BoardScore:
    """How the readers fare on `frames` new frames of each table, with a hand or without."""
    total = BoardScore()
    for session, reader in sessions:
        for _ in range(frames):
            frame = session.frame(hand=hand)
            total.add(score_board(frame.stacks, hand, reader.read(frame.image)))
    return total


def test_stacks_are_read_bottom_to_top_on_tables_drawn_afresh(sessions):
    total = scored(sessions, 3, hand=False)
    # 97 % right and 1 % wrong on the benchmark's 60 tables, but 91 % right in dim light
    # (docs/vision.md): a line on some 70 camels of four tables drawn afresh (two lights),
    # low enough that a bad draw of lights does not fail it, high enough that a broken reader
    # does. A tall stack now and then fits the frame a little better split in two, its top
    # camels read as a stack of their own on the space beyond (table 3,659,461: five camels
    # of seven, 28 colour units better than the truth): one such board is a bad draw too
    said = f"tables {FIRST_SEED}-{FIRST_SEED + 3}: {total.summary()}"
    assert total.share(total.right) >= 0.75, said
    assert total.share(total.wrong) <= 0.15, said
    assert total.false <= 7, said


def test_stacks_are_read_after_the_light_has_changed_since_set_up(sessions):
    """A cloud, a lamp switched off, the camera's exposure: frames 40 % darker and warmer
    than the set-up frame are read about as well as the others. Before the reader allowed
    for the light's change, tuning tables 600,000-600,035 so lit read 26 % of camels right
    (96.4 % now, 97.1 % with the light unchanged): every table fell below the line.

    One table may not: where a strong uneven light left a sixth of the set-up frame white,
    the change cannot be measured there, and such a table reads a quarter to a third of its
    camels right (3,008,781, which failed a run, and 3,224,241 of 200 test tables drawn to
    see how often; none other below 67 %). So the line is drawn on the three tables read
    best; the wrong and false camels are counted on all four."""
    changed = [(replace(session, light=darker_and_warmer(session.light),
                        rng=np.random.default_rng(seed)), reader)
               for seed, (session, reader) in enumerate(sessions, FIRST_SEED)]
    each = sorted((scored([table], 3, hand=False) for table in changed),
                  key=lambda table: -table.share(table.right))
    best, total = BoardScore(), BoardScore()
    for k, table in enumerate(each):
        total.add(table)
        if k < 3:
            best.add(table)
    said = (f"tables {FIRST_SEED}-{FIRST_SEED + 3}, light changed: {total.summary()}; right "
            f"on each: {[round(table.share(table.right), 2) for table in each]}")
    assert best.share(best.right) >= 0.75, said
    assert total.share(total.wrong) <= 0.15, said
    assert total.false <= 7, said


def test_camels_cut_with_legs_are_read_as_solid_ones_are():
    """Real camels stand on legs; the reader draws each as a box of `[vision.board] camel`.
    A camel standing alone shows the board under its belly, and in a stack the arch is
    filled by the back of the camel below. Tuning tables 600,000-600,029 read 96.1 % of
    legged camels right against 96.8 % of solid ones (docs/vision.md): a line on a table
    drawn afresh, as the solid tables' line is drawn."""
    seed = FIRST_SEED + 3
    session = board_session(seed, legs=True)
    try:
        reader = calibrated(session)
    except CalibrationError as refused:
        pytest.fail(f"table {seed} (CAMEL_TEST_SEED={FIRST_SEED}; {session.game}, "
                    f"{session.light.name} light), camels cut with legs: set-up refused three "
                    f"times: {refused}")
    total = scored([(session, reader)], 4, hand=False)
    said = f"table {seed} (CAMEL_TEST_SEED={FIRST_SEED}), camels cut with legs: {total.summary()}"
    assert total.share(total.right) >= 0.75, said
    assert total.share(total.wrong) <= 0.15, said


def frame_costs(reader: BoardReader, image: np.ndarray) -> np.ndarray:
    """What each pixel of `image` costs as each thing a board may show, as a read has it."""
    return reader._seen(image)[0]


def aligned_costs(reader: BoardReader, image: np.ndarray, stacks: dict[int, list[int]]
                  ) -> np.ndarray:
    """`image`'s costs (frame_costs), with each of `stacks` shifted to fit them, as the
    search leaves the stacks it has read before it remakes them."""
    costs = frame_costs(reader, image)
    reader._drawing.shifts.clear()
    for space in stacks:
        reader._drawing.align(costs, stacks, space)
    return costs


def test_a_stack_fitted_in_a_wrong_order_is_put_in_its_own(sessions):
    """A stack shifted to fit a wrong order holds that order against every single move at
    that shift; trying each order at the shift that fits it puts the stack right."""
    put_right = []
    for session, reader in sessions:
        names = reader.names
        order = [names[k] for k in session.rng.permutation(len(names))[:3]]
        frame = session.frame(hand=False, stacks={6: order})
        truth = {space: [names.index(c) for c in pile] for space, pile in frame.stacks.items()}
        wrong = {**truth, 6: [truth[6][1], truth[6][0], truth[6][2]]}
        costs = aligned_costs(reader, frame.image, wrong)
        put_right.append(reader._reordered(costs, wrong) == truth)
    assert sum(put_right) >= 3, put_right


def test_a_tall_stack_read_as_two_and_out_of_order_is_made_whole(sessions):
    """Seen at an angle, a tall stack's top camels may be read as a stack on the space
    beyond, a camel short and out of order: no merge of the two alone fits better, so the
    likeliest merge is tried again with each of its camels moved to every height."""
    made_whole = []
    for session, reader in sessions:
        names = reader.names
        order = [names[k] for k in session.rng.permutation(len(names))[:5]]
        frame = session.frame(hand=False, stacks={6: order})
        p = [names.index(c) for c in frame.stacks[6]]
        wrong = {6: [p[0], p[3]], 7: [p[2], p[4]]}   # p[1] off the board
        costs = aligned_costs(reader, frame.image, wrong)
        made_whole.append(reader._reordered(costs, wrong) == {6: p})
    # one remaking mends it on 20 of 24 tables (3,100,000-3,100,092, every fourth); the
    # reader before the merges were tried with a camel moved, on none
    assert any(made_whole), made_whole


def test_a_frame_costs_each_camel_and_its_rim_only_where_a_stack_may_stand(sessions):
    """Each pixel looked at costs what its colour costs as each camel and as the bare board
    there; the rims are each camel's cost or the board's, whichever is less; the pixels no
    stack can cover share one place, which costs nothing."""
    session, reader = sessions[0]
    frame = session.frame(hand=False)
    crop = reader._drawing.crop(cv2.GaussianBlur(frame.image, (3, 3), 0))
    costs = reader._costs(crop)
    n, drawing = len(reader.names), reader._drawing
    assert costs.shape == (2 * n + 1, drawing.plane)
    assert np.array_equal(costs[n:2 * n], np.minimum(costs[:n], costs[2 * n]))
    assert not costs[:, drawing.plane - 1].any()
    looked_at = np.zeros(drawing.shape, bool)
    for rows, columns in drawing.looked_at:
        looked_at[rows, columns] = True
    assert (drawing.pixels[~looked_at] == drawing.plane - 1).all()
    places = drawing.pixels[looked_at]
    assert len(np.unique(places)) == places.size == drawing.plane - 1
    green = reader.names.index("green")
    assert np.array_equal(costs[green, places],
                          reader._camel_costs[green].take(_bins(crop[looked_at][None]))[0])


def test_camels_swapped_or_reordered_cost_what_drawing_them_costs(sessions):
    """Where no stack changes its height, a change is read from what each place costs with
    each camel there: the same as drawing the two boards and comparing them."""
    for session, reader in sessions[:2]:
        frame = session.frame(hand=False)
        costs = frame_costs(reader, frame.image)
        found = reader._fit(costs)
        drawing = reader._drawing
        on_board = [c for pile in found.values() for c in pile]
        off_board = [c for c in range(len(reader.names)) if c not in on_board]
        tallest = max(found, key=lambda space: len(found[space]))
        options = [_swapped(found, on_board[0], other) for other in on_board[1:] + off_board]
        options.append({**found, tallest: found[tallest][::-1]})
        for option in options:
            drawn = drawing.cost(costs, option) - drawing.cost(costs, found)
            assert drawing.change(costs, found, option) == pytest.approx(drawn, abs=0.05)


def test_a_hand_over_the_board_is_not_read(sessions):
    total = scored(sessions, 2, hand=True)
    assert total.hands == 8
    assert total.hands_read <= 2, total.summary()


def test_an_empty_board_reads_no_camels(sessions):
    session, reader = sessions[0]
    rng = np.random.default_rng(FIRST_SEED)
    frame = board_frame(session.table, [], session.light, rng, hand=False, tiles=False)
    assert reader.read(frame.image) == BoardReading(()), f"table {FIRST_SEED}"


def test_a_face_that_looks_like_the_board_round_the_camel_is_not_learned_as_its_colour():
    # a green camel seen end on at set-up: its side's sample is mostly the pale board
    # (CAMEL_TEST_SEED=3645916 then read a stack of camels on an empty pale space)
    standing = _Standing(3, ((139.0, 183.0, 187.0), (29.0, 54.0, 20.0)), (0.4, 3.1))
    assert standing.own_faces() == ((29.0, 54.0, 20.0),)
    both = standing._replace(apart=(2.5, 3.1))
    assert both.own_faces() == both.faces


def test_the_renderer_says_the_stacks_bottom_to_top(sessions):
    session, _ = sessions[0]
    frame = session.frame(hand=False)
    assert frame.stacks == stacks_of(frame.camels)
    for space, pile in frame.stacks.items():
        levels = sorted((c.level, c.colour) for c in frame.camels if c.space == space)
        assert tuple(colour for _, colour in levels) == pile
    assert sorted(c for pile in frame.stacks.values() for c in pile) == sorted(
        camel_set(session.game).names)


def test_a_reading_is_json_with_the_spaces_left_out_that_hold_no_camel():
    reading = BoardReading((Stack(4, ("blue", None, "green"), 0.934),))
    assert reading.to_json() == {"stacks": [{"space": 4, "camels": ["blue", None, "green"],
                                             "confidence": 0.934}], "hand": False}
    assert BoardReading((), hand=True).to_json() == {"hand": True}


def test_the_track_lies_round_the_board_space_1_at_the_near_left():
    track = BoardLayout.around(TableLayout().board)
    assert len(track.spaces) == TRACK_SPACES
    x0, y0, x1, y1 = TableLayout().board
    assert track.spaces[0][0] < track.spaces[8][0] and track.spaces[0][1] < track.spaces[4][1]
    for x, y in track.spaces:
        assert x0 < x < x1 and y0 < y < y1
    assert track.heading(3) == pytest.approx(np.pi / 2)


def test_the_board_keys_of_the_configuration(tmp_path):
    spaces = [[10.0 * k, 0.0] for k in range(TRACK_SPACES)]
    path = tmp_path / "table.toml"
    path.write_text(f"[vision.board]\nspaces = {spaces}\nspace_size = 70\n"
                    "camel = [30, 12, 20]\nstack_step = 15\n")
    board = load_config(path).board
    assert board.spaces[3] == (30.0, 0.0) and board.space_size == 70.0
    assert board.camel == (30.0, 12.0, 20.0) and board.stack_step == 15.0
    assert load_config(None).board == BoardLayout.around(TableLayout().board)
    for text, words in (("spaces = [[1, 2]]", "16 [x, y] centres"),
                        ("camel = [30, 12]", "[length, width, height]"),
                        ("stack_step = 0", "more than 0"), ("tiles = 3", "unknown key")):
        path.write_text(f"[vision.board]\n{text}\n")
        with pytest.raises(BadConfig, match=words.replace("[", r"\[").replace("]", r"\]")):
            load_config(path)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_read_board_prints_one_json_list_and_reports_what_it_cannot_open(capsys, tmp_path):
    session = board_session(FIRST_SEED + 1)
    # the set-up frame the players would give the command: one the reader takes, laid out
    # again when it is refused (as it is on a table in a hundred or two); the command finds
    # the markers in that frame too
    calibrated(session)
    reader = set_up(session.setup.image,
                    calibrate_table(session.setup.image, session.table.layout),
                    session.table.track, camel_set(session.game))
    setup = tmp_path / "set-up.png"
    cv2.imwrite(str(setup), session.setup.image)
    paths = [tmp_path / f"frame-{k}.png" for k in range(2)]
    for path, hand in zip(paths, (False, True), strict=True):
        cv2.imwrite(str(path), session.frame(hand=hand).image)
    status, out, err = run(capsys, "read-board", *map(str, paths), str(tmp_path / "gone.png"),
                           "--game", session.game, "--calibration", str(setup), "--json")
    assert status == 2 and err.count("\n") == 1, (f"table {FIRST_SEED + 1}", err)
    *boards, gone = json.loads(out)
    for path, board in zip(paths, boards, strict=True):
        # the frames as the command read them: from the PNG files
        assert board == {"image": str(path), **reader.read(cv2.imread(str(path))).to_json()}
    assert gone == {"image": str(tmp_path / "gone.png"), "error": "no such file"}


def test_read_board_refuses_a_set_up_frame_missing_a_camel_in_one_line(capsys, tmp_path):
    session = board_session(FIRST_SEED + 2)
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), board_frame(session.table, [], session.light,
                                        np.random.default_rng(1), hand=False,
                                        tiles=False).image)
    status, out, err = run(capsys, "read-board", str(frame), "--game", session.game,
                           "--calibration", str(frame))
    assert status == 2 and out == ""
    # an empty board: on about one table in a hundred the pyramid's edge or the sand stands
    # out as a yellow or white camel would (tables 3,000,102 and 3,500,510), the rest missing
    assert re.match(r"camel-companion: found [01] camels on the board, the game has \d: could "
                    r"not find the ", err) and err.count("\n") == 1, (f"table {FIRST_SEED + 2}",
                                                                      err)


def test_read_board_refuses_bad_options_in_one_line(capsys, tmp_path):
    status, _, err = run(capsys, "read-board", "x.png", "--calibration", "y.png",
                         "--threshold", "2")
    assert status == 2 and "--threshold" in err and err.count("\n") == 1
    status, _, err = run(capsys, "read-board", "x.png", "--calibration",
                         str(tmp_path / "none.png"))
    assert status == 2 and "cannot read the set-up image" in err and err.count("\n") == 1
    with pytest.raises(SystemExit) as refused:
        main(["read-board", "x.png", "--calibration", "y.png", "--game", "last-camel"])
    assert refused.value.code == 2
