"""A package's public names imported on first use (PEP 562 module ``__getattr__`` and ``__dir__``), so importing
the package loads only what a caller touches (docs/architecture.md §1): the ``bnstudio`` facade and
``bnstudio.temporal`` use it."""
from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping


def lazy_names(package: str, modules: Mapping[str, str],
               namespace: dict[str, Any]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: a name of ``modules`` (public name -> defining module) is
    imported from its module on first access and cached in ``namespace`` (the package's ``globals()``)."""

    def __getattr__(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(modules))

    return __getattr__, __dir__
