# shellcheck shell=bash
# Boots one guest under its own timeout and turns its results file into check lines. Sourced by
# run.sh, which provides pass_line/fail_line and the kernel and initramfs paths.

# Topologies: per node its memory and whether it has a CPU, plus the full distance matrix.
# 2nodes: the plain two-socket case. 4nodes: asymmetric distances (0->2 is 20 but 2->0 is 30;
# 0->3 is 25 but 3->0 is 22), nodes 1 and 2 equally far from node 0 (so latency breaks the tie),
# and node 3 a CPU-less memory-only node, as CXL memory appears.
topology_nodes() {
  case $1 in
    2nodes) echo 2 ;;
    4nodes) echo 4 ;;
  esac
}
topology_memory_only() {
  case $1 in
    4nodes) echo 3 ;;
  esac
}
topology_distances() {
  case $1 in
    2nodes) echo "10,20/20,10" ;;
    4nodes) echo "10,20,20,25/20,10,25,30/30,25,10,20/22,30,20,10" ;;
  esac
}

# Prints the qemu arguments of a topology, one per line.
topology_qemu_args() {
  local topology=$1 node_mib=$2 nodes cpus=0 node row src dst value memory_only
  nodes=$(topology_nodes "$topology")
  memory_only=" $(topology_memory_only "$topology") "
  for ((node = 0; node < nodes; node++)); do
    echo -object
    echo "memory-backend-ram,id=m$node,size=${node_mib}M"
    echo -numa
    if [[ "$memory_only" == *" $node "* ]]; then
      echo "node,nodeid=$node,memdev=m$node"
    else
      echo "node,nodeid=$node,cpus=$cpus,memdev=m$node"
      cpus=$((cpus + 1))
    fi
  done
  src=0
  for row in $(topology_distances "$topology" | tr '/' ' '); do
    dst=0
    for value in $(echo "$row" | tr ',' ' '); do
      if ((src != dst)); then
        echo -numa
        echo "dist,src=$src,dst=$dst,val=$value"
      fi
      dst=$((dst + 1))
    done
    src=$((src + 1))
  done
  echo -smp
  echo "$cpus,sockets=$cpus,cores=1,threads=1"
  echo -m
  echo "$((node_mib * nodes))M"
}

# The guest's first line (BOOT) comes about 10 s after qemu starts, 30 s on a slow machine.
guest_boot_deadline_s=${NB_VM_BOOT_DEADLINE_S:-$((120 * ${NB_VM_TIMEOUT_SCALE:-1}))}
guest_boot_hung=200

# NB_VM_TCG_THREAD=single runs every vCPU on one host thread (-accel tcg,thread=single); the
# default, multi, gives each vCPU its own. See tests/vm/README.md for what each costs.
guest_accel="tcg${NB_VM_TCG_THREAD:+,thread=$NB_VM_TCG_THREAD}"

# guest_boot DIR TIMEOUT_S CMDLINE QEMU_ARG...: runs one boot of the guest to its end (or the
# timeout) and returns qemu's status, or guest_boot_hung when no BOOT line arrived in time.
guest_boot() {
  local dir=$1 timeout_s=$2 cmdline=$3
  shift 3
  rm -f "$dir/results.txt"
  timeout -k 10 "$timeout_s" qemu-system-x86_64 -M q35 -accel "$guest_accel" -cpu max "$@" \
    -kernel "$kernel" -initrd "$initramfs" -append "$cmdline" \
    -display none -monitor none -no-reboot -nodefaults \
    -serial "file:$dir/console.log" \
    -chardev "file,id=results,path=$dir/results.txt" -serial chardev:results \
    </dev/null >"$dir/qemu.log" 2>&1 &
  local qemu=$! waited=0
  while kill -0 "$qemu" 2>/dev/null && ! grep -q '^BOOT ' "$dir/results.txt" 2>/dev/null; do
    if ((waited >= guest_boot_deadline_s)); then
      kill "$qemu" 2>/dev/null
      wait "$qemu" || true
      return "$guest_boot_hung"
    fi
    sleep 1
    waited=$((waited + 1))
  done
  wait "$qemu"
}

# guest_run NAME TOPOLOGY SCENARIOS TIMEOUT_S NODE_MIB: boots, then reports every check line.
guest_run() {
  local name=$1 topology=$2 scenarios=$3 timeout_s=$4 node_mib=$5
  local dir="$results_dir/$name"
  rm -rf "$dir"
  mkdir -p "$dir"
  local -a qemu_args
  mapfile -t qemu_args < <(topology_qemu_args "$topology" "$node_mib")
  local cmdline="console=ttyS0 quiet panic=-1 numa_balancing=disable"
  cmdline+=" NB_GUEST=$name NB_SCENARIOS=$scenarios NB_NODES=$(topology_nodes "$topology")"
  cmdline+=" NB_DISTANCES=$(topology_distances "$topology")"
  cmdline+=" NB_MEMORY_ONLY=$(topology_memory_only "$topology" | tr ' ' ',')"
  # The soak scenario's length (tests/vm/guest/scenarios/soak.sh) and what it breaks on purpose
  # (NB_SOAK_BREAK, to see a check fail), when the caller sets them.
  cmdline+="${NB_SOAK_SECONDS:+ NB_SOAK_SECONDS=$NB_SOAK_SECONDS}"
  cmdline+="${NB_SOAK_BREAK:+ NB_SOAK_BREAK=$NB_SOAK_BREAK}"

  echo "== guest $name: $topology, ${node_mib} MiB per node, scenarios $scenarios (timeout ${timeout_s}s)"
  local started=$SECONDS status=0
  guest_boot "$dir" "$timeout_s" "$cmdline" "${qemu_args[@]}" || status=$?
  if ((status == guest_boot_hung)); then
    # A TCG guest now and then hangs in the kernel before /init (CI, 2026-12-07: a soft lockup
    # in a kworker from 14 s of uptime until the timeout). It never got to run a scenario, so
    # one fresh boot costs nothing but the boot; a second hang fails the guest.
    echo "  INFO $name did not reach /init within ${guest_boot_deadline_s}s; booting it again (first console: $dir/console.hung.log)"
    mv "$dir/console.log" "$dir/console.hung.log"
    status=0
    guest_boot "$dir" "$((timeout_s - (SECONDS - started)))" "$cmdline" "${qemu_args[@]}" || status=$?
  fi
  if ((status != guest_boot_hung)) && ! grep -q '^done rc=' "$dir/results.txt" 2>/dev/null &&
    grep -q 'Oops: int3' "$dir/console.log" 2>/dev/null; then
    # An int3 oops on a jump label's nop is a static key patched while another vCPU ran that
    # code: multi-threaded TCG emulates cross-modifying code racily (vm-2nodes@6.12, 2026-12-07,
    # 57 s into its boot). The emulator's fault, not the daemon's: one fresh boot; any other oops,
    # or this one twice, fails the guest.
    echo "  INFO $name: the guest kernel hit '$(grep -m 1 -o 'Oops: int3.*' "$dir/console.log")', which multi-threaded TCG causes; booting it again (first console: $dir/console.int3.log)"
    mv "$dir/console.log" "$dir/console.int3.log"
    status=0
    guest_boot "$dir" "$((timeout_s - (SECONDS - started)))" "$cmdline" "${qemu_args[@]}" || status=$?
  fi
  local elapsed=$((SECONDS - started))
  touch "$dir/results.txt"

  local line done_line="" checks=0
  while IFS= read -r line; do
    line=${line%$'\r'}
    case $line in
      "PASS "*) pass_line "$name/${line#PASS }"; checks=$((checks + 1)) ;;
      "FAIL "*) fail_line "$name/${line#FAIL }"; checks=$((checks + 1)) ;;
      "RESULT "*) echo "  $line"; echo "$name ${line#RESULT }" >>"$results_dir/results.txt" ;;
      "INFO "* | "BOOT "*) echo "  $line" ;;
      "FILE "*)
        local file_line=${line#FILE } file_name
        file_name=${file_line%% *}
        mkdir -p "$dir/files"
        printf '%s\n' "${file_line#"$file_name" }" >>"$dir/files/${file_name//\//_}"
        ;;
      "done rc="*) done_line=$line ;;
      "") ;;
      *) echo "  guest: $line" ;;
    esac
  done <"$dir/results.txt"

  # qemu exits 0 even after a guest panic; only the guest's own last line proves it finished.
  if [[ -z "$done_line" ]]; then
    local why
    case $status in
      0) why="no 'done' line from the guest" ;;
      124 | 137) why="timed out after ${timeout_s}s" ;;
      "$guest_boot_hung") why="did not reach /init within ${guest_boot_deadline_s}s, twice" ;;
      *) why="qemu exited with $status: $(tail -n 3 "$dir/qemu.log" | tr '\n' ' ')" ;;
    esac
    grep -q "Kernel panic" "$dir/console.log" 2>/dev/null && why="kernel panic: $(grep -m 1 'Kernel panic' "$dir/console.log")"
    fail_line "$name/finished $why (after ${elapsed}s; console: $dir/console.log)"
    echo "  last console lines:"
    tail -n 15 "$dir/console.log" 2>/dev/null | sed 's/^/    /'
  elif [[ "$done_line" != "done rc=0" ]]; then
    fail_line "$name/finished guest reported $done_line after ${elapsed}s"
  elif ((checks == 0)); then
    fail_line "$name/finished the guest reported no checks at all"
  else
    pass_line "$name/finished $done_line in ${elapsed}s"
  fi
}
