#!/usr/bin/env bash
# Prove that the README's first command installs and runs the station on 64-bit ARM (a Raspberry Pi 5's
# architecture), on this x86 machine: a fresh arm64 Debian root built with debootstrap, its programs run
# by qemu-user-static, a fresh clone of the committed HEAD inside it, and the README's first command run
# there. Slow (everything is emulated) but real: Debian's and PyPI's arm64 packages, nothing by hand.
#
#   sudo hardware/station/check-arm64.sh [ROOT_DIR] [COMMAND]
#
# ROOT_DIR defaults to /var/tmp/tavla-arm64 (reused if already built); COMMAND defaults to the README's
# first command. Needs root, network access to Debian's and PyPI's registries, and binfmt_misc.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
root=${1:-/var/tmp/tavla-arm64}
command=${2:-'bash .ci/setup && .venv/bin/python -m app demo'}
say() { printf 'check-arm64: %s\n' "$*" >&2; }

[ "$(id -u)" = 0 ] || { say "run as root (debootstrap and chroot need it)"; exit 2; }
missing=()
for tool in debootstrap qemu-aarch64-static update-binfmts; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing debootstrap qemu-user-static binfmt-support (for: ${missing[*]})"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap qemu-user-static binfmt-support >/dev/null
fi
[ -f /proc/sys/fs/binfmt_misc/status ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
update-binfmts --enable qemu-aarch64 2>/dev/null || true
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || { say "the kernel cannot run arm64 programs (binfmt_misc)"; exit 2; }

started=$(date +%s)
if [ ! -x "$root/usr/bin/python3" ]; then
  say "building an arm64 Debian bookworm root in $root (emulated: about 10-20 minutes)"
  rm -rf "$root"
  debootstrap --arch=arm64 --variant=minbase --include=python3,python3-venv,git,ca-certificates,sudo \
    bookworm "$root" http://deb.debian.org/debian >"$root.debootstrap.log" 2>&1 \
    || { say "debootstrap failed; see $root.debootstrap.log"; exit 1; }
  say "root built in $(( $(date +%s) - started )) s"
fi
# the network plumbing of this host only: name resolution and any local certificate authority
cp /etc/resolv.conf "$root/etc/resolv.conf"
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >/dev/null 2>&1
fi
rm -rf "$root/opt/tavla"
git clone -q "$repo" "$root/opt/tavla"
for fs in proc sys dev; do mountpoint -q "$root/$fs" || mount --rbind "/$fs" "$root/$fs"; done  # dev: with /dev/pts
trap 'for fs in dev sys proc; do umount -R -l "$root/$fs" 2>/dev/null || true; done' EXIT
say "running on arm64 ($(chroot "$root" uname -m)): $command"
run_started=$(date +%s)
set +e
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
  bash -c "cd /opt/tavla && $command"
status=$?
set -e
say "exit $status after $(( $(date +%s) - run_started )) s (whole check $(( $(date +%s) - started )) s)"
exit "$status"
