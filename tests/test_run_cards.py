"""`camel-companion run` at a Camel Up Cards table: a racing card its camera read waits for a
person, and still waits, to be put right by a tap, after the process is killed outright."""

import signal

import cv2

import tests.test_run as service_test
from companion.store import Store
from tests.test_table_readings import CARDS, LEG_SETUP
from vision.calibrate import calibrate_table
from vision.config import calibration_toml
from vision.synth_cards import card_sequence


def film_of_a_card_laid(tmp_path):
    """Frames of the reveal zone as one racing card is laid in it, and the table's calibration
    in the state directory, where the calibration page writes it."""
    frames, truth = card_sequence(1, cards=1, light="neutral")
    table = calibrate_table(frames[0].image, frames[0].layout)
    (tmp_path / "state").mkdir(exist_ok=True)
    (tmp_path / "state" / "calibration.toml").write_text(calibration_toml(calibration=table))
    folder = tmp_path / "frames"
    folder.mkdir()
    for k, frame in enumerate(frames[:truth[0].frame + 12]):
        cv2.imwrite(str(folder / f"{k:04d}.png"), frame.image)
    return folder, (truth[0].camel, truth[0].value)


def test_a_killed_service_still_holds_the_racing_card_waiting_for_a_tap(tmp_path, monkeypatch):
    folder, laid = film_of_a_card_laid(tmp_path)
    with Store(tmp_path / "state" / "camel-companion.sqlite3") as store:
        stored = store.new_game(CARDS)
        stored.push(stored.game.parse_action(LEG_SETUP))
    written = service_test.config

    def sure_of_nothing(path, folder=None, board=None):
        """The service's configuration, with every reading left to a person's OK."""
        config = written(path, folder, board)
        config.write_text(config.read_text().replace("[table]\n", "[table]\nconfident = 1.0\n"))
        return config

    monkeypatch.setattr(service_test, "config", sure_of_nothing)
    with service_test.Service(tmp_path, folder=folder) as service:
        before = service.wait_for(lambda s: s["pending"])
        code, _, _ = service.stop(signal.SIGKILL)
    assert code == -signal.SIGKILL

    again = service_test.Service(tmp_path)
    try:
        after = again.get("api/state")
        assert after["pending"] == before["pending"] and len(after["pending"]) == 1
        waiting = after["pending"][0]
        assert (waiting["camel"], waiting["value"]) in (laid, (None, None), (laid[0], None))
        accepted = again.post("api/pending/accept", {"camel": laid[0], "value": laid[1]})
        assert accepted["history"][-1]["action"] == {"player": "Ann", "action": "reveal",
                                                     "camel": laid[0], "value": laid[1]}
        assert [r["outcome"] for r in accepted["readings"]] == ["accepted"]
    finally:
        again.stop()
