"""The dice game's rules as data: dice, layouts, phases, rule options and the meld engine.

Modules, in reading order:

- :mod:`~phase10math.dice.faces` - faces, dice and layouts as values; reading one face.
- :mod:`~phase10math.dice.rolls` - typed rolls: split, parse, check, fit to the dice; which
  dice realise a hold.
- :mod:`~phase10math.dice.layouts` - the layouts shipped with the kit.
- :mod:`~phase10math.dice.layout_search` - the exhaustive search behind the compact layout.
- :mod:`~phase10math.dice.phases` - phases 1-20 and user phrases ("1 set of 4 + 1 run of 5").
- :mod:`~phase10math.dice.rules` - the rule options (hold rule, rolls, bonuses).
- :mod:`~phase10math.dice.meld` - does a roll make the phase, its best score, which dice do what.
- :mod:`~phase10math.dice.partial` - partial placements: how far a hold is from the phase.
- :mod:`~phase10math.dice.reroll` - one reroll by brute force: the chance that rerolling some
  dice completes a phase, listed exactly or simulated (checks the advisor).
"""

from phase10math._base.lazy import lazy_exports

# the public API: name -> the module that defines it (imported on first use)
__all__, __getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Face": "faces",
        "Die": "faces",
        "Layout": "faces",
        "parse_face": "faces",
        "parse_faces": "faces",
        "parse_layout": "faces",
        "match_roll": "rolls",
        "parse_roll": "rolls",
        "split_faces": "faces",
        "DEFAULT_LAYOUT": "layouts",
        "LAYOUTS": "layouts",
        "PHASES": "phases",
        "Phase": "phases",
        "as_phase": "phases",
        "parse_phase": "phases",
        "Rules": "rules",
        "DEFAULT_RULES": "rules",
        "Holds": "rules",
        "Objective": "rules",
        "score": "meld",
        "explain": "meld",
        "best_scores": "meld",
        "greedy_hold": "partial",
        "reroll_value": "reroll",
        "simulate_reroll": "reroll",
    },
)
