"""tcjudge.record makes classes that behave as dataclasses with the same declaration: each case below is
declared both ways and must agree (values, repr, equality, hashing, replace, asdict, errors)."""

from __future__ import annotations

import dataclasses
import functools

import pytest

from tcjudge import record as records


def declare(make, field, frozen: bool):
    @make(frozen=frozen)
    class Point:
        x: int
        y: int = 0
        tags: tuple = field(default_factory=tuple)
        label: str = field(kw_only=True, default="p")

        def norm(self) -> int:
            return abs(self.x) + abs(self.y)

    return Point


def both(frozen: bool):
    return (declare(dataclasses.dataclass, dataclasses.field, frozen),
            declare(records.record, records.field, frozen))


def outcome(call):
    try:
        return call()
    except Exception as err:  # noqa: BLE001 - the kind of failure is what is compared
        return type(err)


@pytest.mark.parametrize("frozen", [True, False])
@pytest.mark.parametrize("args, kwargs", [
    ((1,), {}), ((1, 2), {}), ((1, 2, (3,)), {"label": "q"}), ((), {"x": 4, "y": 5}), ((), {"label": "q", "x": 1}),
    ((), {}), ((1, 2, (), "q"), {}), ((1,), {"x": 2}), ((1,), {"z": 2}), ((1,), {"y": 2, "w": 0}),
])
def test_a_record_is_made_and_refused_as_the_dataclass_is(frozen, args, kwargs):
    classic, ours = both(frozen)
    made, theirs = outcome(lambda: ours(*args, **kwargs)), outcome(lambda: classic(*args, **kwargs))
    if isinstance(theirs, type):
        assert made is theirs
        return
    assert records.asdict(made) == dataclasses.asdict(theirs)
    assert repr(made).replace(ours.__qualname__, "P") == repr(theirs).replace(classic.__qualname__, "P")
    assert made == ours(*args, **kwargs) and made != ours(99) and made.norm() == theirs.norm()
    assert (made == theirs) is False  # another class, as two dataclasses are
    assert records.fields(ours) == tuple(f.name for f in dataclasses.fields(classic))
    changed, expected = records.replace(made, y=7), dataclasses.replace(theirs, y=7)
    assert records.asdict(changed) == dataclasses.asdict(expected)
    assert outcome(lambda: records.replace(made, nope=1)) is outcome(lambda: dataclasses.replace(theirs, nope=1))
    if frozen:
        assert hash(made) == hash(ours(*args, **kwargs))
        assert outcome(lambda: setattr(made, "x", 5)) is records.FrozenInstanceError
        assert issubclass(records.FrozenInstanceError, AttributeError)
        assert outcome(lambda: delattr(made, "x")) is records.FrozenInstanceError
    else:
        assert outcome(lambda: hash(made)) is TypeError is outcome(lambda: hash(theirs))
        made.x = 5
        assert made.x == 5


def test_defaults_are_per_instance_the_post_init_runs_and_a_cached_property_works():
    @records.record
    class Run:
        name: str
        items: list = records.field(default_factory=list)
        count: int = 0

        def __post_init__(self):
            self.count = len(self.name)

        @functools.cached_property
        def shout(self) -> str:
            return self.name.upper()

    first, second = Run("ab"), Run("xyz")
    first.items.append(1)
    assert second.items == [] and (first.count, second.count) == (2, 3) and first.shout == "AB"
    assert records.replace(first, name="q").count == 1  # replace makes it anew: its post-init runs again


@pytest.mark.parametrize("body", ["a: int = 1\n    b: int", "a: list = []"])
def test_a_declaration_a_dataclass_refuses_is_refused(body):
    source = f"class Bad:\n    {body}\n"
    namespace: dict = {}
    exec(source, namespace)  # noqa: S102 - the declaration under test
    refused = outcome(lambda: records.record(namespace["Bad"]))
    exec(source, namespace)  # noqa: S102
    assert refused is outcome(lambda: dataclasses.dataclass(namespace["Bad"])) and isinstance(refused, type)


def test_a_method_the_class_defines_is_kept():
    @records.record(frozen=True)
    class Named:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

    assert repr(Named("x")) == "<x>" and Named("x") == Named("x") and hash(Named("x")) == hash(Named("x"))
