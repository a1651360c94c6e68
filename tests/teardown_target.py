"""What tests/test_teardown.py runs in a pytest of its own and stops in the middle (named so that the
suite does not collect it): a `judge serve` server grading submissions, a local Dask cluster and an
in-process `check` on it whose tests take 5 s each; then a long local `check`, which only a run that
went on after its Ctrl-C reaches."""

from __future__ import annotations

import signal

import pytest

pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install '.[cluster]')")
from tcjudge.cluster.local import local_cluster  # noqa: E402

from .conftest import TESTDATA, stored_fixture  # noqa: E402
from .test_serve_server import Server, httpx, zipped  # noqa: E402

SLOW = TESTDATA / "solutions" / "time_limit_loop.py"
SUBMISSIONS = 30  # to the server, each a TLE: it grades them for as long as the cluster's check runs
TEAMS = ("red", "blue", "green")  # 10 each: a team may have 10 waiting for their verdict (serve/state.QUEUED)


def test_a_check_on_a_cluster_beside_a_grading_server(judge, tmp_path):
    (tmp_path / "serve").mkdir()
    server = Server(tmp_path / "serve")
    server.start()
    try:
        problems, solutions = stored_fixture(tmp_path, {"time_limit_exceeded": ["time_limit_loop.py"] * 8},
                                             time_limit=5)
        with local_cluster(nworkers=2, cache=tmp_path / "cache") as cluster:
            for number in range(SUBMISSIONS):
                team = TEAMS[number % len(TEAMS)]
                response = httpx.post(f"{server.url}/api/contests/burst/submissions", timeout=60,
                                      auth=(team, server.passwords[team]),
                                      json={"problem_id": "adder", "language_id": "python3",
                                            "files": [{"data": zipped("adder.py", SLOW.read_bytes())}]})
                assert response.status_code == 200, response.text
            code, out, err = judge("--problems", problems, "--solutions", solutions, "check", "--cluster",
                                   cluster.address)
    finally:
        if server.process.poll() is None:
            server.kill(signal.SIGTERM)
    assert code in (0, 1), out + err  # (1: a test given up as IE on a machine too busy to run it)


def test_a_long_local_check(judge, tmp_path):
    problems, solutions = stored_fixture(tmp_path, {"time_limit_exceeded": ["time_limit_loop.py"] * 200},
                                         time_limit=5)
    code, out, err = judge("--problems", problems, "--solutions", solutions, "check")
    assert code in (0, 1), out + err
