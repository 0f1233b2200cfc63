#!/usr/bin/env bash
# Makes Debian's Chromium available for the browser tests (apt, as root). Prints the reason and
# exits 1 when it cannot, so the caller can say the browser tests were skipped and why.
set -uo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "browser: /usr/bin/chromium is missing and cannot be installed here (needs apt-get as root)" >&2
  exit 1
fi
echo "browser: installing Debian's chromium"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -qq chromium >/dev/null 2>&1; then
  apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null || {
    echo "browser: apt-get install chromium failed" >&2
    exit 1
  }
fi
/usr/bin/chromium --version 2>/dev/null || true
