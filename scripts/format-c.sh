#!/usr/bin/env bash
# format-c.sh: format the C in wasm-core/ with clang-format and .clang-format (kernel style,
# tabs, 100 columns). With --check, change nothing and fail if a file is not formatted.
# clang-format comes from Debian (apt-get install clang-format); it is not needed to build or test.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v clang-format >/dev/null 2>&1; then
	echo "format-c: clang-format is not installed (Debian: apt-get install clang-format); C left as is" >&2
	[ "${1:-}" = --check ] && exit 1
	exit 0
fi

mapfile -t files < <(git ls-files 'wasm-core/*.c' 'wasm-core/*.h')
[ "${#files[@]}" -eq 0 ] && exit 0
if [ "${1:-}" = --check ]; then
	clang-format --dry-run -Werror "${files[@]}"
else
	clang-format -i "${files[@]}"
fi
