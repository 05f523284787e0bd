#!/usr/bin/env bash
# Makes sure the real tools the deployment tests (test/deploy/) drive are present: Debian's
# nginx-light and HAProxy (the two load-balancer configurations docs/deploy.md describes), and
# bubblewrap (a read-only root file system, as the Dockerfile's `docker run --read-only` gives).
# Installed with apt-get when missing, as ensure-chromium.sh installs Chromium. The packages' own service is never started: a policy-rc.d that refuses every start
# is in place while apt-get runs (unless the machine already has one), so nothing listens on
# port 80 afterwards; the tests start nginx themselves, on ports they pick, and stop it by pid.
#
# Where it cannot install (not root, no apt-get) it says how and exits 0, so a developer's
# `npm test` goes on (the tests that need them skip and say why in their names); under CI (CI
# set) that is a failure instead, as those tests fail there without them.
set -euo pipefail
NGINX="${PATCHBAY_NGINX:-/usr/sbin/nginx}"
HAPROXY="${PATCHBAY_HAPROXY:-/usr/sbin/haproxy}"
BWRAP="${PATCHBAY_BWRAP:-/usr/bin/bwrap}"

packages=()
[ -x "$NGINX" ] || packages+=(nginx-light)
[ -x "$HAPROXY" ] || packages+=(haproxy)
[ -x "$BWRAP" ] || packages+=(bubblewrap)

if [ ${#packages[@]} -eq 0 ]; then
  echo "ensure-deploy-tools: using $NGINX ($("$NGINX" -v 2>&1 || echo 'version unknown')), $HAPROXY ($("$HAPROXY" -v 2>&1 | head -n 1 || echo 'version unknown')) and $BWRAP"
  exit 0
fi

cannot() {
  echo "ensure-deploy-tools: $1" >&2
  echo "  Install Debian's ${packages[*]} yourself:  sudo apt-get update && sudo apt-get install -y ${packages[*]}" >&2
  echo "  (or point PATCHBAY_NGINX / PATCHBAY_HAPROXY / PATCHBAY_BWRAP at the binaries); the tests in test/deploy/ that need them skip until then." >&2
  if [ -n "${CI:-}" ]; then exit 1; fi
  exit 0
}
[ "$(id -u)" = "0" ] || cannot "${packages[*]} missing and this is not root, so it cannot be installed here."
command -v apt-get >/dev/null 2>&1 || cannot "${packages[*]} missing and apt-get is not available."

echo "ensure-deploy-tools: installing Debian's ${packages[*]} (apt-get) ..."
export DEBIAN_FRONTEND=noninteractive
POLICY=/usr/sbin/policy-rc.d
if [ ! -e "$POLICY" ]; then
  # 101: "action forbidden by policy": the package's postinst does not start the service.
  printf '#!/bin/sh\nexit 101\n' >"$POLICY"
  chmod 755 "$POLICY"
  trap 'rm -f "$POLICY"' EXIT
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
for bin in "$NGINX" "$HAPROXY" "$BWRAP"; do
  [ -x "$bin" ] || { echo "ensure-deploy-tools: apt-get ran but $bin is still missing" >&2; exit 1; }
done
echo "ensure-deploy-tools: installed ${packages[*]}"
