#!/usr/bin/env bash
# Everything the VS Code e2e layers need, from scratch on a fresh Debian machine, cached afterwards:
# Debian's Chromium (driven by playwright-core) and code-server (scripts/e2e/install-code-server.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
if [ ! -x /usr/bin/chromium ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium
fi
bash scripts/e2e/install-code-server.sh
