#!/usr/bin/env bash
# Update a station between matches: fetch the new version (fast-forward only, so local changes are never
# overwritten), set it up again, restart the service. A match in progress is journaled after every event,
# so a restart resumes it where it stood; still, update between matches.
set -euo pipefail
target="$HOME/tavla"
git -C "$target" pull --ff-only
bash "$target/.ci/setup"
systemctl --user restart tavla-station.service
echo "station: updated to $(git -C "$target" log -1 --format='%h %s')"
