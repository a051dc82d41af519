"""No network, no problem: when the Pi has no Wi-Fi at boot it starts its own, a hotspot
through NetworkManager (what Raspberry Pi OS Bookworm uses), so phones at the table join it
and open the dashboard. `camel-companion hotspot` is run once at boot, as root, by
camel-companion-hotspot.service; the table itself never waits for the network.

`[hotspot]` in the configuration: `password` (8 to 63 characters; without it there is no
hotspot), `ssid` (default "camel-companion"), `interface` (default "wlan0"), and `wait`,
the seconds to give the Pi's own Wi-Fi to connect first (default 45).
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError

CONNECTION = "camel-companion-hotspot"
"""The NetworkManager connection the hotspot is kept as."""
HOTSPOT_ADDRESS = "10.42.0.1"
"""The Pi's address on its own hotspot (NetworkManager's shared network)."""


@dataclass(frozen=True)
class Hotspot:
    """The `[hotspot]` settings."""

    password: str
    ssid: str = "camel-companion"
    interface: str = "wlan0"
    wait: float = 45.0
    address: str = HOTSPOT_ADDRESS
    """The Pi's address on its hotspot (NetworkManager's shared network)."""

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any], where: str) -> Hotspot | None:
        """The hotspot `table` asks for, or None when it has no password (no hotspot)."""
        unknown = set(table) - {"password", "ssid", "interface", "wait"}
        if unknown:
            raise CompanionError(f"{where}: [hotspot] has unknown key(s): "
                                 f"{', '.join(sorted(unknown))}")
        password = table.get("password")
        if password is None:
            return None
        if not (isinstance(password, str) and 8 <= len(password) <= 63):
            raise CompanionError(f"{where}: [hotspot] password must be 8 to 63 characters in "
                                 "quotes (WPA2's rule)")
        ssid = table.get("ssid", cls.ssid)
        if not (isinstance(ssid, str) and 1 <= len(ssid.encode()) <= 32):
            raise CompanionError(f"{where}: [hotspot] ssid must be 1 to 32 bytes in quotes")
        return cls(password, ssid, str(table.get("interface", cls.interface)),
                   float(table.get("wait", cls.wait)))

    def is_on(self) -> bool:
        """Whether this machine is its own hotspot now (it holds the hotspot's address)."""
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.bind((self.address, 0))
            except OSError:
                return False
        return True

    def wifi_code(self) -> str:
        """What a phone's camera reads from a Wi-Fi QR code to join the hotspot."""
        def escaped(text: str) -> str:
            return "".join("\\" + c if c in '\\;,:"' else c for c in text)

        return f"WIFI:T:WPA;S:{escaped(self.ssid)};P:{escaped(self.password)};;"


def nmcli(*args: str) -> str:
    """NetworkManager's command line, terse; raises CompanionError with its own message."""
    try:
        done = subprocess.run(["nmcli", *args], capture_output=True, text=True, timeout=60,
                              check=False)
    except FileNotFoundError:
        raise CompanionError("nmcli is missing: the hotspot needs NetworkManager "
                             "(Raspberry Pi OS Bookworm or later)") from None
    if done.returncode != 0:
        raise CompanionError(f"nmcli {' '.join(args[:3])} failed: "
                             f"{done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def wifi_connected(interface: str, run: Callable[..., str] = nmcli) -> bool:
    """Whether `interface` is connected to a network now (a hotspot of its own counts)."""
    for line in run("-t", "-f", "DEVICE,TYPE,STATE", "device").splitlines():
        device, kind, state = [*line.split(":"), "", ""][:3]
        if device == interface and kind == "wifi":
            return state.startswith("connected")
    return False


def start_if_offline(hotspot: Hotspot, *, run: Callable[..., str] = nmcli,
                     sleep: Callable[[float], None] = time.sleep) -> bool:
    """Give the Wi-Fi `hotspot.wait` seconds to connect; if it does not, start the hotspot.
    Returns whether the hotspot was started."""
    waited = 0.0
    while not wifi_connected(hotspot.interface, run):
        if waited >= hotspot.wait:
            run("device", "wifi", "hotspot", "ifname", hotspot.interface, "con-name",
                CONNECTION, "ssid", hotspot.ssid, "password", hotspot.password)
            return True
        sleep(5.0)
        waited += 5.0
    return False


def read_hotspot(config: Path) -> Hotspot | None:
    """The `[hotspot]` of the configuration file `config`, or None."""
    try:
        with open(config, "rb") as f:
            table = tomllib.load(f).get("hotspot", {})
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise CompanionError(f"cannot read the configuration {config}: {e}") from None
    return Hotspot.from_mapping(table, str(config))


def add_command(commands: Any) -> None:
    """Add `hotspot` to the CLI's subcommands."""
    from companion.run import config_command

    config_command(commands, "hotspot", "start the Pi's own Wi-Fi when it has none (run at "
                   "boot by its service)", hotspot_command)


def hotspot_command(args: argparse.Namespace) -> int:
    hotspot = read_hotspot(args.config)
    if hotspot is None:
        print("camel-companion: no [hotspot] password configured: no hotspot")
        return 0
    if start_if_offline(hotspot):
        print(f"camel-companion: no Wi-Fi, so the Pi is its own: join {hotspot.ssid!r} and "
              f"open http://{hotspot.address}:8000/")
    else:
        print(f"camel-companion: {hotspot.interface} is on a network: no hotspot needed")
    return 0
