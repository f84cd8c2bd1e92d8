"""Package data of :mod:`phase10math.game`: the shipped two-player table (duel_table.json.gz)."""
