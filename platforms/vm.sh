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
# KVM when it works, emulation when not (nested KVM fails on some hosts, or hangs with an empty
# console: a KVM guest not up within VM_BOOT_WAIT s, 60 by default, is ended and the run emulated;
# emulated, a Python start takes ~6 s). --short: the cgroup and bounds tests in four cases
# (root-service takes root-scope's path), doctor's layers without its compilers' table, bounded in
# time (20 min), for CI. Installs what it needs (apt-get: qemu-system-x86, linux-image-amd64,
# busybox-static; pip: virtme-ng in .platforms/vng; VM_VNG and VM_KERNEL name another vng and
# kernel). Exits 0, saying SKIP, when no qemu or kernel can be had; 1 when a test failed or a
# layout left a judge-* cgroup behind.
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
[ -n "${VM_KERNEL:-}" ] || ls /boot/vmlinuz-* >/dev/null 2>&1 || need="$need linux-image-amd64"
if [ -n "$need" ]; then
    command -v apt-get >/dev/null 2>&1 || skip "no apt-get to install$need"
    echo "vm: installing$need (apt-get)"
    # shellcheck disable=SC2086
    { $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $need; } \
        >/tmp/vm-apt.log 2>&1 || skip "could not install$need (see /tmp/vm-apt.log)"
fi
KERNEL=${VM_KERNEL:-$(ls -v /boot/vmlinuz-* 2>/dev/null | tail -n 1)}
[ -r "$KERNEL" ] || skip "no readable kernel in /boot"
[ -x .venv/bin/python ] || { python3 -m venv .venv && .venv/bin/pip install -q -r requirements.txt; } \
    || skip "could not make .venv"
VNG=${VM_VNG:-$CHECKOUT/.platforms/vng/bin/vng}
if [ -z "${VM_VNG:-}" ]; then
    [ -x "$VNG" ] || { python3 -m venv .platforms/vng && .platforms/vng/bin/pip install -q virtme-ng; } \
        || skip "could not install virtme-ng from PyPI"
    export PATH="$CHECKOUT/.platforms/vng/bin:$PATH"  # vng runs virtme-run from PATH
fi
BOOT_WAIT=${VM_BOOT_WAIT:-60}  # seconds a KVM guest has to be up (it takes a few; a hung boot says nothing)

OUT=$(mktemp -d /tmp/vm-out.XXXXXX)
BOOTING=""
end_boot() {  # end the guest being booted, if any: timeout passes the signal to qemu's process group
    [ -n "$BOOTING" ] && kill "$BOOTING" 2>/dev/null && wait "$BOOTING" 2>/dev/null
    BOOTING=""
}
trap 'end_boot; rm -rf "$OUT"' EXIT  # (kept on a failure: below)
trap 'exit 130' INT; trap 'exit 143' TERM  # (a guest left running would hold its cores for 20 minutes)
boot() {  # boot ACCEL_OPTION: start the guest, which marks $OUT/up once it runs, then runs vm-guest.sh;
    # its console goes to $OUT/console; BOOTING: its timeout's pid
    rm -f "$OUT/up" "$OUT/report"
    timeout -k 10 "$TIMEOUT" "$VNG" --run "$KERNEL" --user root $1 --cpus 2 --memory 3G --rwdir "$OUT" \
        --cwd "$CHECKOUT" --exec "echo up >$OUT/up; bash $CHECKOUT/platforms/vm-guest.sh $OUT '$CASES' $DOCTOR ${ARGS[*]}" \
        >"$OUT/console" 2>&1 &
    BOOTING=$!
}
up_in_time() {  # whether the guest being booted marked itself up within BOOT_WAIT s; else it is
    # ended, and NOT_UP says how it failed
    local waited=0
    while [ ! -e "$OUT/up" ] && kill -0 "$BOOTING" 2>/dev/null && [ $waited -lt "$BOOT_WAIT" ]; do
        sleep 1; waited=$((waited + 1))
    done
    [ -e "$OUT/up" ] && return 0
    NOT_UP="was not up within $BOOT_WAIT s"
    kill -0 "$BOOTING" 2>/dev/null || NOT_UP="ended before it was up"
    end_boot
    return 1
}
console() {  # what the guest's console said last, in a few words
    if [ -s "$OUT/console" ]; then echo "its console's last line: $(grep -v '^\s*$' "$OUT/console" | tail -n 1 | cut -c1-160)"
    else echo "its console empty"; fi
}
echo "vm: $(basename "$KERNEL") in qemu, cases: $CASES; tests: ${ARGS[*]}"
started=$(date +%s)
ACCEL=""
if ! [ -w /dev/kvm ]; then
    ACCEL="--disable-kvm"; echo "vm: no writable /dev/kvm: emulated"
else
    boot ""
    up_in_time || { ACCEL="--disable-kvm"; started=$(date +%s)
        echo "vm: the KVM guest $NOT_UP ($(console)); emulating instead (VM_BOOT_WAIT sets the wait)"; }
fi
[ -z "$ACCEL" ] || boot "$ACCEL"
wait "$BOOTING"
code=$?
BOOTING=""
[ $code -ne 124 ] && [ $code -ne 137 ] || echo "vm: the guest ran out of its time ($TIMEOUT s; VM_TIMEOUT sets it): what it reported:"
[ -s "$OUT/report" ] || { tail -n 30 "$OUT/console"; echo "vm: the guest wrote no report (boot exit $code)"; \
    grep -q "Could not access KVM\|qemu.*not found\|cannot find kernel" "$OUT/console" && skip "qemu could not start"; exit 1; }
cat "$OUT/report"
echo "vm: $(( $(date +%s) - started )) s in the guest ($([ -n "$ACCEL" ] && echo emulated || echo KVM))"
if ! grep -q "^vm-result: ok$" "$OUT/report"; then
    rm -rf /tmp/vm-last && cp -r "$OUT" /tmp/vm-last && echo "vm: FAILED; each case's doctor and pytest output: /tmp/vm-last"
    exit 1
fi
exit 0
}
