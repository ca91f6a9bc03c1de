#!/usr/bin/env bash
# The one test command (README): installs what the tests need, then runs every check and test.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step prints the seconds since the start, so a run's log shows where its time went.
step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }

# Installs Debian packages, as root with apt-get (from the package lists already there, else after an update);
# fails where that cannot be done.
apt_install() {
  if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then return 1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }
}

# The Debian packages the tests need and this machine lacks (the steps below name each and what it is for)
# are installed beside npm's install, in one apt-get run: on a machine without them (CI's) that took about
# 40 s one after the other. Best effort: each step below still installs what is missing (after waiting for
# this run), or says why it cannot.
missing=()
if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x /usr/bin/chromium-headless-shell ] && [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium-headless-shell)
fi
if [ -z "${PG_BIN:-}" ] && [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then missing+=(postgresql); fi
[ -x /usr/bin/redis-server ] || missing+=(redis-server)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -x /usr/bin/turnserver ] || missing+=(coturn)
[ -x /usr/bin/promtool ] || missing+=(prometheus)
[ -f /usr/share/fonts/opentype/ocr-b/OCRB.otf ] || missing+=(fonts-ocr-b)
apt_pid=""
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing beside npm: ${missing[*]}"
  { apt_install "${missing[@]}" || true; } &
  apt_pid=$!
fi

step "npm dependencies"
# `npm install` rather than `npm ci`: the npm here leaves other platforms' optional packages (Biome's
# binaries) out of the lockfile, and `npm ci` then refuses the lockfile. Locked versions are kept.
# --prefer-offline: the lockfile names every version, so a package already in npm's cache is taken from it
# without asking the registry again (a run here: 78 s instead of 108 s).
# npm checks every package's `engines` against the Node it runs on: on an older system Node (20) it prints
# an EBADENGINE warning for each package that wants Node 22+, although they all run on the project's Node 24
# (the `node` devDependency). So npm itself runs on that Node 24 when the system's is older.
if [ "${CI:-}" = "true" ] || [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  if node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 22 ? 0 : 1)'; then
    npm install --no-audit --no-fund --prefer-offline
  else
    node_version="$(node -p "require('./package-lock.json').packages['node_modules/node'].version")"
    npm exec --yes --package="node@$node_version" -- npm install --no-audit --no-fund --prefer-offline
  fi
fi

if [ -n "$apt_pid" ]; then wait "$apt_pid"; fi

step "chromium (end-to-end tests)"
# The tests' browser: Debian's old headless shell, the Chromium Playwright itself runs headless (the whole
# suite took 24 % less time than in the whole browser on a 2-core machine,
# docs/decisions/0177-tests-in-the-headless-shell.md); Debian's Chromium where the shell cannot be installed.
# CHROMIUM_PATH names another binary.
if [ -z "${CHROMIUM_PATH:-}" ]; then
  if [ ! -x /usr/bin/chromium-headless-shell ] && ! apt_install chromium-headless-shell &&
    [ ! -x /usr/bin/chromium ] && ! apt_install chromium; then
    echo "Chromium is missing and cannot be installed here (needs root and apt-get)." >&2
    echo "Install Debian's 'chromium-headless-shell' or 'chromium', or set CHROMIUM_PATH to a Chromium binary." >&2
    exit 1
  fi
  CHROMIUM_PATH=/usr/bin/chromium-headless-shell
  [ -x "$CHROMIUM_PATH" ] || CHROMIUM_PATH=/usr/bin/chromium
elif [ ! -x "$CHROMIUM_PATH" ]; then
  echo "CHROMIUM_PATH names no executable: $CHROMIUM_PATH" >&2
  exit 1
fi
echo "$CHROMIUM_PATH"
export CHROMIUM_PATH

step "postgresql (the API tests also run on a real PostgreSQL)"
if [ ! -x /usr/lib/postgresql/15/bin/initdb ] && [ -z "${PG_BIN:-}" ] && ! apt_install postgresql; then
  echo "PostgreSQL is not installed and cannot be here: tests/server/postgres.test.ts will not run." >&2
fi

step "coturn (calls relayed through a real TURN server)"
# tests/support/coturn.ts starts its own turnserver on free loopback ports for the TURN tests (credential
# minting, the relay-only calls); the package's system service is not used.
if [ ! -x /usr/bin/turnserver ] && ! apt_install coturn; then
  echo "coturn is missing and cannot be installed here (needs root and apt-get): the TURN tests fail." >&2
  echo "Install Debian's 'coturn'." >&2
  exit 1
fi

step "promtool (the alert rules under Prometheus's own checks)"
# tests/deploy/promRules.test.ts runs `promtool check rules`, `promtool test rules` and `promtool check config`
# on deploy/prometheus; only the tool of Debian's prometheus package is used, not its service.
if [ ! -x /usr/bin/promtool ] && ! apt_install prometheus; then
  echo "promtool is missing and cannot be installed here (needs root and apt-get): the alert rules go unchecked." >&2
  echo "Install Debian's 'prometheus'." >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
fi

step "OCR-B (the sample documents' machine-readable zone)"
# scripts/sampleDocuments.ts draws the zone of the test documents in OCR-B, the font real passports and ID cards
# print it in, so the machine checks are measured and tested on the font they will read.
if [ ! -f /usr/share/fonts/opentype/ocr-b/OCRB.otf ] && ! apt_install fonts-ocr-b; then
  echo "OCR-B is missing and cannot be installed here (needs root and apt-get): the machine-check tests fail." >&2
  echo "Install Debian's 'fonts-ocr-b'." >&2
  exit 1
fi

step "redis and nginx (the distributed test)"
DISTRIBUTED=1
if { [ ! -x /usr/bin/redis-server ] || [ ! -x /usr/sbin/nginx ]; } && ! apt_install redis-server nginx; then
  DISTRIBUTED=0
  echo "Redis or nginx is missing and cannot be installed here (needs root and apt-get):" >&2
  echo "the distributed test (tests/distributed) is skipped. Install Debian's 'redis-server' and 'nginx'." >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
fi
if [ ! -x /usr/lib/postgresql/15/bin/initdb ] && [ -z "${PG_BIN:-}" ]; then
  DISTRIBUTED=0
  echo "PostgreSQL is missing: the distributed test (tests/distributed) is skipped." >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
fi

step "lint and format (biome)"
npx biome ci --error-on-warnings .

step "types (tsc)"
npx tsc --noEmit -p tsconfig.json

step "architecture rules (dependency-cruiser)"
npm run --silent depcruise

step "unit, component and API tests (vitest)"
npx vitest run

step "build (vite)"
npx vite build --logLevel warn
# The sign-in page's first load stays within its budget: unchecked, it grew past it unseen
# (docs/decisions/0189-login-budget-checked.md).
npx tsx bench/bundle.ts --no-build --check

step "end-to-end tests (playwright, headless Chromium)"
npx playwright test

if [ "$DISTRIBUTED" = "1" ]; then
  step "distributed test (PostgreSQL, Redis, s3rver, two server processes, nginx)"
  npx playwright test -c playwright.distributed.config.ts
fi

step "all tests passed"
