"""What goes on the Pi: the service units pass systemd's own check and keep the camera and the
GPIO reachable, the install script parses, and config.txt pulls up exactly the panel's buttons."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.buttons import PinMap

ROOT = Path(__file__).parents[1]
SERVICE = ROOT / "systemd" / "camel-companion.service"
KIOSK = ROOT / "systemd" / "camel-companion-kiosk.service"
BACKUP = ROOT / "systemd" / "camel-companion-backup.service"
BACKUP_TIMER = ROOT / "systemd" / "camel-companion-backup.timer"
HOTSPOT = ROOT / "systemd" / "camel-companion-hotspot.service"
INSTALL = ROOT / "scripts" / "install-pi.sh"
CONFIG_TXT = ROOT / "firmware_config" / "config.txt"
PIN_MAP = PinMap.from_toml(ROOT / "firmware_config" / "buttons.toml")

STAND_INS = {
    "/opt/camel-companion/.venv/bin/camel-companion": Path(sys.executable).with_name(
        "camel-companion"),
    "/usr/bin/cage": Path(sys.executable),
}
"""Each program the units start on a Pi, and one here that exists, so that verify checks the
unit rather than this machine's /opt."""


def settings(unit: Path) -> dict[str, dict[str, list[str]]]:
    """The unit's settings, section by section, each key with all its values in order."""
    sections: dict[str, dict[str, list[str]]] = {}
    section: dict[str, list[str]] = {}
    text = re.sub(r"\\\n\s*", " ", unit.read_text())
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = sections.setdefault(line.strip("[]"), {})
        else:
            key, _, value = line.partition("=")
            section.setdefault(key, []).append(value)
    return sections


def runnable_here(unit: Path, into: Path) -> Path:
    """A copy of `unit` in `into` whose ExecStart names a program that exists here."""
    def stand_in(match: re.Match[str]) -> str:
        return f"ExecStart={STAND_INS[match[1]]}"

    copy = into / unit.name
    copy.write_text(re.sub(r"^ExecStart=(\S+)", stand_in, unit.read_text(), flags=re.M))
    return copy


def pins(config_txt: Path, attributes: str) -> set[int]:
    """The GPIOs that `gpio=` lines of config.txt set to `attributes` (such as "ip,pu")."""
    found: set[int] = set()
    for line in config_txt.read_text().splitlines():
        match = re.fullmatch(r"gpio=([\d,]+)=([a-z,]+)", line.strip())
        if match and match[2] == attributes:
            found |= {int(pin) for pin in match[1].split(",")}
    return found


@pytest.mark.parametrize("unit", [SERVICE, KIOSK, BACKUP, BACKUP_TIMER, HOTSPOT],
                         ids=lambda unit: unit.name)
def test_systemd_analyze_verify_finds_nothing_wrong_with_the_unit(unit, tmp_path):
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: scripts/setup.sh test installs Debian's systemd"
    copies = {u: runnable_here(u, tmp_path)  # the kiosk needs the service, a timer its service
              for u in (SERVICE, KIOSK, BACKUP, BACKUP_TIMER, HOTSPOT)}
    done = subprocess.run([analyze, "verify", str(copies[unit])], capture_output=True,
                          text=True, timeout=60, check=False)
    said = [line for line in (done.stdout + done.stderr).splitlines()
            if any(copy.name in line for copy in copies.values())]
    assert (done.returncode, said) == (0, [])


def test_the_service_tells_systemd_it_is_alive_and_runs_as_its_own_user():
    service = settings(SERVICE)["Service"]
    assert {key: service[key] for key in (
        "Type", "NotifyAccess", "Restart", "User", "StateDirectory", "WorkingDirectory",
        "ConfigurationDirectory")} == {
        "Type": ["notify"], "NotifyAccess": ["main"], "Restart": ["on-failure"],
        "User": ["camel-companion"], "StateDirectory": ["camel-companion"],
        "WorkingDirectory": ["%S/camel-companion"], "ConfigurationDirectory": ["camel-companion"]}
    assert re.fullmatch(r"[1-9]\d*s", service["WatchdogSec"][0])
    assert {"video", "gpio"} <= set(service["SupplementaryGroups"][0].split())
    assert service["ExecStart"] == ["/opt/camel-companion/.venv/bin/camel-companion run "
                                    "--config /etc/camel-companion/camel-companion.toml"]


def test_the_service_hardening_leaves_the_camera_and_gpio_devices_reachable():
    service = settings(SERVICE)["Service"]
    assert service["ProtectSystem"] == ["strict"]
    assert service["NoNewPrivileges"] == ["yes"]
    for narrows_the_devices in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock",
                                "PrivateUsers", "ProcSubset"):
        assert narrows_the_devices not in service
    assert "AF_NETLINK" in service["RestrictAddressFamilies"][0].split()


def test_the_kiosk_shows_the_dashboard_once_the_service_is_ready():
    kiosk = settings(KIOSK)
    assert "camel-companion.service" in kiosk["Unit"]["After"]
    assert "camel-companion.service" in kiosk["Unit"]["Wants"]
    command = kiosk["Service"]["ExecStart"][0].split()
    assert command[:2] == ["/usr/bin/cage", "-d"]
    assert {"/usr/bin/chromium", "--kiosk", "http://localhost:8000/"} <= set(command)
    assert kiosk["Service"]["TTYPath"] == ["/dev/tty1"]


def test_install_script_makes_the_users_the_units_run_as():
    script = INSTALL.read_text()
    assert re.search(r"^SERVICE_USER=(\S+)$", script, re.M)[1] == \
        settings(SERVICE)["Service"]["User"][0]
    assert re.search(r"^KIOSK_USER=(\S+)$", script, re.M)[1] == \
        settings(KIOSK)["Service"]["User"][0]


def test_install_script_is_valid_bash():
    done = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True,
                          check=False)
    assert (done.returncode, done.stderr) == (0, "")


def check_opencv(version: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """The install script's OpenCV check, run alone against a dpkg that reports `version` as
    python3-opencv's."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "dpkg-query"
    fake.write_text(f"#!/bin/sh\nprintf '%s' '{version}'\n")
    fake.chmod(0o755)
    script = INSTALL.read_text()
    pieces = [re.search(r"^OLDEST_OPENCV=.*$", script, re.M)[0],
              re.search(r"^say\(\).*$", script, re.M)[0],
              re.search(r"^fail\(\).*$", script, re.M)[0],
              re.search(r"^check_opencv\(\) \{.*?^\}$", script, re.M | re.S)[0],
              "check_opencv"]
    return subprocess.run(["bash", "-c", "\n".join(pieces)], capture_output=True, text=True,
                          check=False, env={"PATH": f"{bin_dir}:/usr/bin:/bin"})


@pytest.mark.skipif(shutil.which("dpkg") is None, reason="needs dpkg (Debian)")
def test_install_script_takes_opencv_4_6_and_newer(tmp_path):
    done = check_opencv("4.6.0+dfsg-12", tmp_path)
    assert (done.returncode, done.stdout) == (0, "camel-companion: OpenCV: 4.6.0\n")


@pytest.mark.skipif(shutil.which("dpkg") is None, reason="needs dpkg (Debian)")
def test_install_script_refuses_an_older_opencv_in_one_line(tmp_path):
    done = check_opencv("4.5.1+dfsg-5", tmp_path)
    assert done.returncode == 2
    assert done.stderr == ("camel-companion: this OS has OpenCV 4.5.1 and camel-companion needs "
                           "4.6 or newer: put Raspberry Pi OS Bookworm (Debian 12) or later on "
                           "the card\n")


def test_config_txt_pulls_up_exactly_the_button_pins():
    assert pins(CONFIG_TXT, "ip,pu") == set(PIN_MAP.buttons.values())


def test_config_txt_holds_the_lights_and_buzzer_low_from_boot():
    assert pins(CONFIG_TXT, "op,dl") == {*PIN_MAP.lights.values(), PIN_MAP.buzzer}


def test_the_service_never_waits_for_the_network():
    assert "network-online.target" not in SERVICE.read_text()


def test_avahi_advertises_the_dashboard_as_a_web_service_on_its_port():
    import tomllib
    import xml.etree.ElementTree as ET

    service = ET.parse(ROOT / "firmware_config" / "camel-companion.avahi.service").find("service")
    example = tomllib.loads((ROOT / "firmware_config" / "camel-companion.toml").read_text())
    assert service.findtext("type") == "_http._tcp"
    assert int(service.findtext("port")) == example["table"].get("port", 8000)
    assert "camel-companion.avahi.service" in INSTALL.read_text()
