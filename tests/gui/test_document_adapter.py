"""The Qt adapter of the document declares the model's members one a line, typed (bnstudio/gui/document.py,
bnstudio/app/forwarding.py, docs/architecture.md §7): nothing is forwarded by ``__getattr__``, every declared
member's type resolves and is the model's, and setting a member sets the model's."""
from __future__ import annotations

import inspect
import typing
from pathlib import Path

import pytest

from bnstudio.app.document import Document as AppDocument
from bnstudio.app.forwarding import Call, Read, ReadWrite
from bnstudio.app.notice import Notice
from bnstudio.core.network import Network
from bnstudio.gui.document import Document

DECLARED = {name: member for name, member in vars(Document).items() if isinstance(member, (Read, Call))}
#: the model's members the adapter does not show: the adapter wires them itself, once (``updates`` on the adapter
#: is its own BeliefUpdates)
WIRING = {"set_background", "prepare_network", "updates"}


def _public_members(model: AppDocument) -> dict[str, object]:
    members = {name: value for name, value in inspect.getmembers(type(model)) if not name.startswith("_")}
    return members | {name: value for name, value in vars(model).items() if not name.startswith("_")}


def test_the_adapter_passes_nothing_on_dynamically(qapp):
    assert not any(hasattr(cls, "__getattr__") for cls in Document.__mro__)
    assert all("__setattr__" not in vars(cls) for cls in Document.__mro__ if cls.__module__.startswith("bnstudio"))
    document = Document()
    with pytest.raises(AttributeError):
        document.no_such_member  # noqa: B018  (nothing answers for a name the adapter does not declare)


def test_every_member_of_the_model_is_a_signal_or_declared_on_the_adapter(qapp):
    document = Document()
    shown = {name for name, value in _public_members(document.model).items() if not isinstance(value, Notice)}
    notices = {name for name, value in vars(document.model).items() if isinstance(value, Notice)}
    assert shown - WIRING == set(DECLARED)
    assert all(type(vars(Document).get(name)).__name__ == "Signal" for name in notices)


def test_each_declared_member_has_the_model_type():
    hints = typing.get_type_hints(AppDocument)
    for name, member in DECLARED.items():
        if isinstance(member, Call):
            assert member.source is getattr(AppDocument, name)
            assert "return" in typing.get_type_hints(member.source), name
        elif member.source is not None:   # a property of the model: typed as its getter
            assert member.source is getattr(AppDocument, name) and not isinstance(member, ReadWrite)
            assert "return" in typing.get_type_hints(member.source.fget), name
        else:                             # an attribute of the model: the type declared is the model's
            declared = typing.get_args(typing.cast(typing.Any, member).__orig_class__)[0]
            assert declared == hints[name], name


def test_setting_a_member_sets_the_model_and_a_read_only_one_refuses(qapp, tmp_path):
    document = Document()
    document.path = tmp_path / "a.bif"
    document.untitled_name = "asia (example)"
    assert document.model.path == Path(tmp_path / "a.bif") and document.path == document.model.path
    assert document.model.untitled_name == "asia (example)"
    assert not {"path", "untitled_name"} & set(vars(document))
    network = document.network
    with pytest.raises(AttributeError, match="read-only"):
        document.network = Network("other")    # type: ignore[assignment]  # replace_network does that
    with pytest.raises(AttributeError, match="read-only"):
        document.title = "other"               # type: ignore[assignment]
    assert document.network is network is document.model.network and document.title == "a.bif"


def test_a_member_is_shown_under_the_model_name_and_as_what_it_is():
    with pytest.raises((TypeError, RuntimeError)) as caught:   # 3.11 wraps what __set_name__ raises
        class Renamed:
            heading = Read(AppDocument.title)
    error = caught.value.__cause__ or caught.value
    assert isinstance(error, TypeError) and "title" in str(error)
    with pytest.raises(TypeError, match="a method is a Call"):
        Read(AppDocument.unsaved_work)
    with pytest.raises(TypeError, match="a property is a Read"):
        Call(AppDocument.title)
