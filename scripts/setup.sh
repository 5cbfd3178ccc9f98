#!/usr/bin/env bash
# Installs exactly the Debian packages numabalancer builds and tests with. Idempotent: packages
# already present are not fetched again. Both README commands start here.
set -euo pipefail

packages=(
  # build
  g++ cmake ninja-build pkg-config
  # libraries
  libnuma-dev libcgroup-dev libasio-dev libspdlog-dev libfmt-dev libtomlplusplus-dev
  nlohmann-json3-dev libcli11-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
)
if [[ "${1:-}" == "--tests" ]]; then
  # The multi-NUMA guest rig (tests/vm) and its workload tools.
  packages+=(qemu-system-x86 busybox-static cpio xz-utils numactl)
  # The rig's systemd guest (issue 35): its Debian root is built with mmdebstrap.
  packages+=(mmdebstrap)
  # The man page checks (groff), and scripts/package-check.sh: dpkg-shlibdeps for the .deb's
  # Depends, addgroup for its postinst, systemd-analyze for the installed unit.
  packages+=(groff-base dpkg-dev adduser systemd)
  # The fuzz targets and the sanitized unit suites (tests/fuzz, scripts/fuzz.sh): clang with
  # libFuzzer and the sanitizer runtimes.
  packages+=(clang libclang-rt-14-dev)
  # Prometheus's own checks of the exposition: promtool (in prometheus) and node_exporter's
  # textfile collector. The tests run both binaries themselves; their services stay off.
  packages+=(prometheus prometheus-node-exporter)
  # `numabalancerd simulate --plot` draws its SVG with gnuplot; its test draws one.
  packages+=(gnuplot-nox)
  # The soak run (tests/soak) reads the daemon's JSON replies and journal with jq.
  packages+=(jq)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  sudo="sudo"
fi
echo "setup: installing ${missing[*]}"
# Packages whose install would start and enable a service: setup starts none. A policy-rc.d that
# refuses (exit 101) stops invoke-rc.d and deb-systemd-invoke starting them, with or without
# systemd; the units are disabled afterwards. An existing policy-rc.d is the admin's and is kept.
services=()
for package in "${missing[@]}"; do
  case $package in
    prometheus | prometheus-node-exporter) services+=("$package.service") ;;
  esac
done
policy=/usr/sbin/policy-rc.d
if ((${#services[@]} > 0)) && [[ ! -e $policy ]]; then
  printf '#!/bin/sh\n# scripts/setup.sh: start no service while it installs packages.\nexit 101\n' |
    $sudo tee "$policy" >/dev/null
  $sudo chmod 755 "$policy"
  trap '$sudo rm -f "$policy"' EXIT
fi

$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
if ((${#services[@]} > 0)); then
  $sudo systemctl disable --quiet "${services[@]}" 2>/dev/null || true
fi
