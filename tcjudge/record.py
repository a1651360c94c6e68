"""Records: classes of named fields, as `dataclasses` makes them, at a fraction of its cost at import.

`dataclasses` writes each class's methods as source and compiles it (about 0.5 ms a class on
Python 3.11), and imports `inspect` with it (7-10 ms): on `grade`'s path to its first test, which
holds about twenty such classes, that was 10-15 ms of a 110 ms `grade --examples`. A record's
methods are the functions below, shared by every record and reading its class's fields; a class
costs what its `class` statement costs.

    @record
    class Run:                                    # as @dataclass would declare it
        solution: Path
        results: list = field(default_factory=list)
        kind: Kind = field(kw_only=True)

What a record has, as a dataclass with the same declaration would: `__init__` taking the fields in
order, positionally or by name (keyword-only ones by name), defaults and default factories, then
`__post_init__` when the class has one; `__repr__`; `__eq__` (same class, equal fields); frozen:
assignment raises FrozenInstanceError, and equal records hash alike (an unfrozen record is
unhashable). A method the class defines itself is kept. `replace`, `asdict` (one level: each field
as it is) and `fields` are the module's functions for it, as `dataclasses` has them.
"""

from __future__ import annotations

_MISSING = object()


class FrozenInstanceError(AttributeError):
    """Assigning to a field of a frozen record."""


class Field:
    """A field's declaration, where a plain default is not enough."""

    __slots__ = ("default", "default_factory", "kw_only")

    def __init__(self, default=_MISSING, default_factory=_MISSING, kw_only: bool = False):
        self.default, self.default_factory, self.kw_only = default, default_factory, kw_only


def field(*, default=_MISSING, default_factory=_MISSING, kw_only: bool = False) -> Field:
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("a field has a default or a default factory, not both")
    return Field(default, default_factory, kw_only)


class _Layout:
    """A record class's fields: their order, which are positional, and their defaults."""

    __slots__ = ("names", "positional", "keyword_only", "defaults", "factories", "post_init")

    def __init__(self, cls: type):
        self.names: tuple[str, ...] = tuple(cls.__dict__.get("__annotations__", {}))
        self.post_init = getattr(cls, "__post_init__", None)
        self.defaults: dict = {}
        self.factories: dict = {}
        positional, keyword_only, after_default = [], [], False
        for name in self.names:
            declared = cls.__dict__.get(name, _MISSING)
            spec = declared if isinstance(declared, Field) else Field(declared)
            if isinstance(spec.default, (list, dict, set)):  # shared by every instance: as dataclasses refuses it
                raise ValueError(f"mutable default {type(spec.default).__name__} for field {name}: use default_factory")
            if spec.default is not _MISSING:
                self.defaults[name] = spec.default
                setattr(cls, name, spec.default)  # the class attribute, as a dataclass keeps it
            else:
                if spec.default_factory is not _MISSING:
                    self.factories[name] = spec.default_factory
                if isinstance(declared, Field):
                    delattr(cls, name)
            if spec.kw_only:
                keyword_only.append(name)
                continue
            has_default = name in self.defaults or name in self.factories
            if after_default and not has_default:
                raise TypeError(f"non-default field {name!r} follows a default one")
            after_default |= has_default
            positional.append(name)
        self.positional, self.keyword_only = tuple(positional), tuple(keyword_only)


def _init(self, *args, **kwargs) -> None:
    layout = type(self).__record_layout__
    if len(args) > len(layout.positional):
        raise TypeError(f"{type(self).__name__}() takes {len(layout.positional)} positional arguments "
                        f"but {len(args)} were given")
    assign = object.__setattr__
    for name, value in zip(layout.positional, args):
        if name in kwargs:
            raise TypeError(f"{type(self).__name__}() got multiple values for argument {name!r}")
        assign(self, name, value)
    for name in layout.positional[len(args):] + layout.keyword_only:
        if name in kwargs:
            value = kwargs.pop(name)
        elif name in layout.defaults:
            value = layout.defaults[name]
        elif name in layout.factories:
            value = layout.factories[name]()
        else:
            raise TypeError(f"{type(self).__name__}() missing required argument {name!r}")
        assign(self, name, value)
    if kwargs:
        raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {next(iter(kwargs))!r}")
    if layout.post_init is not None:
        layout.post_init(self)


def _values(record) -> tuple:
    return tuple(getattr(record, name) for name in type(record).__record_layout__.names)


def _repr(self) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self).__record_layout__.names)
    return f"{type(self).__qualname__}({shown})"


def _eq(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self) -> int:
    return hash(_values(self))


def _frozen_setattr(self, name, value):
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self, name):
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def record(cls: type | None = None, *, frozen: bool = False):
    """Make `cls` a record (see the module); `@record` or `@record(frozen=True)`."""

    def make(cls: type) -> type:
        cls.__record_layout__ = _Layout(cls)
        # unfrozen: equal by value yet mutable, so unhashable, as a dataclass is
        methods = {"__init__": _init, "__repr__": _repr, "__eq__": _eq, "__hash__": _hash if frozen else None}
        if frozen:
            methods |= {"__setattr__": _frozen_setattr, "__delattr__": _frozen_delattr}
        for name, method in methods.items():
            if cls.__dict__.get(name) is None:  # not the class's own (a class's __eq__ puts __hash__ = None there)
                setattr(cls, name, method)
        return cls

    return make if cls is None else make(cls)


def fields(record_or_class) -> tuple[str, ...]:
    """The names of a record's fields, in order."""
    return record_or_class.__record_layout__.names


def replace(record_, **changes):
    """A new record of the same class, with `changes` (every field passed by name: __post_init__ runs again)."""
    layout = type(record_).__record_layout__
    unknown = set(changes) - set(layout.names)
    if unknown:
        raise TypeError(f"{type(record_).__name__} has no field {sorted(unknown)[0]!r}")
    return type(record_)(**{name: getattr(record_, name) for name in layout.names} | changes)


def asdict(record_) -> dict:
    """Each field by name, as it is (nested records are not converted)."""
    return {name: getattr(record_, name) for name in type(record_).__record_layout__.names}
