"""Copies for safe keeping: the store once a day to a folder (the newest kept), each finished
game to a USB stick while one is mounted, and `camel-companion backup` doing what [backup]
asks."""

from datetime import date
from pathlib import Path

import pytest

from companion.backup import Backup
from companion.cli import main
from companion.gamelog import load_game
from companion.store import Store
from tests.play import HEADERS

EXAMPLES = Path(__file__).parents[1] / "examples"


@pytest.fixture
def store_path(tmp_path):
    """A store holding a finished game (Camel Up 2014's example) and one just begun."""
    path = tmp_path / "state" / "camel-companion.sqlite3"
    path.parent.mkdir()
    with Store(path) as store:
        store.import_game(load_game(EXAMPLES / "camelup-2014.jsonl"))
        store.new_game(dict(HEADERS["camelup-2018"]))
    return path


def test_each_finished_game_is_copied_once_as_its_game_log(store_path, tmp_path):
    stick = tmp_path / "stick"
    backup = Backup(store_path)
    assert backup.copy_finished_games(stick) == [stick / "camel-companion-game-1.jsonl"]
    with Store(store_path, read_only=True) as store:
        assert (stick / "camel-companion-game-1.jsonl").read_text() == \
            store.open_game(1).export()
    assert load_game(stick / "camel-companion-game-1.jsonl").state.finished
    assert backup.copy_finished_games(stick) == []
    assert sorted(p.name for p in stick.iterdir()) == ["camel-companion-game-1.jsonl"]


def test_the_store_is_copied_once_a_day_and_the_newest_copies_kept(store_path, tmp_path):
    folder = tmp_path / "copies"
    backup = Backup(store_path)
    for day in (1, 2, 3):
        assert backup.copy_daily(folder, date(2026, 11, day), keep=2) == \
            folder / f"camel-companion-2026-11-0{day}.sqlite3"
    assert backup.copy_daily(folder, date(2026, 11, 3), keep=2) is None
    assert sorted(p.name for p in folder.iterdir()) == [
        "camel-companion-2026-11-02.sqlite3", "camel-companion-2026-11-03.sqlite3"]
    with Store(folder / "camel-companion-2026-11-03.sqlite3", read_only=True) as copy, \
            Store(store_path, read_only=True) as kept:
        assert copy.games() == kept.games()


def test_the_backup_command_does_what_the_configuration_asks(store_path, tmp_path,
                                                             monkeypatch, capsys):
    config = tmp_path / "camel-companion.toml"
    config.write_text(f'[table]\nstate = "{store_path.parent}"\n'
                      '[backup]\nfolder = "copies"\nusb = "stick"\n')
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    assert main(["backup", "--config", str(config)]) == 0
    assert [p.name for p in (tmp_path / "copies").iterdir()] == [
        f"camel-companion-{date.today().isoformat()}.sqlite3"]
    assert not (tmp_path / "stick").exists()          # no stick mounted there
    (tmp_path / "stick").mkdir()
    monkeypatch.setattr("companion.backup.os.path.ismount", lambda p: p == tmp_path / "stick")
    assert main(["backup", "--config", str(config)]) == 0
    assert [p.name for p in (tmp_path / "stick" / "camel-companion").iterdir()] == [
        "camel-companion-game-1.jsonl"]
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == ("camel-companion: copied a finished game to "
                                    f"{tmp_path / 'stick' / 'camel-companion'}"
                                    "/camel-companion-game-1.jsonl")


def test_an_unknown_backup_setting_is_refused_in_one_line(tmp_path, capsys):
    config = tmp_path / "camel-companion.toml"
    config.write_text('[backup]\nfolders = "copies"\n')
    assert main(["backup", "--config", str(config)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"camel-companion: {config}: [backup] has unknown key(s): folders")
