"""GeNIe and SMILE: XDSL (XML, canonical models) and the older DSL text format."""
