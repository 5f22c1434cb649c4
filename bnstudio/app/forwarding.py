"""Typed access to a model's members from the adapter that wraps it (docs/architecture.md §7).

An adapter keeps its model as ``adapter.model`` and shows the model's members as its own, one declaration a line,
so a type checker knows each one's type (a ``__getattr__`` would make every one ``Any``)::

    network = Read[Network]()                 # the model's attribute, read-only here
    path = ReadWrite[Path | None]()           # the model's attribute, read and set on the model
    title = Read(AppDocument.title)           # the model's property, typed as its getter
    execute = Call(AppDocument.execute)       # the model's method, with the model's signature

Each member keeps the model's name: an adapter cannot show a model member under another one. A declared type
(``Read[Network]()``) says what the model's class annotation says (tests/gui/test_document_adapter.py compares
them).
"""
from __future__ import annotations

from typing import Any, Callable, Concatenate, Generic, NoReturn, ParamSpec, Protocol, TypeVar, overload

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


class Adapter(Protocol):
    """What wraps a model."""

    model: Any


class _Member:
    """A member of the model shown on the adapter under the same name."""

    def __init__(self, source: Any = None) -> None:
        self.source = source            # the model's property or function (None: an attribute)
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        own = getattr(getattr(self.source, "fget", self.source), "__name__", name)
        if own != name:
            raise TypeError(f"{owner.__name__}.{name} would show the model's {own}: keep the model's name")
        self.name = name


class Read(_Member, Generic[T]):
    """The model's attribute or property, read on the model; setting it on the adapter is an error."""

    def __init__(self, getter: Callable[[Any], T] | None = None) -> None:
        if getter is not None and not isinstance(getter, property):
            raise TypeError("Read shows an attribute or a property of the model; a method is a Call")
        super().__init__(getter)

    @overload
    def __get__(self, adapter: None, owner: type | None = None) -> Read[T]: ...
    @overload
    def __get__(self, adapter: Adapter, owner: type | None = None) -> T: ...
    def __get__(self, adapter: Adapter | None, owner: type | None = None) -> Read[T] | T:
        return self if adapter is None else getattr(adapter.model, self.name)

    def __set__(self, adapter: Adapter, value: NoReturn) -> None:
        raise AttributeError(f"{self.name} is read-only on {type(adapter).__name__}")


class ReadWrite(Read[T]):
    """The model's attribute, read and set on the model."""

    def __set__(self, adapter: Adapter, value: T) -> None:
        setattr(adapter.model, self.name, value)


class Call(_Member, Generic[P, R]):
    """The model's method, called on the model with the model's signature."""

    def __init__(self, function: Callable[Concatenate[Any, P], R]) -> None:
        if isinstance(function, property):
            raise TypeError("Call shows a method of the model; a property is a Read")
        super().__init__(function)

    @overload
    def __get__(self, adapter: None, owner: type | None = None) -> Call[P, R]: ...
    @overload
    def __get__(self, adapter: Adapter, owner: type | None = None) -> Callable[P, R]: ...
    def __get__(self, adapter: Adapter | None, owner: type | None = None) -> Call[P, R] | Callable[P, R]:
        return self if adapter is None else getattr(adapter.model, self.name)
