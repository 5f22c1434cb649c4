"""Figures written to files (PNG, SVG) with matplotlib: a front end of the core, like :mod:`bnstudio.gui` and
:mod:`bnstudio.cli`. The core describes figures as data (:class:`~bnstudio.experiment.figure_jobs.FigureJob`) and
never imports a plotting library; the command line and the app draw them through this package."""
