"""A network file drawn as the app's canvas draws it, without a window (``bnstudio image FILE OUT``): read the
way the app opens it (:func:`bnstudio.gui.file_controller.open_into`, laid out when the file has no
positions), beliefs computed (with evidence), then written as PNG, SVG or PDF by OUT's extension
(:mod:`bnstudio.gui.canvas.export`: a PNG is capped, see there)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bnstudio.errors import BNStudioError
from bnstudio.gui.app import application
from bnstudio.gui.canvas import NetworkScene
from bnstudio.gui.canvas import style as st
from bnstudio.gui.canvas.arrange import fill_missing_positions
from bnstudio.gui.canvas.export import export_pdf, export_png, export_svg, source_rect
from bnstudio.gui.document import Document
from bnstudio.gui.file_controller import open_into
from bnstudio.gui.screenshot import wait_for_beliefs

FORMATS = (".png", ".svg", ".pdf")


def write_network_image(source: str | Path, out: str | Path, node_style: str = st.BARS, scale: float = 2.0,
                        evidence: dict[str, Any] | None = None, seconds: float = 600.0) -> dict[str, Any]:
    """Draw the network of ``source`` into ``out`` (.png, .svg or .pdf) in ``node_style`` with ``evidence``;
    a PNG at ``scale`` pixels per unit, capped. Returns what was written: file, format, width and height
    (pixels for a PNG, drawing units otherwise) and whether a PNG was scaled down. Raises BNStudioError for
    bad input and OSError when the file cannot be written."""
    suffix = Path(out).suffix.lower()
    if suffix not in FORMATS:
        raise BNStudioError(f"{out}: the picture must be a {', '.join(FORMATS)} file")
    app = application()
    document = Document(prepare_network=lambda net: fill_missing_positions(net, st.BARS))
    scene = NetworkScene(document)
    said: list[str] = []
    document.message.connect(lambda _level, text: said.append(text))
    try:
        open_into(document, source, node_style)
        for name, value in (evidence or {}).items():
            if not document.set_evidence(name, value):
                raise BNStudioError(said[-1] if said else f"evidence {name}={value} was not applied")
        scene.set_node_style(node_style)
        wait_for_beliefs(app, document, seconds)
        source_size = source_rect(scene)
        written: dict[str, Any] = {"file": str(out), "format": suffix[1:], "capped": False,
                                   "width": round(source_size.width()), "height": round(source_size.height())}
        if suffix == ".png":
            size = export_png(scene, out, scale)
            written.update(width=size.width, height=size.height, capped=size.capped)
        else:
            (export_svg if suffix == ".svg" else export_pdf)(scene, out)
        return written
    finally:
        document.updates.shutdown()
        scene.clear()
