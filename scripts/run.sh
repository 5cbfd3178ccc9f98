#!/usr/bin/env bash
# Sets up, builds and runs numabalancerd in the foreground on config.toml.example, with its admin
# socket, lock and state under ./run (created here). Ctrl-C stops it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build" -DNB_BUILD_TESTS=OFF -DNB_BUILD_BENCH=OFF

run_dir="$root/run"
mkdir -p "$run_dir/state"
config="$run_dir/config.toml"
# The example config with its run-time paths pointed into ./run, so that nothing outside the
# checkout is touched.
sed -e "s|^state_dir = .*|state_dir = \"$run_dir/state\"|" \
    -e "s|^lock_file = .*|lock_file = \"$run_dir/numabalancerd.lock\"|" \
    -e "s|^socket = .*|socket = \"$run_dir/admin.sock\"|" \
    "$root/config.toml.example" >"$config"
echo "run: numabalancerd --config $config (admin socket $run_dir/admin.sock)"
exec "$root/build/numabalancerd" --config "$config" "$@"
