"""The short error-message pieces, now :mod:`bnstudio.core.messages` (below every layer that words a message);
this name stays for the modules that import it from here."""
from bnstudio.core.messages import NAME_CHARS, SHOWN, listing, shorten, shown, tidy

__all__ = ["NAME_CHARS", "SHOWN", "listing", "shorten", "shown", "tidy"]
