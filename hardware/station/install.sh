#!/usr/bin/env bash
# Make this computer a referee station: the project's newest release in ~/tavla (cloned from REPO), the
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
  say "already installed in $target (its version kept; hardware/station/update.sh moves it to the newest release)"
else
  say "cloning $repo into $target"
  git clone --quiet "$repo" "$target"
  release=$(git -C "$target" tag --list 'v[0-9]*' --sort=-version:refname | head -n 1)
  if [ -n "$release" ]; then
    say "installing the newest release, $release"
    git -C "$target" checkout --quiet --detach "$release"
  else
    say "no release (vX.Y.Z tag) yet: installing $(git -C "$target" log -1 --format='%h %s')"
  fi
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
