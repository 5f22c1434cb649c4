"""Before Qt starts: the system libraries its display plugin needs, and the one command that installs them.

On Linux, Qt's xcb plugin (X11) links against libraries that a desktop usually has but a fresh install may
not (``libxcb-cursor0``, ``libxcb-icccm4``, ``libxcb-keysyms1``...). Without them Qt aborts with a message
about "platform plugins" that names none of them. :func:`missing_display_libraries` asks the dynamic linker
(``ldd``) which libraries the plugin cannot find, and :func:`install_hint` turns them into the package
manager command for this system. Nothing here imports Qt's GUI modules.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

#: Fedora/RHEL packages of the X11 libraries Qt's xcb plugin needs (Debian names follow a rule instead)
FEDORA_PACKAGES = {"libxcb-cursor.so.0": "xcb-util-cursor", "libxcb-icccm.so.4": "xcb-util-wm",
                   "libxcb-keysyms.so.1": "xcb-util-keysyms", "libxcb-image.so.0": "xcb-util-image",
                   "libxcb-render-util.so.0": "xcb-util-renderutil", "libxkbcommon-x11.so.0": "libxkbcommon-x11"}


def xcb_plugin() -> Path | None:
    """The xcb platform plugin of the installed PySide6 (None if there is none)."""
    try:
        import PySide6
    except ImportError:
        return None
    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.is_file() else None


def uses_xcb() -> bool:
    """Whether Qt will use its X11 plugin: Linux/BSD, a DISPLAY, and no other platform chosen."""
    if not (sys.platform.startswith("linux") or "bsd" in sys.platform):
        return False
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.split(":")[0] == "xcb"
    return bool(os.environ.get("DISPLAY")) and not os.environ.get("WAYLAND_DISPLAY")


def missing_display_libraries() -> list[str]:
    """Shared libraries (sonames) the xcb plugin needs and the system lacks; empty when all is well or when
    it cannot be told (no plugin, no ``ldd``)."""
    plugin = xcb_plugin()
    ldd = shutil.which("ldd")
    if plugin is None or ldd is None or not uses_xcb():
        return []
    try:
        out = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted(set(re.findall(r"^\s*(\S+) => not found", out, flags=re.MULTILINE)))


def debian_package(soname: str) -> str:
    """Debian's package for a library: ``libxcb-icccm.so.4`` -> ``libxcb-icccm4``; a name ending in a digit
    takes a hyphen: ``libxkbcommon-x11.so.0`` -> ``libxkbcommon-x11-0``."""
    name, _, version = soname.partition(".so.")
    version = version.split(".")[0]
    return f"{name}{'-' if name[-1].isdigit() else ''}{version}".lower()


def _os_family() -> str:
    try:
        text = Path("/etc/os-release").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    fields = dict(re.findall(r'^(\w+)="?([^"\n]*)"?', text, flags=re.MULTILINE))
    return f"{fields.get('ID', '')} {fields.get('ID_LIKE', '')}".lower()


def install_hint(missing: list[str], family: str | None = None) -> str:
    """The command that installs ``missing`` on this system (or the list of libraries to install)."""
    family = _os_family() if family is None else family
    if any(name in family for name in ("debian", "ubuntu")):
        return "sudo apt install " + " ".join(debian_package(lib) for lib in missing)
    if any(name in family for name in ("fedora", "rhel", "centos")):
        return "sudo dnf install " + " ".join(FEDORA_PACKAGES.get(lib, lib) for lib in missing)
    return "install the packages that provide " + ", ".join(missing)


def display_problem() -> str | None:
    """One line saying what to install before the desktop app can start here, or None."""
    missing = missing_display_libraries()
    if not missing:
        return None
    return (f"bnstudio: Qt's X11 display plugin needs system libraries this machine lacks "
            f"({', '.join(missing)}); {install_hint(missing)}")
