"""Where the bundled example networks and icons live: the repository's ``resources/`` folder, or the folder
PyInstaller unpacks (``sys._MEIPASS/resources``) in a packaged build."""
from __future__ import annotations

import sys
from pathlib import Path

from bnstudio.core.network import Network
from bnstudio.io import FORMATS
from bnstudio.project.store import EXTENSION as PROJECT_EXTENSION


def resource_root() -> Path:
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def bundled_example(name: str = "alarm.bif") -> Path:
    """The path of a bundled example network (``resources/networks/NAME``)."""
    return resource_root() / "networks" / name


def demo_network() -> Network:
    """The bundled ASIA network (small, with positions from the automatic layout): the panels' demos use it."""
    from bnstudio.gui.canvas.arrange import fill_missing_positions
    from bnstudio.io import read_network

    net = read_network(bundled_example("asia.bif"))
    fill_missing_positions(net)
    return net


def example_networks() -> list[Path]:
    """Every bundled example whose extension a registered reader knows (network files and projects, which
    bring their data), sorted by name."""
    folder = resource_root() / "networks"
    if not folder.is_dir():
        return []
    known = (*FORMATS, PROJECT_EXTENSION)
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.lower().endswith(known))


def is_bundled_example(path: str | Path) -> bool:
    """Whether ``path`` is one of the bundled example networks (opened as untitled copies)."""
    folder = (resource_root() / "networks").resolve()
    try:
        return Path(path).resolve().parent == folder
    except OSError:
        return False


def icon_path(name: str = "bnstudio.svg") -> Path:
    return resource_root() / "icons" / name
