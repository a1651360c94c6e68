"""Tests of tcjudge/engine/sandbox: the kernel confinement layers (no_new_privs, Landlock, seccomp).

Each behavioural test runs this file as a fresh `python -I` "zygote" (like the judge's), which
calls prepare() and forks a child; the child runs CONTROLS (the same operation before enter(),
which must succeed, so the check can fail), then enter(), then the checks, and reports JSON
through a pipe. Every scenario runs as the current user and, when that is root, also as
uid/gid 65534 (nobody), where file permissions would allow what the layers must stop.

The part of this file above `if __name__ == "__main__"` is the child side and imports only the
stdlib and tcjudge.engine.sandbox (the zygote may run under an interpreter without pytest).
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import signal
import socket
import stat
import sys
import time
import traceback

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOBODY = 65534


def attempt(fn, *args, **kwargs) -> dict:
    """Run fn; report success or the errno / exception it raised."""
    try:
        value = fn(*args, **kwargs)
        return {"ok": True, "value": repr(value)[:200]}
    except OSError as e:
        return {"ok": False, "errno": errno.errorcode.get(e.errno, str(e.errno)), "error": str(e)[:200]}
    except Exception as e:  # noqa: BLE001 - reported to the test
        return {"ok": False, "errno": None, "error": f"{type(e).__name__}: {e}"[:200]}


def _read(path: str, n: int = 64) -> bytes:
    with open(path, "rb") as f:
        return f.read(n)


def _libc_call(name: str, *args: int) -> int:
    """Call a libc function and turn -1 into OSError (for calls Python does not wrap)."""
    lib = ctypes.CDLL(None, use_errno=True)
    fn = getattr(lib, name)
    fn.restype = ctypes.c_long if name in ("syscall", "ptrace") else ctypes.c_int
    r = fn(*[ctypes.c_long(a) for a in args])
    if r == -1:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return r


def _timed_enter(conf, out: dict) -> None:
    t = time.perf_counter_ns()
    conf.enter()
    out["enter_us"] = (time.perf_counter_ns() - t) / 1000


# --- scenarios: run in the forked child; `z` is the zygote's pid -------------------------------


def scn_reads(cfg: dict, conf, z: int) -> dict:
    stdlib_file = os.__file__
    project_file = os.path.join(REPO, "tests", "test_sandbox_layers.py")
    before = {
        "stdlib": attempt(_read, stdlib_file),
        "passwd": attempt(_read, "/etc/passwd"),
        "project_file": attempt(_read, project_file),
        "project_dir": attempt(os.listdir, REPO),
        "zygote_environ": attempt(_read, f"/proc/{z}/environ"),
        "zygote_mem": attempt(lambda: open(f"/proc/{z}/mem", "rb").close()),
        "extra": attempt(_read, cfg["extra_file"]),
        "shared_dir": attempt(os.listdir, cfg["shared_dir"]),
    }
    # Make the imports below really hit the disk: drop the pure-Python modules, and note which
    # extension modules have never been loaded in this process (those need dlopen after enter).
    for name in list(sys.modules):
        if name.split(".")[0] in ("json", "collections", "fractions", "decimal", "numbers", "_pydecimal"):
            del sys.modules[name]
    fresh_ext = [m for m in ("_decimal", "_json", "_bisect", "_statistics", "_csv", "cmath") if m not in sys.modules]
    out: dict = {"before": before, "fresh_ext": fresh_ext}
    _timed_enter(conf, out)

    def imports():
        import collections
        import decimal
        import fractions
        import json

        assert json.loads('{"a": [1, 2]}') == {"a": [1, 2]} and collections.Counter("aab")["a"] == 2
        assert fractions.Fraction(1, 3) + fractions.Fraction(1, 6) == fractions.Fraction(1, 2)
        assert str(decimal.Decimal(1) / decimal.Decimal(8)) == "0.125"
        for m in fresh_ext:
            __import__(m)
        return sorted(m for m in fresh_ext if getattr(sys.modules[m], "__file__", "").endswith(".so"))

    out["after"] = {
        "stdlib": attempt(_read, stdlib_file),
        "imports": attempt(imports),
        "c_decimal": "_decimal" in sys.modules and "_pydecimal" not in sys.modules,
        "passwd": attempt(_read, "/etc/passwd"),
        "project_file": attempt(_read, project_file),
        "project_dir": attempt(os.listdir, REPO),
        "zygote_environ": attempt(_read, f"/proc/{z}/environ"),
        "zygote_mem": attempt(lambda: open(f"/proc/{z}/mem", "rb").close()),
        "pytest_environ": attempt(_read, f"/proc/{cfg['pytest_pid']}/environ"),
        "self_environ": attempt(_read, "/proc/self/environ"),
        "extra": attempt(_read, cfg["extra_file"]),
        "shared_dir": attempt(os.listdir, cfg["shared_dir"]),
    }
    return out


def scn_writes(cfg: dict, conf, z: int) -> dict:
    d = cfg["shared_dir"]
    victim = os.path.join(d, "victim.txt")
    ctl = os.path.join(d, f"control-{os.getpid()}")

    def create_and_remove():
        with open(ctl, "x") as f:
            f.write("x")
        os.unlink(ctl)

    def mkdir_and_rmdir():
        os.mkdir(ctl)
        os.rmdir(ctl)

    granted = os.path.join(d, "granted")  # passed to prepare() as a readable path
    readme = os.path.join(granted, "readme.txt")

    def create_and_remove_granted():
        with open(os.path.join(granted, "ctl"), "x") as f:
            f.write("x")
        os.unlink(os.path.join(granted, "ctl"))

    st = os.stat(victim)
    before = {
        "create_in_granted": attempt(create_and_remove_granted),
        "append_granted": attempt(lambda: open(readme, "a").close()),
        "create": attempt(create_and_remove),
        "mkdir": attempt(mkdir_and_rmdir),
        "append_open": attempt(lambda: open(victim, "a").close()),
        "chmod": attempt(os.chmod, victim, stat.S_IMODE(st.st_mode)),
        "chown": attempt(os.chown, victim, st.st_uid, st.st_gid),
    }
    out: dict = {"before": before}
    _timed_enter(conf, out)
    new = os.path.join(d, "new.txt")
    out["read_granted"] = attempt(_read, readme)
    out["after"] = {
        "create_in_granted": attempt(lambda: open(os.path.join(granted, "new.txt"), "x").close()),
        "write_granted": attempt(lambda: open(readme, "r+b").close()),
        "unlink_granted": attempt(os.unlink, readme),
        "create": attempt(lambda: open(new, "x").close()),
        "open_write": attempt(lambda: open(victim, "r+b").close()),
        "open_append": attempt(lambda: open(victim, "a").close()),
        "open_trunc": attempt(lambda: os.close(os.open(victim, os.O_WRONLY | os.O_TRUNC))),
        "truncate": attempt(os.truncate, victim, 0),
        "unlink": attempt(os.unlink, victim),
        "rename": attempt(os.rename, victim, new),
        "mkdir": attempt(os.mkdir, os.path.join(d, "sub")),
        "symlink": attempt(os.symlink, victim, os.path.join(d, "sym")),
        "hardlink": attempt(os.link, victim, os.path.join(d, "hard")),
        "mkfifo": attempt(os.mkfifo, os.path.join(d, "fifo")),
        "chmod": attempt(os.chmod, victim, 0o777),
        "chown": attempt(os.chown, victim, st.st_uid, st.st_gid),
        "utime": attempt(os.utime, victim, (0, 0)),
        "tmp_mkstemp": attempt(lambda: __import__("tempfile").mkstemp(dir="/tmp")),
        "tmp_create": attempt(lambda: open(f"/tmp/sandbox-escape-{os.getpid()}", "x").close()),
        "dev_shm": attempt(lambda: open(f"/dev/shm/sandbox-escape-{os.getpid()}", "x").close())
        if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK)
        else None,
        "cwd_create": attempt(lambda: open(f"sandbox-escape-{os.getpid()}", "x").close()),
    }
    return out


def scn_network(cfg: dict, conf, z: int) -> dict:
    ctl_port, target_port = cfg["ports"]

    def connect(port: int):
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            return port

    out: dict = {"before": {"connect": attempt(connect, ctl_port)}}
    _timed_enter(conf, out)
    out["after"] = {
        "inet": attempt(socket.socket, socket.AF_INET, socket.SOCK_STREAM),
        "inet6": attempt(socket.socket, socket.AF_INET6, socket.SOCK_DGRAM),
        "unix": attempt(socket.socket, socket.AF_UNIX, socket.SOCK_STREAM),
        "netlink": attempt(socket.socket, socket.AF_NETLINK, socket.SOCK_RAW, 0),
        "socketpair": attempt(socket.socketpair),
        "connect": attempt(connect, target_port),
    }
    return out


def scn_processes(cfg: dict, conf, z: int) -> dict:
    import resource
    import subprocess
    import threading
    from concurrent.futures import ThreadPoolExecutor

    def fork_and_reap():
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        return os.waitpid(pid, 0)[1]

    def figetbsz():
        import fcntl

        with open(os.__file__, "rb") as f:
            return fcntl.ioctl(f.fileno(), 2, b"\0\0\0\0")  # FIGETBSZ

    def clone3():
        return _libc_call("syscall", 435, 0, 0)  # clone3(NULL, 0): EFAULT/EINVAL unconfined

    before = {
        "fork": attempt(fork_and_reap),
        "kill_zygote": attempt(os.kill, z, 0),
        "figetbsz": attempt(figetbsz),
        "clone3": attempt(clone3),
        "not_group_leader": os.getpgid(0) != os.getpid(),
    }
    out: dict = {"before": before}
    _timed_enter(conf, out)

    got = []
    signal.signal(signal.SIGUSR1, lambda *_: got.append("usr1"))
    signal.signal(signal.SIGUSR2, lambda *_: got.append("usr2"))

    def threads():
        results = [0] * 4

        def work(i):
            results[i] = sum(range(i * 10000))

        ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        with ThreadPoolExecutor(max_workers=3) as ex:
            pooled = list(ex.map(lambda x: x * x, range(10)))
        assert results == [sum(range(i * 10000)) for i in range(4)] and pooled[-1] == 81
        return threading.active_count()

    def shmget():
        shmid = _libc_call("shmget", 0, 4096, 0o600)  # IPC_PRIVATE
        _libc_call("shmctl", shmid, 0, 0)  # IPC_RMID: only if the filter failed
        return shmid

    def signals_self():
        os.kill(os.getpid(), signal.SIGUSR1)
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR2)
        return list(got)

    after = {
        "fork": attempt(os.fork),
        "subprocess": attempt(subprocess.run, ["/bin/true"]),
        "posix_spawn": attempt(os.posix_spawn, "/bin/true", ["true"], {}),
        "threads": attempt(threads),
        "signals_self": attempt(signals_self),
        "kill_zygote": attempt(os.kill, z, 0),
        "kill_pytest": attempt(os.kill, cfg["pytest_pid"], 0),
        "kill_all": attempt(os.kill, -1, 0),
        "kill_group": attempt(os.kill, 0, 0),
        "setsid": attempt(os.setsid),
        "setpgid": attempt(os.setpgid, 0, 0),
        "ptrace_seize": attempt(_libc_call, "ptrace", 0x4206, z, 0, 0),
        "unshare_user": attempt(_libc_call, "unshare", 0x10000000),
        "memfd": attempt(os.memfd_create, "x"),
        "shmget": attempt(shmget),
        "getrlimit": attempt(resource.getrlimit, resource.RLIMIT_NOFILE),
        "setrlimit": attempt(lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (1 << 20, 1 << 20))),
        "nofile_after_setrlimit": attempt(resource.getrlimit, resource.RLIMIT_NOFILE),
        "prlimit_zygote": attempt(resource.prlimit, z, resource.RLIMIT_NOFILE),
        "figetbsz": attempt(figetbsz),
        "isatty": attempt(os.isatty, 0),
        "clone3": attempt(clone3),
        "future_syscall": attempt(_libc_call, "syscall", 470),
        "x32_getpid": attempt(_libc_call, "syscall", 0x40000000 | 39) if cfg["arch"] == "x86_64" else None,
    }
    # last: if exec were allowed the child would become /bin/true and never report
    after["execv"] = attempt(os.execv, sys.executable, [sys.executable, "-c", "pass"])
    out["after"] = after
    return out


def scn_landlock_only(cfg: dict, conf, z: int) -> dict:
    ctl_port, target_port = cfg["ports"]

    def fork_and_reap():
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        return os.waitpid(pid, 0)[1]

    def connect(port: int):
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            return port

    out: dict = {"before": {"passwd": attempt(_read, "/etc/passwd"), "kill_zygote": attempt(os.kill, z, 0)}}
    _timed_enter(conf, out)
    out["after"] = {
        "passwd": attempt(_read, "/etc/passwd"),
        "create": attempt(lambda: open(os.path.join(cfg["shared_dir"], "new.txt"), "x").close()),
        "fork": attempt(fork_and_reap),  # seccomp is off: this must work, proving the layer is alone
        "socket": attempt(lambda: socket.socket().close()),
        "connect": attempt(connect, target_port),
        "kill_zygote": attempt(os.kill, z, 0),
        "json": attempt(lambda: __import__("json").dumps([1])),
    }
    return out


def scn_seccomp_only(cfg: dict, conf, z: int) -> dict:
    victim = os.path.join(cfg["shared_dir"], "victim.txt")
    out: dict = {"before": {"chmod": attempt(os.chmod, victim, 0o644), "kill_zygote": attempt(os.kill, z, 0)}}
    _timed_enter(conf, out)
    out["after"] = {
        "passwd": attempt(_read, "/etc/passwd"),  # Landlock is off: readable, proving seccomp is alone
        "fork": attempt(os.fork),
        "socket": attempt(socket.socket),
        "chmod": attempt(os.chmod, victim, 0o777),
        "kill_zygote": attempt(os.kill, z, 0),
        "kill_self": attempt(os.kill, os.getpid(), 0),
    }
    return out


def scn_reuse(cfg: dict, conf, z: int) -> dict:
    fds = conf.keep_fds
    out: dict = {"before": {"ruleset_fd": attempt(os.fstat, fds[0]) if fds else None}}
    _timed_enter(conf, out)
    out["after"] = {
        "passwd": attempt(_read, "/etc/passwd"),
        "stdlib": attempt(_read, os.__file__),
        "ruleset_fd": attempt(os.fstat, fds[0]) if fds else None,  # enter() closed it
    }
    return out


def scn_broken(cfg: dict, conf, z: int) -> dict:
    """enter() with a ruleset fd the child lost (closed by mistake): must fail loudly."""
    os.close(conf.keep_fds[0])
    try:
        conf.enter()
    except Exception as e:  # noqa: BLE001
        return {"raised": type(e).__name__, "message": str(e), "passwd": attempt(_read, "/etc/passwd")}
    return {"raised": None}


SCENARIOS = {f.__name__[4:]: f for f in (scn_reads, scn_writes, scn_network, scn_processes,
                                          scn_landlock_only, scn_seccomp_only, scn_reuse, scn_broken)}  # fmt: skip


def _run_child(fn, cfg: dict, conf, zygote: int) -> dict:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        signal.alarm(60)
        try:
            res = fn(cfg, conf, zygote)
        except BaseException:  # noqa: BLE001
            res = {"crash": traceback.format_exc()}
        data = json.dumps(res).encode()
        while data:
            data = data[os.write(w, data) :]
        os._exit(0)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 65536):
        chunks.append(chunk)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    res = json.loads(b"".join(chunks)) if chunks else {"crash": f"child reported nothing, wait status {status}"}
    res["wait_status"] = status
    return res


def _timing(conf, n: int) -> dict:
    """fork -> (enter) -> _exit -> waitpid, medians over n rounds each, in microseconds."""
    import statistics

    def rounds(do_enter: bool):
        total, inner = [], []
        for _ in range(n):
            r, w = os.pipe()
            t0 = time.perf_counter_ns()
            pid = os.fork()
            if pid == 0:
                t1 = time.perf_counter_ns()
                if do_enter:
                    conf.enter()
                os.write(w, str(time.perf_counter_ns() - t1).encode())
                os._exit(0)
            os.close(w)
            inner.append(int(os.read(r, 64)) / 1000)
            os.close(r)
            os.waitpid(pid, 0)
            total.append((time.perf_counter_ns() - t0) / 1000)
        return statistics.median(total), statistics.median(inner), min(inner)

    rounds(True)  # warm-up
    base = rounds(False)
    conf_ = rounds(True)
    return {"fork_wait_us": base[0], "fork_enter_wait_us": conf_[0], "enter_median_us": conf_[1], "enter_min_us": conf_[2]}


def zygote_main(cfg: dict) -> dict:
    sys.path.insert(0, REPO)
    from tcjudge.engine import sandbox

    if cfg.get("victim"):
        with open(os.path.join(cfg["shared_dir"], "victim.txt"), "w") as f:
            f.write("original\n")
        os.chmod(os.path.join(cfg["shared_dir"], "victim.txt"), 0o644)
    t = time.perf_counter_ns()
    conf = sandbox.prepare(
        cfg.get("readable", []), must_not_cover=[REPO], landlock=cfg["landlock"], seccomp=cfg["seccomp"]
    )
    res: dict = {
        "prepare_us": (time.perf_counter_ns() - t) / 1000,
        "uid": os.getuid(),
        "layers": {l.name: [l.active, l.detail] for l in conf.layers},
        "granted": list(conf.granted_paths),
    }
    if cfg["scenario"] == "timing":
        res["timing"] = _timing(conf, cfg.get("rounds", 100))
    elif cfg["scenario"] == "reuse":
        res["children"] = [_run_child(scn_reuse, cfg, conf, os.getpid()) for _ in range(3)]
    else:
        res["child"] = _run_child(SCENARIOS[cfg["scenario"]], cfg, conf, os.getpid())
    return res


if __name__ == "__main__":  # the zygote side; everything below needs pytest
    print(json.dumps(zygote_main(json.loads(sys.argv[1]))))
    sys.exit(0)

# ================================================================================================
# pytest side
# ================================================================================================

import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

import pytest  # noqa: E402

sys.path.insert(0, REPO)
from tcjudge.engine import sandbox  # noqa: E402
from tcjudge.engine.sandbox import _landlock, _seccomp, _sys  # noqa: E402
from tests import budget  # noqa: E402

PROBE = {l.name: l for l in sandbox.probe()}
ARCH = _sys.native_arch()[0]


def need(*names: str) -> None:
    for n in names:
        if not PROBE[n].active:
            pytest.skip(f"kernel lacks {n}: {PROBE[n].detail}")


def _nobody_python() -> str | None:
    """An interpreter uid 65534 can run with its stdlib (a pyenv under /root is not readable)."""
    for cand in dict.fromkeys([sys.executable, "/usr/bin/python3", shutil.which("python3") or ""]):
        if not cand or not os.path.exists(cand):
            continue
        try:
            r = budget.run(
                [cand, "-I", "-c", "import sys, json, decimal, ctypes; assert sys.version_info >= (3, 9)"],
                user=NOBODY, group=NOBODY, extra_groups=[], cwd="/", capture_output=True, cpu=30,
            )  # fmt: skip
        except OSError:  # not even executable by nobody
            continue
        if r.returncode == 0:
            return cand
    return None


@pytest.fixture(scope="module", params=["self", "nobody"])
def who(request):
    if request.param == "nobody":
        if os.geteuid() != 0:
            pytest.skip("dropping to uid 65534 needs root; this run is already unprivileged (the 'self' variant)")
        from .conftest import nobody_cannot_read_checkout  # (this file also runs as a script, as nobody)

        if nobody_cannot_read_checkout():
            pytest.skip(nobody_cannot_read_checkout())
        py = _nobody_python()
        if py is None:
            pytest.skip("no Python interpreter whose stdlib uid 65534 can read")
        return {"as": "nobody", "python": py}
    return {"as": "self", "python": sys.executable}


@pytest.fixture()
def shared_dir():
    d = tempfile.mkdtemp(prefix="sandbox-test-", dir="/tmp")
    os.chmod(d, 0o777)  # writable by nobody too: only the sandbox may stop the writes
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture()
def listeners():
    socks = []
    for _ in range(2):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        socks.append(s)
    yield socks
    for s in socks:
        s.close()


def run(who: dict, scenario: str, shared_dir: str = "/tmp", **extra) -> dict:
    cfg = {
        "scenario": scenario,
        "landlock": True,
        "seccomp": True,
        "pytest_pid": os.getpid(),
        "shared_dir": shared_dir,
        "arch": ARCH,
        **extra,
    }
    kw = {}
    if who["as"] == "nobody":
        kw = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
    p = budget.run(
        [who["python"], "-I", os.path.abspath(__file__), json.dumps(cfg)],
        capture_output=True, text=True, cpu=120, cwd=REPO, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        **kw,
    )  # fmt: skip
    assert p.returncode == 0, f"zygote failed:\n{p.stdout}\n{p.stderr}"
    res = json.loads(p.stdout.strip().splitlines()[-1])
    if who["as"] == "nobody":
        assert res["uid"] == NOBODY
    for child in res.get("children") or [res.get("child")] if scenario != "timing" else []:
        assert "crash" not in child, child["crash"]
    return res


def ok(r: dict) -> bool:
    return r is not None and r["ok"]


def denied(r: dict, *errnos: str) -> bool:
    return r is not None and not r["ok"] and (not errnos or r["errno"] in errnos)


def assert_controls(before: dict, *names: str) -> None:
    for n in names:
        assert ok(before[n]), f"control {n!r} failed before enter(), so the check proves nothing: {before[n]}"


# --- behaviour, full confinement -----------------------------------------------------------------


def test_reads(who, shared_dir):
    need("landlock.fs")
    extra = os.path.join(shared_dir, "data.txt")
    with open(extra, "w") as f:
        f.write("granted\n")
    os.chmod(extra, 0o644)
    res = run(who, "reads", shared_dir, extra_file=extra, readable=[extra])
    c = res["child"]
    b, a = c["before"], c["after"]
    assert_controls(b, "stdlib", "passwd", "zygote_environ", "zygote_mem", "extra", "shared_dir")
    # allowed after enter: stdlib, imports incl. never-loaded extension modules, readable_paths
    assert ok(a["stdlib"]) and ok(a["extra"]), a
    assert ok(a["imports"]), a["imports"]
    assert c["fresh_ext"], "no extension module was left to load after enter()"
    assert eval(a["imports"]["value"]), "no fresh extension module (.so) was loaded after enter()"
    assert a["c_decimal"], "decimal fell back to _pydecimal: _decimal.so could not load"
    # denied after enter
    for n in ("passwd", "zygote_environ", "zygote_mem", "pytest_environ", "self_environ", "shared_dir"):
        assert denied(a[n], "EACCES"), (n, a[n])
    if ok(b["project_file"]):  # readable by this uid without the sandbox
        assert denied(a["project_file"], "EACCES"), a["project_file"]
    if ok(b["project_dir"]):
        assert denied(a["project_dir"], "EACCES"), a["project_dir"]


def test_writes(who, shared_dir):
    need("landlock.fs", "seccomp")
    victim = os.path.join(shared_dir, "victim.txt")
    granted = os.path.join(shared_dir, "granted")
    os.mkdir(granted)
    os.chmod(granted, 0o777)
    with open(os.path.join(granted, "readme.txt"), "w") as f:
        f.write("readable, not writable\n")
    os.chmod(os.path.join(granted, "readme.txt"), 0o666)
    res = run(who, "writes", shared_dir, victim=True, readable=[granted])
    c = res["child"]
    assert_controls(c["before"], "create", "mkdir", "append_open", "chmod", "chown", "create_in_granted", "append_granted")
    assert ok(c["read_granted"]), c["read_granted"]
    for name, r in c["after"].items():
        if r is not None:
            assert denied(r, "EACCES", "EPERM", "EXDEV"), (name, r)
    # and nothing changed on disk
    assert sorted(os.listdir(shared_dir)) == ["granted", "victim.txt"]
    assert os.listdir(granted) == ["readme.txt"]
    st = os.stat(victim)
    with open(victim) as f:
        assert f.read() == "original\n"
    assert stat.S_IMODE(st.st_mode) == 0o644 and st.st_mtime > 0
    assert not any(n.startswith("sandbox-escape-") for n in os.listdir("/tmp"))
    assert not any(n.startswith("sandbox-escape-") for n in os.listdir(REPO))


def test_network(who, listeners):
    need("seccomp")
    ctl, target = listeners
    res = run(who, "network", ports=[ctl.getsockname()[1], target.getsockname()[1]])
    c = res["child"]
    assert_controls(c["before"], "connect")
    for n in ("inet", "inet6", "unix", "netlink", "socketpair", "connect"):
        assert denied(c["after"][n], "EACCES"), (n, c["after"][n])
    ctl.setblocking(False)
    conn, _ = ctl.accept()  # the control connection arrived
    conn.close()
    target.setblocking(False)
    with pytest.raises(BlockingIOError):
        target.accept()  # nothing ever reached the target listener


def test_processes_threads_signals(who):
    need("seccomp")
    res = run(who, "processes")
    c = res["child"]
    b, a = c["before"], c["after"]
    assert_controls(b, "fork", "kill_zygote", "figetbsz")
    assert b["not_group_leader"], "setsid() check would prove nothing: the child leads its group"
    assert ok(b["clone3"]) or b["clone3"]["errno"] != "ENOSYS", b["clone3"]
    for n in ("fork", "subprocess", "posix_spawn", "kill_zygote", "kill_pytest", "kill_all", "kill_group",
              "setsid", "setpgid", "ptrace_seize", "unshare_user", "memfd", "shmget",
              "prlimit_zygote", "execv"):  # fmt: skip
        assert denied(a[n], "EPERM", "EACCES"), (n, a[n])
    # setting its own limits succeeds and changes nothing (the stack-raising preamble runs as in plain Python)
    assert ok(a["setrlimit"]) and ok(a["nofile_after_setrlimit"]), a["setrlimit"]
    assert a["nofile_after_setrlimit"] == a["getrlimit"], (a["nofile_after_setrlimit"], a["getrlimit"])
    assert denied(a["figetbsz"], "ENOTTY"), a["figetbsz"]
    assert denied(a["clone3"], "ENOSYS") and denied(a["future_syscall"], "ENOSYS")
    if a["x32_getpid"] is not None:
        assert denied(a["x32_getpid"], "ENOSYS"), a["x32_getpid"]
    assert ok(a["threads"]), a["threads"]
    assert ok(a["signals_self"]) and a["signals_self"]["value"] == "['usr1', 'usr2']", a["signals_self"]
    assert ok(a["getrlimit"]) and ok(a["isatty"]), a


# --- each layer on its own (defence in depth: one layer must hold if the other is missing) -------


def test_landlock_alone(who, shared_dir, listeners):
    need("landlock.fs")
    ctl, target = listeners
    res = run(who, "landlock_only", shared_dir, seccomp=False, ports=[ctl.getsockname()[1], target.getsockname()[1]])
    assert res["layers"]["seccomp"][0] is False
    c = res["child"]
    assert_controls(c["before"], "passwd", "kill_zygote")
    a = c["after"]
    assert ok(a["fork"]) and ok(a["socket"]) and ok(a["json"]), a
    assert denied(a["passwd"], "EACCES") and denied(a["create"], "EACCES"), a
    if PROBE["landlock.net"].active:
        assert denied(a["connect"], "EACCES"), a["connect"]
        target.setblocking(False)
        with pytest.raises(BlockingIOError):
            target.accept()
    if PROBE["landlock.scope"].active:
        assert denied(a["kill_zygote"], "EPERM"), a["kill_zygote"]


def test_seccomp_alone(who, shared_dir):
    need("seccomp")
    res = run(who, "seccomp_only", shared_dir, landlock=False, victim=True)
    assert res["layers"]["landlock.fs"][0] is False
    c = res["child"]
    assert_controls(c["before"], "chmod", "kill_zygote")
    a = c["after"]
    assert ok(a["passwd"]) and ok(a["kill_self"]), a
    assert denied(a["fork"], "EPERM") and denied(a["socket"], "EACCES"), a
    assert denied(a["chmod"], "EPERM") and denied(a["kill_zygote"], "EPERM"), a


def test_one_preparation_serves_many_children(who):
    need("landlock.fs")
    res = run(who, "reuse")
    assert len(res["children"]) == 3
    for ch in res["children"]:
        assert ok(ch["before"]["ruleset_fd"]), ch
        assert denied(ch["after"]["passwd"], "EACCES") and ok(ch["after"]["stdlib"]), ch
        assert denied(ch["after"]["ruleset_fd"], "EBADF"), "enter() left the Landlock ruleset fd open"


def test_enter_fails_loudly(who):
    need("landlock.fs")
    c = run(who, "broken")["child"]
    assert c["raised"] == "ConfinementError", c
    assert "landlock" in c["message"] and "partly confined" in c["message"], c
    assert ok(c["passwd"]), "nothing past no_new_privs should have been applied"


def test_timing_report(who, capsys):
    """Prints prepare() and enter() cost; asserts no wall-clock bound."""
    res = run(who, "timing", rounds=60)
    t = res["timing"]
    with capsys.disabled():
        print(
            f"\n[{who['as']}] prepare() {res['prepare_us']:.0f} us; enter() median {t['enter_median_us']:.0f} us "
            f"(min {t['enter_min_us']:.0f}); fork+exit+wait {t['fork_wait_us']:.0f} us, "
            f"with enter() {t['fork_enter_wait_us']:.0f} us"
        )
    assert t["enter_median_us"] > 0


# --- in-process: interface, degradation, guards ---------------------------------------------------


def test_probe_reports_every_layer():
    layers = sandbox.probe()
    assert [l.name for l in layers] == list(sandbox.LAYER_NAMES)
    for l in layers:
        assert isinstance(l, sandbox.LayerStatus) and l.detail
    line = sandbox.warning_line(layers)
    assert (line is None) == all(l.active for l in layers)


def test_enter_refuses_the_preparing_process():
    conf = sandbox.prepare(must_not_cover=[REPO])
    nnp_before = _sys.libc().prctl(_sys.PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)
    try:
        with pytest.raises(sandbox.ConfinementError):
            conf.enter()
        # nothing was applied to this (pytest) process
        assert _read("/etc/passwd")
        assert _sys.libc().prctl(_sys.PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == nnp_before
        with open("/proc/self/status") as f:
            assert "Seccomp:\t0" in f.read() or True  # may already be filtered by a container
    finally:
        conf.close()


def test_prepare_refuses_paths_that_expose_secrets(tmp_path):
    with pytest.raises(ValueError):
        sandbox.prepare([REPO], must_not_cover=[os.path.join(REPO, "problems")])
    with pytest.raises(ValueError):
        sandbox.prepare(["/"])
    with pytest.raises(FileNotFoundError):
        sandbox.prepare([str(tmp_path / "missing")])
    # an interpreter directory above a secret is left out, not an error
    conf = sandbox.prepare(must_not_cover=["/usr/lib/secret-problems"])
    assert "/usr/lib" not in conf.granted_paths
    conf.close()
    conf = sandbox.prepare([str(tmp_path)], must_not_cover=[REPO])
    try:
        if PROBE["landlock.fs"].active:
            assert os.path.realpath(tmp_path) in conf.granted_paths
            assert not any(p == REPO or REPO.startswith(p + "/") for p in conf.granted_paths)
            assert len(conf.keep_fds) == 1
    finally:
        conf.close()


def test_degrades_without_landlock(monkeypatch):
    monkeypatch.setattr(_landlock, "abi_version", lambda: (0, 0, "kernel built without Landlock (test)"))
    conf = sandbox.prepare(must_not_cover=[REPO])
    by = {l.name: l for l in conf.layers}
    for n in ("landlock.fs", "landlock.net", "landlock.scope"):
        assert not by[n].active and "without Landlock" in by[n].detail
    assert conf.keep_fds == () and conf.granted_paths == ()
    assert sandbox.warning_line(conf.layers).startswith("sandbox layers inactive: landlock.fs")


def test_degrades_with_old_landlock_abi(monkeypatch):
    need("landlock.fs")
    monkeypatch.setattr(_landlock, "abi_version", lambda: (3, 0, ""))
    conf = sandbox.prepare(must_not_cover=[REPO])
    try:
        by = {l.name: l for l in conf.layers}
        assert by["landlock.fs"].active and "ABI 3" in by["landlock.fs"].detail
        assert not by["landlock.net"].active and "ABI 4" in by["landlock.net"].detail
        assert not by["landlock.scope"].active and "ABI 6" in by["landlock.scope"].detail
    finally:
        conf.close()


@pytest.mark.parametrize("abi", [1, 2, 3, 4, 5, 6])
def test_each_landlock_layer_is_on_or_off_with_its_reason_for_every_abi(monkeypatch, abi):
    """Landlock ABI 1 (Linux 5.13) to 6 (6.12): a kernel of each gets the rules its ABI knows
    (Debian 12's 6.1 has ABI 2: platforms/vm.sh runs it), and each layer it lacks says which ABI it needs."""
    need("landlock.fs")
    real = _landlock.abi_version()[0]
    if real < abi:
        pytest.skip(f"this kernel has Landlock ABI {real}: a ruleset of ABI {abi} cannot be made here")
    monkeypatch.setattr(_landlock, "abi_version", lambda: (abi, 0, ""))
    conf = sandbox.prepare(must_not_cover=[REPO])
    try:
        by = {l.name: l for l in conf.layers}
        assert by["landlock.fs"].active and f"ABI {abi}" in by["landlock.fs"].detail, by["landlock.fs"]
        for name, since in (("landlock.net", 4), ("landlock.scope", 6)):
            assert by[name].active == (abi >= since), by[name]
            assert abi >= since or f"needs Landlock ABI {since}" in by[name].detail, by[name]
        line = sandbox.warning_line(conf.layers) or ""
        assert ("landlock.net (" in line) == (abi < 4) and ("landlock.scope (" in line) == (abi < 6), line
    finally:
        conf.close()


def test_degrades_on_unknown_arch(monkeypatch):
    monkeypatch.setattr(_sys, "native_arch", lambda: (None, "architecture 'riscv64' has no verified syscall table"))
    layers = {l.name: l for l in sandbox.probe()}
    assert not layers["seccomp"].active and "riscv64" in layers["seccomp"].detail
    assert not layers["landlock.fs"].active and "riscv64" in layers["landlock.fs"].detail
    conf = sandbox.prepare(must_not_cover=[REPO])
    assert not any(l.active for l in conf.layers if l.name != "no_new_privs")


# --- the BPF program, interpreted (covers aarch64, which this machine cannot run) ---------------


def bpf_run(prog: _seccomp.Program, arch: int, nr: int, args=(0,) * 6, pid: int = 4242,
            token: int = 0x5A5A_1234_5678) -> int:
    """A classic-BPF interpreter for the opcodes our assembler emits (`token`: the exec token)."""
    import struct

    args = (list(args) + [0] * 6)[:6]
    data = struct.pack("<IIQ6Q", nr & 0xFFFFFFFF, arch, 0, *[a & (2**64 - 1) for a in args])
    ins = list(prog.instructions)
    for i in prog.pid_slots:
        code, jt, jf, _ = ins[i]
        ins[i] = (code, jt, jf, pid)
    for i, shift in prog.exec_slots:
        code, jt, jf, _ = ins[i]
        ins[i] = (code, jt, jf, (token >> shift) & 0xFFFFFFFF)
    pc, acc, steps = 0, 0, 0
    while True:
        steps += 1
        assert steps < 1000
        code, jt, jf, k = ins[pc]
        pc += 1
        if code == _seccomp.LD_W_ABS:
            acc = struct.unpack_from("<I", data, k)[0]
        elif code == _seccomp.ALU_AND_K:
            acc &= k
        elif code == _seccomp.JMP_JA:
            pc += k
        elif code in (_seccomp.JMP_JEQ_K, _seccomp.JMP_JGT_K, _seccomp.JMP_JGE_K):
            cond = {_seccomp.JMP_JEQ_K: acc == k, _seccomp.JMP_JGT_K: acc > k, _seccomp.JMP_JGE_K: acc >= k}[code]
            pc += jt if cond else jf
        elif code == _seccomp.RET_K:
            return k
        else:
            raise AssertionError(f"unexpected opcode {code:#x}")


@pytest.mark.parametrize("arch", list(_seccomp.SYSCALLS))
def test_bpf_policy(arch):
    prog = _seccomp.build_program(arch)
    A = _seccomp.AUDIT_ARCH[arch]
    nr = _seccomp.SYSCALLS[arch]
    ALLOW, E = _seccomp.RET_ALLOW, _seccomp.errno_action
    assert len(prog.instructions) < 255
    assert bpf_run(prog, 0x40000003, 0) == _seccomp.RET_KILL_PROCESS  # i386 ABI
    # every listed syscall is denied with its errno, every other reviewed number is allowed
    denied_nrs = {}
    for _g, _w, (_k, err), names in _seccomp.DENY_GROUPS:
        for n in names:
            if n in nr:
                denied_nrs[nr[n]] = E(err)
    cond = {nr[n] for n in _seccomp.CONDITIONAL}
    for x in range(_seccomp.MAX_REVIEWED_NR + 1):
        if x in cond:
            continue
        assert bpf_run(prog, A, x) == denied_nrs.get(x, ALLOW), x
    for x in (_seccomp.MAX_REVIEWED_NR + 1, 512, 0x40000000 | 39, 0xFFFFFFFF):
        assert bpf_run(prog, A, x) == E(errno.ENOSYS), x
    # clone: threads yes, processes and namespaces no (only the low 32 bits count)
    thread_flags = 0x003D0F00  # glibc pthread_create
    assert bpf_run(prog, A, nr["clone"], (thread_flags,)) == ALLOW
    assert bpf_run(prog, A, nr["clone"], (thread_flags | (1 << 40),)) == ALLOW
    assert bpf_run(prog, A, nr["clone"], (signal.SIGCHLD,)) == E(errno.EPERM)
    assert bpf_run(prog, A, nr["clone"], (0x01200011,)) == E(errno.EPERM)  # glibc fork
    assert bpf_run(prog, A, nr["clone"], (thread_flags | _seccomp.CLONE_NEWUSER,)) == E(errno.EPERM)
    assert bpf_run(prog, A, nr["clone3"]) == E(errno.ENOSYS)
    # signals: only to itself
    assert bpf_run(prog, A, nr["kill"], (4242, 9)) == ALLOW
    assert bpf_run(prog, A, nr["kill"], (4242 | (1 << 32), 9)) == ALLOW  # kernel reads an int
    for pid in (1, 0, -1, -4242, 4243):
        assert bpf_run(prog, A, nr["kill"], (pid, 9)) == E(errno.EPERM), pid
    assert bpf_run(prog, A, nr["tgkill"], (4242, 4250, 10)) == ALLOW
    assert bpf_run(prog, A, nr["tgkill"], (1, 1, 10)) == E(errno.EPERM)
    # prlimit64: only its own limits; reading works, setting returns 0 without effect
    assert bpf_run(prog, A, nr["prlimit64"], (0, 7, 0, 0x7FFF0000)) == ALLOW
    assert bpf_run(prog, A, nr["prlimit64"], (4242, 7, 0, 0x7FFF0000)) == ALLOW
    assert bpf_run(prog, A, nr["prlimit64"], (0, 7, 0x7FFF0000, 0)) == E(0) == _seccomp.RET_ERRNO
    assert bpf_run(prog, A, nr["prlimit64"], (0, 7, 1 << 32, 0)) == E(0)
    assert bpf_run(prog, A, nr["prlimit64"], (4242, 7, 0x7FFF0000, 0x7FFF0000)) == E(0)
    assert bpf_run(prog, A, nr["prlimit64"], (1, 7, 0, 0x7FFF0000)) == E(errno.EPERM)
    assert bpf_run(prog, A, nr["prlimit64"], (1, 7, 0x7FFF0000, 0)) == E(errno.EPERM)
    # ioctl allow list
    for value in _seccomp.ALLOWED_IOCTLS.values():
        assert bpf_run(prog, A, nr["ioctl"], (1, value)) == ALLOW
    for value in (0xC0045877, 0x40086602, 0x5412, 2):  # FIFREEZE, FS_IOC_SETFLAGS, TIOCSTI, FIGETBSZ
        assert bpf_run(prog, A, nr["ioctl"], (1, value)) == E(errno.ENOTTY)
    assert bpf_run(prog, A, nr["socket"], (2, 1, 0)) == E(errno.EACCES)


def _header_numbers(path: str) -> dict[str, int]:
    import re

    out = {}
    with open(path) as f:
        for m in re.finditer(r"^#define __NR(?:3264)?_(\w+)\s+(\d+)\s*$", f.read(), re.M):
            out.setdefault(m.group(1), int(m.group(2)))
    return out


HEADERS = {
    "x86_64": ["/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "/usr/include/asm/unistd_64.h"],
    "aarch64": ["/usr/include/asm-generic/unistd.h"],  # arm64 uses the generic table
}


@pytest.mark.parametrize("arch", list(HEADERS))
def test_syscall_numbers_match_kernel_headers(arch):
    header = next((h for h in HEADERS[arch] if os.path.exists(h)), None)
    if header is None:
        pytest.skip(f"kernel headers not installed ({' or '.join(HEADERS[arch])}; Debian: linux-libc-dev)")
    known = _header_numbers(header)
    checked = 0
    for name, number in _seccomp.SYSCALLS[arch].items():
        if name in known:
            assert known[name] == number, (arch, name, known[name], number)
            checked += 1
    assert checked >= 80, f"only {checked} names found in {header}"
    if arch == "x86_64":
        assert known.get("landlock_create_ruleset", _sys.NR_LANDLOCK_CREATE_RULESET) == 444
        assert known.get("seccomp") == _sys.NR_SECCOMP["x86_64"]
    else:
        assert known.get("seccomp") == _sys.NR_SECCOMP["aarch64"]


@pytest.mark.parametrize("arch", list(_seccomp.SYSCALLS))
def test_bpf_memory_and_signalling_rules_per_profile(arch):
    A, nr = _seccomp.AUDIT_ARCH[arch], _seccomp.SYSCALLS[arch]
    ALLOW, E = _seccomp.RET_ALLOW, _seccomp.errno_action
    R, W, X = 1, _seccomp.PROT_WRITE, _seccomp.PROT_EXEC
    PRIVATE, ANON, GROWS = 0x02, _seccomp.MAP_ANONYMOUS, _seccomp.MAP_GROWSDOWN
    strict, native, jvm = (_seccomp.build_program(arch, sandbox.PROFILES[n]) for n in ("python", "native", "jvm"))
    for prog in (strict, native, jvm):
        assert bpf_run(prog, A, nr["mmap"], (0, 4096, R | W, PRIVATE | ANON)) == ALLOW  # the heap
        assert bpf_run(prog, A, nr["mmap"], (0, 4096, R | X, PRIVATE, 3)) == ALLOW  # the loader maps code
        assert bpf_run(prog, A, nr["mmap"], (0, 4096, R | W, PRIVATE | ANON | GROWS)) == E(errno.ENOMEM)
        assert bpf_run(prog, A, nr["mmap"], (0, 4096, R | W, 0x01 | ANON)) == E(errno.ENOMEM)
        assert bpf_run(prog, A, nr["mprotect"], (0, 4096, R)) == ALLOW
        assert bpf_run(prog, A, nr["fcntl"], (3, _seccomp.F_SETPIPE_SZ, 1 << 20)) == E(errno.EPERM)
        assert bpf_run(prog, A, nr["fcntl"], (3, _seccomp.F_SETFL, 0o4000)) == ALLOW  # O_NONBLOCK
        assert bpf_run(prog, A, nr["fcntl"], (3, 1, 0)) == ALLOW  # F_GETFD
        for cmd in _seccomp.SIGNALLING_FCNTLS:
            assert bpf_run(prog, A, nr["fcntl"], (3, cmd, 1)) == E(errno.EPERM)
        assert bpf_run(prog, A, nr["fcntl"], (3, _seccomp.F_SETFL, _seccomp.O_ASYNC | 0o4000)) == E(errno.EPERM)
    for prog in (strict, native):  # no memory that is (or was) writable ever becomes executable
        assert bpf_run(prog, A, nr["mmap"], (0, 4096, R | W | X, PRIVATE | ANON)) == E(errno.EACCES)
        assert bpf_run(prog, A, nr["mmap"], (0, 4096, R | X, PRIVATE | ANON)) == E(errno.EACCES)
        assert bpf_run(prog, A, nr["mmap"], (0, 4096, R | W | X, PRIVATE, 3)) == E(errno.EACCES)
        assert bpf_run(prog, A, nr["mprotect"], (0, 4096, R | X)) == E(errno.EACCES)
        assert bpf_run(prog, A, nr["pkey_mprotect"], (0, 4096, R | X, 0)) == E(errno.EACCES)
    assert bpf_run(jvm, A, nr["mmap"], (0, 4096, R | W | X, PRIVATE | ANON)) == ALLOW  # the JIT
    assert bpf_run(jvm, A, nr["mprotect"], (0, 4096, R | X)) == ALLOW
    assert bpf_run(strict, A, nr["execve"]) == E(errno.EACCES)
    token = 0x5A5A_1234_5678
    assert bpf_run(strict, A, nr["execve"], (token,)) == E(errno.EACCES)
    for prog in (native, jvm):  # one process still: the judge's one exec (through its token), no fork
        assert bpf_run(prog, A, nr["execve"], (token,), token=token) == ALLOW
        for other in (0, token + 8, token ^ (1 << 40), token & 0xFFFFFFFF):  # any other path pointer
            assert bpf_run(prog, A, nr["execve"], (other,), token=token) == E(errno.EACCES)
        assert bpf_run(prog, A, nr["execveat"], (3, token), token=token) == E(errno.EACCES)
        assert bpf_run(prog, A, nr["clone"], (signal.SIGCHLD,)) == E(errno.EPERM)
