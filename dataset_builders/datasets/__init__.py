"""Dataset builders, one module each, registered with ``@dataset("<name>")``."""
