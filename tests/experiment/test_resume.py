"""Task keys and resuming: finished tasks are skipped, failed ones retried, a changed option makes new keys."""
from __future__ import annotations

import pytest

from bnstudio.experiment import executors
from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.runner import plan, run_study
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.store import StudyStore
from bnstudio.experiment.tasks import task_key
from tests.experiment.helpers import ASIA, SMALL, numbers, write_study


def _keys(path):
    return {(t.dataset, t.structure, t.method, t.fold, t.seed): t.key for t in plan(load_study(path))[1]}


def test_every_combination_is_one_task_with_a_distinct_stable_key(tmp_path):
    keys = _keys(write_study(tmp_path))
    assert len(keys) == 2 * 2 * 3 * 3 and len(set(keys.values())) == len(keys)
    assert keys == _keys(write_study(tmp_path))          # same study, same keys
    assert task_key({"a": 1, "b": [1, 2]}) == task_key({"b": [1, 2], "a": 1})


def test_a_changed_option_makes_new_keys_for_that_method_only(tmp_path):
    before = _keys(write_study(tmp_path))
    after = _keys(write_study(tmp_path, SMALL.replace("bags = 4", "bags = 5")))
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {k for k in before if k[2] == "bag"}


def test_changed_data_folds_or_seeds_make_new_keys(tmp_path):
    before = _keys(write_study(tmp_path))
    rows = _keys(write_study(tmp_path, SMALL.replace("rows = 60", "rows = 61")))
    assert {k for k in before if before[k] != rows[k]} == {k for k in before if k[0] == "corral"}
    folds = _keys(write_study(tmp_path, SMALL.replace("folds = 3", "folds = 4")))
    assert not set(before.values()) & set(folds.values())
    seeds = _keys(write_study(tmp_path, "seeds = [1]\n" + SMALL))
    assert not set(before.values()) & set(seeds.values())


def test_a_changed_network_file_makes_new_keys(tmp_path):
    net = tmp_path / "given.bif"
    text = ASIA.read_text(encoding="utf-8")
    net.write_text(text, encoding="utf-8")
    study = SMALL.replace('structures = ["nb", "tan"]',
                          f'structures = ["nb", {{label = "given", network = "{net.as_posix()}"}}]')
    before = _keys(write_study(tmp_path, study))
    net.write_text(text.replace("0.5", "0.55", 1), encoding="utf-8")
    after = _keys(write_study(tmp_path, study))
    assert {k for k in before if before[k] != after[k]} == {k for k in before if k[1] == "given"}


def test_resume_skips_finished_tasks_and_retries_failed_ones(tmp_path, monkeypatch):
    path = write_study(tmp_path)
    real = executors.run_task
    calls = []

    def flaky(context, task):
        calls.append(task.key)
        if task.method == "clgd" and task.fold == 1:
            raise ValueError("simulated crash")
        return real(context, task)

    monkeypatch.setattr(executors, "run_task", flaky)
    first = run_study(load_study(path), SerialExecutor())
    assert (first.total, first.skipped, first.done, first.failed) == (36, 0, 32, 4)
    with StudyStore(tmp_path / "small.sqlite", create=False) as store:
        failed = store.rows(status="failed")
        assert len(failed) == 4 and all("simulated crash" in r["error"] and "\n" not in r["error"] for r in failed)
        assert store.counts() == {"pending": 0, "done": 32, "failed": 4}
    kept = numbers(tmp_path / "small.sqlite")

    calls.clear()
    monkeypatch.setattr(executors, "run_task", real)
    second = run_study(load_study(path), SerialExecutor())
    assert (second.skipped, second.done, second.failed) == (32, 4, 0)
    again = numbers(tmp_path / "small.sqlite")
    assert all(again[k] == v for k, v in kept.items() if v[0] == "done")     # finished results untouched
    with StudyStore(tmp_path / "small.sqlite", create=False) as store:
        assert {r["attempts"] for r in store.rows() if r["method"] == "clgd" and r["fold"] == 1} == {2}

    third = run_study(load_study(path), SerialExecutor())
    assert (third.skipped, third.done, third.failed) == (36, 0, 0)


def test_rows_of_a_changed_option_are_kept_but_not_current(tmp_path):
    path = write_study(tmp_path)
    run_study(load_study(path), SerialExecutor())
    changed = write_study(tmp_path, SMALL.replace("bags = 4", "bags = 5"))
    summary = run_study(load_study(changed), SerialExecutor())
    assert (summary.skipped, summary.done) == (24, 12)
    with StudyStore(tmp_path / "small.sqlite", create=False) as store:
        assert len(store.rows(current=False)) == 48 and len(store.rows()) == 36


def test_a_store_that_is_not_a_study_file_is_one_error(tmp_path):
    from bnstudio.errors import FormatError

    bad = tmp_path / "x.sqlite"
    bad.write_bytes(b"not a database at all" * 100)
    with pytest.raises(FormatError, match="not a study file"):
        StudyStore(bad, create=False)


def test_the_code_fingerprint_covers_what_a_task_runs_and_changes_with_its_source(tmp_path, monkeypatch):
    import shutil

    from bnstudio.experiment import fingerprint

    modules = fingerprint.closure()
    assert {"bnstudio.experiment.evaluation", "bnstudio.experiment.scores", "bnstudio.learn.params.gradient",
            "bnstudio.learn.params.wanbia", "bnstudio.learn.structure.api", "bnstudio.inference"} <= set(modules)
    assert not [m for m in modules if m.startswith(("bnstudio.gui", "bnstudio.app", "bnstudio.cli", "bnstudio.figures"))]
    copy = tmp_path / "bnstudio"
    shutil.copytree(fingerprint.ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(fingerprint, "ROOT", copy)
    before = fingerprint.source_digest(fingerprint.closure())
    gradient = copy / "learn" / "params" / "gradient.py"
    gradient.write_text(gradient.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert fingerprint.source_digest(fingerprint.closure()) != before
    assert fingerprint.code_fingerprint() == fingerprint.code_fingerprint()      # once per process


def test_a_code_change_recomputes_every_task_and_the_report_shows_only_new_rows(tmp_path, monkeypatch):
    from bnstudio.experiment import tasks
    from bnstudio.experiment.report import compose_report

    path = write_study(tmp_path)
    run_study(load_study(path), SerialExecutor())
    old = numbers(tmp_path / "small.sqlite")
    monkeypatch.setattr(tasks, "code_fingerprint", lambda: "another-learner")
    again = run_study(load_study(path), SerialExecutor())
    assert (again.total, again.skipped, again.done) == (36, 0, 36)
    with StudyStore(tmp_path / "small.sqlite", create=False) as store:
        assert len(store.rows(current=False)) == 72
        current = {r["key"] for r in store.rows()}
    assert not current & set(old)
    document = compose_report(tmp_path / "small.sqlite", tmp_path / "report").document
    assert document["counts"] == {"pending": 0, "done": 36, "failed": 0}
    assert {c["runs"] for table in document["tables"].values() for c in table["cells"].values()} == {3}


def test_without_source_files_the_fingerprint_says_so(tmp_path, monkeypatch):
    from bnstudio.experiment import fingerprint

    monkeypatch.setattr(fingerprint, "ROOT", tmp_path / "frozen")
    assert fingerprint.closure() == [] and fingerprint.code_fingerprint.__wrapped__() == "no-source"
