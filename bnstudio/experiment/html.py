"""The report's one HTML page: the study, the Zhou Table 4-2 tables, the comparisons and every figure, embedded as
PNG data (the page stands alone; each figure links its SVG file)."""
from __future__ import annotations

import base64
import html
import math
from pathlib import Path
from typing import Any, Sequence

from bnstudio.experiment.ranks import ranks_text
from bnstudio.experiment.summary import single_state_text, split_description

STYLE = """body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}
table{border-collapse:collapse;margin:8px 0 20px;font-size:13px}th,td{border:1px solid #ccc;padding:3px 7px;white-space:nowrap;
text-align:right}th{background:#f1f4f8}td:first-child,th:first-child{text-align:left}.best{font-weight:bold;
background:#e6f2e6}figure{display:inline-block;margin:6px;vertical-align:top}figcaption{font-size:12px;
max-width:520px}img{max-width:520px}.note{color:#555;font-size:13px}.status{font-weight:bold}"""
PERCENT = {"error"}
HIGHER = {"cll", "ll", "auc"}


def _e(text: Any) -> str:
    return html.escape(str(text))


def format_value(value: float | None, metric: str) -> str:
    """A table number: percent for error (two decimals), iterations with one decimal, seconds with three
    significant digits, four decimals otherwise; "–" for none, ±inf as ∞."""
    if value is None or math.isnan(value):
        return "–"
    if math.isinf(value):
        return "−∞" if value < 0 else "∞"
    if metric in PERCENT:
        return f"{100 * value:.2f}"
    if metric == "iterations":
        return f"{value:.1f}"
    return f"{value:.3g}" if metric == "time" else f"{value:.4f}"



PARTIAL_MARK = "†"
MISSING_MARK = "‡"
#: why a finished run can have no value of a metric (:func:`missing_note`)
WHY_MISSING = {"auc": "AUC is undefined when a fold's test rows show one state of the target"}


def cell_text(cell: dict[str, Any], metric: str) -> str:
    """"mean ± sd" of a report cell (sd left out when unknown or of one value: a fixed test set's single run),
    "†" after a partial cell (fewer runs than the study asks for; see :func:`partial_note`), "‡" after a cell
    some of whose runs have no value (:func:`missing_note`); "n/a" for a cell whose runs have none."""
    mark = f" {PARTIAL_MARK}" if cell.get("partial") else ""
    if cell.get("n") == 0 and cell.get("missing"):
        return f"n/a{mark}"
    sd = "" if cell["sd"] is None or cell.get("n") == 1 else f" ± {format_value(cell['sd'], metric)}"
    missing = f" {MISSING_MARK}" if cell.get("missing") else ""
    return f"{format_value(cell['mean'], metric)}{sd}{missing}{mark}"


def missing_note(metric: str, table: dict[str, Any]) -> str:
    """The footnote of a report table's runs without a value: "‡ n/a in 1/5 folds of CHILD NB+mp (why)" (""
    when every run has one)."""
    unit = table.get("runs_unit", "runs")
    found = [f"{cell['missing']}/{cell['runs']} {unit} of {key.replace('|', ' ', 1).replace('|', '+')}"
             for key, cell in sorted(table["cells"].items()) if cell.get("missing")]
    if not found:
        return ""
    why = WHY_MISSING.get(metric, "no value was stored")
    return f"{MISSING_MARK} n/a ({why}; the mean and sd are over the other runs) in " + "; ".join(found)


def partial_note(table: dict[str, Any]) -> str:
    """The footnote of a report table's partial cells: "† partial, left out of the comparisons: CHILD NB+mp
    4/5 folds; …" ("" when every cell is complete)."""
    unit = table.get("runs_unit", "runs")
    found = [f"{key.replace('|', ' ', 1).replace('|', '+')} {cell['runs']}/{cell['expected']} {unit}"
             for key, cell in sorted(table["cells"].items()) if cell.get("partial")]
    if not found:
        return ""
    return f"{PARTIAL_MARK} partial, left out of the comparisons: " + "; ".join(found)


def table_rows(metric: str, table: dict[str, Any]) -> list[tuple[str, list[dict[str, Any] | None], float | None]]:
    """Per data set of a report table: its cells in column order (None where nothing finished) and the best
    mean of the row's complete cells (lowest, or highest for cll, ll and auc; a partial cell is never best)."""
    out = []
    for dataset in table["datasets"]:
        found = [table["cells"].get(f"{dataset}|{s}|{m}") for s, m in table["pairs"]]
        means = [c["mean"] for c in found if c is not None and c["mean"] is not None and not c.get("partial")]
        out.append((dataset, found, (max(means) if metric in HIGHER else min(means)) if means else None))
    return out


def _cell_table(metric: str, table: dict[str, Any]) -> str:
    """Rows = data sets, columns = structure+method, 'mean ± sd'; the best mean of each row in bold."""
    unit = " (%)" if metric in PERCENT else ""
    out = [f"<h3>{_e(metric)}{unit}: mean ± sd over folds and seeds</h3><table><tr><th>data set</th>"]
    out += [f"<th>{_e(c)}</th>" for c in table["columns"]] + ["</tr>"]
    for dataset, found, best in table_rows(metric, table):
        out.append(f"<tr><td>{_e(dataset)}</td>")
        for cell in found:
            if cell is None:
                out.append("<td></td>")
                continue
            mark = ' class="best"' if best is not None and cell["mean"] == best and not cell.get("partial") else ""
            out.append(f"<td{mark}>{_e(cell_text(cell, metric))}</td>")
        out.append("</tr>")
    notes = [n for n in (partial_note(table), missing_note(metric, table)) if n]
    return "".join(out) + "</table>" + "".join(f"<p class='note partial'>{_e(n)}</p>" for n in notes)


def _comparisons(comparisons: Sequence[dict[str, Any]]) -> str:
    if not comparisons:
        return ""
    head = ("structure", "method", "vs", "metric", "paired over", "wins", "draws", "losses", "Wilcoxon p",
            "sign test p", "left out (partial)")
    out = [f"<h2>Comparisons with the baseline</h2><p class='note'>{_e(comparison_note(comparisons))}</p>"
           "<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    for c in comparisons:
        values = (c["structure"], c["method"], c["baseline"], c["metric"], f"{c['n']} {c.get('unit', 'data sets')}",
                  c["wins"], c["draws"], c["losses"], f"{c['wilcoxon_p']:.3g}", f"{c['sign_p']:.3g}",
                  c.get("left_out", 0))
        out.append("<tr>" + "".join(f"<td>{_e(v)}</td>" for v in values) + "</tr>")
    return "".join(out) + "</table>"


def comparison_note(comparisons: Sequence[dict[str, Any]]) -> str:
    """What the comparisons paired and what they left out, in one sentence."""
    units = sorted({c.get("unit", "data sets") for c in comparisons})
    text = f"Paired over {' / '.join(units)} on the means; two-sided tests."
    left = [c for c in comparisons if c.get("left_out")]
    if left:
        text += (f" {len(left)} of {len(comparisons)} comparisons leave out "
                 f"{sum(c['left_out'] for c in left)} pair(s) with a partial cell ({PARTIAL_MARK}).")
    return text


def _friedman(tests: Sequence[dict[str, Any]]) -> str:
    """The Friedman tests with Nemenyi's critical difference and Holm's p-values against the baseline."""
    if not tests:
        return ""
    out = ["<h2>All methods at once: Friedman, Nemenyi, Holm</h2><p class='note'>Per structure and metric, the "
           "methods ranked on each data set (1 = best), complete cells only; Friedman's χ² (with Iman–Davenport's "
           "F), Nemenyi's critical difference of the average ranks and Holm's adjusted p against the baseline "
           "(Demšar, JMLR 2006, §3.2.2). The p-values are the χ² and F approximations, good from about 10 data sets and "
           "5 methods on (Demšar's rule of thumb).</p><table><tr><th>structure</th><th>metric</th><th>data sets</th>"
           "<th>χ²<sub>F</sub></th><th>p</th><th>F<sub>F</sub></th><th>p</th><th>CD (α = 0.05)</th>"
           "<th>average rank (Holm p vs baseline)</th><th>left out (partial)</th></tr>"]
    for t in tests:
        values = (t["structure"], t["metric"], t["n"], _number(t["chi2"]), _number(t["p"]),
                  _number(t["iman_davenport"]), _number(t["iman_davenport_p"]), _number(t["critical_difference"]),
                  ranks_text(t), t["left_out"])
        out.append("<tr>" + "".join(f"<td>{_e(v)}</td>" for v in values) + "</tr>")
    return "".join(out) + "</table>"


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.3g}"


def _queries(found: dict[str, Any]) -> str:
    head = "<h2>Query answers (Singh §4.6)</h2><table><tr><th>method</th><th>data sets</th><th>mean MSE</th>" \
           "<th>mean bias²</th><th>mean variance</th></tr>"
    rows = []
    for name, entry in found["methods"].items():
        bias2, variance = entry["bias2"], entry["variance"]
        finished = entry["datasets"]
        if entry.get("partial"):
            finished = f"{finished}/{entry['expected']} {PARTIAL_MARK}"
        rows.append(f"<tr><td>{_e(name)}</td><td>{_e(finished)}</td><td>{entry['mean_mse']:.5f}</td>"
                    f"<td>{sum(bias2) / len(bias2):.5f}</td><td>{sum(variance) / len(variance):.5f}</td></tr>")
    return head + "".join(rows) + "</table>"


def _figures(figures: Sequence[tuple[str, Path, Path]], folder: Path) -> str:
    out = ["<h2>Figures</h2>"]
    for title, png, svg in figures:
        data = base64.b64encode(png.read_bytes()).decode()
        link = svg.relative_to(folder).as_posix()
        out.append(f'<figure><img alt="{_e(title)}" src="data:image/png;base64,{data}"><figcaption>{_e(title)} '
                   f'(<a href="{_e(link)}">SVG</a>)</figcaption></figure>')
    return "".join(out)


def page(document: dict[str, Any], figures: Sequence[tuple[str, Path, Path]], folder: Path) -> str:
    """The whole page for the report ``document`` (see :func:`bnstudio.figures.report.write_report`)."""
    study, counts = document["study"], document["counts"]
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{_e(study['name'])}</title>"
             f"<style>{STYLE}</style></head><body><h1>Study {_e(study['name'])}</h1>",
             f"<p class='note'>{len(study['datasets'])} data sets × {len(study['structures'])} structures × "
             f"{len(study['methods'])} methods; {_e(split_description(study))}; seeds {_e(study['seeds'])}; baseline "
             f"<b>{_e(study['baseline'])}</b>. Tasks: {counts['done']} done, {counts['failed']} failed, "
             f"{counts['pending']} not run{'; ran on ' + _e(document['executor']) if document.get('executor') else ''}"
             f".</p><p class='status'>{_e(status_line(document))}</p>"]
    if single_state_text(study):
        parts.append(f"<p class='note partial'>{_e(single_state_text(study))}</p>")
    parts += [f"<p class='note partial'>{_e(note)}</p>" for note in older_code_notes(document)]
    for metric, table in document.get("tables", {}).items():
        parts.append(_cell_table(metric, table))
    if "queries" in document:
        parts.append(_queries(document["queries"]))
        parts.append(_comparisons(document["queries"]["comparisons"]))
    parts.append(_comparisons(document.get("comparisons", [])))
    parts.append(_friedman(document.get("friedman", [])))
    if document.get("failures"):
        parts.append("<h2>Failed tasks</h2><table><tr><th>data set</th><th>structure</th><th>method</th><th>fold"
                     "</th><th>seed</th><th>error</th></tr>" + "".join(
                         "<tr>" + "".join(f"<td>{_e(f[k])}</td>" for k in ("dataset", "structure", "method", "fold",
                                                                           "seed", "error")) + "</tr>"
                         for f in document["failures"]) + "</table>")
    if (document.get("calibration") or {}).get("figures"):
        parts.append(f"<p class='note'>{_e(CALIBRATION_NOTE)}</p>")
    parts.append(_figures(figures, folder))
    return "".join(parts) + "</body></html>\n"


CALIBRATION_NOTE = ("Calibration figures (one per data set): the fraction predicted right against the predicted "
                    "state's probability in 10 bins, from the held-out rows of every fold and seed pooled; below, "
                    "the cases per bin (a point drawn from a few cases says little). The ECE in their legends is "
                    "that of the pooled rows; the ECE table gives the mean of each fold's ECE, which is larger on "
                    "small folds (few rows per bin).")


def older_code_notes(document: dict[str, Any]) -> list[str]:
    """What a study file written before ECE and the calibration bins were stored lacks: metrics it asks for
    that no run has, and the finished tasks without calibration bins (left out of the calibration figures)."""
    notes = []
    if document.get("not_stored"):
        notes.append(f"No run stored {', '.join(document['not_stored'])}: the study file was written by an older "
                     f"BN Studio; run the study again to compute it (its tasks get new keys).")
    older = document.get("older_tasks") or 0
    if older:
        notes.append(f"{older} finished task(s) were computed by an older BN Studio, which stored "
                     f"neither ECE nor calibration bins (and AUC of two-state targets only): they have no ECE (n/a) "
                     f"and are left out of the calibration figures; run the study again to compute them.")
    return notes


STATUS_TEXT = {"finished": "The study finished: every task ran.",
               "running": "The study is still running: these numbers are provisional.",
               "interrupted": "The study was interrupted: the tasks it did not finish are missing.",
               "incomplete": "The study is incomplete: some of its tasks have not run.",
               "not started": "The study has not run yet."}


def status_line(document: dict[str, Any]) -> str:
    """The report's status sentence (finished, running, interrupted, ...), with how many cells are partial."""
    text = STATUS_TEXT.get(document.get("status", ""), "")
    outcomes = [r["outcome"] for r in document.get("runs", [])]
    if outcomes:
        tally = ", ".join(f"{outcomes.count(o)} {o}" for o in sorted(set(outcomes)))
        text += f" Runs: {len(outcomes)} ({tally})."
        last = document["runs"][-1].get("accounting")
        if last:
            text += f" Last run: {last}."
    code = document.get("code") or {}
    if code.get("code"):
        text += f" Computed by bnstudio {code.get('version')}, code fingerprint {code['code']}."
    partial = {key for table in document.get("tables", {}).values()
               for key, cell in table["cells"].items() if cell.get("partial")}
    if partial:
        text += f" {len(partial)} cell(s) are partial ({PARTIAL_MARK}) and left out of the comparisons."
    return text.strip()


