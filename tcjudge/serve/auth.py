"""Who is asking: sessions (random server-side tokens, kept hashed, revocable), CSRF tokens, HTTP
Basic for the CLICS API, and the login throttle (per account and per address).

A password is checked with argon2id off the event loop (a verification costs tens of milliseconds of
CPU and 64 MiB), at most one per CPU at a time: a burst of logins waits its turn instead of taking
every thread of the pool the pages need. An API client sends its password with every request: a verified one is remembered (by its
SHA-256 with the username, in memory) for a few minutes, so a client's stream of requests costs one
verification.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import os
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import anyio.to_thread

SESSION_COOKIE = "judge_session"
LOGIN_COOKIE = "judge_login"  # the login form's CSRF token (double-submit: there is no session yet)
WINDOW = 15 * 60  # seconds over which failed logins are counted
PER_ACCOUNT = 5  # failures in the window that lock an account's logins until the window passes
PER_ADDRESS = 20  # ... and an address's
REMEMBERED = 300  # seconds an API client's verified password is remembered
SESSION_DAYS = 7  # a session's life (its cookie's too)


@dataclass
class Caller:
    username: str
    role: str  # team or coach
    team_id: int | None
    csrf: str = ""  # the session's CSRF token (none for HTTP Basic: no cookie, so no cross-site request)

    @property
    def coach(self) -> bool:
        return self.role == "coach"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Auth:
    def __init__(self, store):
        self.store = store
        self._failures: dict[str, list[float]] = {}
        self._remembered: dict[str, tuple[float, str]] = {}  # digest -> (until, the hash it matched)
        self._checking: dict[str, asyncio.Lock] = {}  # digest -> the check of those credentials under way
        self._lock = threading.Lock()
        self._hashing = ThreadPoolExecutor(os.cpu_count() or 1, thread_name_prefix="argon2")
        from .accounts import hasher

        self._hasher = hasher()

    # the throttle
    def throttled(self, username: str, address: str) -> bool:
        with self._lock:
            now = time.time()
            for key in (f"user:{username}", f"addr:{address}"):
                self._failures[key] = [t for t in self._failures.get(key, []) if now - t < WINDOW]
            return (len(self._failures[f"user:{username}"]) >= PER_ACCOUNT
                    or len(self._failures[f"addr:{address}"]) >= PER_ADDRESS)

    def _failed(self, username: str, address: str) -> None:
        with self._lock:
            for key in (f"user:{username}", f"addr:{address}"):
                self._failures.setdefault(key, []).append(time.time())

    async def check_password(self, username: str, password: str, address: str) -> Caller | None | str:
        """The caller, None for a wrong username or password, or "throttled"."""
        if self.throttled(username, address):
            return "throttled"
        account = await anyio.to_thread.run_sync(self.store.account, username)
        if account is None:
            await self._verified(await anyio.to_thread.run_sync(self._dummy_hash), password)  # the same time for a wrong name
            self._failed(username, address)
            return None
        if not await self._verified(account["hash"], password):
            self._failed(username, address)
            return None
        return Caller(account["username"], account["role"], account["team_id"])

    async def _verified(self, stored: str, password: str) -> bool:
        return await asyncio.get_running_loop().run_in_executor(self._hashing, self._verify, stored, password)

    def _verify(self, stored: str, password: str) -> bool:
        from argon2.exceptions import VerificationError, InvalidHashError

        try:
            return self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    _dummy: str | None = None

    def _dummy_hash(self) -> str:
        if Auth._dummy is None:
            Auth._dummy = self._hasher.hash(secrets.token_hex(8))
        return Auth._dummy

    # sessions
    def new_session(self, caller: Caller) -> str:
        token = secrets.token_urlsafe(32)
        with self.store.write() as db:
            db.execute("INSERT INTO sessions (token, username, csrf, created) VALUES (?, ?, ?, ?)",
                       (digest(token), caller.username, secrets.token_urlsafe(24), time.time()))
        return token

    def end_session(self, token: str) -> None:
        with self.store.write() as db:
            db.execute("DELETE FROM sessions WHERE token = ?", (digest(token),))

    def from_session(self, token: str | None) -> Caller | None:
        if not token:
            return None
        row = self.store.row("SELECT s.csrf, a.username, a.role, a.team_id FROM sessions s JOIN accounts a "
                             "ON a.username = s.username WHERE s.token = ? AND s.created > ?", digest(token),
                             time.time() - SESSION_DAYS * 86400)
        return Caller(row["username"], row["role"], row["team_id"], row["csrf"]) if row else None

    async def from_basic(self, header: str, address: str) -> Caller | None | str:
        """HTTP Basic credentials (the CLICS API's clients)."""
        try:
            scheme, _, encoded = header.partition(" ")
            if scheme.lower() != "basic":
                return None
            username, _, password = base64.b64decode(encoded, validate=True).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            return None
        key = digest(f"{username}\0{password}")
        account = await anyio.to_thread.run_sync(self.store.account, username)
        with self._lock:
            until, stored = self._remembered.get(key, (0.0, ""))
        if account is not None and until > time.time() and stored == account["hash"]:  # (a new password: not this)
            return Caller(account["username"], account["role"], account["team_id"])
        async with self._checking.setdefault(key, asyncio.Lock()):  # a client's parallel first requests: one check
            with self._lock:
                until, stored = self._remembered.get(key, (0.0, ""))
            if account is not None and until > time.time() and stored == account["hash"]:
                return Caller(account["username"], account["role"], account["team_id"])
            caller = await self.check_password(username, password, address)
            if isinstance(caller, Caller):
                with self._lock:
                    self._remembered[key] = (time.time() + REMEMBERED, account["hash"])
        self._checking.pop(key, None)
        return caller


def same(given: str | None, expected: str) -> bool:
    return bool(given) and bool(expected) and hmac.compare_digest(given.encode(), expected.encode())
