"""The app's view of the bundled files (networks and projects in ``networks/``, influence diagrams in
``decision/``, icons): the lists of File ▸ Examples and the demos' network. Where the files are is
:mod:`bnstudio.resources`' business alone (package data, in a checkout, a wheel and a packaged build)."""
from __future__ import annotations

from pathlib import Path

from bnstudio.core.network import Network
from bnstudio.io import FORMATS
from bnstudio.io.project.store import EXTENSION as PROJECT_EXTENSION
from bnstudio.resources import bundled_data, bundled_diagram, bundled_example, icon_path, resource_root

__all__ = ["bundled_data", "bundled_diagram", "bundled_example", "demo_network", "example_diagrams",
           "example_networks", "example_title", "icon_path", "is_bundled_example", "resource_root"]


def demo_network() -> Network:
    """The bundled ASIA network (small, with positions from the automatic layout): the panels' demos use it."""
    from bnstudio.app.placing import place_bar_nodes
    from bnstudio.io import read_network

    net = read_network(bundled_example("asia.bif"))
    place_bar_nodes(net)
    return net


def example_networks() -> list[Path]:
    """Every bundled example whose extension a registered reader knows (network files and projects, which
    bring their data), sorted by name."""
    folder = resource_root() / "networks"
    if not folder.is_dir():
        return []
    known = (*FORMATS, PROJECT_EXTENSION)
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.lower().endswith(known))


def example_diagrams() -> list[Path]:
    """The bundled influence diagrams (JSON), sorted by name."""
    return sorted((resource_root() / "decision").glob("*.json"))


def example_title(path: str | Path) -> str:
    """The name a bundled example shows in File ▸ Examples and in the title of its untitled copy."""
    return Path(path).stem.replace("_", " ")


def is_bundled_example(path: str | Path) -> bool:
    """Whether ``path`` is one of the bundled examples, a network or an influence diagram (they open as untitled
    copies, so Save never overwrites them, and are not recent files)."""
    folders = {(resource_root() / name).resolve() for name in ("networks", "decision")}
    try:
        return Path(path).resolve().parent in folders
    except OSError:
        return False
