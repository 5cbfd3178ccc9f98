#!/usr/bin/env bash
# The multi-NUMA integration rig: boots QEMU (TCG) guests with 2 and 4 NUMA nodes on this 1-node
# host and runs real cross-node migrations in them with the binaries of BUILD_DIR.
#
# Usage: tests/vm/run.sh BUILD_DIR
#   NB_VM_ONLY=name[,name…]   run only these guests (names as printed: vm-2nodes@6.12, or
#                             vm-2nodes for that guest on every kernel)
#   NB_VM_SCENARIOS=a[,b…]    run these scenarios in each selected guest instead of its list
#   NB_VM_KERNEL=/path        boot this image instead of Debian's stable kernel (6.1)
#   NB_VM_KERNEL_BACKPORTS=/path  the same for the backports kernel (6.12); "none" skips it
#   NB_VM_TIMEOUT_SCALE=N     multiply every guest's timeout (slow machines)
#   NB_VM_BOOT_DEADLINE_S=N   seconds a guest has to reach /init before it is booted again, once
#                             (default 120 times the scale)
#   NB_VM_TCG_THREAD=single   run each guest's vCPUs on one host thread (default multi; see README)
# Installs nothing (scripts/setup.sh --tests does). Downloads are cached in tests/vm/cache/, and so
# is the systemd guest's Debian root (vm-systemd, lib/systemd_root.sh), built once with mmdebstrap.
# Prints one line per check and "N passed, M failed"; exits non-zero on any failure, including a
# guest that did not boot or did not finish.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)

source "$here/lib/kernel.sh"
source "$here/lib/initramfs.sh"
source "$here/lib/guest.sh"
source "$here/lib/systemd_root.sh"

passed=0
failed=0
skipped=0
pass_line() { echo "PASS $*"; passed=$((passed + 1)); }
fail_line() { echo "FAIL $*"; failed=$((failed + 1)); }
skip_line() { echo "SKIP $*"; skipped=$((skipped + 1)); }
summary() {
  echo "$passed passed, $failed failed, $skipped skipped"
  ((failed == 0 && passed > 0))
}

# The guests: NAME KERNEL TOPOLOGY SCENARIOS TIMEOUT_S NODE_MIB, KERNEL being `stable` (the
# release's own, 6.1) or `backports` (6.12, what production hosts run). A scenario joins this list
# only once the binaries it exercises exist; tests/vm/README.md says what runs where and what it
# costs. vm-2nodes@6.1 took 620 s on the slower machine of 2026-12-07: its timeout leaves room
# for a machine nearly twice as slow again.
guests=(
  "vm-2nodes stable 2nodes smoke,manual_migration,faults,throughput,daemon,baselines,effects,equalize,hot_first 1200 512"
  "vm-4nodes stable 4nodes smoke,four_nodes_plan,destination_full,daemon_four_nodes,daemon_faults 600 512"
  "vm-2nodes backports 2nodes smoke,manual_migration,walk,hot_first 900 768"
  # Issue 35: not the rig's busybox /init but a Debian root with systemd as PID 1, which installs
  # the tree's .deb and runs the packaged service (lib/systemd_root.sh, guest/systemd/). Its one
  # scenario is `systemd`; 1 GiB per node holds the 170 MB root twice while it unpacks.
  "vm-systemd stable 2nodes systemd 900 1024"
  # The same guest on 6.12 runs the checks up to the migration only (systemd_damon): there the
  # job's hot_first order writes DAMON's sysfs files, which only the unit's ReadWritePaths=
  # allows; the rest does not depend on the kernel.
  "vm-systemd backports 2nodes systemd_damon 600 1024"
)

# guest_selected NAME LABEL: whether NB_VM_ONLY (if set) names the guest.
guest_selected() {
  [[ -z "${NB_VM_ONLY:-}" || ",$NB_VM_ONLY," == *",$1,"* || ",$NB_VM_ONLY," == *",$1@$2,"* ]]
}

missing=()
for tool in qemu-system-x86_64 busybox cpio xz dpkg apt-get migratepages strip; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
[[ -x "$build_dir/tests/vm/nb_vm_workload" ]] || missing+=("$build_dir/tests/vm/nb_vm_workload (build the tests)")
for program in numabalancerd numabalancerctl; do
  [[ -x "$build_dir/$program" ]] || missing+=("$build_dir/$program (build it)")
done
if ((${#missing[@]} > 0)); then
  fail_line "rig/prerequisites missing: ${missing[*]} (scripts/setup.sh --tests installs the tools)"
  summary
  exit 1
fi

cache_dir="$here/cache"
results_dir="$build_dir/tests/vm/results"
mkdir -p "$cache_dir" "$results_dir"
: >"$results_dir/results.txt"

# The stable kernel decides the run; the backports one is skipped, with the reason, when it cannot
# be fetched (an offline machine, a mirror without backports).
declare -A kernels labels skip_reasons
for suite in stable backports; do
  if [[ $suite == backports && "${NB_VM_KERNEL_BACKPORTS:-}" == none ]]; then
    skip_reasons[$suite]="NB_VM_KERNEL_BACKPORTS=none"
    continue
  fi
  fetch_log=$(mktemp)
  if kernels[$suite]=$(kernel_fetch "$cache_dir" "$suite" 2>"$fetch_log"); then
    labels[$suite]=$(kernel_label "${kernels[$suite]}")
    cat "$fetch_log" >&2
  elif [[ $suite == stable ]]; then
    cat "$fetch_log" >&2
    fail_line "rig/kernel could not fetch the guest kernel: $(tail -n 1 "$fetch_log")"
    rm -f "$fetch_log"
    summary
    exit 1
  else
    skip_reasons[$suite]="could not fetch the backports kernel: $(tail -n 1 "$fetch_log")"
    unset "kernels[$suite]"
  fi
  rm -f "$fetch_log"
done
busybox_initramfs="$build_dir/tests/vm/initramfs.cpio"
initramfs=$busybox_initramfs
if ! initramfs_build "$source_dir" "$build_dir" "$initramfs"; then
  fail_line "rig/initramfs could not be built (see above)"
  summary
  exit 1
fi
for suite in "${!kernels[@]}"; do
  echo "vm: $suite kernel ${labels[$suite]}: ${kernels[$suite]}"
done
echo "vm: initramfs $(($(stat -c %s "$initramfs") / 1048576)) MiB"

scale=${NB_VM_TIMEOUT_SCALE:-1}
for entry in "${guests[@]}"; do
  read -r name suite topology scenarios timeout_s node_mib <<<"$entry"
  label=${labels[$suite]:-$suite}
  if ! guest_selected "$name" "$label"; then
    continue
  fi
  if [[ -z "${kernels[$suite]:-}" ]]; then
    skip_line "$name@$label ${skip_reasons[$suite]}"
    continue
  fi
  kernel=${kernels[$suite]}
  initramfs=$busybox_initramfs
  if [[ $scenarios == systemd* ]]; then
    # The package is built from this tree; a tree that cannot make its .deb fails. The root is
    # fetched like a kernel: a mirror that cannot be reached is a SKIP, as for backports.
    systemd_started=$SECONDS
    if ! command -v mmdebstrap >/dev/null; then
      fail_line "$name@$label/prerequisites mmdebstrap is missing (scripts/setup.sh --tests installs it)"
      continue
    fi
    if ! deb=$(systemd_package_build "$build_dir" 2>"$build_dir/tests/vm/package.log"); then
      tail -n 5 "$build_dir/tests/vm/package.log" >&2
      fail_line "$name@$label/package cpack could not build the .deb (see $build_dir/tests/vm/package.log)"
      continue
    fi
    fetch_log=$(mktemp)
    if ! root_cpio=$(systemd_root_fetch "$cache_dir" "$deb" 2>"$fetch_log"); then
      cat "$fetch_log" >&2
      skip_line "$name@$label could not build the Debian root: $(tail -n 1 "$fetch_log")"
      rm -f "$fetch_log"
      continue
    fi
    cat "$fetch_log" >&2
    rm -f "$fetch_log"
    initramfs="$build_dir/tests/vm/initramfs-systemd.cpio"
    if ! systemd_overlay_build "$source_dir" "$build_dir" "$deb" "$root_cpio" "$initramfs"; then
      fail_line "$name@$label/initramfs the systemd guest's initramfs could not be built (see above)"
      continue
    fi
    echo "vm: $name initramfs $(($(stat -c %s "$initramfs") / 1048576)) MiB (the .deb, the root and its archive in $((SECONDS - systemd_started)) s)"
  fi
  guest_run "$name@$label" "$topology" "${NB_VM_SCENARIOS:-$scenarios}" "$((timeout_s * scale))" "$node_mib"
done

echo "vm: figures in $results_dir/results.txt, logs in $results_dir/<guest>/"
summary
