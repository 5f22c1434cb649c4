"""UAI ``BAYES`` files (the UAI inference competitions' format)."""
