"""C++ and Java programs on standard-input problems: the file as contestants write it (its own
main), compiled confined and cached by the language layer, run in the stdin mode (input on
descriptor 0, standard output the answer), with the same verdicts as a Python program. Each
language's programs are graded in one pool run, as `check` would; skipped where the compiler is
missing."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.languages import CPP, JAVA, C
from tcjudge.problems.loader import load_problem
from tcjudge.verdicts import Verdict

from .conftest import ROOT, TESTDATA

ADD = TESTDATA / "stdin" / "problems" / "add"  # t, then t pairs; one test sums to 2**31

# file name -> (source, expected verdict, a fragment of the first failure's or compile message)
CPP_PROGRAMS = {
    "sum.cpp": ("""\
        #include <iostream>
        using namespace std;
        int main() {
            ios::sync_with_stdio(false);
            int t; cin >> t;
            while (t--) { long long a, b; cin >> a >> b; cout << a + b << '\\n'; }
        }""", "AC", ""),
    "int_overflow.cpp": ("""\
        #include <cstdio>
        int main() { int t, a, b; std::scanf("%d", &t); while (t--) { std::scanf("%d %d", &a, &b); std::printf("%d\\n", a + b); } }""",
                         "WA", "expected '2147483648', got '-2147483648'"),
    "exit_status.cpp": ("int main() { return 3; }", "RE", "exited with status 3"),
    "out_of_range.cpp": ("""\
        #include <vector>
        int main() { std::vector<int> v; return v.at(5); }""", "RE", "SIGABRT"),
    "execs.cpp": ("""\
        #include <cerrno>
        #include <unistd.h>
        int main() { execl("/bin/true", "true", (char*)0); return errno == EACCES ? 4 : 5; }""",
                  "RE", "exited with status 4"),  # the one execve that started it was the last
    "spins.cpp": ("int main() { volatile unsigned long n = 0; for (;;) n++; }", "TLE", "limit"),
    "syntax.cpp": ("int main() { return 0 }", "CE", "syntax.cpp:1"),
}
JAVA_PROGRAMS = {
    "Sum.java": ("""\
        import java.io.*;
        import java.util.*;
        public class Sum {
            public static void main(String[] args) throws IOException {
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
                int t = Integer.parseInt(in.readLine().trim());
                PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
                while (t-- > 0) {
                    StringTokenizer words = new StringTokenizer(in.readLine());
                    out.println(Long.parseLong(words.nextToken()) + Long.parseLong(words.nextToken()));
                }
                out.flush();
            }
        }""", "AC", ""),
    "IntOverflow.java": ("""\
        import java.util.Scanner;
        class Main {  // not public: the launcher runs it all the same
            public static void main(String[] args) {
                Scanner in = new Scanner(System.in);
                for (int t = in.nextInt(); t > 0; t--) System.out.println(in.nextInt() + in.nextInt());
            }
        }""", "WA", "expected '2147483648'"),
    # issue 21: closing System.in (try-with-resources around a reader) makes the JDK put /dev/null
    # in its place, which the sandbox denied: "IOException: Permission denied", RE
    "ClosesInput.java": ("""\
        import java.io.*;
        import java.util.*;
        public class ClosesInput {
            public static void main(String[] args) throws IOException {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                    for (int t = Integer.parseInt(in.readLine().trim()); t > 0; t--) {
                        StringTokenizer words = new StringTokenizer(in.readLine());
                        System.out.println(Long.parseLong(words.nextToken()) + Long.parseLong(words.nextToken()));
                    }
                }
            }
        }""", "AC", ""),
    "Divides.java": ("""\
        public class Divides {
            public static void main(String[] args) { int zero = args.length; System.out.println(1 / zero); }
        }""", "RE", "ArithmeticException"),
    "ExitStatus.java": ("""\
        public class ExitStatus {
            public static void main(String[] args) { System.out.println(3); System.exit(3); }
        }""", "RE", "exited with status 3"),
    "Spins.java": ("""\
        public class Spins {
            static volatile long n;
            public static void main(String[] args) { for (;;) n++; }
        }""", "TLE", "limit"),
    # issue 45: in the runtime's package, it answers, then reaches for the runtime (its entry class
    # through the system class loader, its result channel, fd 3, by reflection) to end the test with an
    # error line of its own, then loops. A plain JVM gives TLE; before, the runtime was open to it: RE
    "ReachesRuntime.java": ("""\
        package tcjudge;
        import java.io.*;
        import java.util.*;
        public class ReachesRuntime {
            static final String FORGED = "{\\"kind\\":\\"error\\",\\"type\\":\\"Forged\\",\\"message\\":\\"m\\"}";
            public static void main(String[] args) {
                Scanner in = new Scanner(System.in);
                for (int t = in.nextInt(); t > 0; t--) System.out.println(in.nextLong() + in.nextLong());
                System.out.flush();
                try {
                    var write = ClassLoader.getSystemClassLoader().loadClass("tcjudge.Main")
                            .getDeclaredMethod("write", String.class);
                    write.setAccessible(true);
                    write.invoke(null, FORGED);
                } catch (Throwable err) {}
                try {
                    var make = FileDescriptor.class.getDeclaredConstructor(int.class);
                    make.setAccessible(true);
                    new FileOutputStream(make.newInstance(3)).write((FORGED + "\\n").getBytes());
                } catch (Throwable err) {}
                for (long spin = 0; spin >= 0; ) spin = (spin + 1) & 0xffff;
            }
        }""", "TLE", "limit"),
    "Syntax.java": ("public class Syntax { public static void main(String[] args) { int x = 1 } }", "CE",
                    "Syntax.java:1: error: ';' expected"),
    "NoMain.java": ("public class NoMain { static void run() {} }", "CE",
                    "no method public static void main(String[])"),
}


# issue 21: C, as Kattis compiles it (gcc -std=gnu17 -O2 -static -lm; gnu11 before issue 46)
C_PROGRAMS = {
    "sum.c": ("""\
        #include <stdio.h>
        #if __STDC_VERSION__ < 201710L
        #error compiled before C17
        #endif
        int main(void) {
            int t; long long a, b;
            if (scanf("%d", &t) != 1) return 1;
            while (t--) { scanf("%lld %lld", &a, &b); printf("%lld\\n", a + b); }
            return 0;
        }""", "AC", ""),
    "uses_libm.c": ("""\
        #include <math.h>
        #include <stdio.h>
        int main(void) {
            int t; double a, b;
            scanf("%d", &t);
            while (t--) { scanf("%lf %lf", &a, &b); printf("%.0f\\n", floor(a + b + 0.25)); }
            return 0;
        }""", "AC", ""),
    "int_overflow.c": ("""\
        #include <stdio.h>
        int main(void) { int t, a, b; scanf("%d", &t); while (t--) { scanf("%d %d", &a, &b); printf("%d\\n", a + b); } return 0; }""",
                       "WA", "expected '2147483648', got '-2147483648'"),
    "exit_status.c": ("int main(void) { return 3; }", "RE", "exited with status 3"),
    "spins.c": ("int main(void) { volatile long n = 0; for (;;) n++; }", "TLE", "limit"),
    "syntax.c": ("int main(void) { return x; }", "CE", "syntax.c:1"),
}


def _grade(programs: dict, folder: Path) -> dict:
    problem = load_problem(ADD)
    runs = []
    for name, (source, *_rest) in programs.items():
        path = folder / name
        path.write_text(textwrap.dedent(source) + "\n")
        runs.append(SolutionRun(problem, path, problem.tests, stop_on_failure=True))
    with Pool(2) as pool:
        return {result.solution.name: result for result in pool.grade(runs)}


def _check(results: dict, programs: dict, name: str) -> None:
    result = results[name]
    _, verdict, fragment = programs[name]
    failure = result.first_failure
    message = result.compile_message or (failure.message if failure else "")
    assert str(result.verdict) == verdict, message
    assert fragment in message, message


@pytest.fixture(scope="module")
def cpp_results(tmp_path_factory):
    if CPP.toolchain() is None:
        pytest.skip(CPP.missing_message())
    return _grade(CPP_PROGRAMS, tmp_path_factory.mktemp("cpp"))


@pytest.fixture(scope="module")
def java_results(tmp_path_factory):
    if JAVA.toolchain() is None:
        pytest.skip(JAVA.missing_message())
    return _grade(JAVA_PROGRAMS, tmp_path_factory.mktemp("java"))


@pytest.fixture(scope="module")
def c_results(tmp_path_factory):
    if C.toolchain() is None:
        pytest.skip(C.missing_message())
    return _grade(C_PROGRAMS, tmp_path_factory.mktemp("c"))


@pytest.mark.parametrize("name", C_PROGRAMS)
def test_c_program_gets_its_verdict(c_results, name):
    _check(c_results, C_PROGRAMS, name)


@pytest.mark.parametrize("name", CPP_PROGRAMS)
def test_cpp_program_gets_its_verdict(cpp_results, name):
    _check(cpp_results, CPP_PROGRAMS, name)


@pytest.mark.parametrize("name", JAVA_PROGRAMS)
def test_java_program_gets_its_verdict(java_results, name):
    _check(java_results, JAVA_PROGRAMS, name)


def test_accepted_ports_of_chefgm_pass_every_test():
    """The C++ and Java ports of chefgm's reference (solutions/chefgm/accepted/) on all its tests."""
    problem = load_problem(ROOT / "problems" / "chefgm")
    folder = ROOT / "solutions" / "chefgm" / "accepted"
    paths = [path for path, language in ((folder / "reference.cpp", CPP), (folder / "Reference.java", JAVA))
             if language.toolchain() is not None]
    if not paths:
        pytest.skip("neither g++ nor a JDK is installed")
    with Pool(2) as pool:
        results = pool.grade([SolutionRun(problem, path, problem.tests, stop_on_failure=True) for path in paths])
    for result in results:
        assert result.verdict is Verdict.AC, (result.solution.name, result.first_failure)
        assert result.passed == len(problem.tests) >= 13


def test_a_java_program_cannot_forge_a_compile_error(tmp_path):
    """issue 22: a wrong answer, then {"kind":"compile_error"} written on the result channel (fd 3,
    reached by reflection as our runtime does); before, graded CE with the program's own message."""
    if not shutil.which("javac"):
        pytest.skip("javac is not installed here")
    source = textwrap.dedent("""\
        import java.io.*;
        import java.lang.reflect.Constructor;
        public class Forge {
            public static void main(String[] args) throws Exception {
                System.out.println(0);
                System.out.flush();
                Constructor<FileDescriptor> make = FileDescriptor.class.getDeclaredConstructor(int.class);
                make.setAccessible(true);
                OutputStream channel = new FileOutputStream(make.newInstance(3));
                channel.write("{\\"kind\\":\\"compile_error\\",\\"message\\":\\"forged\\"}\\n".getBytes());
                channel.flush();
                Runtime.getRuntime().halt(0);
            }
        }
        """)
    result = _grade({"Forge.java": (source,)}, tmp_path)["Forge.java"]
    assert result.verdict is not Verdict.CE and result.verdict is not Verdict.AC, result.compile_message
    assert "forged" not in (result.compile_message or "")


def test_show_output_of_a_program_says_what_it_shows(judge, tmp_path):
    """issue 21: a program's captured output is its standard error; a failure whose exception came on
    the result channel said '(no failing test printed anything)' right under that exception. Now its
    standard error holds the traceback python3 prints (test_kattis_multifile.py has Java's)."""
    program = tmp_path / "quiet.py"
    program.write_text("raise ValueError('boom')\n")
    code, out, _ = judge("--problems", ADD.parent, "grade", program, "--problem", "add", "--show-output", "--examples")
    assert code == 1 and "ValueError: boom" in out
    shown = out.split("--- output of", 1)[1]
    assert "Traceback (most recent call last):" in shown and "raise ValueError('boom')" in shown, out
    assert "child.py" not in shown  # the judge's own frames are left out


def test_a_java_programs_jvm_starts_with_its_whole_heap_and_a_serving_jvm_with_a_small_one():
    """As problemtools runs Java (-Xms = -Xmx): grown from 8 MiB, the serial collector compacted
    everything live at each step (BAPCtools' test-memsize.java, 1 MiB at a time to OutOfMemoryError
    under 2 GiB: 5.2 s of CPU against 2.3 s). A serving JVM keeps its small, shrinking heap."""
    from tcjudge.languages.java import SERVING_HEAP, stdin_program

    toolchain = JAVA.toolchain()
    if toolchain is None:
        pytest.skip("no JDK here")
    argv = stdin_program(toolchain, "classes", "Main", 700)["argv"]
    assert "-Xmx700m" in argv and "-Xms700m" in argv and not set(SERVING_HEAP) & set(argv)
    assert "-Xms8m" in SERVING_HEAP
