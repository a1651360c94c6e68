"""The CLICS spec's own checker, check-api.sh of icpc/ccs-specs at 2023-06, against `judge serve`'s API:
strict (no -p: no property beyond the spec's), -C (the REST endpoints agree with the event feed, by
the spec's check-api-consistency.php), -e (the error codes it expects) and -b (a schema failure fails
it), as a team and as the coach (admin), on a contest run as in test_serve_clics_shapes.

The spec's files are not ours to ship: a set-up step fetches them, and CCS_SPECS_DIR names that copy
of the 2023-06 branch (check-api.sh, check-api-consistency.php, json-schema/); without it, or without
curl, jq and php (Debian's curl, jq, php-cli), this test is skipped and says why. The schema validator
that check-api.sh calls, yajsv, is not packaged: tests/yajsv.py stands in for it, on the jsonschema
package (docs/serve.md).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")
pytest.importorskip("jsonschema")
uvicorn = pytest.importorskip("uvicorn")

from .test_serve import Site  # noqa: E402
from .test_serve_clics_shapes import coach_action, run_contest  # noqa: E402

SPECS = Path(os.environ["CCS_SPECS_DIR"]) if os.environ.get("CCS_SPECS_DIR") else None
MISSING = ("CCS_SPECS_DIR (a copy of icpc/ccs-specs at 2023-06: check-api.sh, check-api-consistency.php, "
           "json-schema/) is not set" if SPECS is None else
           f"{SPECS}/check-api.sh is missing" if not (SPECS / "check-api.sh").is_file() else
           next((f"{tool} is not installed (Debian's curl, jq, php-cli)" for tool in ("curl", "jq", "php")
                 if shutil.which(tool) is None), None))
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"check-api.sh: {MISSING}")
WAIT = 60  # seconds the server may take to listen: never the point


class Listening:
    """The site's app served by uvicorn on a free loopback port, on a thread of its own."""

    def __init__(self, site: Site):
        self.server = uvicorn.Server(uvicorn.Config(site.app, host="127.0.0.1", port=0, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.server.servers[0].sockets[0].getsockname()[1]}/api"

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=WAIT)


def check_api(site: Site, url: str, username: str, tmp_path: Path) -> str:
    """check-api.sh -b -C -e as `username`: its output, once it passed."""
    yajsv = tmp_path / "yajsv"
    yajsv.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{Path(__file__).parent / "yajsv.py"}" "$@"\n')
    yajsv.chmod(0o755)
    done = subprocess.run(["bash", str(SPECS / "check-api.sh"), "-b", "-C", "-e", "-t", "3", "-j", str(yajsv),
                           "-c", f"-s -u {username}:{site.passwords[username]}", url],
                          capture_output=True, text=True, timeout=600)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert not [line for line in output.splitlines() if line.startswith(("Error", "Warning")) or ": fail:" in line], output
    return output


@pytest.mark.parametrize("scoring", ["icpc", "ioi"])
def test_the_specs_check_api_passes_strict_with_consistency_as_team_and_admin(tmp_path, scoring):
    site = Site(tmp_path, extra=f"scoring: {scoring}\nshow_failing_test: true\n")
    run_contest(site)
    listening = Listening(site)
    try:
        for username in ("red", "coach"):
            checked = {line.strip() for line in check_api(site, listening.url, username, tmp_path).splitlines()}
            assert {"groups: OK", "organizations: OK", "scoreboard: OK", "event-feed: OK",
                    "event-feed?since_id=999999: OK (returned 400)"} <= checked  # each 404 or failing before
        coach_action(site, "freeze")
        for username in ("red", "coach"):
            check_api(site, listening.url, username, tmp_path)
    finally:
        listening.close()
