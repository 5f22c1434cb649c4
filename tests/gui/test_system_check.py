"""Before Qt starts, missing X11 libraries are named with the command that installs them (seen: `make run` on a
fresh Debian desktop aborted inside Qt, naming none of libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1)."""
from __future__ import annotations

import subprocess

import pytest

from bnstudio.gui import app, system_check

LDD_OUTPUT = """\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /x/libQt6XcbQpa.so.6 (0x00007f)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-cursor.so.0 => not found
\tlibxkbcommon-x11.so.0 => /lib/libxkbcommon-x11.so.0 (0x00007f)
"""


@pytest.mark.parametrize("soname, package", [("libxcb-icccm.so.4", "libxcb-icccm4"),
                                              ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
                                              ("libxcb-cursor.so.0", "libxcb-cursor0"),
                                              ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
                                              ("libxcb-render-util.so.0.0.0", "libxcb-render-util0")])
def test_debian_package_names(soname, package):
    assert system_check.debian_package(soname) == package


def test_install_hints_per_system():
    libs = ["libxcb-cursor.so.0", "libxcb-icccm.so.4"]
    assert system_check.install_hint(libs, "ubuntu debian") == "sudo apt install libxcb-cursor0 libxcb-icccm4"
    assert system_check.install_hint(libs, "fedora") == "sudo dnf install xcb-util-cursor xcb-util-wm"
    assert system_check.install_hint(libs, "arch") == ("install the packages that provide libxcb-cursor.so.0, "
                                                       "libxcb-icccm.so.4")


@pytest.fixture
def x11(monkeypatch):
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(system_check.sys, "platform", "linux")
    monkeypatch.setattr(system_check.shutil, "which", lambda name: "/usr/bin/ldd")
    monkeypatch.setattr(system_check, "_os_family", lambda: "debian")


def test_missing_libraries_stop_the_app_before_qt_with_one_line(x11, monkeypatch, capsys):
    monkeypatch.setattr(system_check.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0, LDD_OUTPUT))
    assert system_check.missing_display_libraries() == ["libxcb-cursor.so.0", "libxcb-icccm.so.4",
                                                        "libxcb-keysyms.so.1"]
    assert app.run(None) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["bnstudio: Qt's X11 display plugin needs system libraries this machine lacks "
                   "(libxcb-cursor.so.0, libxcb-icccm.so.4, libxcb-keysyms.so.1); "
                   "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1"]


def test_nothing_missing_or_not_x11_means_no_problem(x11, monkeypatch):
    complete = LDD_OUTPUT.replace("not found", "/lib/x.so")
    monkeypatch.setattr(system_check.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0, complete))
    assert system_check.display_problem() is None
    monkeypatch.setattr(system_check.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0, LDD_OUTPUT))
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")   # another platform plugin: the X11 libraries do not matter
    assert system_check.display_problem() is None
