"""Hugin NET: the reader and writer, and the table-generator expressions (``model_nodes`` / ``model_data``)."""
