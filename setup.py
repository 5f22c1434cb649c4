"""Everything about the package is in pyproject.toml; this file adds only what pyproject.toml cannot say beside
its package finder: the repository's top-level ``resources/`` folder (example networks, data, icons) is installed
as the package ``bnstudio._resources``, read through ``bnstudio.resources`` (its files: package-data in
pyproject.toml)."""
from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["bnstudio", "bnstudio.*"]), "bnstudio._resources"],
      package_dir={"bnstudio._resources": "resources"})
