#!/usr/bin/env bash
# Make this computer a referee station: the project in ~/tavla (cloned from REPO, or updated), the
# station set up (.ci/setup), the udev rule for the clock and board, and the full-screen user service
# started with the desktop session. Run as the station's user (it asks sudo for the two system steps).
#
#   hardware/station/install.sh [REPO]          REPO defaults to this checkout
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
repo=${1:-$here}
target="$HOME/tavla"
say() { printf 'station: %s\n' "$*"; }

if [ -d "$target/.git" ]; then
  say "updating $target"
  git -C "$target" pull --ff-only
else
  say "cloning $repo into $target"
  git clone "$repo" "$target"
fi
say "setting up the station (system packages, .venv)"
bash "$target/.ci/setup"
say "installing the udev rule for the clock and board (sudo)"
sudo install -m 0644 "$target/hardware/station/99-tavla-devices.rules" /etc/udev/rules.d/99-tavla-devices.rules
sudo udevadm control --reload-rules && sudo udevadm trigger --subsystem-match=tty || true
sudo usermod -aG dialout "$USER"
say "installing the full-screen user service"
mkdir -p "$HOME/.config/systemd/user"
install -m 0644 "$target/hardware/station/tavla-station.service" "$HOME/.config/systemd/user/tavla-station.service"
systemctl --user daemon-reload
systemctl --user enable tavla-station.service
say "done: the station starts full screen with the desktop session (enable automatic login for $USER);"
say "start it now with: systemctl --user start tavla-station"
