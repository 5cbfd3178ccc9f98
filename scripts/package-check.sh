#!/usr/bin/env bash
# Builds the .deb from a configured build tree, installs it with dpkg, checks what the package put
# on the host, then removes and purges it again. Any failed step stops the check with a message.
# Usage (as root): scripts/package-check.sh BUILD_DIR
#
# It refuses to run where numabalancer is already installed (or its config left behind), since the
# removal at the end would take an operator's installation with it.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
package=numabalancer
group=numabalancer
conffile=/etc/numabalancer/config.toml
unit=/usr/lib/systemd/system/numabalancerd.service
socket_unit=/usr/lib/systemd/system/numabalancerd.socket
# systemd-analyze security's rating of the installed service, at most (issue #18).
max_exposure=2.5

step() { echo "== package-check: $*"; }
fail() {
  echo "package-check: FAILED: $*" >&2
  exit 1
}

[[ $(id -u) -eq 0 ]] || fail "dpkg -i needs root"
for tool in cpack dpkg dpkg-deb dpkg-query dpkg-shlibdeps systemd-analyze getent; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/setup.sh --tests installs it)"
done
status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null || true)
if [[ -n $status && $status != un* ]]; then
  fail "$package is already on this host (dpkg status '$status'); dpkg --purge $package first"
fi
group_existed=false
if getent group "$group" >/dev/null; then
  group_existed=true
fi

installed=false
cleanup() {
  if $installed; then
    echo "package-check: purging $package after a failure" >&2
    dpkg --purge "$package" >/dev/null 2>&1 || true
  fi
  if ! $group_existed && getent group "$group" >/dev/null; then
    delgroup --system --quiet "$group" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

step "build the .deb in $build_dir/package"
cmake --build "$build_dir" --target numabalancerd numabalancerctl man_pages
rm -rf "$build_dir/package"
(cd "$build_dir" && cpack -G DEB -B "$build_dir/package") || fail "cpack -G DEB"
debs=("$build_dir"/package/"$package"_*.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || fail "expected one ${package}_*.deb in $build_dir/package"
deb=${debs[0]}
echo "$deb"

step "control fields and contents"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for library in libnuma1 libcgroup libspdlog libfmt libstdc++6 libc6 adduser; do
  [[ $depends == *"$library"* ]] || fail "Depends lacks $library (dpkg-shlibdeps did not run?)"
done
contents=$(dpkg-deb -c "$deb")
for path in ./usr/sbin/numabalancerd ./usr/sbin/numabalancerctl \
  ./usr/lib/systemd/system/numabalancerd.service ./usr/lib/systemd/system/numabalancerd.socket \
  ./usr/share/man/man8/numabalancerd.8.gz ./usr/share/man/man8/numabalancerctl.8.gz \
  ./usr/share/man/man5/numabalancer.toml.5.gz \
  ./usr/share/bash-completion/completions/numabalancerctl ./etc/numabalancer/config.toml \
  ./usr/share/numabalancer/monitoring/README.md ./usr/share/numabalancer/monitoring/rules.yml \
  ./usr/share/numabalancer/monitoring/alerts.yml \
  ./usr/share/numabalancer/monitoring/dashboards/numabalancer.json \
  ./usr/share/numabalancer/monitoring/tests/alerts_test.yml; do
  grep -q " $path\$" <<<"$contents" || fail "the .deb does not contain $path"
done
dpkg-deb -I "$deb" conffiles | grep -qx "$conffile" || fail "$conffile is not a conffile"

step "dpkg -i"
installed=true
dpkg -i "$deb" || fail "dpkg -i $deb"

step "installed binaries"
/usr/sbin/numabalancerd --version | grep -q '^numabalancerd [0-9]' || fail "numabalancerd --version"
/usr/sbin/numabalancerd --version
/usr/sbin/numabalancerctl --version | grep -q '^numabalancerctl [0-9]' ||
  fail "numabalancerctl --version"
[[ $(/usr/sbin/numabalancerd --check-config "$conffile") == OK ]] ||
  fail "the installed $conffile does not pass --check-config"

step "systemd-analyze verify $unit $socket_unit"
[[ -f $unit ]] || fail "$unit is not installed"
[[ -f $socket_unit ]] || fail "$socket_unit is not installed"
exec_start=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit")
[[ -x $exec_start ]] || fail "the unit's ExecStart $exec_start is not an installed program"
grep -q -- "--config $conffile" "$unit" || fail "the unit does not read $conffile"
verify=$(systemd-analyze verify "$unit" "$socket_unit" 2>&1) || fail "systemd-analyze verify: $verify"
if [[ -n $verify ]]; then
  fail "systemd-analyze verify warned: $verify"
fi

step "the socket unit listens where the installed config points numabalancerctl"
listen=$(sed -n 's/^ListenStream=//p' "$socket_unit")
configured=$(sed -n 's/^socket = "\(.*\)"$/\1/p' "$conffile")
echo "ListenStream=$listen, [admin] socket = $configured"
[[ -n $listen && $listen == "$configured" ]] ||
  fail "$socket_unit listens on '$listen' but $conffile has [admin] socket '$configured'"
socket_group=$(sed -n 's/^SocketGroup=//p' "$socket_unit")
[[ $socket_group == "$group" ]] || fail "SocketGroup=$socket_group is not the $group group"

step "systemd-analyze security --offline=true $unit (at most $max_exposure)"
# --offline reads the unit file alone, so this needs no running systemd (PID 1 here is not).
security=$(systemd-analyze security --offline=true --no-pager "$unit" 2>&1) ||
  fail "systemd-analyze security: $security"
exposure=$(sed -n 's/^.*Overall exposure level for [^:]*: \([0-9.]*\).*$/\1/p' <<<"$security")
echo "exposure $exposure"
[[ -n $exposure ]] || fail "no overall exposure in: $security"
awk -v got="$exposure" -v max="$max_exposure" 'BEGIN { exit !(got <= max) }' ||
  fail "exposure $exposure is above $max_exposure: $security"

step "group, conffile, man pages, completion"
getent group "$group" || fail "postinst did not create the $group group"
dpkg-query -W -f='${Conffiles}\n' "$package" | grep -q "^ $conffile " ||
  fail "dpkg-query does not list $conffile as a conffile"
for page in man8/numabalancerd.8.gz man8/numabalancerctl.8.gz man5/numabalancer.toml.5.gz; do
  zcat "/usr/share/man/$page" | head -1 | grep -q '^\.TH ' || fail "/usr/share/man/$page"
done
bash --norc --noprofile -c \
  'source /usr/share/bash-completion/completions/numabalancerctl && complete -p numabalancerctl' |
  grep -q _numabalancerctl || fail "the installed bash completion does not register"

step "dpkg -i again (postinst is idempotent)"
dpkg -i "$deb" || fail "reinstalling $deb"

step "dpkg -r keeps the configuration"
dpkg -r "$package" || fail "dpkg -r $package"
[[ ! -e /usr/sbin/numabalancerd ]] || fail "dpkg -r left /usr/sbin/numabalancerd"
[[ ! -e $unit ]] || fail "dpkg -r left $unit"
[[ ! -e $socket_unit ]] || fail "dpkg -r left $socket_unit"
[[ -f $conffile ]] || fail "dpkg -r removed $conffile"
dpkg-query -W -f='${db:Status-Abbrev}' "$package" | grep -q '^rc' ||
  fail "after dpkg -r the package should be config-files only"

step "dpkg --purge removes it"
dpkg --purge "$package" || fail "dpkg --purge $package"
installed=false
[[ ! -e $conffile ]] || fail "dpkg --purge left $conffile"

step "OK"
