"""XMLBIF 0.3 and the bounded XML tree reader the XML formats (XMLBIF, XDSL) share."""
