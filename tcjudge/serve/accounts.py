"""Contest accounts: random passwords, stored as argon2id hashes in the contest's store, handed out as
a CSV (`team,username,password`: a contract; a cell that a spreadsheet would take for a formula
starts with a quote, csvfiles.py), the coach's (`username,password`) and printable HTML slips, which
say the address to open: where `judge serve` listens (slips_url)."""

from __future__ import annotations

import csv
import io
import re
import secrets
import sys
import unicodedata
from pathlib import Path

from ..errors import JudgeInputError
from .csvfiles import csv_text, unquoted

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off a slip
PASSWORD_LENGTH = 12  # 31^12: about 59 bits
DEFAULT_URL = "http://127.0.0.1:8000/"  # where judge serve listens without --host and --port
SERVED_AT, SLIPS_SAY = "served_at", "slips_url"  # the store's meta: where judge serve last listened; the slips' guess


# a username is an account's id in the contest API (CLICS's identifier, ASCII; breaker 56d F7: a Cyrillic or
# fullwidth look-alike of another team's was taken, and '.hidden' broke the API's id pattern)
CLICS_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,35}", re.ASCII)


def new_password() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(PASSWORD_LENGTH))


def hasher():
    """argon2id with OWASP's minimum for a server (19 MiB, 2 passes, 1 lane): a verification costs
    about 30 ms of one core, where the library's defaults (64 MiB, 3 passes, 4 lanes) cost 250 ms of
    CPU, and 100 teams' first API requests in a burst waited half a minute for them. The passwords are
    ours, random, about 59 bits: the hash's work factor is not what protects them. A hash made with
    other parameters (an older store's) still verifies: they are written in the hash."""
    from argon2 import PasswordHasher

    return PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


def read_teams(path: Path) -> list[tuple[str, str | None]]:
    """(team name, username or None) from a CSV with a `team` column (and optionally `username`: the
    accounts.csv written before is one, its names read as they were before csv_text quoted them); a
    file without that header: one team name per line. What it cannot read as the coach meant it is
    refused, naming its line (breaker 56d: a `team;username` header, or `name,user`, read as teams; an
    unterminated quote took the next line into a name; a UTF-16 file was a traceback)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as file:
            text = file.read()
    except OSError as err:
        raise JudgeInputError(f"cannot read: {err.strerror}", path) from None
    except UnicodeDecodeError:
        raise JudgeInputError("not UTF-8 text: save it as UTF-8 (a spreadsheet's 'CSV UTF-8')", path) from None
    reader = csv.reader(io.StringIO(text))
    rows, line = [], 1
    for row in reader:  # (each with the line it starts on)
        rows.append((line, row))
        line = reader.line_num + 1
    header = [cell.strip().lower() for cell in rows[0][1]] if rows else []
    if "team" in header:
        team_at, user_at = header.index("team"), header.index("username") if "username" in header else None
        body = rows[1:]
    else:
        first = rows[0][1] if rows else []
        if len(first) == 1 and any(sign in first[0] for sign in ";\t") and "team" in first[0].lower():
            raise JudgeInputError(f"its columns are separated by {'a tab' if chr(9) in first[0] else 'a semicolon'}: "
                                  "write it with commas (CSV)", path, 1)
        team_at, user_at, body = 0, None, rows
    teams, seen = [], {}  # a username (in any case), a team's name -> (its line, as written)
    for number, row in body:
        if not row or not any(cell.strip() for cell in row):
            continue
        if user_at is None and "team" not in header and sum(bool(cell.strip()) for cell in row) > 1:
            raise JudgeInputError(f"{len(row)} columns, and no first line naming a 'team' column (and a "
                                  "'username' one): give that line, or one team name per line", path, number)
        name = row[team_at].strip() if team_at < len(row) else ""
        name = unquoted(name) if "password" in header else name  # (our accounts.csv)
        user = row[user_at].strip() if user_at is not None and user_at < len(row) and row[user_at].strip() else None
        if not name:
            raise JudgeInputError("a row without a team name", path, number)
        if any(unicodedata.category(character) == "Cc" and character != "\t" for character in name):
            raise JudgeInputError(f"team {name!r}: a line break or control character in its name (a quote "
                                  "not closed?)", path, number)
        if user is not None and not CLICS_ID.fullmatch(user):
            raise JudgeInputError(f"username {user!r}: 1 to 36 of the ASCII letters, digits, '_', '.' and '-', "
                                  "not starting with '.' or '-' (an id of the contest API)", path, number)
        for key, said in ((("team", name), f"team {name!r}"), (("username", user.casefold() if user else None),
                                                               f"username {user!r}")):
            if key[1] is None:
                continue
            if key in seen:  # (breaker 56b F1: RED below red was refused later, after red's team was made)
                earlier, written = seen[key]
                also = f"as {written!r}, line {earlier}" if written != (user if key[0] == "username" else name) \
                    else f"line {earlier}"
                raise JudgeInputError(f"{said} is listed twice ({also})", path, number)
            seen[key] = (number, user if key[0] == "username" else name)
        teams.append((name, user))
    if not teams:
        raise JudgeInputError("no teams in the file", path)
    return teams


# letters and signs drawn as blank space (Hangul fillers, blank Braille): a name reads them as a space;
# and what shows nothing at all (the null notehead, the combining grapheme joiner, Khmer's inherent
# vowels, Mongolian's and Unicode's variation selectors; the musical beams' and slurs' U+1D173-U+1D17A
# are format characters, C, already): a team's name (skeleton) and a clarification (pages.readable)
# are read without either
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
INVISIBLE = BLANK | frozenset("\U0001d159\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f"
                              + "".join(map(chr, range(0xFE00, 0xFE10))) + "".join(map(chr, range(0xE0100, 0xE01F0))))

# letters of other scripts (and Latin's small capitals) drawn as a Latin one, and Latin letters and
# digits drawn as each other (I, l and 1; O and 0): a name made of them reads as another (a few of
# Unicode's confusables, UTS #39, of the scripts a name is likeliest to borrow from). I and its
# look-alikes go to l before casefolding, which would make them i.
LOOKALIKES = {
    "Cyrillic": ("АВЕКМНОРСТХаеорсухіјѕԁӏЅІЈҮүһԛԝԜԌѵ", "ABEKMHOPCTXaeopcyxijsdlSlJYyhqwWGv"),
    "Greek": ("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοινρυαϲϹϳͿ", "ABEZHlKMNOPTYXoivpuacCjJ"),
    "Armenian": ("ՕօՍսՏհոցզ", "OoUuShngq"),
    "Cherokee": ("ᎠᎡᎢᎪᎫᎬᎳᎷᎻᏀᏃᏒᏔᏕᏙᏚᏞᏟᏢᏦᏴ", "DRTAJEWMHGZRWSVSLCPKB"),
    "Lisu": ("ꓐꓑꓓꓔꓖꓗꓙꓚꓜꓝꓟꓠꓡꓢꓣꓦꓧꓪꓫꓬꓮꓰꓲꓳꓴ", "BPDTGKJCZFMNLSRVHWXYAElOU"),
    "Runic": ("ᚱᛒᛁᛖᛕ", "RBlMK"),
    "Canadian syllabics": ("ᖇᑭᑯᕼᒪᑕᗅᗷᗞᒍ", "RPdHLCABDJ"),
    "Tifinagh": ("ⵔⵏ", "Ol"),
    "Latin": ("ᴄᴏᴜᴠᴡᴢɪʏɑɡɩʋI10|ǀ", "couvwziyagivlloll"),
    "digits drawn as a circle": ("০੦૦୦௦౦೦൦๐໐၀", "ooooooooooo"),
}
LOOKALIKE = str.maketrans("".join(theirs for theirs, _ in LOOKALIKES.values()),
                          "".join(latin for _, latin in LOOKALIKES.values()))
def skeleton(name: str) -> str:
    """What a name looks like: NFKC, without what shows nothing (Unicode's controls and format characters:
    zero-width spaces and joiners, bidi controls; INVISIBLE; a mark with nothing to mark), each run of
    spaces and BLANK one space (HTML shows one), "rn" as "m" and "cl" as "d", casefolded, LOOKALIKES as
    the Latin they look like (once folded too: Cherokee's small letters fold to its capitals)."""
    import unicodedata

    kept: list[str] = []
    for character in unicodedata.normalize("NFKC", name):
        kind = unicodedata.category(character)[0]
        if kind == "Z" or character.isspace() or character in BLANK:  # (a tab, a line break: controls)
            if kept and kept[-1] != " ":
                kept.append(" ")
        elif not (kind == "C" or character in INVISIBLE or (kind == "M" and (not kept or kept[-1] == " "))):
            kept.append(character)
    text = "".join(kept).strip().replace("i\u0307", "i").replace("j\u0307", "j")  # (their dot, drawn again)
    text = text.replace("rn", "m").replace("cl", "d")  # (small letters only: 'RN' looks like no 'M')
    for _ in range(2):
        text = text.translate(LOOKALIKE).casefold()
    return text


def lookalikes(names: list[str], given: list[str] | None = None) -> None:
    """A warning for each two names that differ only by invisible characters or look-alike letters
    (breaker 50c: 'Zed' and 'Zed' with a zero-width space, 'Ped Rovers' with a Cyrillic P, were taken
    without a word): a team may mean to pass for another on the scoreboard. Not refused: the coach's
    list may hold two such teams on purpose. `given`: only pairs with one of these (a run's own file:
    breaker 56e F3, a pair warned of once was warned of again at every later run)."""
    seen: dict[str, str] = {}
    mentioned = set(names if given is None else given)
    for name in dict.fromkeys(names):
        other = seen.setdefault(skeleton(name), name)
        if other != name and (other in mentioned or name in mentioned):
            print(f"judge: warning: teams {ascii(other)} and {ascii(name)} look alike (they differ only by invisible "
                  "characters or letters of another script that look the same)", file=sys.stderr)


def make_accounts(store, teams: list[tuple[str, str | None]], coach: bool | None = True) -> list[tuple[str, str, str]]:
    """An account per team with a new password (a team's account that exists gets a new one, which
    ends its sessions; one under another username is renamed); `coach`: the coach's account too (team
    ''; None: only where it has none yet, as the transaction finds it: breaker 56e F1, four first runs at
    once each made it, and three of their coach.csv passwords did not work). Returns (team, username,
    password). No team is added once the contest is finalized: its event would follow the feed's end of
    updates. Every username is decided, and the file refused, within the
    one transaction that writes them all, so `judge accounts` run twice at once on a store writes one
    after the other, and a refused file writes nothing (breaker 56d F2: two runs at once both handed out
    team001-team020, and half of the passwords did not work; 56b F1: a refused file's first team was made)."""
    lookalikes([row["name"] for row in store.rows("SELECT name FROM teams ORDER BY id")] + [team for team, _ in teams],
               [store.stored_name(team) for team, _ in teams])
    ph = hasher()  # (the hashes, tens of milliseconds each, made before the transaction: it holds the store)
    passwords = [new_password() for _ in range(len(teams) + (coach is not False))]
    hashes = [ph.hash(password) for password in passwords]
    with store.write() as db:  # (the finalize looked at in it too: not between a look and the write)
        new = [team for team, _ in teams if not store.has_team_in(db, team)]
        if new and store.meta_in(db, "finalized") is not None:
            raise JudgeInputError(f"the contest is finalized: no team is added to its results (team {new[0]!r} is new)")
        named = _usernames(store, db, teams)
        made = []
        for (team, username), password, hashed in zip(named, passwords, hashes):
            team_id = store.team_id(db, team)
            store.remove_accounts_in(db, team_id, keep=username)  # (breaker 56d F3: the old one went on working)
            store.put_account_in(db, username, team_id, "team", hashed)
            made.append((team, username, password))
        if coach or (coach is None and "coach" not in store.accounts_in(db)):
            store.put_account_in(db, "coach", None, "coach", hashes[-1])
            made.append(("", "coach", passwords[-1]))
    return made


def _usernames(store, db, teams: list[tuple[str, str | None]]) -> list[tuple[str, str]]:
    """Each team's username: its own, else its account's, else the first `teamNNN` free (not an
    account's, nor asked for by another row); refused where it is another team's or the coach's in any
    case (breaker 55d: an account moved to another team, silently; 55e: BLUE and COACH beside blue and
    coach; 56d F1: `coach` on a store whose coach's account was not made yet)."""
    owners = store.accounts_in(db)  # username -> its team's name ('' for the coach)
    owners.setdefault("coach", "")
    asked = {username.casefold() for _, username in teams if username}
    named = []
    for number, (team, username) in enumerate(teams, 1):
        stored = store.stored_name(team)
        username = username or _username_of(owners, asked, stored, number)
        same = next((name for name in owners if name.casefold() == username.casefold() and owners[name] != stored), None)
        if same is not None:
            whose = "the coach" if not owners[same] else repr(owners[same])
            raise JudgeInputError(f"username {username!r} is {'' if same == username else f'{same!r} but for case, '}"
                                  f"the account of {whose}: give team {team!r} another, or none")
        owners = {name: owner for name, owner in owners.items() if owner != stored}  # (one account a team)
        owners[username] = stored
        named.append((team, username))
    return named


def _username_of(owners: dict[str, str], asked: set[str], team: str, number: int) -> str:
    """A team given no username: the one its account has, else the first `teamNNN` from its row's number on
    that no account has and no row asks for. Breaker 55d: a late team's file of one row made it team001,
    which took the first team's account (its sessions ended, it left every scoreboard, its first solve
    went to another); 56d F8: `A,` then `B,team001` gave A team001 and refused B."""
    own = sorted(name for name, owner in owners.items() if owner == team)
    if own:
        return own[0]
    taken = {name.casefold() for name in owners} | asked
    while f"team{number:03}" in taken:
        number += 1
    return f"team{number:03}"


def write_accounts(out: Path, contest, accounts: list[tuple[str, str, str]], url: str) -> list[Path]:
    """DIR/accounts.csv (the teams: `team,username,password`), DIR/coach.csv (the coach's: `username,password`,
    no team), DIR/slips.html."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    teams = [row for row in accounts if row[1] != "coach"]
    coach = [row[1:] for row in accounts if row[1] == "coach"]
    written = []
    for name, header, rows in (("accounts.csv", ["team", "username", "password"], teams),
                               ("coach.csv", ["username", "password"], coach)):
        if not rows and name == "coach.csv":
            continue
        written.append(_write(out / name, csv_text(header, rows)))
    environment = Environment(loader=PackageLoader("tcjudge.serve"), autoescape=select_autoescape(default=True))
    page = environment.get_template("slips.html").render(contest=contest, accounts=teams, url=url)
    written.append(_write(out / "slips.html", page))
    return written


def slips_url(store, given: str | None) -> str:
    """The address the slips say: --url (a reverse proxy's), else where `judge serve` last listened for
    this contest, else where it listens by default (said in a note: issue 47, the slips said
    127.0.0.1:8000 whatever the server's address, and nothing said so). The store keeps a guess, so
    that a server that listens elsewhere says so (served_at)."""
    if given:
        store.set_meta(SLIPS_SAY, "")
        return given
    url = store.meta(SERVED_AT)
    print(f"judge: note: the slips say {url or DEFAULT_URL}, " + ("where judge serve last listened for this contest"
          if url else "where judge serve listens by default") + ": --url gives the address contestants open",
          file=sys.stderr)
    store.set_meta(SLIPS_SAY, url or DEFAULT_URL)
    return url or DEFAULT_URL


def served_at(store, url: str) -> None:
    """A server listens on `url`: kept for the slips made from now on, and a note when slips made
    without --url say another address."""
    store.set_meta(SERVED_AT, url)
    slips = store.meta(SLIPS_SAY)
    if slips and slips != url:
        print(f"judge: note: the slips of judge accounts say {slips}, and this server listens on {url}: tell the "
              "contestants, or make new slips (and passwords) with judge accounts --url", file=sys.stderr, flush=True)


def _write(path: Path, text: str) -> Path:
    try:
        path.write_text(text, encoding="utf-8")
        path.chmod(0o600)  # passwords in clear: for the coach's eyes
    except OSError as err:
        raise JudgeInputError(f"cannot write: {err.strerror}", path) from None
    return path
