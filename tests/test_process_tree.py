"""Issue 46: a submission may be a small process tree where the package asks for it (its include/ brings
the entry point, a runner that may fork the submission's code): the sandbox's processes profile, and
the bounds the engine gives such a tree (docs/security.md, "Process trees")."""

from __future__ import annotations

import errno
import signal

import pytest

from tcjudge.engine import sandbox
from tcjudge.engine.sandbox import _seccomp

from .test_sandbox_layers import bpf_run


@pytest.mark.parametrize("arch", list(_seccomp.SYSCALLS))
def test_the_processes_profile_allows_a_tree_and_nothing_more(arch):
    """fork and a process's clone pass (EPERM before, under every profile); the tree keeps to its
    process group and to no namespace; signals reach the tree only under Landlock's scope."""
    A, nr = _seccomp.AUDIT_ARCH[arch], _seccomp.SYSCALLS[arch]
    ALLOW, E = _seccomp.RET_ALLOW, _seccomp.errno_action
    for base in (sandbox.PYTHON, sandbox.NATIVE):
        tree = _seccomp.build_program(arch, base._replace(processes=True), scoped=True)
        strict = _seccomp.build_program(arch, base)
        for flags in (signal.SIGCHLD, 0x01200011):  # a bare fork's clone, glibc's fork
            assert bpf_run(strict, A, nr["clone"], (flags,)) == E(errno.EPERM)
            assert bpf_run(tree, A, nr["clone"], (flags,)) == ALLOW
        assert bpf_run(tree, A, nr["clone"], (0x003D0F00,)) == ALLOW  # threads still
        for flags in (signal.SIGCHLD | _seccomp.CLONE_PARENT, signal.SIGCHLD | _seccomp.CLONE_NEWUSER,
                      signal.SIGCHLD | _seccomp.CLONE_NEWPID):
            assert bpf_run(tree, A, nr["clone"], (flags,)) == E(errno.EPERM), hex(flags)
        for name in ("fork", "vfork"):
            if name in nr:  # (x86_64 only)
                assert bpf_run(strict, A, nr[name]) == E(errno.EPERM)
                assert bpf_run(tree, A, nr[name]) == ALLOW
        for name in ("setsid", "setpgid"):
            assert bpf_run(tree, A, nr[name]) == E(errno.EPERM)
        assert bpf_run(tree, A, nr["clone3"]) == E(errno.ENOSYS)
        assert bpf_run(tree, A, nr["execve"], (0x5A5A_1234_5680,)) == E(errno.EACCES)  # no other program
        for call, args in (("kill", (4243, 9)), ("tgkill", (4243, 4243, 6))):  # another process of the tree
            assert bpf_run(tree, A, nr[call], args) == ALLOW
            assert bpf_run(strict, A, nr[call], args) == E(errno.EPERM)
        for pid in (0, -1, -4242):  # a group, or every process: never
            assert bpf_run(tree, A, nr["kill"], (pid, 9)) == E(errno.EPERM), pid
    unscoped = _seccomp.build_program(arch, sandbox.PYTHON._replace(processes=True), scoped=False)
    assert bpf_run(unscoped, A, nr["kill"], (4242, 9)) == ALLOW  # itself only, without Landlock's scope
    assert bpf_run(unscoped, A, nr["kill"], (4243, 9)) == E(errno.EPERM)
    assert bpf_run(unscoped, A, nr["clone"], (signal.SIGCHLD,)) == ALLOW
