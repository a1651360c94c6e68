"""Starting the contest: its problems loaded (a package's computed time limit settled first, as grade
does), its store opened, the grading thread started (it first takes what a previous run left queued),
and uvicorn serving the app until Ctrl-C, on connections that are bounded (Guarded).

Issue 47: a connection that sent nothing, or a header line every 10 s, was kept for as long as it
stayed; 20,100 idle ones from one address took every file the process may open, a team's page timed
out, and asyncio logged a traceback per failed accept (188,000 of them, 76 MB in 20 s). Breaker 47b:
a body a byte every 5 s (or a Content-Length and no body) held its connection, 1002 of them from one
address held every place, and one client's warnings were a log line each request (59-124 MB an hour).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import resource
import socket
import sys
import threading
import time
import ipaddress
import json
from ipaddress import ip_address

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import JudgeInputError
from .contest import load_contest, store_path

# seconds an idle kept-alive connection stays open: longer than clients keep one to reuse (httpx,
# browsers: 5-60 s; uvicorn's own 5 s equals httpx's, so a client's request could cross the server's
# close on the wire: a reset, an error for a request the server never read); nginx's default
KEEP_ALIVE = 75
# seconds a request's headers may take to arrive, from the connection's opening or the request's first
# byte (a browser's come at once; Apache's mod_reqtimeout allows 20-40 s)
HEADER_TIMEOUT = 20.0
CONNECTIONS = 1000  # connections open at once, by default (a browser keeps at most 6 to a server)
# bytes a second a request's body earns on top of its --header-timeout (Apache's mod_reqtimeout: 500)
BODY_RATE = 1024
FILES_KEPT = 256  # open files kept for the rest of the server: its store, its threads' SQLite, its zygotes' pipes
FEWEST = 16  # connections at once however low the open-file limit
SAID_EVERY = 60  # seconds between two log lines of one kind
ACCEPT_FAILED = "socket.accept() out of system resource"  # (asyncio's message)
BUSY = b"the server is at its most connections, each with a request under way: try again\n"
BUSY_ANSWER = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 5\r\n"
               b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(BUSY), BUSY))


class Said:
    """Log lines of a kind said at most once per SAID_EVERY seconds, the next one counting those left
    unsaid: an attack's repeated events are one line a minute, never one each."""

    def __init__(self):
        self._last: dict[str, float] = {}
        self._unsaid: dict[str, int] = {}

    def __call__(self, kind: str, line: str) -> None:
        now = time.monotonic()
        if kind in self._last and now - self._last[kind] < SAID_EVERY:
            self._unsaid[kind] = self._unsaid.get(kind, 0) + 1
            return
        self._last[kind] = now
        unsaid = self._unsaid.pop(kind, 0)
        print(f"judge: serve: {line}" + (f" ({unsaid} more since this was last said)" if unsaid else ""),
              file=sys.stderr, flush=True)


class Throttled(logging.Filter):
    """uvicorn's warnings (an invalid request, an upgrade it does not take), the app's (app.ClientGone)
    and asyncio's ("socket.send() raised exception.": a write into a connection its client reset)
    through Said: each a client can cause with every request it sends."""

    def __init__(self, say: Said):
        super().__init__()
        self.say = say

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING:
            return True
        self.say(str(record.msg), record.getMessage())
        return False


class Connections:
    """What a server's connections share: how many may be open at once (from one address, and in all,
    shared between addresses when every one is a request under way), how long a request's headers may take, which connections are idle (waiting for a request's
    headers, before their first one or between two), the longest idle first, and the log's throttle."""

    def __init__(self, most: int, header_timeout: float, per_address: int | None = None):
        self.most, self.header_timeout = most, header_timeout
        self.per_address = min(most, per_address or max(1, most // 2))
        self.open: set[Guarded] = set()
        self.addresses: dict[str, int] = {}  # address -> its connections open
        self.networks: dict[tuple[int, str], int] = {}  # network (networks_of) -> its connections open
        self.idle: dict[Guarded, None] = {}  # (a dict keeps their order)
        self.say = Said()

    def admit(self, connection: Guarded) -> bool:
        """Whether a new connection may stay: past `per_address` from its address, that address's
        longest idle one is closed to make room, and with none idle the new one is refused (so one
        address's stalled requests leave the other places to the others); with `most` open, the
        longest idle one is closed (a client reconnects to send a request, where connections that send
        none held every place); with none idle, every one is a request under way, and the new one is
        refused."""
        address = connection.address
        if self.per_address < self.most and self.addresses.get(address, 0) >= self.per_address:  # (else: the bound on all)
            theirs = next((idle for idle in self.idle if idle.address == address), None)
            if theirs is None:
                self.say("address", f"{self.per_address} connections open from one address "
                                    "(--connections-per-address), each with a request under way: a new one "
                                    "from there is answered 503")
                return False
            theirs.shed()
        elif len(self.open) >= self.most:
            if self.idle:
                self.say("room", f"{self.most} connections open (--connections): the longest idle one is closed "
                                 "for each new one")
                next(iter(self.idle)).shed()
            elif (hog := self._hog(address)) is not None:
                self.say("share", f"{self.most} connections open (--connections), each with a request under way: "
                                  "one of the address with the most is closed for each new one from another")
                hog.shed()
            else:
                self.say("full", f"{self.most} connections open (--connections), each with a request under way: "
                                 "a new one is answered 503")
                return False
        self.open.add(connection)
        self.addresses[address] = self.addresses.get(address, 0) + 1
        for network in networks_of(address):
            self.networks[network] = self.networks.get(network, 0) + 1
        self.idle[connection] = None
        return True

    def _hog(self, newcomer: str) -> Guarded | None:
        """With every place taken by a request under way, one connection of the network that holds the most,
        widest first (networks_of: an IPv4 /8, /16, /24, the address; IPv6 /32, /48, /64, the address), if
        that is more than the newcomer's network of that width would hold with it: the places are shared
        between networks, so neither a few addresses nor many of one network whose uploads trickle can hold
        them all (breaker 54a F2: one team's session from two addresses held all 1000 with bodies sent at
        1.3 KiB a second, and everyone else got 503 for as long as it went on; breaker 54d F2: then 1,010
        addresses of 127.0/16, one connection each; breaker 54f F2: then 100 /24s of one /16, one each)."""
        for mine in networks_of(newcomer):
            counts = {network: count for network, count in self.networks.items()
                      if network[0] == mine[0] and network != mine}
            most = max(counts, key=counts.__getitem__, default=None)
            if most is not None and counts[most] > self.networks.get(mine, 0) + 1:
                return next((connection for connection in self.open
                             if most in networks_of(connection.address)), None)
        return None

    def forget(self, connection: Guarded) -> None:
        if connection in self.open:
            self.open.discard(connection)
            self.addresses[connection.address] -= 1
            if not self.addresses[connection.address]:
                del self.addresses[connection.address]
            for network in networks_of(connection.address):
                self.networks[network] -= 1
                if not self.networks[network]:
                    del self.networks[network]
        self.idle.pop(connection, None)

    def loop_error(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        """The event loop's handler of errors: a failed accept (out of open files: the loop tries again
        a second later, and said each failure with its traceback) is a line a minute."""
        if context.get("message") == ACCEPT_FAILED:
            self.say("accept", f"a connection waits: it could not be accepted ({context.get('exception')})")
        else:
            loop.default_exception_handler(context)


class Guarded(H11Protocol):
    """uvicorn's HTTP/1.1 connection, bounded: a request's headers must arrive whole within
    `header_timeout` of the connection's opening, or of the request's first byte (an idle connection
    between two requests is kept KEEP_ALIVE seconds, by uvicorn), and its body within `header_timeout`
    of its headers' end, plus a second per BODY_RATE bytes that arrived (while the server reads it:
    uvicorn stops reading a body the app does not take yet), else it is closed; and at most
    `most` connections are open at once (Connections.admit)."""

    def __init__(self, *args, connections: Connections, **kwargs):
        super().__init__(*args, **kwargs)
        self.shared = connections
        self.deadline: asyncio.TimerHandle | None = None
        self.until = 0.0  # (the loop's time the deadline is for, which a body's bytes move on)
        self.in_body = False  # the deadline is the body's
        self.answered = False  # answered while its body still comes: the rest, dropped unread, buys no time
        self.address = ""

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self.address = str((transport.get_extra_info("peername") or ("",))[0])
        if not self.shared.admit(self):
            transport.write(BUSY_ANSWER)
            transport.close()
            return
        self._arm(self.shared.header_timeout)

    def connection_lost(self, exc) -> None:
        self._forget()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.deadline is None and self.conn.their_state is h11.IDLE:
            self._arm(self.shared.header_timeout)  # a next request's first bytes
        elif self.in_body and not self.answered:
            self.until += len(data) / BODY_RATE
        super().data_received(data)
        self._settle(again=False)

    def on_response_complete(self) -> None:
        """An answer sent before its request's body is all here (a GET's or HEAD's, which no handler
        reads, a 413) ends the connection within `header_timeout`, however fast the rest comes: uvicorn
        drops it unread, and it held the connection for as long as it came (breaker 47c: 100 bodies
        trickled at 1 KiB a second, answered or not, held --connections 100)."""
        super().on_response_complete()
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            self.answered = True
            self._arm(self.shared.header_timeout)
        self._settle(again=True)

    def shed(self) -> None:
        """Closed to make room for a new connection: out of the count at once (connection_lost comes later)."""
        self._forget()
        self.transport.close()

    def _settle(self, again: bool) -> None:
        """Idle while h11 waits for a request's headers (`again`: idle anew, after an answer), else a
        request is under way, whose headers came in time: its body's deadline from their end on."""
        if self.transport.is_closing() or self not in self.shared.open:
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            self.in_body = self.answered = False
            if again:
                self.shared.idle.pop(self, None)
            self.shared.idle.setdefault(self, None)
            return
        self.shared.idle.pop(self, None)
        if state is not h11.SEND_BODY:
            self.in_body = False
            self._disarm()
        elif not self.in_body:
            self.in_body = True
            self._arm(self.shared.header_timeout)

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self.until = self.loop.time() + seconds
        self.deadline = self.loop.call_at(self.until, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if self.in_body and self.flow.read_paused:  # (the server's turn: the app has not read what came)
            self._arm(self.shared.header_timeout)
        elif self.in_body and self.loop.time() < self.until:  # (bytes that came bought time)
            self.deadline = self.loop.call_at(self.until, self._too_slow)
        elif self.conn.their_state in (h11.IDLE, h11.SEND_BODY):  # (its headers, or its body, are not all here)
            self.transport.close()

    def _forget(self) -> None:
        self._disarm()
        self.shared.forget(self)


WIDTHS = {4: (8, 16, 24, 32), 6: (32, 48, 64, 128)}  # the networks a place is shared between, widest first


@functools.lru_cache(maxsize=4096)
def networks_of(address: str) -> tuple[tuple[int, str], ...]:
    """The networks an address is counted in when the places are shared (Connections._hog), widest first,
    each as (its place in WIDTHS, its text), the address itself last (an IPv4 address in IPv6 as IPv4); a
    peer that is not an address: itself, at each place."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return tuple((place, address) for place in range(4))
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped:
        parsed = parsed.ipv4_mapped
    return tuple((place, str(ipaddress.ip_network(f"{parsed}/{width}", strict=False)))
                 for place, width in enumerate(WIDTHS[parsed.version]))


def most_connections(asked: int | None) -> int:
    """The connections that may be open at once: those asked (else CONNECTIONS), fewer where the
    process's open-file limit leaves less room (a note says so when they were asked)."""
    most = asked or CONNECTIONS
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if files == resource.RLIM_INFINITY or most <= files - FILES_KEPT:
        return most
    if asked:
        print(f"judge: note: at most {max(FEWEST, files - FILES_KEPT)} connections at once: the process may "
              f"open {files} files (ulimit -n)", file=sys.stderr)
    return max(FEWEST, files - FILES_KEPT)


def load_problems(options, contest, store) -> dict:
    """slug -> Problem, in the contest's order; a problem that cannot be read is the contest file's
    error at its line. A package's computed time limit is the contest's from its first start on
    (`store`: pinned_limit), whatever the judge or the machine's load later."""
    from .. import languages
    from ..problems.catalog import Catalog
    from ..runs import settle_time_limit

    problems = {}
    for index, written in enumerate(contest.problems):
        folder = contest.problem_path(index, options.problems)
        try:
            catalog = Catalog(folder.parent, options.solutions, languages.EXTENSIONS)
            problem = catalog.problem(folder.name)
            if not pinned_limit(store, problem):
                settle_time_limit(options, catalog, problem)
                pin_limit(store, problem)
        except JudgeInputError as err:
            raise JudgeInputError(f"problem {written!r}: {err}", contest.path, contest.problem_lines[index]) from None
        if problem.slug in problems:
            raise JudgeInputError(f"two problems are named {problem.slug!r}", contest.path, contest.problem_lines[index])
        problems[problem.slug] = problem
    return problems


def _limit_key(problem) -> str:
    return f"time-limit:{problem.slug}"


def pinned_limit(store, problem) -> bool:
    """Give a package without a time limit the one this contest computed at its first start, while the
    package's files that decide verdicts are those it was computed from (True); False when there is
    none to take. Breaker 55b F2: a restart mid-contest computed it again (an edited judge keys the kept
    limits anew) and moved a problem from 10 s to 9 s after submissions were judged at 10 s; it also
    kept the server down 74 s."""
    from ..problems.timing import UNSET
    from ..reports.fingerprints import problem_hash

    if problem.timing is None or not problem.time_limit_from.startswith(UNSET):
        return True  # (a limit of its own: nothing to pin)
    kept = store.meta(_limit_key(problem))
    if kept is None:
        return False
    pinned = json.loads(kept)
    if pinned["problem"] != problem_hash(problem.path):
        print(f"judge: warning: {problem.slug}: its package changed since this contest computed its time limit "
              f"({pinned['limit']:g} s): computed again", file=sys.stderr)
        return False
    problem.time_limit = pinned["limit"]
    problem.time_limit_from = f"{pinned['from']}; this contest's since its first start"
    return True


def pin_limit(store, problem) -> None:
    """Keep a package's computed time limit as this contest's (pinned_limit)."""
    from ..reports.fingerprints import problem_hash

    if problem.timing is not None and problem.time_limit_from.startswith("computed"):
        store.set_meta(_limit_key(problem), json.dumps({"limit": problem.time_limit, "from": problem.time_limit_from,
                                                        "problem": problem_hash(problem.path)}))


def serve(options) -> int:
    import uvicorn

    from .api import problem_events, static_events
    from .app import build_app, warn_exposed
    from .grading import Grader
    from .state import Serve
    from .store import contest_store

    contest = load_contest(options.contest)
    store = contest_store(store_path(options.store, options.history, contest), contest.path, options.store is not None)
    problems = load_problems(options, contest, store)
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
    connections = Connections(most_connections(options.connections), options.header_timeout or HEADER_TIMEOUT,
                              options.connections_per_address)
    server = uvicorn.Server(uvicorn_config(options, app, connections))
    threading.Thread(target=_say_where, args=(server, store), name="judge-serve-address", daemon=True).start()
    try:
        asyncio.run(_serving(server, connections, state.auth))
    finally:
        grader.stop()
        store.close()
    return 0


def uvicorn_config(options, app, connections: Connections):
    """uvicorn's settings: our connections (Guarded), its warnings throttled (Throttled), and a proxy's
    X-Forwarded-For and -Proto believed only from the addresses --forwarded-allow-ips names (uvicorn
    believes 127.0.0.1's by default: any process of the judge's host could then say it was any
    address, and be throttled as none)."""
    import uvicorn

    config = uvicorn.Config(app, host=options.host, port=options.port, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=2, timeout_keep_alive=KEEP_ALIVE,
                            proxy_headers=bool(options.forwarded_allow_ips),
                            forwarded_allow_ips=options.forwarded_allow_ips or "",
                            http=functools.partial(Guarded, connections=connections))
    logging.getLogger("uvicorn.error").addFilter(Throttled(connections.say))  # (once Config set its logging up)
    logging.getLogger("asyncio").addFilter(Throttled(connections.say))  # (a write into a socket its client reset)
    return config


async def _serving(server, connections: Connections, auth=None) -> None:
    """uvicorn's Server.run, with the loop's errors handled by Connections.loop_error; once it is asked
    to stop, every open event stream (`auth`'s: the pages' and the API's feeds) ends at its next look,
    within the graceful shutdown (breaker 55a F3: each open API feed was cancelled past it, a
    traceback each in the log; the pages' streams end by themselves)."""
    asyncio.get_running_loop().set_exception_handler(connections.loop_error)

    async def end_streams_at_exit() -> None:
        while not server.should_exit:
            await asyncio.sleep(0.1)
        auth.end_streams(lambda stream: True)

    watcher = asyncio.create_task(end_streams_at_exit()) if auth is not None else None
    try:
        await server.serve()
    finally:
        if watcher is not None:
            watcher.cancel()


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
