#!/usr/bin/env bash
# `npm test` runs this first (pretest): the browser tests (test/web, test/sdk) drive Debian's Chromium through
# playwright-core, with no browser download. On a fresh Debian machine as root it is installed from Debian's
# packages; elsewhere the message says what to install.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium and chromium-driver for the browser tests (once)..."
  apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null
  exit 0
fi
echo "The browser tests need /usr/bin/chromium: install Debian's chromium and chromium-driver (sudo apt-get install -y chromium chromium-driver), then run npm test again." >&2
exit 1
