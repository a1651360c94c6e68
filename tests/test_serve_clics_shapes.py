"""The CLICS API's JSON against the Contest API 2023-06 (https://ccs-specs.icpc.io/2023-06/contest_api),
on a contest run as people run it: two teams submit (a page, an API POST), the grader judges, a team
asks, the coach answers and broadcasts, freezes, the contest ends, the coach unfreezes and finalizes.
Every endpoint is fetched as the coach and as a team and checked against the spec's tables, restated
below as JSON Schema (the spec's own schemas in icpc/ccs-specs json-schema/ are theirs, not ours to
ship; `CCS_SPECS_SCHEMAS=<that folder>`, or CCS_SPECS_DIR=<a copy of the branch>, also checks against them;
tests/test_serve_check_api.py runs the spec's own check-api.sh). The spec's words beyond one object:
the event feed's latest event of each object is what the endpoint returns, references resolve, a FILE's
href answers its mime type, an error is {code, message}, and `access` lists every property served."""

from __future__ import annotations

import base64
import io
import json
import os
import time
import zipfile
from datetime import datetime
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")
jsonschema = pytest.importorskip("jsonschema")

from starlette.testclient import TestClient  # noqa: E402

from .test_serve import ACCEPTED, WRONG, Site, csrf_of, number_of, submit  # noqa: E402

# --- the spec's types ("JSON property types") --------------------------------------------------------
# TIME: yyyy-mm-ddThh:mm:ss(.uuu)?[+-]zz(:mm)? or Z; "if the optional .uuu is included in any absolute
# timestamp it must be included when outputting all": ours always has it, so the pattern asks for it.
TIME = {"type": "string", "pattern": r"^\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-6]\d\.\d{3}([+-]\d\d(:\d\d)?|Z)$"}
RELTIME = {"type": "string", "pattern": r"^-?\d+:[0-5]\d:[0-5]\d\.\d{3}$"}  # (-)?(h)*h:mm:ss(.uuu)?, ours with .uuu
POSRELTIME = {"type": "string", "pattern": r"^\d+:[0-5]\d:[0-5]\d\.\d{3}$"}
# ID: [a-zA-Z0-9_.-], at most 36, not starting with - or ., not ending with .
ID = {"type": "string", "pattern": r"^[A-Za-z0-9_]([A-Za-z0-9_.-]{0,34}[A-Za-z0-9_-])?$"}
INTEGER0 = {"type": "integer", "minimum": 0}
SECONDS = {"type": "number", "minimum": 0}  # "a non-negative integer multiple of 0.001": checked in _millis
# FILE: href and mime (the properties table), filename, hash, width, height
FILE = {"type": "object", "required": ["href", "mime"], "additionalProperties": False,
        "properties": {"href": {"type": "string"}, "filename": {"type": "string"}, "hash": {"type": ["string", "null"]},
                       "mime": {"type": "string"}, "width": {"type": ["integer", "null"]},
                       "height": {"type": ["integer", "null"]}}}
FILES = {"type": "array", "items": FILE}
# "Known judgement types"
JUDGEMENT_IDS = ("AC RE WA TLE RTE CE APE OLE PE EO IO NO WTL ILE TCO TWA TPE TEO TIO TNO MLE SV IF RCO RWA RPE REO "
                 "RIO RNO CTL JE SE CS").split()
CAPABILITIES = ["contest_start", "contest_thaw", "team_submit", "team_clar", "proxy_submit", "proxy_clar",
                "admin_submit", "admin_clar"]
EVENT_TYPES = ["contest", "judgement-types", "languages", "problems", "groups", "organizations", "teams", "persons",
               "accounts", "state", "submissions", "judgements", "runs", "clarifications", "awards", "commentary"]
# Our extensions ("Clients should accept additional (unknown) properties"), documented in docs/serve.md: none
# (the spec's check-api.sh in strict mode refuses any, tests/test_serve_check_api.py).
EXTENSIONS = {"scoreboard problem": {}}


def null(schema: dict) -> dict:
    """`<type> ?`: the type or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def obj(required: dict, optional: dict | None = None, **more) -> dict:
    """An object of the spec's table: these properties only (check-api.sh's default, strict), the
    required ones present."""
    return {"type": "object", "properties": required | (optional or {}), "required": list(required),
            "additionalProperties": False} | more


def schemas(scoreboard_type: str) -> dict[str, dict]:
    """Each endpoint's object, from its section of the spec; `scoreboard_type` decides the "Required iff
    contest:scoreboard_type is ..." rows."""
    score = scoreboard_type == "score"
    command = obj({"command": {"type": "string"}}, {"args": null({"type": "string"}), "version": null({"type": "string"}),
                                                  "version_command": null({"type": "string"})})
    state = obj({name: null(TIME) for name in ("started", "ended", "finalized", "end_of_updates",
                                                # frozen, thawed: "Required iff scoreboard_freeze_duration is present"
                                                "frozen", "thawed")})
    # Contests: penalty_time "Only relevant if scoreboard_type is pass-fail" (the spec's schema: absent for score)
    contest = obj({"id": ID, "name": {"type": "string"}, "duration": POSRELTIME,
                   "scoreboard_type": {"const": scoreboard_type}} | ({} if score else {"penalty_time": INTEGER0}),
                  {"formal_name": null({"type": "string"}), "start_time": null(TIME), "countdown_pause_time": null(
                      POSRELTIME), "scoreboard_freeze_duration": null(POSRELTIME), "scoreboard_thaw_time": null(TIME),
                   "banner": null(FILES), "logo": null(FILES), "location": null({"type": "object"})})
    # Judgement types: penalty "Required iff contest:penalty_time is present"
    judgement_type = obj({"id": {"enum": JUDGEMENT_IDS}, "name": {"type": "string"}, "solved": {"type": "boolean"}}
                         | ({} if score else {"penalty": {"type": "boolean"}}), {"penalty": {"type": "boolean"}})
    # Languages: entry_point_name "Required iff entry_point_required is true"
    language = obj({"id": ID, "name": {"type": "string"}, "entry_point_required": {"type": "boolean"},
                    "extensions": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}},
                   {"entry_point_name": null({"type": "string"}), "compiler": null(command), "runner": null(command)},
                   **{"if": {"properties": {"entry_point_required": {"const": True}}},
                      "then": {"required": ["entry_point_name"], "properties": {"entry_point_name": {"type": "string"}}},
                      "else": {"properties": {"entry_point_name": {"type": "null"}}}})
    # Problems: max_score "Required iff contest:scoreboard_type is score"
    problem = obj({"id": ID, "label": {"type": "string"}, "name": {"type": "string"}, "ordinal": {"type": "integer"},
                   "time_limit": SECONDS, "test_data_count": INTEGER0} | ({"max_score": {"type": "number"}} if score else {}),
                  {"uuid": null({"type": "string"}), "rgb": null({"type": "string", "pattern": "^#[0-9A-Fa-f]{3}([0-9A-Fa-f]{3})?$"}),
                   "color": null({"type": "string"}), "max_score": {"type": "number"}, "package": null(FILES),
                   "statement": null(FILES)})
    team = obj({"id": ID, "name": {"type": "string"}, "label": {"type": "string"}},
               {"icpc_id": null({"type": "string"}), "display_name": null({"type": "string"}), "organization_id": null(ID),
                "group_ids": null({"type": "array", "items": ID}), "hidden": null({"type": "boolean"}),
                "location": null({"type": "object"})} | {name: null(FILES) for name in (
                   "photo", "video", "backup", "key_log", "tool_data", "desktop", "webcam", "audio")})
    # Accounts: team_id "Required iff type is team"
    account = obj({"id": ID, "username": {"type": "string"}, "type": {"enum": ["team", "judge", "admin", "analyst", "staff"]}},
                  {"password": null({"type": "string"}), "name": null({"type": "string"}), "ip": null({"type": "string"}),
                   "team_id": null(ID), "person_id": null(ID)},
                  **{"if": {"properties": {"type": {"const": "team"}}}, "then": {"required": ["team_id"],
                                                                                 "properties": {"team_id": ID}}})
    # Submissions: files "Only allowed mime type is application/zip. Only exactly one archive is allowed";
    # entry_point "For C and C++ no entry point is required and it must therefore be null", and for Java
    # "must be included" (the spec's schema: present, if null)
    zip_file = {"allOf": [FILE, {"properties": {"mime": {"const": "application/zip"}}}]}
    submission = obj({"id": ID, "language_id": ID, "problem_id": ID, "team_id": ID, "time": TIME, "contest_time": RELTIME,
                      "files": {"type": "array", "items": zip_file, "minItems": 1, "maxItems": 1}},
                     {"entry_point": null({"type": "string"}), "reaction": null(FILES)},
                     **{"if": {"properties": {"language_id": {"enum": ["c", "cpp"]}}},
                        "then": {"properties": {"entry_point": {"type": "null"}}},
                        "else": {"if": {"properties": {"language_id": {"const": "java"}}},
                                 "then": {"required": ["entry_point"]}}})
    # Judgements: end_time, end_contest_time "Required iff judgement_type_id is present"; score "Required iff
    # contest:scoreboard_type is score"
    judgement = obj({"id": ID, "submission_id": ID, "start_time": TIME, "start_contest_time": RELTIME}
                    | ({"score": {"type": "number", "minimum": 0}} if score else {}),
                    {"judgement_type_id": null({"enum": JUDGEMENT_IDS}), "score": {"type": "number", "minimum": 0},
                     "end_time": null(TIME), "end_contest_time": null(RELTIME), "max_run_time": null(SECONDS)},
                    **{"if": {"properties": {"judgement_type_id": {"enum": JUDGEMENT_IDS}}, "required": ["judgement_type_id"]},
                       "then": {"required": ["end_time", "end_contest_time"],
                                "properties": {"end_time": TIME, "end_contest_time": RELTIME}}})
    run = obj({"id": ID, "judgement_id": ID, "ordinal": {"type": "integer", "minimum": 1},
               "judgement_type_id": {"enum": JUDGEMENT_IDS}, "time": TIME, "contest_time": RELTIME},
              {"run_time": SECONDS})
    # Clarifications: "at least one of from_team_id and to_team_id has to be null"
    clarification = obj({"id": ID, "text": {"type": "string"}, "time": TIME, "contest_time": RELTIME},
                        {"from_team_id": null(ID), "to_team_id": null(ID), "reply_to_id": null(ID), "problem_id": null(ID)},
                        **{"not": {"properties": {"from_team_id": ID, "to_team_id": ID},
                                   "required": ["from_team_id", "to_team_id"]}})
    return {"contest": contest, "state": state, "judgement-types": judgement_type, "languages": language,
            "problems": problem, "teams": team, "accounts": account, "submissions": submission,
            "judgements": judgement, "runs": run, "clarifications": clarification,
            "scoreboard": scoreboard_schema(score, state)}


def scoreboard_schema(score: bool, state: dict) -> dict:
    """Scoreboard format: score.num_solved and score.total_time "Required iff pass-fail", score.score "Required
    iff score"; a problem's solved "Required iff pass-fail", its score "Required iff score", its time
    "Required iff solved=true or score>0" (the spec's schema: absent otherwise)."""
    totals = obj({"score": {"type": "number"}} if score else {"num_solved": INTEGER0, "total_time": INTEGER0},
                 {"time": null(INTEGER0)})
    if score:
        cell = obj({"problem_id": ID, "num_judged": INTEGER0, "num_pending": INTEGER0,
                    "score": {"type": "number", "minimum": 0}}, {"time": INTEGER0} | EXTENSIONS["scoreboard problem"],
                   **{"if": {"properties": {"score": {"exclusiveMinimum": 0}}}, "then": {"required": ["time"]},
                      "else": {"not": {"required": ["time"]}}})
    else:
        cell = obj({"problem_id": ID, "num_judged": INTEGER0, "num_pending": INTEGER0, "solved": {"type": "boolean"}},
                   {"time": INTEGER0} | EXTENSIONS["scoreboard problem"],
                   **{"if": {"properties": {"solved": {"const": True}}}, "then": {"required": ["time"]},
                      "else": {"not": {"required": ["time"]}}})
    row = obj({"rank": {"type": "integer", "minimum": 1}, "team_id": ID, "score": totals},
              {"problems": null({"type": "array", "items": cell})})
    return obj({"time": TIME, "contest_time": RELTIME, "state": state, "rows": {"type": "array", "items": row}})


API_INFO = obj({"version": {"const": "2023-06"}, "version_url": {"type": "string"}},
               {"provider": null(obj({"name": {"type": "string"}}, {"version": null({"type": "string"}),
                                                                   "logo": null(FILES)}))})
ACCESS = obj({"capabilities": {"type": "array", "uniqueItems": True, "items": {"enum": CAPABILITIES}},
              "endpoints": {"type": "array", "items": obj({
                  "type": {"enum": EVENT_TYPES}, "properties": {"type": "array", "minItems": 1, "uniqueItems": True,
                                                                "items": {"type": "string", "pattern": r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$"}}})}})
EVENT = obj({"type": {"enum": EVENT_TYPES}, "id": null(ID), "data": {"type": ["object", "array", "null"]}},
            {"token": null({"type": "string"})})
ERROR = obj({"code": {"type": "integer"}, "message": {"type": "string"}})
COLLECTIONS = ("judgement-types", "languages", "problems", "teams", "accounts", "submissions", "judgements", "runs",
               "clarifications")


def check(schema: dict, data, where: str) -> None:
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path))
    assert not errors, f"{where}: " + "; ".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:5])


def _millis(value, where: str) -> None:
    """A number of seconds "should be a non-negative integer multiple of 0.001"."""
    if value is not None:
        assert abs(value * 1000 - round(value * 1000)) < 1e-6, f"{where}: {value} is not a multiple of 0.001"


class Api:
    """One caller's view of the API, every answer checked as it is read."""

    def __init__(self, site: Site, username: str):
        self.site, self.username = site, username
        self.http = TestClient(site.app, base_url="http://127.0.0.1")
        self.auth = (username, site.passwords[username])
        self.base = f"/api/contests/{site.contest.id}"

    def get(self, path: str):
        response = self.http.get(path if path.startswith("/api") else f"{self.base}/{path}".rstrip("/"), auth=self.auth)
        assert response.status_code == 200, f"{self.username} {path}: {response.status_code} {response.text}"
        assert response.headers["content-type"].startswith("application/json"), path
        return response.json()

    def feed(self) -> list[dict]:
        text = self.http.get(f"{self.base}/event-feed?stream=false", auth=self.auth).text
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def check_view(api: Api, shapes: dict, scoreboard_type: str) -> dict:
    """Every endpoint of one caller's view checked; what it read, by endpoint."""
    check(API_INFO, api.get("/api"), "/api")
    check(API_INFO, api.get("/api/"), "/api/")
    contests = api.get("/api/contests")
    assert isinstance(contests, list) and len(contests) == 1
    check(shapes["contest"], contests[0], "contests[0]")
    seen = {"contest": api.get(""), "state": api.get("state"), "scoreboard": api.get("scoreboard"),
            "account": api.get("account"), "access": api.get("access")}
    assert seen["contest"] == contests[0] and seen["contest"]["scoreboard_type"] == scoreboard_type
    for kind in ("contest", "state", "scoreboard"):
        check(shapes[kind], seen[kind], kind)
    check(shapes["accounts"], seen["account"], "account")
    check(ACCESS, seen["access"], "access")
    for kind in COLLECTIONS:
        items = seen[kind] = api.get(kind)
        assert isinstance(items, list), kind
        for item in items:
            check(shapes[kind], item, f"{kind}/{item.get('id')}")
            assert api.get(f"{kind}/{item['id']}") == item, f"{kind}/{item['id']} differs from its item in {kind}"
        assert len({item["id"] for item in items}) == len(items), f"{kind}: ids are unique within an endpoint"
    assert seen["account"]["username"] == api.username
    for problem in seen["problems"]:
        _millis(problem["time_limit"], f"problems/{problem['id']}")
    for judgement in seen["judgements"]:
        _millis(judgement.get("max_run_time"), f"judgements/{judgement['id']}")
    for run in seen["runs"]:
        _millis(run.get("run_time"), f"runs/{run['id']}")
    return seen


def check_references(seen: dict) -> None:
    """Referential integrity: "When such a property has a non-null value, then the referenced object must exist"."""
    ids = {kind: {item["id"] for item in seen[kind]} for kind in COLLECTIONS}
    wanted = [("submissions", "language_id", "languages"), ("submissions", "problem_id", "problems"),
              ("submissions", "team_id", "teams"), ("judgements", "submission_id", "submissions"),
              ("judgements", "judgement_type_id", "judgement-types"), ("runs", "judgement_id", "judgements"),
              ("runs", "judgement_type_id", "judgement-types"), ("clarifications", "from_team_id", "teams"),
              ("clarifications", "to_team_id", "teams"), ("clarifications", "reply_to_id", "clarifications"),
              ("clarifications", "problem_id", "problems"), ("accounts", "team_id", "teams")]
    for kind, key, target in wanted:
        for item in seen[kind]:
            assert item.get(key) is None or item[key] in ids[target], f"{kind}/{item['id']}.{key} -> {target}"
    for row in seen["scoreboard"]["rows"]:
        assert row["team_id"] in ids["teams"]
        assert [cell["problem_id"] for cell in row.get("problems") or []] == [p["id"] for p in seen["problems"]]
    ranks = [row["rank"] for row in seen["scoreboard"]["rows"]]
    assert ranks == sorted(ranks), "rows are sorted according to rank"
    counts = {p["id"]: p["test_data_count"] for p in seen["problems"]}
    problem_of = {s["id"]: s["problem_id"] for s in seen["submissions"]}
    judged = {j["id"]: problem_of[j["submission_id"]] for j in seen["judgements"]}
    for run in seen["runs"]:  # ordinal "Must be between 1 and problem:test_data_count"
        assert 1 <= run["ordinal"] <= counts[judged[run["judgement_id"]]], run
    assert seen["scoreboard"]["state"] == seen["state"]


def _instant(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def _seconds(reltime: str) -> float:
    sign, text = (-1, reltime[1:]) if reltime.startswith("-") else (1, reltime)
    hours, minutes, seconds = text.split(":")
    return sign * (int(hours) * 3600 + int(minutes) * 60 + float(seconds))


def check_times(seen: dict) -> None:
    """Each TIME and its contest time name one moment: a contest time is "Contest relative time when"
    the same thing happened (within 0.25 s: a submission's two are read from the clock a moment apart,
    a queue's wait is longer: the second submission waits while the first is judged)."""
    start = _instant(seen["contest"]["start_time"])
    pairs = [("submissions", "time", "contest_time"), ("clarifications", "time", "contest_time"),
             ("runs", "time", "contest_time"), ("judgements", "start_time", "start_contest_time"),
             ("judgements", "end_time", "end_contest_time")]
    for kind, absolute, relative in pairs:
        for item in seen[kind]:
            if item.get(absolute) is not None:
                off = _instant(item[absolute]) - start - _seconds(item[relative])
                assert abs(off) < 0.25, f"{kind}/{item['id']}: {absolute} and {relative} are {off:.3f} s apart"
    ends = {j["id"]: (_instant(j["start_time"]), _instant(j["end_time"])) for j in seen["judgements"]}
    for run in seen["runs"]:  # a run completes while its judgement runs
        began, ended = ends[run["judgement_id"]]
        assert began <= _instant(run["time"]) <= ended, run


def check_state(state: dict) -> None:
    """Contest state's order: started < frozen < ended < thawed < end_of_updates, ended < finalized <
    end_of_updates, each "must not be set if" the one before is null."""
    when = {key: None if value is None else datetime.fromisoformat(value.replace("Z", "+00:00"))
            for key, value in state.items()}
    for later, earlier in (("frozen", "started"), ("ended", "started"), ("thawed", "frozen"),
                           ("finalized", "ended"), ("end_of_updates", "finalized")):
        if when[later] is not None:
            assert when[earlier] is not None and when[earlier] <= when[later], f"state: {later} before {earlier}: {state}"
    if when["end_of_updates"] is not None and when["frozen"] is not None:
        assert when["thawed"] is not None, "end_of_updates is set once thawed is set if the contest was frozen"
    if when["frozen"] is not None and when["ended"] is not None:
        assert when["frozen"] <= when["ended"], state


def check_feed(api: Api, shapes: dict, seen: dict) -> list[dict]:
    """Every line of the feed is a notification {type, id, data, token} whose data is the type's object;
    "the latest notification sent for any object is the correct and current state of that object", and
    the feed "is a complete log": each object read from an endpoint has its event."""
    events = api.feed()
    latest: dict[tuple[str, str | None], object] = {}
    for event in events:
        check(EVENT, event, f"event {event.get('token')}")
        kind, data = event["type"], event["data"]
        if kind in ("contest", "state"):  # "If type is contest, then id must be null"; state is a singleton
            assert event["id"] is None, f"a {kind} event's id is null: {event}"
        elif data is not None and not isinstance(data, list):
            assert event["id"] == data["id"], event
        if isinstance(data, dict):
            check(shapes[kind], data, f"event {event['token']} ({kind})")
        latest[kind, event["id"]] = data
    tokens = [event["token"] for event in events]
    assert len(set(tokens)) == len(tokens), "each notification has its own token"
    assert latest.pop(("contest", None)) == seen["contest"]
    assert latest.pop(("state", None)) == seen["state"], "the last state event is the state"
    for kind in COLLECTIONS:
        served = {item["id"]: item for item in seen[kind]}
        if kind == "accounts":
            continue  # (accounts are not announced in our feed: the endpoint alone serves them)
        fed = {key[1]: data for key, data in latest.items() if key[0] == kind and data is not None}
        assert fed == served, f"{kind}: the feed's latest events differ from the endpoint"
    return events


def check_files_and_errors(api: Api, seen: dict) -> None:
    """A FILE's href "Must point to a file of intended mime-type" with "the exact same authentication";
    a failure's body is "a JSON object that contains the properties 'code' ... and 'message'"."""
    for item in seen["submissions"]:
        for ref in item["files"]:
            response = api.http.get(f"/api/{ref['href']}", auth=api.auth)  # relative to the baseurl, /api
            assert response.status_code == 200 and response.headers["content-type"] == ref["mime"], ref
            assert zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    for path in ("submissions/999999", "doesnt-exist", "judgements/xyz", "runs/0"):
        response = api.http.get(f"{api.base}/{path}", auth=api.auth)
        assert response.status_code == 404, path
        check(ERROR, response.json(), f"404 of {path}")
        assert response.json()["code"] == 404
    response = api.http.get(f"{api.base}/state")
    assert response.status_code == 401 and response.json()["code"] == 401
    check(ERROR, response.json(), "401")
    # Reconnection: "If the token is invalid ... the request will fail with a 400 error"; a valid one
    # gives "at least all changes since the token"
    for token in ("999999", "x", "-1"):
        response = api.http.get(f"{api.base}/event-feed?stream=false&since_token={token}", auth=api.auth)
        assert response.status_code == 400 and response.json()["code"] == 400, token
    events = api.feed()
    middle = events[len(events) // 2]["token"]
    text = api.http.get(f"{api.base}/event-feed?stream=false&since_token={middle}", auth=api.auth).text
    later = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert later == events[len(events) // 2 + 1:]


def check_access(api: Api, seen: dict) -> None:
    """`access`: "any endpoints and their properties listed in access must be provided ... and only these"."""
    listed = {item["type"]: set(item["properties"]) for item in seen["access"]["endpoints"]}
    served = {"contest": [seen["contest"]], "state": [seen["state"]]} | {kind: seen[kind] for kind in COLLECTIONS}
    for kind, items in served.items():
        keys = set().union(*(item.keys() for item in items)) if items else set()
        if kind not in listed:
            assert not items, f"{kind} is served but not listed in access"
            continue
        assert keys <= listed[kind], f"{kind}: {sorted(keys - listed[kind])} served, not in access"
        assert "id" in listed[kind] or kind == "state"
    for kind in listed:
        path = {"contest": ""}.get(kind, kind)
        api.get(path)  # listed: provided


def run_contest(site: Site) -> None:
    """What a contest does, for its JSON: a page submission and an API one, judged; a queued Java one; a
    question, its answer and a broadcast."""
    red, coach = site.client("red"), site.client("coach")
    first = number_of(submit(red))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("adder.py", WRONG)
    response = Api(site, "blue").http.post(f"/api/contests/{site.contest.id}/submissions", auth=("blue", site.passwords["blue"]),
                                           json={"problem_id": "adder", "language_id": "python3",
                                                 "files": [{"data": base64.b64encode(buffer.getvalue()).decode()}]})
    assert response.status_code == 200, response.text
    for number in (first, int(response.json()["id"])):  # the second waits in the queue while the first is judged
        site.grader.grade(number)
    site.store.add_submission(site.team("blue"), "adder", "java", "Adder.java", b"public class Adder {}", False,
                              site.serve.clock.now_ms())  # queued: a pending submission and a Java one
    token = csrf_of(red.get("/clarifications").text)
    assert red.post("/clarifications", data={"csrf": token, "text": "May values be empty?", "problem": "adder"}
                    ).status_code == 303
    question = site.store.row("SELECT id FROM clarifications ORDER BY id DESC")["id"]
    token = csrf_of(coach.get("/clarifications").text)
    for form in ({"text": "Yes.", "reply_to": str(question)}, {"text": "Ten minutes left."}):
        assert coach.post("/clarifications", data={"csrf": token} | form).status_code == 303


def coach_action(site: Site, action: str) -> None:
    coach = site.client("coach")
    response = coach.post("/coach/freeze", data={"csrf": csrf_of(coach.get("/scoreboard").text), "action": action})
    assert response.status_code == 303, response.text


def check_everything(site: Site, scoreboard_type: str, moved: bool = False) -> None:
    """Both views; `moved`: the test moved the contest's clock back, so the times stored before no longer
    sit where the contest's start now puts them (a real contest's start does not move under it)."""
    shapes = schemas(scoreboard_type)
    for username in ("coach", "red"):
        api = Api(site, username)
        seen = check_view(api, shapes, scoreboard_type)
        check_references(seen)
        if not moved:
            check_times(seen)
        check_state(seen["state"])
        check_feed(api, shapes, seen)
        check_files_and_errors(api, seen)
        check_access(api, seen)


@pytest.mark.parametrize("scoring, scoreboard_type", [("icpc", "pass-fail"), ("ioi", "score")])
def test_every_endpoint_has_the_2023_06_shapes(tmp_path, scoring, scoreboard_type):
    site = Site(tmp_path, extra=f"scoring: {scoring}\nshow_failing_test: true\n")
    run_contest(site)
    check_everything(site, scoreboard_type)  # running
    coach_action(site, "freeze")
    check_everything(site, scoreboard_type)  # frozen by the coach
    clock = site.serve.clock
    clock.start, clock.end, clock.freeze_at = clock.start - 3 * 3600, clock.end - 3 * 3600, clock.freeze_at - 3 * 3600
    check_everything(site, scoreboard_type, moved=True)  # ended
    coach_action(site, "unfreeze")
    for row in site.store.queued():  # (a contest is finalized once every submission is judged)
        site.store.record_judgement(row["id"], time.time(), "CE", 0.0, 0.0, "", [])
    coach_action(site, "finalize")
    check_everything(site, scoreboard_type, moved=True)  # thawed, finalized: the feed ends
    events = Api(site, "red").feed()
    assert events[-1]["type"] == "state" and events[-1]["data"]["end_of_updates"], "end_of_updates is the last event"


def test_a_team_without_the_failing_test_is_offered_no_runs(tmp_path):
    site = Site(tmp_path)
    run_contest(site)
    api = Api(site, "red")
    seen = check_view(api, schemas("pass-fail"), "pass-fail")
    assert seen["runs"] == [] and "runs" not in {item["type"] for item in seen["access"]["endpoints"]}
    assert "team_submit" in seen["access"]["capabilities"]
    check_access(api, seen)


SPEC_SCHEMAS = os.environ.get("CCS_SPECS_SCHEMAS") or (os.environ.get("CCS_SPECS_DIR") and
                                                      os.path.join(os.environ["CCS_SPECS_DIR"], "json-schema"))


@pytest.mark.skipif(not SPEC_SCHEMAS, reason="CCS_SPECS_SCHEMAS (icpc/ccs-specs 2023-06 json-schema/, for a check "
                    "against the spec's own schemas), or CCS_SPECS_DIR (a copy of that branch), is not set")
@pytest.mark.parametrize("scoring", ["icpc", "ioi"])
def test_the_specs_own_schemas_when_given(tmp_path, scoring):
    from referencing import Registry, Resource

    folder = Path(SPEC_SCHEMAS)
    loaded = {path.stem: json.loads(path.read_text()) for path in folder.glob("*.json")}
    registry = Registry().with_resources((schema["$id"], Resource.from_contents(schema)) for schema in loaded.values())
    site = Site(tmp_path, extra=f"scoring: {scoring}\nshow_failing_test: true\n")
    run_contest(site)
    coach_action(site, "freeze")
    api = Api(site, "coach")
    answers = {"api_information": api.get("/api"), "contests": api.get("/api/contests"), "contest": api.get(""),
               "access": api.get("access")}
    answers |= {kind: api.get(kind) for kind in COLLECTIONS + ("state", "scoreboard")}
    answers["event-feed-array"] = api.feed()
    for name, data in answers.items():
        validator = jsonschema.Draft202012Validator(loaded[name], registry=registry)
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]
        assert not errors, f"{name}: {errors[:5]}"


def test_judgements_and_runs_take_the_specs_filters(tmp_path):
    """Breaker 54a F4: `judgements?submission_id=` and `runs?judgement_id=` answered every judgement and run
    the caller may see."""
    site = Site(tmp_path, extra="show_failing_test: true\n")
    run_contest(site)
    api = Api(site, "coach")
    judgements = api.get("judgements")
    assert len({j["submission_id"] for j in judgements}) > 1
    first = judgements[0]
    assert [j["id"] for j in api.get(f"judgements?submission_id={first['submission_id']}")] == \
        [j["id"] for j in judgements if j["submission_id"] == first["submission_id"]]
    runs = api.get(f"runs?judgement_id={first['id']}")
    assert runs and {run["judgement_id"] for run in runs} == {first["id"]}
    assert api.get("judgements?submission_id=999999") == []
