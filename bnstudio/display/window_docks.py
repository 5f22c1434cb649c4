"""The main window's docks — key and title, by area, in tab order — as plain data, so the command line can check
``bnstudio screenshot --docks`` before it imports Qt (everything under :mod:`bnstudio.gui` loads Qt); it lives
with the other Qt-free descriptions of what the app shows (:mod:`bnstudio.display`).

This is the one list: :func:`bnstudio.gui.dock_layout.make_dock` titles a dock from it (a key missing here is a
``KeyError`` when the window is built) and :func:`~bnstudio.gui.dock_layout.arrange` places the docks by it.
"""
from __future__ import annotations

#: (dock key, title) in tab order; the first of each area is raised
RIGHT = (("properties", "Node"), ("history", "History"), ("data", "Data"), ("training", "Learn Parameters"),
         ("structure", "Learn Structure"), ("query", "Query / Error Bars"), ("decisions", "Decisions"),
         ("time", "Time"))
BOTTOM = (("cpt", "Probability Table"),)
TITLES = dict(RIGHT + BOTTOM)
#: every dock key, right area first
DOCKS = tuple(TITLES)
