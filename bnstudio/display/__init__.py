"""Qt-free drawings of networks and results for notebooks (issue 28): the app's layered layout and node look,
as SVG and HTML. Nothing here imports Qt, matplotlib or graphviz; :mod:`bnstudio.gui` uses the layout and the
look from here too, so a network looks the same in the app and in a notebook."""
