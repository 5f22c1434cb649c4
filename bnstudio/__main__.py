"""``python -m bnstudio`` is the ``bnstudio`` command."""
import sys

from bnstudio.cli import main

sys.exit(main())
