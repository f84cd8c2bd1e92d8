"""Independent brute-force references used by the tests (deliberately naive, no shared code
with the package beyond the Face value type)."""

from __future__ import annotations

from itertools import combinations


def group_ok(kind: str, size: int, dice) -> list:
    """Labels under which the dice (list of (value, color), value 0 = W) form the group."""
    real = [v for v, _ in dice if v != 0]
    if kind == "set":
        if len(set(real)) > 1:
            return []
        return [real[0]] if real else list(range(1, 11))
    if kind == "run":
        out = []
        for s in range(1, 11 - size + 2):
            if s + size - 1 > 10:
                break
            window = set(range(s, s + size))
            if len(set(real)) == len(real) and set(real) <= window:
                out.append(s)
        return out
    colors = {c for _, c in dice}
    return list(colors) if len(colors) == 1 else []


def brute_best(groups, dice, share=True):
    """Best score over every assignment of dice to the groups (exact sizes), or None.

    ``groups``: list of (kind, size); ``dice``: list of (value, color)."""
    n = len(dice)
    best = None

    def rec(gi, remaining, total, set_labels):
        nonlocal best
        if gi == len(groups):
            if best is None or total > best:
                best = total
            return
        kind, size = groups[gi]
        for combo in combinations(remaining, size):
            chosen = [dice[i] for i in combo]
            labels = group_ok(kind, size, chosen)
            if not labels:
                continue
            if kind == "set" and not share:
                labels = [x for x in labels if x not in set_labels]
                if not labels:
                    continue
            rest = [i for i in remaining if i not in combo]
            new_labels = set_labels
            if kind == "set":
                # a set of real dice has one label; an all-wild set may take any free number
                new_labels = set_labels | {labels[0]}
            rec(gi + 1, rest, total + sum(v for v, _ in chosen), new_labels)

    rec(0, list(range(n)), 0, frozenset())
    return best
