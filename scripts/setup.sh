#!/usr/bin/env bash
# setup.sh: make this machine ready to run the site (and, with --test, the tests). Idempotent and
# fast when everything is present: installs what is missing (Emscripten, a C compiler, make and,
# for tests, Chromium from Debian; npm packages from package-lock.json), then builds the wasm
# module and the generated TypeScript that mirrors the C (make rebuilds only what changed).
#
#   bash scripts/setup.sh            # for `npm start` / `npm run build`
#   bash scripts/setup.sh --test     # also Chromium and clang-format, for `npm test`
#   bash scripts/setup.sh --browser  # also Chromium, for `npm run bench`
#   bash scripts/setup.sh --no-build # install only; the caller builds (npm test counts the build)
set -euo pipefail

cd "$(dirname "$0")/.."

want_test=0
want_browser=0
want_build=1
for arg in "$@"; do
	case "$arg" in
	--test) want_test=1 want_browser=1 ;;
	--browser) want_browser=1 ;;
	--no-build) want_build=0 ;;
	*)
		echo "setup.sh: unknown option $arg" >&2
		exit 2
		;;
	esac
done

say() { echo "setup: $*"; }

# Node 20.19 or newer (Vite 8's floor); npm comes with it.
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
	echo "setup: Node.js 20.19 or newer is needed (found $(node --version 2>/dev/null || echo none))" >&2
	exit 1
fi

# Debian packages still missing, as "command:package" pairs.
missing=()
need() { command -v "$1" >/dev/null 2>&1 || missing+=("$2"); }
need make make
need cc gcc
need emcc emscripten
[ "$want_browser" = 1 ] && need "${BUDDYSCOPE_CHROMIUM:-/usr/bin/chromium}" chromium
[ "$want_test" = 1 ] && need clang-format clang-format

if [ "${#missing[@]}" -gt 0 ]; then
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "setup: apt-get is not available on this machine. Install these yourself, then re-run:" >&2
		echo "  - make and a C11 compiler (gcc or clang) as 'cc'" >&2
		echo "  - Emscripten (emcc on PATH; built and tested with 3.1.6)" >&2
		[ "$want_browser" = 1 ] && echo "  - Chromium at /usr/bin/chromium (or set BUDDYSCOPE_CHROMIUM)" >&2
		[ "$want_test" = 1 ] && echo "  - clang-format (the C format check)" >&2
		echo "  missing now: ${missing[*]}" >&2
		exit 1
	fi
	sudo=()
	if [ "$(id -u)" != 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			sudo=(sudo)
		else
			echo "setup: not root and no sudo; run as root: apt-get install ${missing[*]}" >&2
			exit 1
		fi
	fi
	say "installing ${missing[*]} with apt"
	export DEBIAN_FRONTEND=noninteractive
	"${sudo[@]}" apt-get update -qq
	"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm packages: reinstall when node_modules is missing or older than the lockfile. npm ci
# rewrites node_modules/.package-lock.json, which serves as the stamp.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
	say "installing npm packages (npm ci)"
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
	touch "$stamp"
fi

if [ "$want_build" = 1 ]; then
	make --no-print-directory -C wasm-core wasm
	node scripts/gen-vocab.mjs
	node scripts/gen-dts.mjs
fi
