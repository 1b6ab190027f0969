#!/usr/bin/env bash
# start.sh: `npm start`. Sets the machine up, builds the wasm core and the TypeScript generated
# from it, then runs the Vite dev server (it prints the address to open).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

port="${PORT:-5173}"
echo
echo "Buddyscope: starting the dev server; open http://localhost:${port}/ (Ctrl-C stops it)"
echo "After editing C in wasm-core/, run 'make -C wasm-core wasm' and the page reloads."
# the module-runner config loader reads the TypeScript config chain as the app imports it
exec ./node_modules/.bin/vite --configLoader runner --port "$port" "$@"
