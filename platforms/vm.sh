#!/usr/bin/env bash
# platforms/vm.sh [--short] [--cases "root-root root-scope ..."] [PYTEST ARGS]
#
# Boots a distribution kernel with cgroup v2 alone (Debian's linux-image-amd64) in qemu over this
# checkout, with virtme-ng (from PyPI), and runs `judge.py doctor` and the given tests there in each
# cgroup layout users run the judge in (platforms/vm-guest.sh sets them up; docs/platforms.md says
# which case stands for what):
#   root-root      root in the root cgroup (a container with its own cgroup namespace, a VM without systemd)
#   root-scope     root in a session scope beside its login shell (what systemd gives an ssh login)
#   root-service   root alone in a service's cgroup (a systemd service, `systemd-run --scope`)
#   user-delegated an unprivileged user in a delegated scope (`systemd-run --user --scope -p Delegate=yes`)
#   user-none      an unprivileged user with no writable cgroup (a login shell's session scope)
# KVM when it works, emulation when not (nested KVM fails on some hosts; emulated, a Python start
# takes ~6 s). --short: the cgroup and bounds tests in four cases (root-service takes root-scope's
# path), doctor's layers without its compilers' table, bounded in time (20 min), for CI.
# Installs what it needs (apt-get: qemu-system-x86, linux-image-amd64, busybox-static; pip:
# virtme-ng in .platforms/vng). Exits 0, saying SKIP, when no qemu or kernel can be had; 1 when a
# test failed or a layout left a judge-* cgroup behind.
set -uo pipefail
{  # read whole before it runs: an edit of this file meanwhile changes nothing of a run
cd "$(dirname "$0")/.."
CHECKOUT=$PWD
CASES="root-root root-scope root-service user-delegated user-none"
# the short tier: the cgroup tests, and the bounds tests that need a cgroup (MLE from the OOM kill count)
SHORT_TESTS="tests/test_cgroup_v2.py tests/test_bounds.py::test_memory_of_any_kind_is_bounded_while_it_runs
 tests/test_bounds.py::test_tasks_are_bounded -p no:hypothesispytest"  # (its import: ~a minute emulated)
DOCTOR=judge
SHORT_CASES="root-root root-scope user-delegated user-none"  # root-service takes root-scope's path
TIMEOUT=${VM_TIMEOUT:-1500}
ARGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --short) ARGS+=($SHORT_TESTS); TIMEOUT=${VM_TIMEOUT:-1200}; DOCTOR=layers; [ -n "${GIVEN_CASES:-}" ] || CASES=$SHORT_CASES; shift;;
        --cases) CASES=$2; GIVEN_CASES=1; shift 2;;
        *) ARGS+=("$1"); shift;;
    esac
done
[ ${#ARGS[@]} -gt 0 ] || ARGS=($SHORT_TESTS)

skip() { echo "vm: SKIP: $*"; exit 0; }
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
need=""
command -v qemu-system-x86_64 >/dev/null 2>&1 || need="qemu-system-x86"
[ -x /bin/busybox ] || command -v busybox >/dev/null 2>&1 || need="$need busybox-static"
ls /boot/vmlinuz-* >/dev/null 2>&1 || need="$need linux-image-amd64"
if [ -n "$need" ]; then
    command -v apt-get >/dev/null 2>&1 || skip "no apt-get to install$need"
    echo "vm: installing$need (apt-get)"
    # shellcheck disable=SC2086
    { $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $need; } \
        >/tmp/vm-apt.log 2>&1 || skip "could not install$need (see /tmp/vm-apt.log)"
fi
KERNEL=$(ls -v /boot/vmlinuz-* 2>/dev/null | tail -n 1)
[ -r "$KERNEL" ] || skip "no readable kernel in /boot"
[ -x .venv/bin/python ] || { python3 -m venv .venv && .venv/bin/pip install -q -r requirements.txt; } \
    || skip "could not make .venv"
VNG=.platforms/vng
[ -x $VNG/bin/vng ] || { python3 -m venv $VNG && $VNG/bin/pip install -q virtme-ng; } \
    || skip "could not install virtme-ng from PyPI"
export PATH="$CHECKOUT/$VNG/bin:$PATH"  # vng runs virtme-run from PATH

OUT=$(mktemp -d /tmp/vm-out.XXXXXX)
trap 'rm -rf "$OUT"' EXIT  # kept on a failure: below
boot() {  # boot ACCEL_OPTION COMMAND...: the guest's console goes to $OUT/console
    timeout "$TIMEOUT" vng --run "$KERNEL" --user root $1 --cpus 2 --memory 3G --rwdir "$OUT" \
        --cwd "$CHECKOUT" --exec "${*:2}" >"$OUT/console" 2>&1
}
ACCEL=""
if ! [ -w /dev/kvm ] || ! boot "" "echo vm-kvm-works" || ! grep -q vm-kvm-works "$OUT/console"; then
    ACCEL="--disable-kvm"
fi
echo "vm: $(basename "$KERNEL") in qemu ($([ -n "$ACCEL" ] && echo emulated || echo KVM)), cases: $CASES; tests: ${ARGS[*]}"
started=$(date +%s)
boot "$ACCEL" "bash $CHECKOUT/platforms/vm-guest.sh $OUT '$CASES' $DOCTOR ${ARGS[*]}"
code=$?
[ $code -ne 124 ] || echo "vm: the guest ran out of its time ($TIMEOUT s; VM_TIMEOUT sets it): what it reported:"
[ -s "$OUT/report" ] || { tail -n 30 "$OUT/console"; echo "vm: the guest wrote no report (boot exit $code)"; \
    grep -q "Could not access KVM\|qemu.*not found\|cannot find kernel" "$OUT/console" && skip "qemu could not start"; exit 1; }
cat "$OUT/report"
echo "vm: $(( $(date +%s) - started )) s in the guest"
if ! grep -q "^vm-result: ok$" "$OUT/report"; then
    rm -rf /tmp/vm-last && cp -r "$OUT" /tmp/vm-last && echo "vm: FAILED; each case's doctor and pytest output: /tmp/vm-last"
    exit 1
fi
exit 0
}
