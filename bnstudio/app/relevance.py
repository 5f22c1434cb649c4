"""The canvas's relevance overlay: a state of the scene, never an edit (docs/inference.md §9).

* **Relevance to a target T** (the query's): given the canvas findings, the unobserved variables d-separated
  from T are greyed (observing them cannot change p(T | e)), and the findings that are d-separated from T given
  the other findings are faded with a dashed frame and a tooltip saying why they do not change p(T).
  Interventions count as findings of the mutilated network (their parent arcs cut, :func:`mutilated`).
* **The Markov blanket of X**: its parents, children and the children's other parents get a green frame.

The split is :func:`bnstudio.core.dseparation.relevance` / :func:`markov_blanket`; the overlay only draws it and
recomputes it whenever the scene refreshes its beliefs (findings or network changed).
"""
from __future__ import annotations

from typing import Any

from bnstudio.core.dseparation import markov_blanket, relevance
from bnstudio.core.surgery import mutilated
from bnstudio.errors import BNStudioError

RELEVANCE, BLANKET = "relevance", "blanket"


class RelevanceOverlay:
    """What the scene highlights (``mode`` None: nothing) and for which variable (``subject``)."""

    def __init__(self, scene: Any) -> None:
        self.scene = scene
        self.mode: str | None = None
        self.subject = ""
        self.marks: dict[str, str] = {}      # node name -> overlay of its item
        self.message = ""                    # why nothing is marked (a target that is itself a finding...)

    def show_relevance(self, target: str | None) -> None:
        """Grey what is d-separated from ``target`` given the findings (None: switch the overlay off)."""
        self._set(RELEVANCE if target else None, target or "")

    def show_blanket(self, variable: str | None) -> None:
        """Frame ``variable``'s Markov blanket (None: switch the overlay off)."""
        self._set(BLANKET if variable else None, variable or "")

    def clear(self) -> None:
        self._set(None, "")

    def _set(self, mode: str | None, subject: str) -> None:
        self.mode, self.subject = mode, subject
        self.refresh()

    def refresh(self) -> None:
        """Recompute the marks for the network and findings as they are now and put them on the items."""
        net = self.scene.document.network
        if self.mode is not None and self.subject not in net:
            self.mode, self.subject = None, ""
        self.message = ""
        marks, tips = self._blanket() if self.mode == BLANKET else self._relevance() if self.mode else ({}, {})
        self.marks = marks
        for name, item in self.scene.nodes.items():
            item.set_overlay(marks.get(name))
            item.setToolTip(tips.get(name) or net.variable(name).description or name)

    def _relevance(self) -> tuple[dict[str, str], dict[str, str]]:
        doc, target = self.scene.document, self.subject
        evidence, do = doc.evidence, doc.interventions
        hard = [v for v, value in evidence.items() if isinstance(value, str)] + list(do)
        soft = [v for v, value in evidence.items() if not isinstance(value, str)]
        try:
            graph = mutilated(doc.network, do) if do else doc.network
            split = relevance(graph, target, hard, soft)
        except BNStudioError as exc:
            self.message = str(exc)
            return {}, {}
        marks = {v: "separated" for v in split.separated} | {v: "irrelevant" for v in split.irrelevant}
        findings = hard + soft
        tips = {v: f"d-separated from {target} given {_listed(findings)}: observing it cannot change p({target})"
                for v in split.separated}
        for v in split.irrelevant:
            others = [f for f in findings if f != v]
            tips[v] = (f"d-separated from {target} given {_listed(others)}: this finding does not change "
                       f"p({target})")
        return marks, tips

    def _blanket(self) -> tuple[dict[str, str], dict[str, str]]:
        name = self.subject
        blanket = markov_blanket(self.scene.document.network, name)
        roles = {v: "parent" for v in blanket.parents} | {v: "child" for v in blanket.children}
        roles |= {v: "other parent of a child" for v in blanket.spouses}
        marks = {v: BLANKET for v in blanket.members}
        tips = {v: f"In the Markov blanket of {name} ({role})" for v, role in roles.items()}
        return marks, tips


def _listed(names: list[str]) -> str:
    return ", ".join(names) if names else "no findings"
