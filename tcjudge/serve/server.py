"""Starting the contest: its problems loaded (a package's computed time limit settled first, as grade
does), its store opened, the grading thread started (it first takes what a previous run left queued),
and uvicorn serving the app until Ctrl-C."""

from __future__ import annotations

import socket
import sys
import threading
import time
from ipaddress import ip_address

from ..errors import JudgeInputError
from .contest import load_contest, store_path

# seconds an idle kept-alive connection stays open: longer than clients keep one to reuse (httpx,
# browsers: 5-60 s; uvicorn's own 5 s equals httpx's, so a client's request could cross the server's
# close on the wire: a reset, an error for a request the server never read); nginx's default
KEEP_ALIVE = 75


def load_problems(options, contest) -> dict:
    """slug -> Problem, in the contest's order; a problem that cannot be read is the contest file's
    error at its line."""
    from .. import languages
    from ..problems.catalog import Catalog
    from ..runs import settle_time_limit

    problems = {}
    for index, written in enumerate(contest.problems):
        folder = contest.problem_path(index, options.problems)
        try:
            catalog = Catalog(folder.parent, options.solutions, languages.EXTENSIONS)
            problem = catalog.problem(folder.name)
            settle_time_limit(options, catalog, problem)
        except JudgeInputError as err:
            raise JudgeInputError(f"problem {written!r}: {err}", contest.path, contest.problem_lines[index]) from None
        if problem.slug in problems:
            raise JudgeInputError(f"two problems are named {problem.slug!r}", contest.path, contest.problem_lines[index])
        problems[problem.slug] = problem
    return problems


def serve(options) -> int:
    import uvicorn

    from .api import problem_events, static_events
    from .app import build_app, warn_exposed
    from .grading import Grader
    from .state import Serve
    from .store import contest_store

    contest = load_contest(options.contest)
    problems = load_problems(options, contest)
    store = contest_store(store_path(options.store, options.history, contest), contest.path, options.store is not None)
    if not store.row("SELECT 1 FROM accounts LIMIT 1"):
        print(f"judge: note: no accounts yet: judge accounts {options.contest} --count N", file=sys.stderr)
    grader = Grader(store, problems, contest, options)
    state = Serve(contest, problems, store, grader, options.source_limit * 1024)
    static_events(state)
    problem_events(state)
    app = build_app(state)
    warn_exposed(options.host)
    queued = len(store.queued())
    print(f"{contest.name}: {len(problems)} problem(s), store {store.path}"
          + (f", {queued} submission(s) left to judge" if queued else ""), flush=True)
    for problem in problems.values():
        if problem.time_limit_from:  # a package: where its time limit comes from (computed once, then kept)
            print(f"  {problem.slug}: time limit {problem.time_limit_text}", flush=True)
    grader.start()
    config = uvicorn.Config(app, host=options.host, port=options.port, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=2, timeout_keep_alive=KEEP_ALIVE)
    server = uvicorn.Server(config)
    threading.Thread(target=_say_where, args=(server, store), name="judge-serve-address", daemon=True).start()
    try:
        server.run()
    finally:
        grader.stop()
        store.close()
    return 0


def _say_where(server, store) -> None:
    """Once uvicorn listens, the address to open (with --port 0, the port it got; listening on every
    address, the machine's name), and how to stop; kept in the store for the slips (accounts.served_at)."""
    from .accounts import served_at

    while not server.started and not server.should_exit:
        time.sleep(0.05)
    if server.started and server.servers and server.servers[0].sockets:
        host, port = server.servers[0].sockets[0].getsockname()[:2]
        if ip_address(host).is_unspecified:  # 0.0.0.0, ::
            host = socket.gethostname()
        url = f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"
        print(f"serving on {url} (Ctrl-C stops; what is not judged yet is judged at the next start)", flush=True)
        served_at(store, url)
