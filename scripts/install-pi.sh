#!/usr/bin/env bash
# Install camel-companion on a Raspberry Pi running Raspberry Pi OS (Debian 13 "trixie" based,
# Lite or with the desktop), from the checkout this script lives in, as a service that starts
# at boot. docs/raspberry-pi.md tells the whole set-up.
#
# Usage: sudo scripts/install-pi.sh [--kiosk]
#   --kiosk  also show the dashboard full-screen on the Pi's own screen from boot (cage and
#            Chromium; Raspberry Pi OS Lite only: the desktop has its own way, see the docs)
#
# Running it again changes nothing that is already in place. After a `git pull` it copies the
# new program, reinstalls it and restarts the service. Your configuration in /etc/camel-companion
# is never overwritten.
set -euo pipefail

APP_DIR=/opt/camel-companion
VENV="$APP_DIR/.venv"
CONFIG_DIR=/etc/camel-companion
UNIT_DIR=/etc/systemd/system
SERVICE_USER=camel-companion
KIOSK_USER=camel-kiosk
MARK_BEGIN="# >>> camel-companion: added by scripts/install-pi.sh >>>"
MARK_END="# <<< camel-companion <<<"
SOURCE_DIR="$(cd "$(dirname "$0")/.." && pwd)"
PACKAGES=(python3-venv python3-picamera2 python3-opencv python3-numpy python3-lgpio
          python3-gpiozero avahi-daemon git rsync)
KIOSK_PACKAGES=(cage chromium)
# The oldest OpenCV the program runs on (vision/aruco.py): Raspberry Pi OS Bookworm's.
OLDEST_OPENCV=4.6

say() { printf 'camel-companion: %s\n' "$*"; }
fail() { printf 'camel-companion: %s\n' "$1" >&2; exit "${2:-1}"; }
usage() { sed -n '6,8s/^# \{0,1\}//p' "$0"; }

kiosk=no
for arg in "$@"; do
    case "$arg" in
        --kiosk) kiosk=yes ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; fail "unknown option '$arg'" 2 ;;
    esac
done

[ "$(id -u)" -eq 0 ] || fail "run it as root: sudo $0 $*" 2
for file in firmware_config/camel-companion.toml firmware_config/buttons.toml \
            firmware_config/config.txt systemd/camel-companion.service pyproject.toml; do
    [ -f "$SOURCE_DIR/$file" ] \
        || fail "$SOURCE_DIR/$file is missing: run the script from a whole checkout"
done
if [ "$kiosk" = yes ] && [ -e "$UNIT_DIR/display-manager.service" ]; then
    fail "this Pi starts a desktop, and --kiosk is for Raspberry Pi OS Lite: on the desktop, \
open the dashboard from its autostart (docs/raspberry-pi.md, \"A screen on the Pi\")" 2
fi
systemd_running=no
[ -d /run/systemd/system ] && systemd_running=yes
reboot_needed=no

install_packages() {
    local wanted=("${PACKAGES[@]}") missing=() package
    [ "$kiosk" = yes ] && wanted+=("${KIOSK_PACKAGES[@]}")
    for package in "${wanted[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' \
            || missing+=("$package")
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        say "apt packages: all there"
        return
    fi
    say "apt packages: installing ${missing[*]}"
    apt-get update -qq
    # No recommends: python3-picamera2's would bring a whole Qt and OpenGL preview stack.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# The distribution's OpenCV must be one the program runs on; an older OS is refused in one line.
check_opencv() {
    local version
    version=$(dpkg-query -W -f='${Version}' python3-opencv 2>/dev/null) \
        || fail "python3-opencv is not installed: sudo apt install python3-opencv"
    version=${version#*:}
    version=${version%%[+~-]*}
    dpkg --compare-versions "$version" ge "$OLDEST_OPENCV" \
        || fail "this OS has OpenCV $version and camel-companion needs $OLDEST_OPENCV or newer: \
put Raspberry Pi OS Bookworm (Debian 12) or later on the card" 2
    say "OpenCV: $version"
}

ensure_group() {
    getent group "$1" >/dev/null && return
    groupadd --system "$1"
    say "made the group $1"
}

# ensure_user NAME HOME GROUP...: a system user with no login shell, in each GROUP.
ensure_user() {
    local name=$1 home=$2 group
    shift 2
    if ! id "$name" >/dev/null 2>&1; then
        useradd --system --user-group --home-dir "$home" --no-create-home \
            --shell /usr/sbin/nologin --comment "camel-companion" "$name"
        say "made the user $name"
    fi
    for group in "$@"; do
        if ! id -nG "$name" | tr ' ' '\n' | grep -qx "$group"; then
            usermod -aG "$group" "$name"
            say "added $name to the group $group"
        fi
    done
}

# The program's own files: what pip installs from, so a change is what needs a reinstall.
source_digest() {
    (cd "$APP_DIR" && find pyproject.toml companion vision web -type f \
        ! -path '*/__pycache__/*' -print0 | sort -z | xargs -0 sha256sum | sha256sum \
        | cut -d' ' -f1)
}

# Sets program_changed=yes when it (re)installed the program.
install_program() {
    local copied digest
    if [ "$SOURCE_DIR" != "$APP_DIR" ]; then
        mkdir -p "$APP_DIR"
        copied=$(rsync -a --omit-dir-times --delete --itemize-changes \
            --chown=root:root --chmod=go-w --exclude=/.venv --exclude=/.git \
            --exclude=__pycache__ --exclude=/build --exclude='/*.egg-info' \
            --exclude=/.pytest_cache --exclude=/.ruff_cache \
            "$SOURCE_DIR/" "$APP_DIR/" | wc -l)
        say "program: $APP_DIR is a copy of $SOURCE_DIR ($copied changes)"
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        # --system-site-packages: the venv sees the distribution's picamera2, OpenCV, NumPy,
        # gpiozero and lgpio, which the camera stack is built against.
        python3 -m venv --system-site-packages "$VENV"
        say "made the virtual environment $VENV"
    fi
    grep -q '^include-system-site-packages = true' "$VENV/pyvenv.cfg" \
        || fail "$VENV cannot see the distribution's packages: \
remove it (rm -r $VENV) and run the script again"
    digest=$(source_digest)
    if [ -x "$VENV/bin/camel-companion" ] \
        && [ "$(cat "$VENV/.installed-source" 2>/dev/null)" = "$digest" ]; then
        say "program: installed and up to date"
        return
    fi
    # Without the "opencv" extra: pip must not bring its own NumPy and OpenCV.
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$APP_DIR"
    echo "$digest" > "$VENV/.installed-source"
    program_changed=yes
    say "program: installed into $VENV"
    local check='import picamera2, cv2, numpy, gpiozero, lgpio'
    if ! "$VENV/bin/python" -c "$check" 2>/dev/null; then
        say "warning: the venv cannot import the distribution's camera and GPIO packages; \
see what is wrong with: $VENV/bin/python -c '$check'"
    fi
}

install_config() {
    local name
    install -d -m 0755 "$CONFIG_DIR"
    for name in camel-companion.toml buttons.toml; do
        if [ -e "$CONFIG_DIR/$name" ]; then
            say "config: kept your $CONFIG_DIR/$name"
        else
            install -m 0644 "$SOURCE_DIR/firmware_config/$name" "$CONFIG_DIR/$name"
            say "config: wrote $CONFIG_DIR/$name"
        fi
    done
    # A configuration that holds the PIN is for the service's user (and root) only.
    if grep -qE '^[[:space:]]*pin[[:space:]]*=' "$CONFIG_DIR/camel-companion.toml" \
        && [ "$(stat -c %a "$CONFIG_DIR/camel-companion.toml")" != 600 ]; then
        chown "$SERVICE_USER:$SERVICE_USER" "$CONFIG_DIR/camel-companion.toml"
        chmod 0600 "$CONFIG_DIR/camel-companion.toml"
        say "config: $CONFIG_DIR/camel-companion.toml holds the PIN: made readable by \
$SERVICE_USER only"
    fi
}

# The dashboard advertised on mDNS as _http._tcp at the configured port; avahi reloads it.
install_avahi_service() {
    local port target=/etc/avahi/services/camel-companion.service
    port=$(sed -n 's/^port *= *\([0-9][0-9]*\).*/\1/p' "$CONFIG_DIR/camel-companion.toml" \
        | head -n 1)
    [ -n "$port" ] && [ "$port" != 0 ] || port=8000
    install -d -m 0755 /etc/avahi/services
    if sed "s|<port>8000</port>|<port>$port</port>|" \
            "$SOURCE_DIR/firmware_config/camel-companion.avahi.service" | cmp -s - "$target"; then
        say "avahi: the dashboard is advertised on port $port"
        return
    fi
    sed "s|<port>8000</port>|<port>$port</port>|" \
        "$SOURCE_DIR/firmware_config/camel-companion.avahi.service" > "$target"
    chmod 0644 "$target"
    say "avahi: advertising the dashboard as _http._tcp on port $port"
}

# The lines of firmware_config/config.txt, once, between markers; an older copy is replaced.
install_boot_config() {
    local boot_config="" candidate block current
    for candidate in /boot/firmware/config.txt /boot/config.txt; do
        if [ -f "$candidate" ]; then
            boot_config=$candidate
            break
        fi
    done
    if [ -z "$boot_config" ]; then
        say "warning: no /boot/firmware/config.txt here; add the lines of \
$SOURCE_DIR/firmware_config/config.txt to the Pi's config.txt yourself"
        return
    fi
    block="$MARK_BEGIN"$'\n'"$(cat "$SOURCE_DIR/firmware_config/config.txt")"$'\n'"$MARK_END"
    current=$(sed -n "\\|^$MARK_BEGIN\$|,\\|^$MARK_END\$|p" "$boot_config")
    if [ "$current" = "$block" ]; then
        say "boot: $boot_config already has the camera and button lines"
        return
    fi
    cp -p "$boot_config" "$boot_config.before-camel-companion"
    if [ -n "$current" ]; then
        sed -i "\\|^$MARK_BEGIN\$|,\\|^$MARK_END\$|d" "$boot_config"
    fi
    [ -z "$(tail -n 1 "$boot_config")" ] || echo >> "$boot_config"
    printf '%s\n' "$block" >> "$boot_config"
    say "boot: added the camera and button lines to $boot_config \
(the file before is $boot_config.before-camel-companion)"
    reboot_needed=yes
}

# install_unit NAME: copies systemd/NAME into place; adds NAME to units_changed if it changed.
install_unit() {
    if cmp -s "$SOURCE_DIR/systemd/$1" "$UNIT_DIR/$1"; then
        return
    fi
    install -m 0644 "$SOURCE_DIR/systemd/$1" "$UNIT_DIR/$1"
    units_changed+=("$1")
    say "service: installed $UNIT_DIR/$1"
}

# changed NAME: yes when install_unit replaced the unit NAME.
changed() { [[ " ${units_changed[*]} " == *" $1 "* ]] && echo yes || echo no; }

# start_unit NAME CHANGED: enables NAME and starts it, or restarts it when CHANGED is yes.
start_unit() {
    systemctl enable --quiet "$1"
    if [ "$systemd_running" = no ]; then
        say "service: $1 enabled; it starts at the next boot"
    elif ! systemctl is-active --quiet "$1"; then
        systemctl start "$1" || fail "$1 did not start: see journalctl -u ${1%.service} -n 50"
        say "service: $1 started"
    elif [ "$2" = yes ]; then
        systemctl restart "$1" || fail "$1 did not restart: see journalctl -u ${1%.service} -n 50"
        say "service: $1 restarted"
    else
        say "service: $1 running"
    fi
}

print_address() {
    local address pin
    address=$(hostname -I 2>/dev/null | awk '{print $1}')
    say "done. On a phone or tablet on the same network, open:"
    say "    http://$(hostname).local:8000/${address:+   or   http://$address:8000/}"
    # The PIN is never in the journal: it is read from where the service keeps it.
    pin=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pin"])' \
          "/var/lib/$SERVICE_USER/camel-companion.sqlite3.secrets.json" 2>/dev/null || true)
    if [ -n "$pin" ]; then
        say "the table's PIN is $pin (sudo $0 prints it again)"
    else
        say "the table's PIN is made when the service first starts: run this script again \
to see it, or read /var/lib/$SERVICE_USER/camel-companion.sqlite3.secrets.json as root"
    fi
    [ "$reboot_needed" = no ] \
        || say "reboot once (sudo reboot) so the camera and the button pull-ups take effect"
}

install_packages
check_opencv
ensure_group video
ensure_group gpio
ensure_user "$SERVICE_USER" "/var/lib/$SERVICE_USER" video gpio
program_changed=no
install_program
install_config
install_avahi_service
install_boot_config
units_changed=()
install_unit camel-companion.service
install_unit camel-companion-backup.service
install_unit camel-companion-backup.timer
install_unit camel-companion-hotspot.service
if [ "$kiosk" = yes ]; then
    kiosk_groups=(video)
    getent group render >/dev/null && kiosk_groups+=(render)
    ensure_user "$KIOSK_USER" "/var/lib/$KIOSK_USER" "${kiosk_groups[@]}"
    install_unit camel-companion-kiosk.service
fi
if [ "$systemd_running" = yes ] && [ "${#units_changed[@]}" -gt 0 ]; then
    systemctl daemon-reload
fi
main_changed=$(changed camel-companion.service)
[ "$program_changed" = no ] || main_changed=yes
start_unit camel-companion.service "$main_changed"
start_unit camel-companion-backup.timer "$(changed camel-companion-backup.timer)"
# The hotspot looks for a network once at each boot; installing it changes nothing now.
systemctl enable --quiet camel-companion-hotspot.service
if [ "$kiosk" = yes ]; then
    start_unit camel-companion-kiosk.service "$(changed camel-companion-kiosk.service)"
fi
print_address
