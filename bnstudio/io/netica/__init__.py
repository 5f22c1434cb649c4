"""Netica DNE text files (and the refusal of the encrypted ``.neta``): reader, tables and writer."""
