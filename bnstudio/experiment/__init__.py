"""Studies across many data sets: every (data set, structure, method, fold, seed) is one task, run on all local
cores or a Dask cluster, stored in an SQLite file next to the study and summarised by a report.

Modules, one job each:

* :mod:`~bnstudio.experiment.spec` — the study file (TOML) as a :class:`~bnstudio.experiment.spec.Study`;
* :mod:`~bnstudio.experiment.generators` — Kohavi's artificial concepts mofn-3-7-10 and corral;
* :mod:`~bnstudio.experiment.datasets` — a data set spec made into codes (CSV, network sample, generator);
* :mod:`~bnstudio.experiment.suite` — the built-in ``papers`` suite;
* :mod:`~bnstudio.experiment.tasks` — the task list and its keys;
* :mod:`~bnstudio.experiment.evaluation` — one task run: split, structure, parameters, scores;
* :mod:`~bnstudio.experiment.scores` and :mod:`~bnstudio.experiment.queries` — classification scores from
  posteriors and query answers (Singh §4.5.1, bagged answers averaged over the bags);
* :mod:`~bnstudio.experiment.store` — the SQLite file (resumable);
* :mod:`~bnstudio.experiment.executors` (local processes; :mod:`~bnstudio.experiment.worker_start`: how they
  start) and :mod:`~bnstudio.experiment.dask_executor` (a Dask distributed cluster, optional extra ``cluster``);
* :mod:`~bnstudio.experiment.runner` — skip what is done, run the rest, save each result as it arrives;
* :mod:`~bnstudio.experiment.summary` — tables, wins/draws/losses and paired tests from the store;
* :mod:`~bnstudio.experiment.report` — CSV/JSON, PNG/SVG figures (matplotlib, Agg) and one HTML page.

Nothing here is imported by ``import bnstudio``; the Dask and matplotlib modules are imported only when used.
"""
