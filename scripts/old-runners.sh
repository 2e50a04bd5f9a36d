#!/usr/bin/env bash
# Installs the older test runners that projects still pin (tap 16, jest 24, mocha 5) into a cache
# folder outside the repository, one folder per runner, for `npm run test:old-runners`
# (test/old-runners/oldRunners.test.ts). Not package.json dependencies: together they are ~750
# packages (~150 MB), and the repository's own tap, jest and mocha are newer majors.
# Versions are pinned by the lock files beside each runner's package.json in test/old-runners/<runner>/.
# Idempotent: a runner whose cached lock file is the committed one is not installed again.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE="${AMTP_OLD_RUNNERS_CACHE:-$HOME/.cache/amtp-old-runners}"

for src in test/old-runners/*/; do
  name="$(basename "$src")"
  [ -f "$src/package-lock.json" ] || continue
  dest="$CACHE/$name"
  if [ -f "$dest/.complete" ] && cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
    echo "$name: cached in $dest"
    continue
  fi
  rm -rf "$dest"
  mkdir -p "$dest"
  cp "$src/package.json" "$src/package-lock.json" "$dest/"
  # npm ci installs exactly the lock file, and fails when package.json and the lock disagree.
  (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error >&2)
  # Written last: an interrupted install is started again on the next call.
  touch "$dest/.complete"
  echo "$name: installed in $dest"
done
