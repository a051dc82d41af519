"""No network: at boot a Pi without Wi-Fi starts its own hotspot through NetworkManager
(a stand-in nmcli here), and one on a network leaves it alone."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.hotspot import Hotspot, start_if_offline

NMCLI = """#!/bin/sh
echo "$@" >> "{log}"
case "$*" in
  "-t -f DEVICE,TYPE,STATE device") cat "{states}" ;;
  "device wifi hotspot"*) printf 'wlan0:wifi:connected\\n' > "{states}" ;;
esac
"""


@pytest.fixture
def nmcli(tmp_path):
    """A stand-in nmcli first on PATH: it logs its calls, reports the devices of the `states`
    file, and a hotspot connects wlan0."""
    (tmp_path / "bin").mkdir()
    tool = tmp_path / "bin" / "nmcli"
    tool.write_text(NMCLI.format(log=tmp_path / "calls", states=tmp_path / "states"))
    tool.chmod(0o755)
    (tmp_path / "calls").write_text("")
    return tmp_path


def run_hotspot(nmcli, states, config):
    (nmcli / "states").write_text(states)
    path = nmcli / "camel-companion.toml"
    path.write_text(config)
    done = subprocess.run([sys.executable, "-m", "companion.cli", "hotspot", "--config",
                           str(path)], capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "PATH": f"{nmcli / 'bin'}:{os.environ['PATH']}",
                               "PYTHONPATH": str(Path(__file__).parents[1])})
    return done, (nmcli / "calls").read_text().splitlines()


def test_a_pi_without_wifi_starts_its_own_hotspot(nmcli):
    done, calls = run_hotspot(nmcli, "eth0:ethernet:unavailable\nwlan0:wifi:disconnected\n",
                              '[hotspot]\nssid = "camel table"\npassword = "desert-race"\n'
                              "wait = 0\n")
    assert done.returncode == 0, done.stderr
    assert calls == ["-t -f DEVICE,TYPE,STATE device",
                     "device wifi hotspot ifname wlan0 con-name camel-companion-hotspot ssid "
                     "camel table password desert-race"]
    assert done.stdout == ("camel-companion: no Wi-Fi, so the Pi is its own: join 'camel "
                           "table' and open http://10.42.0.1:8000/\n")


def test_a_pi_on_a_network_starts_no_hotspot(nmcli):
    done, calls = run_hotspot(nmcli, "wlan0:wifi:connected\n",
                              '[hotspot]\npassword = "desert-race"\n')
    assert done.returncode == 0 and "no hotspot needed" in done.stdout
    assert calls == ["-t -f DEVICE,TYPE,STATE device"]


def test_the_wifi_gets_its_wait_before_the_hotspot_starts():
    states = iter(["wlan0:wifi:connecting", "wlan0:wifi:connecting", "wlan0:wifi:connected"])
    calls, slept = [], []

    def run(*args):
        calls.append(args)
        return next(states)

    assert not start_if_offline(Hotspot("desert-race", wait=30), run=run, sleep=slept.append)
    assert slept == [5.0, 5.0] and all(c[-1] == "device" for c in calls)


def test_without_a_password_there_is_no_hotspot_and_a_bad_one_is_refused():
    assert Hotspot.from_mapping({"ssid": "camel"}, "c.toml") is None
    with pytest.raises(CompanionError, match=r"c.toml: \[hotspot\] password must be 8 to 63"):
        Hotspot.from_mapping({"password": "short"}, "c.toml")


def test_the_kiosk_shows_a_wifi_code_a_phone_joins_with():
    hotspot = Hotspot("pass;word", ssid="camel:table")
    assert hotspot.wifi_code() == "WIFI:T:WPA;S:camel\\:table;P:pass\\;word;;"
