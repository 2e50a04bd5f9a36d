#!/usr/bin/env bash
# Installs code-server (a real VS Code with the Node extension host) into a cache directory for the
# e2e layers. Not a package.json dependency: it is ~600 MB and only the e2e tests need it.
# Idempotent: a second run on the same machine finds the cached install and returns at once.
#
# code-server 4.100.3 is the last release that runs on Node 20 (VS Code 1.100). As root it needs
# (checked, see /work/shared/E2E.md): libkrb5-dev for the kerberos build, unsafe-perm, yes (node-pty
# runs `npx node-gyp`), npm 11 script approval, the local Node headers (no nodejs.org here), and @vscode/ripgrep's download
# cache seeded from Debian's rg (no GitHub here).
set -euo pipefail

VERSION="${AMTP_CODE_SERVER_VERSION:-4.100.3}"
CACHE="${AMTP_E2E_CACHE:-$HOME/.cache/amtp-e2e}"
DEST="$CACHE/code-server-$VERSION"
BIN="$DEST/node_modules/.bin/code-server"

if [ -x "$BIN" ] && [ -f "$DEST/.complete" ]; then
  echo "$BIN"
  exit 0
fi

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
need=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
command -v make >/dev/null 2>&1 || need+=(make)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >&2
fi

rm -rf "$DEST"
mkdir -p "$DEST"
WORK_TMP="$(mktemp -d)"
trap 'rm -rf "$WORK_TMP"' EXIT

# @vscode/ripgrep downloads a musl build from GitHub; hand it Debian's rg in the tarball it expects.
RG_CACHE="$WORK_TMP/vscode-ripgrep-cache-1.15.11"
mkdir -p "$RG_CACHE" "$WORK_TMP/rg"
cp "$(command -v rg)" "$WORK_TMP/rg/rg"
tar -czf "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$WORK_TMP/rg" rg

# Node headers for native builds: the ones that ship with this Node (nodejs.org is unreachable).
NODE_PREFIX="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
nodedir_env=()
[ -f "$NODE_PREFIX/include/node/node.h" ] && nodedir_env=(npm_config_nodedir="$NODE_PREFIX")

cd "$DEST"
echo '{"name":"amtp-e2e-code-server","private":true}' > package.json
# npm 11 blocks dependency install scripts unless approved; code-server's postinstall (and the nested
# npm installs it runs for VS Code's own modules) must run, so allow them for this cache dir only.
env TMPDIR="$WORK_TMP" npm_config_unsafe_perm=true npm_config_yes=true \
  npm_config_dangerously_allow_all_scripts=true "${nodedir_env[@]}" \
  npm install --no-audit --no-fund --loglevel=error "code-server@$VERSION" >&2
[ -x "$BIN" ] || { echo "code-server install failed: $BIN missing" >&2; exit 1; }
touch "$DEST/.complete"
echo "$BIN"
