"""Package data of :mod:`phase10math.game`: the shipped two-player tables and their
SHA-256 (``manifest.json``, checked when a table is read)."""
