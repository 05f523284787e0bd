#!/usr/bin/env bash
# Makes sure Debian's Chromium is present for the Playwright tests (e2e/). Playwright's own
# browser download is never used: only the distribution's package registry is reachable in CI.
set -euo pipefail
CHROMIUM="${PATCHBAY_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  echo "ensure-chromium: using $CHROMIUM ($("$CHROMIUM" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: $CHROMIUM is missing and this is not root, so it cannot be installed here." >&2
  echo "  Install Debian's chromium package yourself:  sudo apt-get update && sudo apt-get install -y chromium" >&2
  echo "  (or point PATCHBAY_CHROMIUM at a Chromium binary), then run the e2e tests again." >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install Chromium and set PATCHBAY_CHROMIUM to its path." >&2
  exit 1
fi
echo "ensure-chromium: installing Debian's chromium (apt-get) ..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
echo "ensure-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
