"""Everything about the package is in pyproject.toml; this file adds only what pyproject.toml cannot say beside
its package finder: the repository's top-level ``resources/`` folder (example networks, data, icons) is installed
as the package ``bnstudio._resources``, read through ``bnstudio.resources`` (its files: package-data in
pyproject.toml), and the manual — the repository's ``docs/*.md`` and the pictures they show — is copied into it as
``manual/`` when the package is built (Help ▸ Manual reads it through ``bnstudio.resources.manual_page``)."""
import shutil
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

DOCS = Path(__file__).resolve().parent / "docs"
#: what of docs/ the manual is: its pages and their pictures (not the scripts that render them)
MANUAL_FILES = ("*.md", "*.png")


class BuildWithManual(build_py):
    """The usual build, then docs/*.md and docs/*.png copied to ``bnstudio/_resources/manual/``."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "bnstudio" / "_resources" / "manual"
        target.mkdir(parents=True, exist_ok=True)
        for pattern in MANUAL_FILES:
            for path in sorted(DOCS.glob(pattern)):
                shutil.copy2(path, target / path.name)


setup(packages=[*find_packages(include=["bnstudio", "bnstudio.*"]), "bnstudio._resources"],
      package_dir={"bnstudio._resources": "resources"},
      cmdclass={"build_py": BuildWithManual})
