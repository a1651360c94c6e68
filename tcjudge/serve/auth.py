"""Who is asking: sessions (random server-side tokens, kept hashed, revocable) and the event streams
they hold open, CSRF tokens, HTTP Basic for the CLICS API, and the login throttle (per account and
per address).

The throttle slows, it never locks out: a lock that wrong passwords set is one that anyone can set
on someone else's account (issue 47: five guesses at team002 or coach, and its owner's right password
was refused for 15 minutes; behind a proxy that passes no client address, twenty locked out
everyone). Past FREE_PER_ACCOUNT failures on an account, or FREE_PER_ADDRESS from an address, in
WINDOW, each attempt waits before its check, FIRST_DELAY doubled by each further failure, at most
MOST_DELAY; the right password then passes. The passwords are the server's own, random, about 59
bits: guessing them online is hopeless at any rate, so the throttle needs only to make it slow.

Attempts on one account from one address take their turns, one at a time, each waiting its delay
once the attempt before it is decided (breaker 47c: 40 wrong passwords sent at once all waited the
one delay read before any of them failed, 5-10 guesses a second); more than WAITING_PER_TURN waiting
on one turn are refused at once (Busy: 429), not queued. An address past FREE_PER_ADDRESS failures
takes one turn for all its attempts, whatever the names they try (breaker 55a F2: a name per guess
made a turn per guess, and one address had 16 checks a second). A turn per account alone let a guesser
keep the owner out (breaker 52b: ten connections of wrong guesses kept the queue full, and the
owner's right password was 429 for as long as they went on): another address has its own turn, and
so does a browser that has logged into the account before, which holds a device cookie for it
(OWASP's "device cookies"; its failures count on that device alone). Behind one address (a proxy
that passes none, one NAT), only the device cookie tells the owner from the guesser. Right passwords count too,
past FREE_LOGINS_PER_ACCOUNT on an account in WINDOW, and an account holds at most
SESSIONS_PER_ACCOUNT sessions, its oldest ended by a new one past them (breaker 50c F11: one team's
225 logins in 25 s queued every other team's login behind argon2 for 5-17 s, and stored 225 sessions).

A password is checked with argon2id off the event loop (a verification costs tens of milliseconds of
CPU and 64 MiB), at most one per CPU at a time: a burst of logins waits its turn instead of taking
every thread of the pool the pages need. The checks waiting go in the order of their address's recent
failures, then its account's, then its network's (a /24, an IPv6 /64), then their arrival, a browser
that logged into the account before (its device cookie) first: a login from an address that has not
been failing goes before the guesses of addresses that have (breaker 55c F3: 40-60 addresses of one
/24, each spending its free failures, slowed honest logins to 2.6-17 s behind their checks). An
attempt at a name that is no account's waits its place and then a check's time (the recent average)
without a check: random names from fresh addresses cost the hashing threads nothing (breaker 56a F1:
800 of them at once held honest logins 19-61 s). So its answer comes about as late as a wrong
password's: not exactly as late, and under a flood of checks noticeably sooner, which tells a guesser
which names are accounts (they are printed on the slips; the passwords are what protects them).

An API client sends its password with every request: a verified one is remembered (by its SHA-256
with the username, in memory) until REMEMBERED seconds after the client's last request, so a client's
stream of requests costs one verification.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import heapq
import hmac
import ipaddress
import itertools
import os
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import anyio.to_thread

SESSION_COOKIE = "judge_session"  # (a cookie's name as the handlers say it: Auth.cookie names it for its contest)
LOGIN_COOKIE = "judge_login"  # the login form's CSRF token (double-submit: there is no session yet)
DEVICE_COOKIE = "judge_device"  # a browser that logged into an account: its own turn and failures there
DEVICE_DAYS = 365
WINDOW = 15 * 60  # seconds over which failed logins are counted
FREE_PER_ACCOUNT = 5  # failures on an account in the window before its attempts wait
FREE_PER_ADDRESS = 20  # ... from an address
FIRST_DELAY = 0.5  # seconds an attempt waits at the first failure past the free ones, doubled by each further one
MOST_DELAY = 4.0  # ... and at most
FREE_LOGINS_PER_ACCOUNT = 10  # right passwords on an account in the window before its attempts wait too
WAITING_PER_TURN = 8  # attempts waiting their turn on one account (or device) before more are refused
SESSIONS_PER_ACCOUNT = 20  # an account's sessions: a new one past them ends the oldest
USERNAME_CAP, PASSWORD_CAP = 64, 256  # characters of a login's username and password that are read
KEPT_KEYS = 10000  # accounts and addresses whose failures are kept before the expired ones are dropped
REMEMBERED = 300  # seconds an API client's verified password is remembered after its last request
SESSION_DAYS = 7  # a session's life (its cookie's too)
# Event streams open at once, the pages' and the API's event feeds together: a session's (a browser's
# tabs), a team's (its sessions' and its HTTP Basic clients'), the coach's account's (the judges' tabs and
# the API's tools: a CDS, a resolver); Auth.streaming (breaker 47b: a team's 1002 page streams took every
# connection, and every other client was 503; breaker 47c: its API feeds, 200 at once)
STREAMS_PER_SESSION = 4
STREAMS_PER_TEAM = 8
STREAMS_PER_COACH = 16
RECHECKED = 10  # seconds between two looks at whether a stream's session or password still holds


class Busy(Exception):
    """Too many attempts wait their turn on this account already: try again in a few seconds (429)."""


@dataclass
class Caller:
    username: str
    role: str  # team or coach
    team_id: int | None
    csrf: str = ""  # the session's CSRF token (none for HTTP Basic: no cookie, so no cross-site request)
    hash: str = ""  # the password hash its password was checked against (none for a session's caller)

    @property
    def coach(self) -> bool:
        return self.role == "coach"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Stream:
    """An event stream held open (a page's, or the API's event feed): it ends when what let it open
    does, its session (logged out: at once; a new password, made by `judge accounts` in another
    process, or the session's end of life: within RECHECKED seconds) or, for HTTP Basic, its password
    (a new one: within RECHECKED seconds); or when it is the oldest of a session's or owner's streams
    at their most and a page opens one more (Auth.streaming). Breaker 47b: a page's stream opened
    before logging out kept pushing the team's verdicts; breaker 47c: the API's feed did."""

    def __init__(self, auth: Auth, owner: str, session: str | None, caller: Caller):
        self.auth, self.owner, self.session = auth, owner, session  # (session: its digest; None: HTTP Basic's)
        self.password = (caller.username, caller.hash)
        self.ended = False
        self.crowded = False  # ended to make room for a newer stream of its session or owner
        self._checked = time.monotonic()

    async def going(self) -> bool:
        """Whether the stream goes on (its loop asks before each look at what changed)."""
        if not self.ended and time.monotonic() - self._checked > RECHECKED:
            self._checked = time.monotonic()
            if not await anyio.to_thread.run_sync(self._holds):
                self.auth.end_streams(lambda stream: stream is self)
        return not self.ended

    def _holds(self) -> bool:
        if self.session is not None:
            return self.auth.session_holds(self.session)
        account = self.auth.store.account(self.password[0])
        return account is not None and account["hash"] == self.password[1]

    def answer(self, response):
        """`response`, the stream's answer, as an ASGI app that forgets the stream when the answer ends,
        however it ends (its events over, its client gone, even before its first event was sent)."""

        async def answered(scope, receive, send):
            try:
                await response(scope, receive, send)
            finally:
                self.auth.end_streams(lambda stream: stream is self)

        return answered


class Auth:
    def __init__(self, store):
        self.store = store
        self._failures: dict[str, list[float]] = {}
        self._remembered: dict[str, tuple[float, str]] = {}  # digest -> (until, the hash it matched)
        self._checking: dict[str, asyncio.Lock] = {}  # digest -> the check of those credentials under way
        self._turns: dict[str, list] = {}  # an account's or device's key -> [its turn's lock, attempts waiting]
        self._device_secret = secrets.token_bytes(32)  # (a restart forgets devices: they log in as new ones)
        self._lock = threading.Lock()
        self._streams: list[Stream] = []  # the open event streams, the oldest first
        self._tag = hashlib.sha256(str(store.path.resolve()).encode()).hexdigest()[:8]  # (Auth.cookie)
        self._hashing = ThreadPoolExecutor(os.cpu_count() or 1, thread_name_prefix="argon2")
        self._free_hashers = os.cpu_count() or 1  # checks that may start now (the event loop's alone)
        self._waiting_checks: list[tuple] = []  # (order key, arrival, future): the checks waiting for a hasher
        self._arrivals = itertools.count()
        self._check_seconds = 0.05  # a password check's time lately (what a wrong name's attempt waits instead)
        from .accounts import hasher

        self._hasher = hasher()

    def cookie(self, name: str, https: bool) -> str:
        """The name of the cookie `name` for this contest's server: tagged with its store, since a browser
        keeps cookies per host, not per port (issue 47: logging into a second contest on another port of
        the host overwrote the first one's session); over https with the `__Host-` prefix (a cookie
        that is Secure, for this host alone, path /: no sibling domain can set it)."""
        return f"{'__Host-' if https else ''}{name}-{self._tag}"

    # the throttle
    def delay(self, username: str, address: str, device: str | None = None) -> float:
        """Seconds an attempt on `username` from `address` (from `device`, a device's key: its own
        failures instead) waits before its check (the module's rule)."""
        counted = [(device, FREE_PER_ACCOUNT)] if device else [(f"user:{username}", FREE_PER_ACCOUNT),
                                                                (f"addr:{address}", FREE_PER_ADDRESS)]
        with self._lock:
            now = time.time()
            past = 0
            for key, free in counted + [(f"ok:{username}", FREE_LOGINS_PER_ACCOUNT)]:
                recent = [t for t in self._failures.get(key, []) if now - t < WINDOW]
                past = max(past, len(recent) - free + 1)
        return 0.0 if past <= 0 else min(MOST_DELAY, FIRST_DELAY * 2 ** min(past - 1, 32))

    def _recent(self, key: str) -> int:
        """The failures counted on `key` in the window."""
        with self._lock:
            now = time.time()
            return sum(now - t < WINDOW for t in self._failures.get(key, []))

    def _count(self, *keys: str) -> None:
        """An attempt's outcome: a failure on its account and address (or its device), a login on its account."""
        with self._lock:
            now = time.time()
            if len(self._failures) > KEPT_KEYS:  # (guesses at many names: keep what still counts)
                self._failures = {key: kept for key, times in self._failures.items()
                                  if (kept := [t for t in times if now - t < WINDOW])}
            for key in keys:
                self._failures[key] = [t for t in self._failures.get(key, []) if now - t < WINDOW] + [now]

    def device_cookie(self, username: str) -> str:
        """A new device cookie's value: this browser has logged into `username`."""
        nonce = secrets.token_urlsafe(12)
        return f"{nonce}.{self._device_mac(username, nonce)}"

    def device(self, username: str, cookie: str | None) -> str | None:
        """The device's key where `cookie` is one this server gave a browser that logged into `username`."""
        nonce, _, mac = (cookie or "").partition(".")
        return f"device:{nonce}" if nonce and same(mac, self._device_mac(username, nonce)) else None

    def _device_mac(self, username: str, nonce: str) -> str:
        return hmac.new(self._device_secret, f"{username}\0{nonce}".encode(), "sha256").hexdigest()

    @contextlib.asynccontextmanager
    async def _turn(self, key: str):
        """One attempt at a time on `key`; Busy where WAITING_PER_TURN already wait."""
        turn = self._turns.setdefault(key, [asyncio.Lock(), 0])
        if turn[1] >= WAITING_PER_TURN:
            raise Busy
        turn[1] += 1
        try:
            async with turn[0]:
                yield
        finally:
            turn[1] -= 1
            if not turn[1]:
                self._turns.pop(key, None)

    async def check_password(self, username: str, password: str, address: str,
                             device_cookie: str | None = None) -> Caller | None:
        """The caller, or None for a wrong username or password; checked in its turn, after its delay.
        Busy where too many attempts wait their turn."""
        device = self.device(username, device_cookie)
        # an address past its free failures takes one turn for all its attempts, whatever the names
        # (breaker 55a F2: guesses at a random name each from one address waited their delays side by
        # side, 16 password checks a second, and every other login queued behind them for 13-89 s)
        suspect = device is None and self._recent(f"addr:{address}") >= FREE_PER_ADDRESS
        async with self._turn(f"addr:{address}") if suspect else contextlib.nullcontext(), \
                self._turn(device or f"user:{username} addr:{address}"):
            await asyncio.sleep(self.delay(username, address, device))
            network = f"net:{_network(address)}"
            failed = (device,) if device else (f"user:{username}", f"addr:{address}", network)
            account = await anyio.to_thread.run_sync(self.store.account, username)
            # its place among the checks waiting for a hashing thread: a browser that logged into the account
            # before first, then by the recent failures of its address, of the account, of its network
            place = (device is None, self._recent(f"addr:{address}"), self._recent(f"user:{username}"),
                     self._recent(network))
            if account is None:  # a wrong name waits its place and a check's time, and costs no check
                async with self._hasher_turn(place):  # (breaker 56a F1: 800 random names from fresh addresses
                    pass                              # held honest logins 19-61 s behind their checks)
                await asyncio.sleep(self._check_seconds)
                self._count(*failed)
                return None
            if not await self._verified(account["hash"], password, place):
                self._count(*failed)
                return None
            self._count(f"ok:{username}")
        return Caller(account["username"], account["role"], account["team_id"], hash=account["hash"])

    async def _verified(self, stored: str, password: str, place: tuple) -> bool:
        async with self._hasher_turn(place):
            started = time.monotonic()
            verified = await asyncio.get_running_loop().run_in_executor(self._hashing, self._verify, stored, password)
            self._check_seconds = 0.8 * self._check_seconds + 0.2 * (time.monotonic() - started)
            return verified

    @contextlib.asynccontextmanager
    async def _hasher_turn(self, place: tuple):
        """A hashing thread, as soon as one is free and no check waits before this one (those of a lower
        `place`, then the earlier)."""
        if self._free_hashers and not self._waiting_checks:
            self._free_hashers -= 1
        else:
            turn = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting_checks, (place, next(self._arrivals), turn))
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():  # (given a thread as it was cancelled: pass it on)
                    self._next_check()
                raise
        try:
            yield
        finally:
            self._next_check()

    def _next_check(self) -> None:
        """A hashing thread is free: to the first waiting check still waiting, else kept."""
        while self._waiting_checks:
            turn = heapq.heappop(self._waiting_checks)[2]
            if not turn.done():
                turn.set_result(None)
                return
        self._free_hashers += 1

    def _verify(self, stored: str, password: str) -> bool:
        from argon2.exceptions import VerificationError, InvalidHashError

        try:
            return self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    # sessions
    def new_session(self, caller: Caller) -> str:
        """A new session's token; store.DiskFull where the store's disk is under its floor. The expired
        sessions go, and the account's oldest past SESSIONS_PER_ACCOUNT (their streams end)."""
        self.store.room()
        token = secrets.token_urlsafe(32)
        with self.store.write() as db:
            db.execute("DELETE FROM sessions WHERE created <= ?", (time.time() - SESSION_DAYS * 86400,))
            db.execute("INSERT INTO sessions (token, username, csrf, created) VALUES (?, ?, ?, ?)",
                       (digest(token), caller.username, secrets.token_urlsafe(24), time.time()))
            ended = {row[0] for row in db.execute(
                "SELECT token FROM sessions WHERE username = ? ORDER BY created DESC, rowid DESC LIMIT -1 OFFSET ?",
                (caller.username, SESSIONS_PER_ACCOUNT))}
            db.executemany("DELETE FROM sessions WHERE token = ?", [(ended_token,) for ended_token in ended])
        self.end_streams(lambda stream: stream.session in ended)
        return token

    def end_session(self, token: str) -> None:
        with self.store.write() as db:
            db.execute("DELETE FROM sessions WHERE token = ?", (digest(token),))
        self.end_streams(lambda stream: stream.session == digest(token))

    def session_holds(self, session: str) -> bool:
        """Whether the session of this digest is still one (not ended, no new password, not expired)."""
        return self.store.row("SELECT 1 FROM sessions WHERE token = ? AND created > ?", session,
                              time.time() - SESSION_DAYS * 86400) is not None

    def streaming(self, token: str | None, caller: Caller, make_room: bool = True) -> Stream | None:
        """A new event stream of `caller`, on its session `token` (a cookie's) or, for a caller of HTTP
        Basic (whatever cookie came along), on its password. Where the session's streams, or its
        owner's (its team's; the coach's account's), are at their most, `make_room` ends their oldest
        (a page's stream: a browser's new tab), else the new one is refused, None (the API's feed: a
        client that reconnects at once would end the next oldest, and so on without end)."""
        if caller.team_id is not None:
            owner, most = f"team:{caller.team_id}", STREAMS_PER_TEAM
        else:
            owner, most = f"user:{caller.username}", STREAMS_PER_COACH
        opened = Stream(self, owner, digest(token) if token and not caller.hash else None, caller)
        caps = [(lambda stream: stream.owner == owner, most)]
        if opened.session is not None:
            caps.insert(0, (lambda stream: stream.session == opened.session, STREAMS_PER_SESSION))
        with self._lock:
            for same, cap in caps:
                theirs = [stream for stream in self._streams if same(stream)]
                if len(theirs) >= cap:
                    if not make_room:
                        return None
                    theirs[0].ended = theirs[0].crowded = True
                    self._streams.remove(theirs[0])
            self._streams.append(opened)
        return opened

    def end_streams(self, which) -> None:
        """End the open streams `which` says (their loops see it at their next look)."""
        with self._lock:
            for stream in [stream for stream in self._streams if which(stream)]:
                stream.ended = True
                self._streams.remove(stream)

    def from_session(self, token: str | None) -> Caller | None:
        if not token:
            return None
        row = self.store.row("SELECT s.csrf, a.username, a.role, a.team_id FROM sessions s JOIN accounts a "
                             "ON a.username = s.username WHERE s.token = ? AND s.created > ?", digest(token),
                             time.time() - SESSION_DAYS * 86400)
        return Caller(row["username"], row["role"], row["team_id"], row["csrf"]) if row else None

    async def from_basic(self, header: str, address: str) -> Caller | None:
        """HTTP Basic credentials (the CLICS API's clients)."""
        try:
            scheme, _, encoded = header.partition(" ")
            if scheme.lower() != "basic":
                return None
            username, _, password = base64.b64decode(encoded, validate=True).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            return None
        username, password = username[:USERNAME_CAP], password[:PASSWORD_CAP]  # (as the login form cuts them:
        # each failure keeps its username for WINDOW, and 40 KB names grew the server by 42 MB a minute, breaker 52b)
        key = digest(f"{username}\0{password}")
        account = await anyio.to_thread.run_sync(self.store.account, username)
        with self._lock:
            until, stored = self._remembered.get(key, (0.0, ""))
        if account is not None and until > time.time() and stored == account["hash"]:  # (a new password: not this)
            with self._lock:  # (remembered while the client keeps asking: breaker 56c F3, a flood of guesses at
                self._remembered[key] = (time.time() + REMEMBERED, stored)  # the real names held each new check 9-29 s)
            return Caller(account["username"], account["role"], account["team_id"], hash=stored)
        try:
            async with self._checking.setdefault(key, asyncio.Lock()):  # a client's parallel first requests: one check
                with self._lock:
                    until, stored = self._remembered.get(key, (0.0, ""))
                if account is not None and until > time.time() and stored == account["hash"]:
                    return Caller(account["username"], account["role"], account["team_id"], hash=stored)
                caller = await self.check_password(username, password, address)
                if isinstance(caller, Caller):
                    with self._lock:
                        self._remembered[key] = (time.time() + REMEMBERED, caller.hash)
        finally:  # (however it ends: a Busy one left its lock behind, 8.6 MB for 20,000 of them, breaker 52b)
            self._checking.pop(key, None)
        return caller


def same(given: str | None, expected: str) -> bool:
    return bool(given) and bool(expected) and hmac.compare_digest(given.encode(), expected.encode())


def _network(address: str) -> str:
    """The /24 (IPv4) or /64 (IPv6) network of a client's address; the address itself when it is none."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    return str(ipaddress.ip_network(f"{ip}/{24 if ip.version == 4 else 64}", strict=False))
