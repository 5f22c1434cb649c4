"""Render docs/first-hour.ipynb, executed, to docs/first-hour.png as a laptop (1366 px wide) shows it.

    .venv/bin/python docs/render_first_hour.py [--chromium /usr/bin/chromium]

The notebook runs in a python3 kernel (nbclient); its cells and outputs (HTML, SVG, text) are put on one
plain page, which headless Chromium captures. No nbconvert or Jupyter server needed.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from html import escape
from pathlib import Path

import nbclient
import nbformat

DOCS = Path(__file__).resolve().parent
WIDTH = 1366
PAGE = """<!doctype html><meta charset="utf-8"><style>
body {{ font-family: DejaVu Sans, sans-serif; font-size: 14px; margin: 24px 40px; color: #1E2732; width: {w}px }}
pre.code {{ background: #F5F7FA; border: 1px solid #DDE3EA; padding: 8px; font-size: 12px; margin: 10px 0 4px }}
pre.text {{ font-size: 12px; margin: 4px 0 }} .out {{ margin: 4px 0 14px 0; overflow: hidden }}
h1 {{ font-size: 22px }} h2 {{ font-size: 17px; margin-top: 22px }}
</style>{body}"""


def _markdown(text: str) -> str:
    """The few Markdown forms the notebook uses: headings and paragraphs with `code` and **bold**."""
    out = []
    for block in text.split("\n\n"):
        level = len(block) - len(block.lstrip("#"))
        body = escape(block.lstrip("# ").replace("\n", " "))
        parts = body.split("`")
        body = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
        parts = body.split("**")
        body = "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))
        out.append(f"<h{level}>{body}</h{level}>" if level else f"<p>{body}</p>")
    return "".join(out)


def _output(output) -> str:
    data = output.get("data", {})
    if "text/html" in data:
        return data["text/html"]
    if "image/svg+xml" in data:
        return data["image/svg+xml"]
    text = data.get("text/plain", output.get("text", ""))
    return f"<pre class='text'>{escape(text)}</pre>"


def page(nb) -> str:
    parts = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            parts.append(_markdown(cell.source))
            continue
        parts.append(f"<pre class='code'>{escape(cell.source)}</pre>")
        parts += [f"<div class='out'>{_output(o)}</div>" for o in cell.outputs]
    return PAGE.format(w=WIDTH - 80, body="".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--height", type=int, default=4200)
    parser.add_argument("--out", default=str(DOCS / "first-hour.png"))
    args = parser.parse_args()
    nb = nbformat.read(DOCS / "first-hour.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(DOCS)}}).execute()
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "first-hour.html"
        html.write_text(page(nb), encoding="utf-8")
        subprocess.run([args.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={WIDTH},{args.height}", f"--screenshot={args.out}", html.as_uri()],
                       check=True, capture_output=True)
    crop_blank_bottom(Path(args.out))
    print(args.out, file=sys.stderr)


def crop_blank_bottom(path: Path, margin: int = 24) -> None:
    """Cut the white below the page's last drawn pixel (the window is taller than the page)."""
    from PIL import Image
    image = Image.open(path).convert("RGB")
    box = Image.eval(image.convert("L"), lambda v: 255 - v).getbbox()
    if box:
        image.crop((0, 0, image.width, min(image.height, box[3] + margin))).save(path, optimize=True)


if __name__ == "__main__":
    main()
