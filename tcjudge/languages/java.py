"""Java: the contestant's file, compiled alone, run by our entry class (runtime/tcjudge/Main.java) in a warm JVM.

Our runtime is compiled once per JDK, on its own, into a build of its own (cached as any build): the
module tcjudge.runtime (runtime/module-info.java), which exports and opens nothing, and in which the
JVM starts (its module path). The contestant's file is compiled without it, and its classes are
loaded by the entry through a class loader of their own over the JDK's platform loader. So a
`package tcjudge` in the file joins nothing of ours: its classes can neither replace nor hide a
class the runtime names (compiled together, its own `Long` stood for java.lang.Long in our entry),
and no reflection reaches the runtime's code or state, or the result channel: on the class path,
a solution that declared `package tcjudge` reached tcjudge.Main through the system class loader and
wrote a result of its own (WA, or RE with an error line) before it looped, where a plain JVM gives
TLE. The solution's unnamed module reads what a plain `java -cp` resolves (--add-modules ALL-DEFAULT).

A child execs `java` after entering the sandbox (profile JVM: one execve, JIT memory); our entry
class says "ready" once the JVM is up, before anything of the solution is loaded, and the zygote
charges only the CPU time used after that line: the solution's class loading and static initializers
are charged. Each JVM maps a class-data archive of what that start loads (_archive, made once per
runtime build and JDK): the module path makes the JVM resolve its module graph at every start, which
no archive of JDK 17 holds, so the start costs more than a plain `java -cp`. For a method ("serves": the entry's "serve" mode) that JVM then takes test after test,
each through a fresh class loader in a fresh thread; the zygote reads each test's figures and starts
a fresh JVM when one cannot be reused (docs/languages.md, "One warm JVM serves a solution's tests"). The entry class finds the method by reflection with problem.yaml's
parameter types mapped to Java's (int, long, double, String, boolean, arrays), calls it on a fresh
instance and writes the returned value as JSON. A main() in the file is just another method.

A standard-input program (problem.kind.program) is run by runtime/tcjudge/Stdin.java instead: the
file's public class (else its first class) is the program, its main(String[]) is called as the
java launcher calls it, System.in and System.out are the test's input and answer; "ready" goes on
the result channel (descriptor 3), which the entry opens by reflection, hence the --add-opens.

Memory: -Xmx is the problem's memory limit, so a solution that allocates too much gets
OutOfMemoryError (MLE); peak resident memory, read from the kernel, includes the JVM's own
(about 40 MiB), as TopCoder's did. RLIMIT_DATA leaves the JVM room for its own areas and the
solution thread's stack. docs/languages.md has the measurements behind these figures.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

from .base import CompileError, Language, Toolchain, code_only, flatten, safe_file_name, write_files
from .versions import version_output
from .build import (SYSTEM_READABLE, BuildFault, CompileLimits, cached_build, deadline, first_errors,
                    run_confined)

RUNTIME = Path(__file__).with_name("runtime") / "tcjudge"  # Main.java (methods), Stdin.java (programs)
MODULE = "tcjudge.runtime"  # runtime/module-info.java: the module our runtime is, exporting nothing
MODULE_JAR = "runtime.jar"  # the module as the JVM reads it (its classes/ beside it)
STACK_MIB = 256  # stack of the thread that runs the solution: deep recursion as in C++ and Python
RUNTIME_DATA_MIB = 768  # what the JVM itself maps beyond the heap and that stack (metaspace, code cache, GC)
# The solution's own threads' stacks (deep recursion's usual way: a thread with a big stack), reserved
# more than used: RLIMIT_DATA counts them, and a stack stays mapped a while after its thread ends, so two
# 512 MiB threads one after another in a test were MLE "unable to create native thread" at random (264
# of 300 tests, others each run: breaker 52c) and one 1 GiB thread always, where a plain JVM gives AC.
# The memory verdict does not come from this limit: the heap's -Xmx and the peak resident memory decide.
THREAD_STACKS_MIB = 3072
START_CPU_SECONDS = 10  # RLIMIT_CPU headroom for JVM start-up, which the zygote does not charge
SERVE_CPU_SECONDS = 60  # the same for a JVM that serves test after test: it retires when its CPU nears it
JVM_FLAGS = ("-XX:+UseSerialGC", "-XX:-UsePerfData", "-Xshare:auto", "-XX:-UseContainerSupport",
             "-Djava.security.manager=disallow",
             "-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:+DisplayVMOutputToStderr",
             "-XX:+SuppressFatalErrorMessage")
# The JVM's own messages go to the captured output, never to the result channel (descriptor 1 here):
# warnings to stderr, and a crash aborts without its report (which HotSpot writes to stdout); no
# solution can install a security manager.
SERVING_HEAP = ("-Xms8m", "-XX:-ShrinkHeapInSteps", "-Xlog:os+thread=off:stderr")
# A small initial heap that shrinks at once gives memory back after each test of a serving JVM (its
# resident memory at ready is then the same before every test). A standard-input program's JVM runs
# one test and starts with its whole heap (-Xms = -Xmx), as problemtools runs Java: grown from 8 MiB,
# the serial collector compacts everything live at each step, and BAPCtools' test-memsize.java (1 MiB
# at a time until OutOfMemoryError under 2 GiB) took 5.2 s of CPU against 2.3 s, TLE for its RTE.
# A serving JVM starts each test's thread before it says ready, trying again while the last test's
# thread still holds its stack (Main.startThread); the JVM's warning for each try that failed would
# land in the solution's output, so that one warning is off.
JAVAC_FLAGS = ("-encoding", "UTF-8", "-nowarn", "-Xmaxerrs", "5", "-J-Xmx512m", "-J-XX:+UseSerialGC",
               "-J-XX:-UsePerfData", "-J-XX:TieredStopAtLevel=1", "-J-XX:-UseContainerSupport")
PUBLIC_CLASS = re.compile(r"\bpublic\s+(?:(?:final|abstract|strictfp)\s+)*class\s+([A-Za-z_$][\w$]*)")
ANY_CLASS = re.compile(r"\bclass\s+([A-Za-z_$][\w$]*)")
PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)


class Java(Language):
    name = "java"
    title = "Java"
    extensions = (".java",)
    layers = ("compiled confined (rlimits, Landlock, process group), cached; a JVM in a confined child serves a "
              "solution's tests, each in a fresh class loader: rlimits, -Xmx, Landlock, seccomp (jvm profile: one "
              "execve, JIT memory)")
    install_hint = "javac and java were not found on PATH (Debian/Ubuntu: apt install openjdk-17-jdk-headless)"
    kattis_code = "java"
    entry_marker = re.compile(r"\bstatic\s+(?:final\s+)?void\s+main\s*\(")

    def classes(self, source: str) -> set[str]:
        return set(ANY_CLASS.findall(code_only(source)))

    def toolchain(self) -> Toolchain | None:
        return _jdk()

    def entry_class(self, code: str, stem: str) -> str:
        """The class a folder's entry file runs: the one named as the file (problemtools' rule), else the
        file's public class, else the class that declares the main method before the marker (DOMjudge
        finds the class with main: its extra-file-java keeps a `class Main` in test-hello.java, a name
        no class can have); javap then checks that it has main (CE, naming it, if not)."""
        declared = ANY_CLASS.findall(code)
        if stem in declared or not declared:
            return stem
        public = PUBLIC_CLASS.findall(code)
        if public:
            return public[0]
        main = self.entry_marker.search(code)
        before = ANY_CLASS.findall(code[:main.start()]) if main else []
        return before[-1] if before else declared[0]

    def program(self, path: Path, problem, source_limit: int) -> dict:
        toolchain, files = self.to_compile(path, problem, source_limit, "Main.java")
        stdin = problem.kind.program
        if len(files) > 1 and not stdin:
            raise CompileError("a solution of several files is a standard-input program; this problem asks for a class")
        if Path(path).is_dir():
            main_file = self.entry_file(files)
            code = code_only(files[main_file].decode("utf-8", "replace"))
            file_class, shown = self.entry_class(code, Path(main_file).stem), {name: name for name in files}
        else:
            source = files.pop(safe_file_name(Path(path).name, "Main.java"))
            code = code_only(source.decode("utf-8", "replace"))
            public = PUBLIC_CLASS.findall(code)
            program_class = (ANY_CLASS.findall(code) or [Path(path).stem])[0]  # a stdin program's class, if not public
            file_class = public[0] if public else program_class if stdin else problem.class_name
            files[f"{file_class}.java"] = source  # javac needs a public class in a file of its name
            shown = {name: name for name in files} | {f"{file_class}.java": _display_name(Path(path).name)}
            driver = self.included_entry(problem) if stdin else None
            if driver is not None:  # the package's Main runs, and the submission is the class it calls
                code = code_only(files[driver].decode("utf-8", "replace"))
                file_class = self.entry_class(code, Path(driver).stem)
        package = PACKAGE.search(code)
        main_class = file_class if stdin else problem.class_name
        qualified = f"{package.group(1)}.{main_class}" if package else main_class
        needs_main = qualified if stdin else None
        outcome = cached_build(
            [self.name, toolchain.version, JAVAC_FLAGS, file_class, Path(path).name, *flatten(files),
             f"main of {needs_main}"],
            lambda folder: _compile(toolchain, folder, files, shown, needs_main))
        if not outcome.ok:
            raise CompileError(outcome.message)
        classes = str(outcome.folder / "classes")
        if stdin:
            return stdin_program(toolchain, classes, qualified, problem.memory_limit)
        types = [str(problem.returns)] + [str(p.type) for p in problem.parameters]
        entry = [*_entry(toolchain, "tcjudge.Main"), "serve", str(STACK_MIB), classes, qualified, problem.method,
                 *types]
        return _jvm(toolchain, problem.memory_limit, entry, classes, SERVING_HEAP) | {
            "stdio": True, "serves": True, "cpu_extra": SERVE_CPU_SECONDS}


def stdin_program(toolchain: Toolchain, classes: str, qualified: str, memory_mib: int) -> dict:
    """The zygote's program for a standard-input program on the JVM: `classes` (a folder, or a jar)
    holds the class `qualified`, whose main our runtime/tcjudge/Stdin.java calls (Java, Kotlin)."""
    entry = [*_entry(toolchain, "tcjudge.Stdin"), str(STACK_MIB), classes, qualified]
    return _jvm(toolchain, memory_mib, entry, classes, (f"-Xms{memory_mib}m",)) | {
        "stdio": False, "serves": False, "cpu_extra": START_CPU_SECONDS}


def _entry(toolchain: Toolchain, main_class: str) -> list[str]:
    """The JVM's options and main class: our module (java.io opened to it alone: its result channel)
    on the module path, and the modules a plain JVM gives the class path's code, for the solution's."""
    return ["-p", str(_runtime(toolchain) / MODULE_JAR), "--add-modules", "ALL-DEFAULT",
            f"--add-opens=java.base/java.io={MODULE}", "-m", f"{MODULE}/{main_class}"]


def _jvm(toolchain: Toolchain, memory_mib: int, entry: list[str], classes: str, heap: tuple[str, ...]) -> dict:
    archive = _archive(toolchain)
    shared = [f"-XX:SharedArchiveFile={archive}"] if archive else []
    return {"argv": [toolchain.programs["java"], f"-Xmx{memory_mib}m", *heap, *JVM_FLAGS, *shared, *entry],
            "env": {"LC_ALL": "C.UTF-8"},
            "readable": [classes, str(_runtime(toolchain)), *([str(archive.parent)] if archive else []),
                         *jvm_readable(toolchain)],
            "profile": "jvm", "ready": True, "data_extra_mib": STACK_MIB + RUNTIME_DATA_MIB + THREAD_STACKS_MIB}


ARCHIVE = "runtime.jsa"  # the classes a JVM loads to start our runtime, as the JVM maps them (AppCDS)
START = "public class Start { public static void main(String[] args) { } }\n"  # the program the archive is made with


def _archive(toolchain: Toolchain) -> Path | None:
    """A class-data archive of what a JVM loads to start our runtime (JDK classes beyond the JDK's own
    archive, our runtime's, the lambdas they spin), which each JVM maps instead of loading them: made
    once per runtime build and JDK, kept as a build (verified at each use: a JVM that maps a damaged
    archive crashes). None where it could not be made: the JVM then loads them, only slower (so too
    where the JVM refuses the archive: -Xshare:auto)."""
    runtime = _runtime(toolchain)
    outcome = cached_build(["java class-data archive", toolchain.version, str(runtime), JVM_FLAGS, START],
                           lambda folder: _dump_archive(toolchain, runtime, folder))
    return outcome.folder / ARCHIVE if outcome.ok else None


def _dump_archive(toolchain: Toolchain, runtime: Path, folder: Path):
    """Run our runtime's standard-input entry on a program that does nothing, the JVM dumping what it
    loaded at its exit; then once more mapping the archive, which must succeed (-Xshare:on). Only the
    JDK, our runtime and START run, so it runs unconfined; the entry's result channel is /dev/null."""
    (folder / "Start.java").write_text(START)
    if not _javac(toolchain, folder, ["Start.java"])[0]:
        return False, "the class-data archive's program does not compile", {}
    archive = folder / ARCHIVE
    java = [toolchain.programs["java"], "-Xmx64m", *JVM_FLAGS]
    entry = [*_entry(toolchain, "tcjudge.Stdin"), str(STACK_MIB), str(folder / "classes"), "Start"]
    for use in ([f"-XX:ArchiveClassesAtExit={archive}"], ["-Xshare:on", f"-XX:SharedArchiveFile={archive}"]):
        try:
            status = subprocess.run(["/bin/sh", "-c", 'exec "$@" 3>/dev/null', "sh", *java, *use, *entry],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    timeout=120).returncode
        except (OSError, subprocess.TimeoutExpired):
            status = None
        if status != 0 or not archive.is_file():
            archive.unlink(missing_ok=True)
            return False, "the JVM made no class-data archive it can map", {}
    return True, "", {}


def _display_name(name: str) -> str:
    """The contestant's file name as compiler messages show it (javac needs the public class's name)."""
    return name if re.fullmatch(r"[\w.+-]{1,100}", name) else "the solution"


def _runtime(toolchain: Toolchain) -> Path:
    """Our runtime's build for this JDK, compiled on its own once (a cached build like any other,
    verified as any other): its module, the module path of every test's JVM, and its classes."""
    sources = [RUNTIME.with_name("module-info.java"), *sorted(RUNTIME.glob("*.java"))]
    outcome = cached_build(["java runtime", toolchain.version, JAVAC_FLAGS, *(f.name.encode() + f.read_bytes()
                                                                               for f in sources)],
                           lambda folder: _compile_runtime(toolchain, folder, sources))
    return outcome.folder


def _compile_runtime(toolchain: Toolchain, folder: Path, sources: list[Path]):
    """A failure is the judge's (IE), and never cached: the next run tries again."""
    (folder / "src" / "tcjudge").mkdir(parents=True)
    units = [str(file.relative_to(RUNTIME.parent)) for file in sources]  # module-info.java, tcjudge/*.java
    for file, unit in zip(sources, units):
        shutil.copyfile(file, folder / "src" / unit)
    ok, message = _javac(toolchain, folder, [f"src/{unit}" for unit in units], sourcepath="src")
    if not ok:
        raise BuildFault(f"the judge's Java runtime does not compile: {message.strip()[-500:]}")
    _jar(folder / "classes", folder / MODULE_JAR)
    return True, "", {}


def _jar(classes: Path, jar: Path) -> None:
    """The module's classes as a modular jar: read from a folder, a module is read through NIO's file
    channels, whose first use opens a socket pair (the sandbox allows no socket), so the JVM would
    not start; a jar is read through java.io."""
    with zipfile.ZipFile(jar, "w") as archive:
        for path in sorted(classes.rglob("*.class")):
            archive.write(path, path.relative_to(classes).as_posix())


def _compile(toolchain: Toolchain, folder: Path, files: dict[str, bytes], shown: dict[str, str],
             needs_main: str | None = None):
    """The contestant's files alone (nothing of ours on their class path or beside them), every .java
    file of them together; the messages name each file as the contestant knows it (`shown`)."""
    write_files(folder / "src", files)
    units = [f"src/{name}" for name in sorted(files) if name.endswith(".java")]
    until = deadline()  # javac and javap within one wall bound
    ok, message = _javac(toolchain, folder, units, until)
    if not ok:
        for name, display in shown.items():
            message = message.replace(f"src/{name}", display)
        return False, first_errors(message), {}
    if needs_main and not has_main(toolchain, folder, needs_main, until=until):
        return False, f"class {needs_main} has no method public static void main(String[])", {}
    return True, "", {}


def _javac(toolchain: Toolchain, folder: Path, files: list[str], until: float | None = None,
           sourcepath: str = "") -> tuple[bool, str]:
    """javac, confined, of these files (relative to `folder`) into folder/classes: (compiled, messages).
    A contestant's files have no source path (javac reads them alone); a module's is its folder."""
    (folder / "classes").mkdir()
    argv = [toolchain.programs["javac"], *JAVAC_FLAGS, "-d", "classes", "-cp", "classes", "-sourcepath", sourcepath,
            *files]
    status, message = run_confined(argv, folder, compiler_readable(toolchain), JAVAC_ENV, until=until)
    return status == 0, message


JAVAC_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}


def compiler_readable(toolchain: Toolchain) -> list[str]:
    """What a compiler of the JVM (javac, javap, kotlinc) reads."""
    return list(SYSTEM_READABLE) + jvm_readable(toolchain)


def jvm_readable(toolchain: Toolchain) -> list[str]:
    """The toolchain's homes, and the folders its JDK's conf/ links point to (/etc/java-17-openjdk
    on Debian): found when a JVM program is built or run, not each time the toolchain is asked (a
    run of a Java solution asks, for the history's machine key)."""
    return list(_with_conf_targets(toolchain.programs["readable"], toolchain.programs["java"]))


@functools.cache
def _with_conf_targets(homes: str, java: str) -> tuple[str, ...]:
    readable = set(homes.split(os.pathsep))
    for entry in (Path(java).parents[1] / "conf").rglob("*"):
        if entry.is_symlink():
            readable.add(str(entry.resolve().parent))
    return tuple(sorted(readable))


LISTING_BYTES = 4 << 20  # javap's listing of the public members: far above what a 256 KiB source declares
MAIN = re.compile(r"^\s*public static (?:final )?void main\(java\.lang\.String(?:\[\]|\.\.\.)\)", re.MULTILINE)


def has_main(toolchain: Toolchain, folder: Path, qualified: str, classpath: str = "classes",
             until: float | None = None) -> bool:
    """Whether a stdin program's class has `public static void main(String[])`, read by javap from the
    compiled class (confined as the compile was, by the build's deadline `until`): a missing main is CE
    from this build step, never from what a running program says on the result channel."""
    javap = str(Path(toolchain.programs["javac"]).with_name("javap"))
    status, listing = run_confined([javap, "-public", "-cp", classpath, qualified], folder, compiler_readable(toolchain),
                                   JAVAC_ENV, CompileLimits(message_bytes=LISTING_BYTES), until)
    if status is None:  # stopped at the build's limits, which the compile took most of: no answer (CE, not kept)
        raise CompileError(listing.strip().splitlines()[-1])
    return status == 0 and MAIN.search(listing) is not None


@functools.cache
def _jdk() -> Toolchain | None:
    """javac and java from the same JDK, and the JDK's home (what the JVM reads: jvm_readable)."""
    javac = shutil.which("javac", path="/usr/local/bin:/usr/bin:/bin")
    if not javac:
        return None
    javac = str(Path(javac).resolve())
    home = Path(javac).parents[1]
    java = home / "bin" / "java"
    if not java.is_file():
        return None
    said = version_output([javac, "-version"], timeout=60)
    if said is None:
        return None
    line = (said[0] or said[1]).strip().splitlines()
    return Toolchain(line[0] if line else "javac (unknown version)",
                     {"javac": javac, "java": str(java), "readable": str(home)})


JAVA = Java()
