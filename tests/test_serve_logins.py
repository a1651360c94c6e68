"""Logins under attack (tcjudge/serve/auth.py): a burst of guesses takes its turns, a browser that
logged in before is not queued behind anyone's guessing, and one team's logins neither crowd the
others' out nor pile up sessions. Findings of outside testers: breaker 47c's F13, breaker 50c's F11."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from tcjudge.serve import auth  # noqa: E402

from .test_serve import Site, login  # noqa: E402


@pytest.fixture()
def quick(monkeypatch):
    """The delays' rule at a test's scale."""
    monkeypatch.setattr(auth, "FIRST_DELAY", 0.001)
    monkeypatch.setattr(auth, "MOST_DELAY", 0.004)


def waits_of(checker: auth.Auth) -> list[float]:
    """The delay each attempt of `checker` waits, in the order the attempts are checked."""
    waits, delay = [], checker.delay

    def recorded(*args):
        waits.append(delay(*args))
        return waits[-1]

    checker.delay = recorded
    return waits


async def burst(checker: auth.Auth, count: int, username: str = "red", password: str = "guess",
                device: str | None = None) -> list:
    attempts = [checker.check_password(username, password, "10.0.0.1", device) for _ in range(count)]
    return await asyncio.gather(*attempts, return_exceptions=True)


def test_guesses_sent_at_once_take_their_turns_and_each_waits_its_own_delay(tmp_path, quick):
    """Breaker 47c F13: 40 wrong passwords sent at once all waited the one delay read before any
    failed (4.1 s for 40, 5-10 guesses a second). Now the sixth waits for the fifth's failure."""
    checker = auth.Auth(Site(tmp_path).store)
    waits = waits_of(checker)
    assert asyncio.run(burst(checker, auth.WAITING_PER_TURN)) == [None] * auth.WAITING_PER_TURN
    assert waits == [0, 0, 0, 0, 0, 0.001, 0.002, 0.004]


def test_past_the_waiting_attempts_an_account_refuses_more_at_once(tmp_path, quick):
    checker = auth.Auth(Site(tmp_path).store)
    outcomes = asyncio.run(burst(checker, auth.WAITING_PER_TURN + 3))
    assert outcomes.count(None) == auth.WAITING_PER_TURN
    assert [type(outcome) for outcome in outcomes if outcome is not None] == [auth.Busy] * 3
    assert checker._turns == {}  # (no turn is kept once its attempts are over)


def test_a_browser_that_logged_in_before_is_neither_queued_nor_slowed_by_anyones_guesses(tmp_path, quick):
    site = Site(tmp_path)
    checker = auth.Auth(site.store)
    own = checker.device_cookie("red")
    assert checker.device("red", own) and checker.device("blue", own) is None  # (for its account alone)
    assert checker.device("red", own.split(".")[0] + ".0") is None and checker.device("red", "") is None

    async def guessing_while_the_owner_logs_in():
        guesses = asyncio.gather(*[checker.check_password("red", "guess", "10.0.0.9") for _ in range(8)])
        await asyncio.sleep(0)  # (the guesses hold the account's turn and its queue is full)
        owner = await checker.check_password("red", site.passwords["red"], "10.0.0.9", own)
        return owner, await guesses

    waits = waits_of(checker)
    owner, guesses = asyncio.run(guessing_while_the_owner_logs_in())
    assert owner is not None and owner.username == "red" and guesses == [None] * 8
    assert waits[0] == 0  # the owner's, first, at once: the guesser's failures are on the account, not on this device
    assert checker.delay("red", "10.0.0.9", checker.device("red", own)) == 0
    outcomes = asyncio.run(burst(checker, auth.WAITING_PER_TURN + 1, password=site.passwords["red"]))
    assert isinstance(outcomes[-1], auth.Busy)  # (without the cookie: the account's one turn, as anyone's)


def test_a_login_gives_the_browser_a_device_cookie_once(tmp_path):
    site = Site(tmp_path)
    client = site.client()
    assert login(client, "red", site.passwords["red"]).status_code == 303
    device = [name for name in client.cookies if name.startswith(auth.DEVICE_COOKIE)]
    assert len(device) == 1 and site.app.state.serve.auth.device("red", client.cookies[device[0]])
    first = client.cookies[device[0]]
    response = login(client, "red", site.passwords["red"])
    assert response.status_code == 303 and auth.DEVICE_COOKIE not in response.headers.get("set-cookie", "").split("=")[0]
    assert client.cookies[device[0]] == first


def test_a_login_refused_as_busy_says_so_on_its_page(tmp_path, monkeypatch):
    site = Site(tmp_path)

    async def busy(*args):
        raise auth.Busy

    monkeypatch.setattr(site.app.state.serve.auth, "check_password", busy)
    response = login(site.client(), "red", site.passwords["red"])
    assert response.status_code == 429 and "try again in a few seconds" in response.text


def test_one_teams_own_logins_are_slowed_past_the_free_ones(tmp_path, quick):
    """Breaker 50c F11: a team's right password from 100 connections, 225 logins in 25 s, each an argon2
    check, and every other team's login waited 5-17 s behind them. Now they take turns, and past
    FREE_LOGINS_PER_ACCOUNT each waits; another account is not slowed."""
    site = Site(tmp_path)
    checker = auth.Auth(site.store)
    waits = waits_of(checker)
    for _ in range(auth.FREE_LOGINS_PER_ACCOUNT + 3):
        assert asyncio.run(checker.check_password("red", site.passwords["red"], "10.0.0.1")) is not None
    assert waits == [0] * auth.FREE_LOGINS_PER_ACCOUNT + [0.001, 0.002, 0.004]
    assert checker.delay("blue", "10.0.0.1") == 0


def test_an_account_keeps_its_newest_sessions_only(tmp_path):
    site = Site(tmp_path)
    checker = site.app.state.serve.auth
    red = site.client("red")  # the oldest session, with a page's event stream open
    oldest = next(value for name, value in red.cookies.items() if name.startswith(auth.SESSION_COOKIE))
    stream = checker.streaming(oldest, checker.from_session(oldest))
    caller = auth.Caller("red", "team", site.team("red"))
    tokens = [checker.new_session(caller) for _ in range(auth.SESSIONS_PER_ACCOUNT + 4)]
    assert len(site.store.rows("SELECT * FROM sessions WHERE username = 'red'")) == auth.SESSIONS_PER_ACCOUNT
    assert all(checker.from_session(token) for token in tokens[-auth.SESSIONS_PER_ACCOUNT:])
    assert not any(checker.from_session(token) for token in tokens[:4])
    assert red.get("/problems").status_code == 303 and stream.ended  # the oldest, logged out, its stream ended
    assert site.client("blue").get("/problems").status_code == 200  # another account's are its own


@pytest.mark.parametrize("guesser, owner", [("10.0.0.9", "10.0.0.1"), ("2001:db8:1::66", "2001:db8:1::67")])
def test_a_guesser_who_fills_an_accounts_queue_does_not_keep_its_owner_out(tmp_path, quick, guesser, owner):
    """Breaker 52b: with one turn per account, ten connections of wrong guesses kept its queue full,
    and the owner's right password (no device cookie: a first login, a server restarted, the API)
    was 429 for as long as they went on. Another address has a turn of its own, in the guesser's IPv6
    /64 too (breaker 53b F4: with a /64 taken as one address, ec6785c, against breaker 52d N5's guess
    rate, one host of a lab's /64 kept every other host's first login out; the guess rate that grows
    with a guesser's addresses costs nothing against 59-bit passwords, a lockout costs a contest)."""
    site = Site(tmp_path)
    checker = auth.Auth(site.store)

    async def guessing_while_the_owner_logs_in():
        guesses = asyncio.gather(*[checker.check_password("red", "guess", guesser) for _ in range(20)],
                                 return_exceptions=True)
        await asyncio.sleep(0)
        owned = await checker.check_password("red", site.passwords["red"], owner)
        return owned, await guesses

    owned, guesses = asyncio.run(guessing_while_the_owner_logs_in())
    assert owned is not None and owned.username == "red"
    assert sum(isinstance(guess, auth.Busy) for guess in guesses) == 20 - auth.WAITING_PER_TURN  # (its own queue)


def test_http_basic_reads_a_username_as_the_form_does_and_keeps_nothing_of_a_refused_request(tmp_path, quick):
    """Breaker 52b: Basic usernames were not cut (each failure keeps its name for 15 minutes: 40 KB names
    grew the server by 42 MB a minute), and a request refused as Busy left its check's lock behind."""
    import base64

    checker = auth.Auth(Site(tmp_path).store)
    header = "Basic " + base64.b64encode(("x" * 40000 + ":guess").encode()).decode()
    assert asyncio.run(checker.from_basic(header, "10.0.0.1")) is None
    assert max(len(key) for key in checker._failures) <= len("user:") + auth.USERNAME_CAP

    async def many():
        return await asyncio.gather(*[checker.from_basic("Basic " + base64.b64encode(f"red:guess{n}".encode()).decode(),
                                                         "10.0.0.1") for n in range(auth.WAITING_PER_TURN + 4)],
                                    return_exceptions=True)

    assert sum(isinstance(outcome, auth.Busy) for outcome in asyncio.run(many())) == 4
    assert checker._checking == {}


def test_an_address_past_its_free_failures_takes_one_turn_whatever_the_names(tmp_path, quick):
    """Breaker 55a F2: guesses from one address, a random name each, each had a turn of its own and
    waited its delay beside the others: 16 password checks a second from one address, and every other
    login waited behind them on the two hashing threads (13-89 s). Past FREE_PER_ADDRESS failures, an
    address's attempts take one turn: one check at a time, each after its delay."""
    checker = auth.Auth(Site(tmp_path).store)
    for number in range(auth.FREE_PER_ADDRESS):
        assert asyncio.run(checker.check_password(f"nobody{number}", "guess", "10.0.0.9")) is None
    checking, most, verify = [0], [0], checker._verify

    def counted(*args):
        checking[0] += 1
        most[0] = max(most[0], checking[0])
        try:
            return verify(*args)
        finally:
            checking[0] -= 1

    checker._verify = counted

    async def flood():
        return await asyncio.gather(*(checker.check_password(("red", "blue")[n % 2], f"guess{n}", "10.0.0.9")
                                      for n in range(auth.WAITING_PER_TURN + 4)), return_exceptions=True)

    outcomes = asyncio.run(flood())
    assert most[0] == 1  # (before: 2, the hashing threads both on one address's guesses)
    assert outcomes.count(None) == auth.WAITING_PER_TURN
    assert sum(isinstance(outcome, auth.Busy) for outcome in outcomes) == 4  # the rest refused at once
    assert asyncio.run(checker.check_password("red", "guess", "10.0.0.10")) is None  # another address: its own


def one_slow_hasher(checker: auth.Auth) -> list[str]:
    """One hashing thread, each check 50 ms: the passwords checked, in their order (the order shows)."""
    checker._free_hashers = 1
    checked, verify = [], checker._verify

    def slow(stored, password):
        time.sleep(0.05)
        checked.append(password)
        return verify(stored, password)

    checker._verify = slow
    return checked


def test_a_login_from_an_address_that_has_not_failed_goes_before_other_addresses_guesses(tmp_path, quick, monkeypatch):
    """Breaker 55c F3: guesses from 40-60 addresses of one /24, each spending its free failures, queued
    every honest login behind their password checks on the hashing threads (2.6-17 s). The checks
    waiting go in the order of their address's recent failures, then its network's: the honest login
    is checked next, before the guesses that came first."""
    site = Site(tmp_path)
    checker = auth.Auth(site.store)
    order = one_slow_hasher(checker)
    for host in range(1, 11):  # ten guessing addresses, each with a failure already
        checker._count(f"addr:10.0.0.{host}", "net:10.0.0.0/24")

    async def flood_then_login():
        guesses = [asyncio.create_task(checker.check_password("blue", f"guess{host}", f"10.0.0.{host}"))
                   for host in range(1, 11)]
        await asyncio.sleep(0.01)  # (every guess waits for the hashing thread now)
        honest = await checker.check_password("red", site.passwords["red"], "10.0.1.7")
        await asyncio.gather(*guesses)
        return honest

    assert asyncio.run(flood_then_login()) is not None
    assert order.index(site.passwords["red"]) <= 1, order  # (before: the last, behind all ten guesses)


def test_guesses_at_names_of_no_account_cost_no_password_check(tmp_path, quick):
    """Breaker 56a F1: 800 connections of random names, each from a fresh address (so none had failed
    before, as the honest login's had not), held honest logins 19-61 s behind their checks. An attempt at a
    name that is no account's waits its place and a check's time, and costs no check."""
    site = Site(tmp_path)
    checker = auth.Auth(site.store)
    checked = one_slow_hasher(checker)

    async def flood_then_login():
        guesses = [asyncio.create_task(checker.check_password(f"random{n}", "guess", f"10.{n}.0.1"))
                   for n in range(30)]
        await asyncio.sleep(0.01)
        honest = await checker.check_password("red", site.passwords["red"], "10.200.0.1")
        assert await asyncio.gather(*guesses) == [None] * 30
        return honest

    assert asyncio.run(flood_then_login()) is not None
    assert checked == [site.passwords["red"]]  # (before: 30 checks of a made-up hash, before the honest one)


def test_an_api_clients_password_is_remembered_while_it_keeps_asking(tmp_path, monkeypatch):
    """Breaker 56c F3: under a flood of guesses at the real names, an API client's first request waited
    9-29 s for its password's check, and so did every request once its remembered check expired (5 minutes
    after the check, however often it asked). It is remembered REMEMBERED seconds after its last request."""
    import base64

    monkeypatch.setattr(auth, "REMEMBERED", 3.0)
    site = Site(tmp_path)
    checker = auth.Auth(site.store)
    checks, verify = [], checker._verify
    checker._verify = lambda *args: checks.append(1) or verify(*args)
    header = "Basic " + base64.b64encode(f"red:{site.passwords['red']}".encode()).decode()
    for pause in (0, 2, 2):  # (asked at 0, 2 and 4 s: each within 3 s of the one before, the last 4 s after the check)
        time.sleep(pause)
        assert asyncio.run(checker.from_basic(header, "10.0.0.1")).username == "red"
    assert len(checks) == 1  # (before: checked again at 4 s)
