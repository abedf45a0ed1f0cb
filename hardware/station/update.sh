#!/usr/bin/env bash
# Update a station between matches to the project's newest release: the highest version tag (vX.Y.Z) of the
# repository it was installed from. The release is set up and the service restarted; if it does not keep
# running for SETTLE seconds, the version that ran before is put back, set up and restarted, and the update
# ends with status 1 saying so. A station with local changes is not touched. A match in progress is journaled
# after every event, so a restart resumes it where it stood; still, update between matches.
#
#   hardware/station/update.sh            TAVLA_HOME (default ~/tavla), TAVLA_SETTLE_S (default 20)
set -euo pipefail
target="${TAVLA_HOME:-$HOME/tavla}"
settle_s="${TAVLA_SETTLE_S:-20}"
unit=tavla-station.service
say() { printf 'station: %s\n' "$*"; }

git -C "$target" fetch --quiet --tags origin
release=$(git -C "$target" tag --list 'v[0-9]*' --sort=-version:refname | head -n 1)
if [ -z "$release" ]; then
  say "no release (vX.Y.Z tag) on $(git -C "$target" remote get-url origin); nothing changed"
  exit 1
fi
running=$(git -C "$target" rev-parse HEAD)
if [ "$(git -C "$target" rev-parse "$release^{commit}")" = "$running" ]; then
  say "already at $release"
  exit 0
fi
if ! git -C "$target" diff --quiet HEAD || [ -n "$(git -C "$target" ls-files --others --exclude-standard)" ]; then
  say "local changes in $target; not updated (git -C $target status shows them)"
  exit 1
fi

switch_to() {  # check out, set up and restart one version
  git -C "$target" checkout --quiet --detach "$1"
  bash "$target/.ci/setup"
  systemctl --user restart "$unit"
}

keeps_running() {  # active after the settling time, and not restarted by systemd meanwhile
  local restarts
  restarts=$(systemctl --user show --property=NRestarts --value "$unit")
  sleep "$settle_s"
  systemctl --user is-active --quiet "$unit" \
    && [ "$(systemctl --user show --property=NRestarts --value "$unit")" = "$restarts" ]
}

say "updating to $release"
if switch_to "$release" && keeps_running; then
  say "updated to $release ($(git -C "$target" log -1 --format='%h %s'))"
  exit 0
fi
say "$release did not start; going back to $(git -C "$target" log -1 --format='%h' "$running")"
switch_to "$running"
if keeps_running; then
  say "rolled back: the station runs the version it ran before; $release is not installed"
else
  say "rolled back, but the station does not start either: see journalctl --user -u $unit"
fi
exit 1
