"""Where the bundled examples (networks and projects in ``networks/``, influence diagrams in ``decision/``) and
icons live: the repository's ``resources/`` folder, or the folder PyInstaller unpacks (``sys._MEIPASS/resources``)
in a packaged build."""
from __future__ import annotations

import sys
from pathlib import Path

from bnstudio.core.network import Network
from bnstudio.io import FORMATS
from bnstudio.project import EXTENSION as PROJECT_EXTENSION


def resource_root() -> Path:
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def bundled_example(name: str = "alarm.bif") -> Path:
    """The path of a bundled example network (``resources/networks/NAME``)."""
    return resource_root() / "networks" / name


def bundled_diagram(name: str = "oil_wildcatter.json") -> Path:
    """The path of a bundled influence diagram (``resources/decision/NAME``; the oil wildcatter: Raiffa 1968,
    MEU 22.5, test first)."""
    return resource_root() / "decision" / name


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


def icon_path(name: str = "bnstudio.svg") -> Path:
    return resource_root() / "icons" / name
