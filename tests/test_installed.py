"""The judge as users get it: the wheel built from this checkout, installed into a fresh virtual
environment outside the checkout, run as `judge` from a project in a temp folder (issue 17).

The new venv sees this test environment's dependencies through a .pth file, so nothing is
downloaded, but not an install of the judge among them (the README's first command puts one there,
issue 33): the judge comes only from the wheel (checked: `tcjudge` imports from the new venv's
site-packages, with no PYTHONPATH and a working folder away from the checkout).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from . import budget
from .conftest import ROOT, TESTDATA, packages_without_the_judge

STEP_TIMEOUT = 600


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(run, wheel, site_packages): `run(*args, cwd=...)` runs the installed `judge`."""
    base = tmp_path_factory.mktemp("installed")
    built = budget.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(base / "dist"), str(ROOT)],
                           capture_output=True, text=True, cpu=STEP_TIMEOUT, cwd=base)
    assert built.returncode == 0, built.stderr
    wheel = next((base / "dist").glob("topcoder_judge-*.whl"))
    venv = base / "venv"
    budget.run([sys.executable, "-m", "venv", str(venv)], check=True, cpu=STEP_TIMEOUT)
    site_packages = next(venv.glob("lib/python*/site-packages"))
    (site_packages / "test-dependencies.pth").write_text(packages_without_the_judge(base / "dependencies"))
    done = budget.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                           str(wheel)], capture_output=True, text=True, cpu=STEP_TIMEOUT)
    assert done.returncode == 0, done.stderr
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["JUDGE_CACHE"] = str(base / "cache")  # a fresh user's: nothing of this temporary install left in ours

    def run(*args, cwd: Path, timeout: float = STEP_TIMEOUT) -> subprocess.CompletedProcess:
        return budget.run(["judge", *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True,
                              cpu=timeout)

    origin = subprocess.run([str(venv / "bin" / "python"), "-c", "import tcjudge; print(tcjudge.__file__)"],
                            cwd=base, env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(origin).is_relative_to(site_packages), origin  # the wheel's judge, not the checkout's
    return run, wheel, site_packages


@pytest.fixture(scope="module")
def project(installed, tmp_path_factory):
    """A user's project in a temp folder: roxor with Python, C++ and Java solutions, a stdin problem,
    Kattis packages (pass-fail, multi-pass) and a problem whose generator imports an earlier documented path."""
    folder = tmp_path_factory.mktemp("project")
    (folder / "problems").mkdir()
    shutil.copytree(ROOT / "problems" / "roxor", folder / "problems" / "roxor",
                    ignore=shutil.ignore_patterns("__pycache__"))
    keep = ["accepted/reference.py", "accepted/odious_grundy.cpp", "accepted/OdiousGrundy.java",
            "wrong_answer/no_equal_targets.py", "wrong_answer/no_equal_targets.cpp", "wrong_answer/NoEqualTargets.java"]
    for name in keep:
        target = folder / "solutions" / "roxor" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "solutions" / "roxor" / name, target)
    shutil.copytree(TESTDATA / "stdin" / "problems" / "add", folder / "problems" / "add")
    (folder / "solutions" / "add" / "accepted").mkdir(parents=True)
    shutil.copy(TESTDATA / "stdin" / "solutions" / "add.py", folder / "solutions" / "add" / "accepted" / "add.py")
    shutil.copytree(TESTDATA / "kattis" / "addtwo", folder / "problems" / "addtwo")
    shutil.copytree(TESTDATA / "kattis" / "trisum", folder / "problems" / "trisum")  # a scoring package
    encode = Path(shutil.copytree(TESTDATA / "kattis" / "encode", folder / "problems" / "encode"))  # multi-pass
    for slow in ("time_limit_exceeded", "run_time_error"):
        shutil.rmtree(encode / "submissions" / slow)
    shutil.copytree(TESTDATA / "setter" / "problems" / "largest", folder / "problems" / "largest")
    shutil.copytree(TESTDATA / "setter" / "solutions" / "largest", folder / "solutions" / "largest")
    generator = folder / "problems" / "largest" / "generator.py"
    generator.write_text(generator.read_text().replace("from tcjudge.testgen import", "from harness.testgen import"))
    return folder


def _tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def test_the_wheel_holds_every_file_of_the_package(installed):
    _, wheel, _ = installed
    tracked = subprocess.run(["git", "ls-files", "tcjudge"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode:
        pytest.skip("not a git checkout: no list of tracked files to compare with")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    missing = [name for name in tracked.stdout.split() if name not in shipped]
    assert not missing, f"tracked files the wheel leaves out: {missing}"


def test_check_grades_every_language_and_kind_from_the_project_folder(installed, project):
    run, _, site_packages = installed
    before = _tree_digest(site_packages)
    done = run("check", "-j", "2", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    graded = done.stdout
    assert "solutions/add/accepted/add.py: AC (expected AC)" in graded  # a stdin problem
    assert "problems/addtwo/submissions/accepted/sum.py: AC (expected AC)" in graded  # a Kattis package
    assert ("problems/trisum/submissions/partially_accepted/float_formula.py: AC 30 (expected AC, score in [0, 100))"
            in graded)  # a scoring package, graded group by group
    assert "problems/encode/submissions/accepted/base26.py: AC (expected AC)" in graded  # multi-pass
    assert "problems/encode/submissions/wrong_answer/forgets.py: WA (expected WA)" in graded
    languages = [("reference.py", "no_equal_targets.py")]
    languages += [("odious_grundy.cpp", "no_equal_targets.cpp")] if shutil.which("g++") else []
    languages += [("OdiousGrundy.java", "NoEqualTargets.java")] if shutil.which("javac") else []
    for right, wrong in languages:
        assert f"solutions/roxor/accepted/{right}: AC (expected AC)" in graded, graded
        assert f"solutions/roxor/wrong_answer/{wrong}: WA (expected WA)" in graded, graded
    assert (project / "reports" / "history.sqlite").is_file()
    assert _tree_digest(site_packages) == before  # nothing written into the installed package


def test_check_honours_a_packages_submissions_yaml(installed, tmp_path):
    """issue 21: submissions.yaml, rejected/ and brute_force/, and a time limit computed from the
    submissions, from the wheel on a package in the user's own folder."""
    run, _, _ = installed
    shutil.copytree(TESTDATA / "kattis" / "digitsum", tmp_path / "contest" / "digitsum")
    done = run("--problems", "contest", "check", "-j", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 of 6 solutions got their expected verdict" in done.stdout
    assert "digitsum/submissions/brute_force/walks_up.py: TLE (expected TLE/RE)" in done.stdout
    assert "digitsum: time limit " in done.stdout and "(computed from the submissions: slowest" in done.stdout
    rules = tmp_path / "contest" / "digitsum" / "submissions" / "submissions.yaml"
    rules.write_text(rules.read_text() + "rejected/*:\n  required: [RTE]\n")
    done = run("--problems", "contest", "check", "-j", "2", cwd=tmp_path)
    assert done.returncode == 1 and "no test got RTE, as submissions.yaml:16 (rejected/*) requires" in done.stdout


def test_check_grades_multi_file_submissions_and_included_files(installed, tmp_path):
    """issue 21: submission folders (Python from memory, C++ compiled together) and include/ files, from
    the wheel on a package in the user's own folder (the Java folders: tests/test_kattis_multifile.py)."""
    run, _, _ = installed
    package = Path(shutil.copytree(TESTDATA / "kattis" / "product", tmp_path / "contest" / "product"))
    for java in ("accepted/java_main", "accepted/java_marked", "run_time_error/java_throws"):
        shutil.rmtree(package / "submissions" / java)
    done = run("--problems", "contest", "check", "-j", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    graded = done.stdout
    for name in ("accepted/py_main", "accepted/py_marked", "accepted/single_include.py", "wrong_answer/py_adds",
                 "run_time_error/py_throws") + (("accepted/cpp_parts", "wrong_answer/cpp_adds") if shutil.which("g++")
                                                else ()):
        assert f"ok       contest/product/submissions/{name}:" in graded, (name, graded)


def test_report_writes_its_pages_into_the_project(installed, project):
    run, _, site_packages = installed
    before = _tree_digest(site_packages)
    done = run("report", "roxor", "add", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    for name in ("index.html", "roxor.html", "roxor.md", "roxor.json", "add.html"):
        assert (project / "reports" / name).is_file(), name
    assert _tree_digest(site_packages) == before


def test_validate_runs_a_generator_on_the_earlier_import_path(installed, project):
    run, _, _ = installed
    done = run("validate", "largest", "--random-cases", "20", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "'harness.testgen' is deprecated: import tcjudge.testgen instead" in done.stdout
    assert done.stdout.splitlines()[-1] == "1 of 1 problem valid"


def test_init_history_and_doctor(installed, project, tmp_path):
    run, _, _ = installed
    done = run("init", "fresh", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "fresh" / "problems").is_dir() and (tmp_path / "fresh" / "solutions").is_dir()
    again = run("init", "fresh", cwd=tmp_path)
    assert again.returncode == 2 and "already there" in again.stderr and "Traceback" not in again.stderr
    empty = run("check", cwd=tmp_path / "fresh")
    assert (empty.returncode, empty.stderr) == (2, "judge: error: solutions: no stored solutions to grade\n")
    nowhere = run("check", cwd=tmp_path)  # no problems/ here, and no checkout to fall back on
    assert nowhere.returncode == 2 and "judge init" in nowhere.stderr, nowhere.stderr
    usage = run("grade", "--no-such-option", cwd=project)  # the usage names the command the user typed
    assert usage.returncode == 2 and usage.stderr.startswith("usage: judge grade "), usage.stderr
    assert "judge.py" not in run("--help", cwd=project).stdout
    (tmp_path / "empty").mkdir()
    nothing = run("history", cwd=tmp_path / "empty")  # reading the history makes none
    assert (nothing.returncode, nothing.stdout) == (0, "no runs recorded in reports/history.sqlite\n"), nothing
    assert not any((tmp_path / "empty").iterdir())
    history = run("history", cwd=project)
    assert history.returncode == 0 and "check" in history.stdout, history.stdout + history.stderr
    doctor = run("doctor", cwd=project)
    assert doctor.returncode in (0, 1) and "Traceback" not in doctor.stderr, doctor.stderr
    assert "C++" in doctor.stdout and "Java" in doctor.stdout


@pytest.mark.parametrize("wrong, tool", [("no_equal_targets.cpp", "g++"), ("NoEqualTargets.java", "javac")])
def test_stress_and_challenge_take_compiled_solutions(installed, project, wrong, tool):
    if not shutil.which(tool):
        pytest.skip(f"{tool} is not installed here")
    run, _, _ = installed
    solution = f"solutions/roxor/wrong_answer/{wrong}"
    done = run("stress", solution, "--seed", "1", "--time", "60", cwd=project)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "counterexample (WA" in done.stdout and "args: {piles: [1, 0]}" in done.stdout
    done = run("challenge", solution, "--args", '{"piles": [1, 0]}', cwd=project)
    assert done.returncode == 1 and done.stdout.startswith("challenge succeeded: WA"), done.stdout + done.stderr
    assert not (project / ".hypothesis").exists()


def test_a_cluster_worker_without_the_judge_is_one_line(installed, project, tmp_path):
    pytest.importorskip("distributed")
    from tcjudge.cluster.local import local_cluster

    run, _, _ = installed
    with local_cluster(nworkers=1, cache=tmp_path / "cache", judge_on_workers=False) as bare:
        done = run("check", "roxor", "--cluster", bare.address, cwd=project)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and "cannot run the judge" in done.stderr, done.stderr


def test_grade_calibrate_and_new_from_the_project(installed, project):
    run, _, _ = installed
    done = run("grade", "solutions/roxor/accepted/reference.py", "--examples", "--json", "grade.json", cwd=project)
    assert done.returncode == 0 and "AC  passed" in done.stdout, done.stdout + done.stderr
    assert (project / "grade.json").is_file()
    done = run("calibrate", "roxor", cwd=project)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
    done = run("new", "sum-two", "--class", "SumTwo", "--method", "solve", "--signature", "int a, int b -> int",
               cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (project / "problems" / "sum-two" / "problem.yaml").is_file()
    assert "from tcjudge.testgen import" in (project / "problems" / "sum-two" / "generator.py").read_text()


def test_check_on_a_cluster_from_the_installed_judge(installed, project, tmp_path):
    pytest.importorskip("distributed")
    from tcjudge.cluster.local import local_cluster

    run, _, _ = installed
    with local_cluster(nworkers=2, cache=tmp_path / "cache") as cluster:
        done = run("check", "add", "addtwo", "--fresh", "--cluster", cluster.address, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "add.py: AC (expected AC)" in done.stdout
