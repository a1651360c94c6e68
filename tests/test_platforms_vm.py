"""platforms/vm.sh watches its KVM boot: a guest that is not up within VM_BOOT_WAIT seconds (a nested
KVM that hangs with an empty console: 20 minutes lost before, issue 45) or that ends before it is up
is ended, said in one line, and the run emulated; a guest that is up is left to run.

The boot is a stand-in for vng (VM_VNG) that writes the guest's marker and report as the real guest
does, or hangs under KVM holding a child as qemu would: no qemu, kernel or virtme-ng is needed.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from .conftest import ROOT

FAKE_VNG = r"""#!/usr/bin/env bash
# a stand-in for vng: emulated (--disable-kvm), the guest is up at once; under KVM, $FAKE_KVM says what it does
out=""; accel=KVM
while [ $# -gt 0 ]; do case $1 in --rwdir) out=$2; shift;; --disable-kvm) accel=emulated;; esac; shift; done
if [ $accel = KVM ] && [ "$FAKE_KVM" = hang ]; then  # an empty console, and qemu (a child) never ends
    sleep 600 & echo "$$ $!" >"$FAKE_PIDS"; wait; exit 1
fi
if [ $accel = KVM ] && [ "$FAKE_KVM" = fail ]; then echo "Could not access KVM kernel module"; exit 1; fi
echo up >"$out/up"
sleep "$FAKE_RUN"  # up, then running longer than the boot wait
printf 'guest ran %s\nvm-result: ok\n' $accel >"$out/report"
"""


def _vm_sh(tmp_path: Path, kvm: str, boot_wait: int = 2) -> subprocess.Popen:
    """vm.sh --short started with the stand-in vng, whose guest under KVM does as `kvm` says."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for name, text in (("vng", FAKE_VNG), ("qemu-system-x86_64", "#!/bin/sh\n"), ("busybox", "#!/bin/sh\n")):
        (tools / name).write_text(text)
        (tools / name).chmod(0o755)
    (tmp_path / "vmlinuz-fake").write_text("")
    env = dict(os.environ, PATH=f"{tools}:{os.environ['PATH']}", VM_VNG=str(tools / "vng"),
               VM_KERNEL=str(tmp_path / "vmlinuz-fake"), VM_BOOT_WAIT=str(boot_wait), VM_TIMEOUT="120",
               FAKE_KVM=kvm, FAKE_RUN="4", FAKE_PIDS=str(tmp_path / "pids"))
    return subprocess.Popen(["bash", str(ROOT / "platforms" / "vm.sh"), "--short"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _ended(started: subprocess.Popen) -> tuple[int, str]:
    """(exit status, output) of a vm.sh run."""
    output, _ = started.communicate(timeout=300)
    return started.returncode, output


def _left_running(pids: Path) -> list[int]:
    """The stand-in's vng and qemu (their pids in `pids`) still running once their signal has had time to land."""
    processes = []
    for pid in pids.read_text().split():
        try:
            processes.append(psutil.Process(int(pid)))
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(processes, timeout=10)  # (a zombie's parent, init, reaps it soon)
    running = []
    for process in alive:
        try:
            if process.status() != psutil.STATUS_ZOMBIE:
                running.append(process.pid)
        except psutil.NoSuchProcess:
            pass
    return running


needs_kvm_device = pytest.mark.skipif(not os.access("/dev/kvm", os.W_OK),
                                      reason="no writable /dev/kvm: vm.sh emulates at once, there is no KVM boot to watch")


@needs_kvm_device
@pytest.mark.parametrize("kvm, why", [("hang", "was not up within 2 s (its console empty)"),
                                      ("fail", "ended before it was up (its console's last line: Could not access KVM")])
def test_a_kvm_boot_that_hangs_or_fails_is_ended_and_the_run_emulated(tmp_path, kvm, why):
    code, output = _ended(_vm_sh(tmp_path, kvm))
    assert code == 0, output
    said = [line for line in output.splitlines() if "emulating instead" in line]
    assert len(said) == 1 and f"vm: the KVM guest {why}" in said[0], output
    assert "guest ran emulated" in output and "s in the guest (emulated)" in output, output
    if kvm == "hang":  # the hung vng and its qemu were ended, not left to hold the cores
        assert not _left_running(tmp_path / "pids")


@needs_kvm_device
def test_a_kvm_guest_that_is_up_runs_to_its_end(tmp_path):
    """Up at once, it runs longer than the boot wait: the watch leaves it alone."""
    code, output = _ended(_vm_sh(tmp_path, "up"))
    assert code == 0, output
    assert "emulating" not in output and "guest ran KVM" in output and "s in the guest (KVM)" in output, output


@needs_kvm_device
def test_vm_sh_ended_while_it_waits_for_a_boot_ends_the_guest(tmp_path):
    """SIGTERM (a CI job's timeout) while the KVM boot hangs: the guest's processes end with vm.sh."""
    started = _vm_sh(tmp_path, "hang", boot_wait=300)
    pids = tmp_path / "pids"
    while not pids.exists() or len(pids.read_text().split()) < 2:
        assert started.poll() is None, started.communicate()[0]
        time.sleep(0.1)
    started.terminate()
    code, output = _ended(started)
    assert code == 143, output
    assert not _left_running(pids)
