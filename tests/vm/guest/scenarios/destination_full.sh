# shellcheck shell=sh
# Scenario 4, third fault — the first destination is full: a hog prefers node 1 and asks for all
# its free memory, so the kernel fills node 1 down to its watermark and spills the rest. Node 1
# still shows some free memory, but the kernel answers ENOMEM when pages are moved there; node 1
# is dropped and the other destination (2) takes the memory, data intact. (When the weighting by
# free memory keeps node 1's share within what it has free, the kernel never refuses; that passes
# too.) Needs 3 nodes or more.

slack=$((8 * MIB))
hog_cgroup=$(cg_create faults/hog)
wl_start hog "$hog_cgroup" 1 --fill-leaving-mib 0 --policy preferred || exit 1
free_before=$(node_free_bytes 1)
info "hog holds $(($(wl_bytes_on hog 1) / MIB)) MiB of node 1; $((free_before / MIB)) MiB left free there"
victim=$(cg_create faults/full)
wl_start full "$victim" 0 --mib 128 || exit 1
full_pid=$WL_PID
# No free-memory floor: node 1's few free MiB count as room, so only the kernel can refuse.
printf '[actuator]\nmin_free_bytes = 0\nrate_limit = 0\n' >/tmp/full.toml
run_timed /tmp/full.json 180 numabalancerd migrate --config /tmp/full.toml --cgroup "$victim" --from 0 --to 1,2 --json
clean_exit full.exit "$RUN_STATUS"
enomem=$(json /tmp/full.json /outcomes/no_memory)
dropped=$(json /tmp/full.json /dropped_destinations)
info "ENOMEM pages ${enomem:-?}; dropped destinations ${dropped:-?}"
# The kernel refuses either single pages (their status) or the whole call (its errno).
case "$dropped" in
  *'"node":1,'*ENOMEM*) pass full.dropped "node 1 dropped: $dropped" ;;
  *'"node":1,'*) if [ "${enomem:-0}" -gt 0 ]; then
    pass full.dropped "node 1 dropped after $enomem ENOMEM pages: $dropped"
  else
    fail full.dropped "node 1 dropped, but no ENOMEM reported: $dropped"
  fi ;;
  *)
    # Destinations are weighted by free memory, so when the hog leaves a few MiB the engine may
    # place only that much on node 1 and never provoke the kernel: also correct.
    on_node1=$(numa_maps_bytes "$full_pid" 1)
    if [ "$on_node1" -le "$free_before" ]; then
      pass full.dropped "node 1 never refused: it took $((on_node1 / MIB)) MiB of its $((free_before / MIB)) MiB free"
    else
      fail full.dropped "node 1 not dropped and overfilled: $on_node1 > $free_before bytes (ENOMEM pages ${enomem:-0})"
    fi ;;
esac
check_le full.left "$(numa_maps_bytes "$full_pid" 0)" "$slack" "numa_maps bytes left on node 0"
check_ge full.other_destination "$(numa_maps_bytes "$full_pid" 2)" $((100 * MIB)) "numa_maps bytes on node 2"
wl_verify full full.data
wl_verify hog full.hog_data
