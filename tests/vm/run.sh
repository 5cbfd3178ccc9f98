#!/usr/bin/env bash
# The multi-NUMA integration rig: boots QEMU (TCG) guests with 2 and 4 NUMA nodes on this 1-node
# host and runs real cross-node migrations in them with the binaries of BUILD_DIR.
#
# Usage: tests/vm/run.sh BUILD_DIR
#   NB_VM_ONLY=name[,name…]   run only these guests (names as printed)
#   NB_VM_SCENARIOS=a[,b…]    run these scenarios in each selected guest instead of its list
#   NB_VM_KERNEL=/path        boot this kernel image instead of fetching Debian's
#   NB_VM_TIMEOUT_SCALE=N     multiply every guest's timeout (slow machines)
# Installs nothing (scripts/setup.sh --tests does). Downloads are cached in tests/vm/cache/.
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

passed=0
failed=0
pass_line() { echo "PASS $*"; passed=$((passed + 1)); }
fail_line() { echo "FAIL $*"; failed=$((failed + 1)); }
summary() {
  echo "$passed passed, $failed failed"
  ((failed == 0 && passed > 0))
}

# The guests: NAME TOPOLOGY SCENARIOS TIMEOUT_S NODE_MIB. A scenario joins this list only once
# the binaries it exercises exist; see tests/vm/README.md.
guests=(
  "vm-2nodes 2nodes smoke,manual_migration,faults,throughput,daemon,baselines,effects 900 512"
  "vm-4nodes 4nodes smoke,four_nodes_plan,destination_full,daemon_four_nodes,daemon_faults 600 512"
)

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

if ! kernel=$(kernel_fetch "$cache_dir"); then
  fail_line "rig/kernel could not fetch the guest kernel (see above)"
  summary
  exit 1
fi
initramfs="$build_dir/tests/vm/initramfs.cpio"
if ! initramfs_build "$source_dir" "$build_dir" "$initramfs"; then
  fail_line "rig/initramfs could not be built (see above)"
  summary
  exit 1
fi
echo "vm: kernel $kernel, initramfs $(($(stat -c %s "$initramfs") / 1048576)) MiB"

scale=${NB_VM_TIMEOUT_SCALE:-1}
for entry in "${guests[@]}"; do
  read -r name topology scenarios timeout_s node_mib <<<"$entry"
  if [[ -n "${NB_VM_ONLY:-}" && ",$NB_VM_ONLY," != *",$name,"* ]]; then
    continue
  fi
  guest_run "$name" "$topology" "${NB_VM_SCENARIOS:-$scenarios}" "$((timeout_s * scale))" "$node_mib"
done

echo "vm: figures in $results_dir/results.txt, logs in $results_dir/<guest>/"
summary
