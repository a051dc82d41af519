"""`camel-companion read-dice` and `markers`: JSON out, one-line errors, exit status 2."""

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from tests.vision.conftest import photo_set
from vision.synth import calibration_frame, random_light, random_table, roll_frame


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_any_dice_on_a_real_photo_come_out_as_json_with_die_null(capsys):
    photo = photo_set("matteop65-valid") / "valid_45.jpg"
    status, out, err = run(capsys, "read-dice", str(photo), "--dice", "any", "--json")
    assert (status, err) == (0, "")
    (result,) = json.loads(out)
    assert result["image"] == str(photo)
    assert sorted(d["value"] for d in result["dice"]) == [1, 2, 3]
    for die in result["dice"]:
        assert die["die"] is None and "numeral" not in die
        x0, y0, x1, y1 = die["box"]
        assert 0 <= x0 < x1 < 640 and 0 <= y0 < y1 < 480 and 0 < die["confidence"] <= 1


def test_an_image_that_cannot_be_opened_is_reported_and_the_rest_still_read(capsys, tmp_path):
    photo = photo_set("matteop65-valid") / "valid_1.jpg"
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    status, out, err = run(capsys, "read-dice", str(tmp_path / "gone.png"), str(broken),
                           str(photo), "--dice", "any", "--json")
    assert status == 2
    results = json.loads(out)
    assert results[0] == {"image": str(tmp_path / "gone.png"), "error": "no such file"}
    assert results[1] == {"image": str(broken), "error": "not an image OpenCV can read"}
    assert results[2]["image"] == str(photo) and results[2]["dice"]
    assert len(err.splitlines()) == 1


def test_frames_of_a_table_are_read_by_colour_after_learning_them_from_one_frame(capsys,
                                                                                   tmp_path):
    table = random_table(21, "camelup-2018")
    light = random_light(np.random.default_rng(21), "neutral")
    shot = tmp_path / "calibration.png"
    cv2.imwrite(str(shot), calibration_frame(table, light, 21).image)
    frame = roll_frame(table, light, np.random.default_rng(5), dice_count=4, hands=False)
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), frame.image)
    status, out, _ = run(capsys, "read-dice", str(path), "--game", "camelup-2018",
                         "--calibration", str(shot), "--json")
    assert status == 0
    read = {(d["die"], d["value"], d.get("numeral")) for d in json.loads(out)[0]["dice"]}
    truth = {(d.colour, d.value, d.numeral) for d in frame.dice}
    assert read <= truth and len(read) >= 3


def test_a_calibration_frame_missing_dice_is_one_line_and_status_2(capsys, tmp_path):
    shot = tmp_path / "empty.png"
    cv2.imwrite(str(shot), np.full((480, 640, 3), 128, np.uint8))
    status, out, err = run(capsys, "read-dice", str(shot), "--calibration", str(shot))
    assert (status, out) == (2, "")
    assert err.startswith("camel-companion: found 0 dice, the game has 5") and \
        err.count("\n") == 1


def test_the_marker_sheet_is_written_as_pdf_and_png(capsys, tmp_path):
    status, out, _ = run(capsys, "markers", str(tmp_path / "m.pdf"), str(tmp_path / "m.png"),
                         "--size", "35")
    assert status == 0 and len(out.splitlines()) == 2
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF")
    assert cv2.imread(str(tmp_path / "m.png")) is not None


@pytest.mark.parametrize("argv", [["markers", "x.pdf", "--size", "500"],
                                  ["read-dice", "x.png", "--threshold", "2"]])
def test_bad_options_are_one_line_and_status_2(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "") and err.count("\n") == 1 and "Traceback" not in err


def test_a_broken_configuration_file_is_one_line_and_status_2(capsys, tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text("[vision]\ngame = 'chess'\n")
    status, _, err = run(capsys, "read-dice", "x.png", "--config", str(config))
    assert status == 2 and "chess" in err and err.count("\n") == 1
