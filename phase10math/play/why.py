"""Why the best hold is best, in plain words, from the solver's numbers and facts about the dice.

The sentences say what the best hold keeps and gives, which of the dice you reroll can still
show the numbers (or color) you need, how many wilds are on the dice you reroll, and - when
your hold differs - what your hold costs and what the best hold gives up. Every number in
them is computed (the advisor's exact values, the layout's faces), never a canned phrase.

>>> from phase10math.play.models import enter_rerolled
>>> st = TurnState(phase=1, seed=0)
>>> enter_rerolled(st, "4 4 1 2 5 6 7 8 9 10")
>>> st.held = {i for i, f in enumerate(st.dice) if f.value == 4}
>>> text = " ".join(why(st))
>>> "only on the 4 low dice" in text and "wilds" in text
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from phase10math.dice.faces import COLOR_NAMES, WILD, Face
from phase10math.dice.partial import partial
from phase10math.play.models import (
    TurnState,
    cost_words,
    made_now,
    option_dice,
    standing,
    stop_advised,
    value_words,
)


def _faces_words(faces: Iterable[Face]) -> str:
    return " ".join("W" if f.value == WILD else str(f.value) for f in faces) or "nothing"


def _wilds_on(die) -> int:
    return sum(f.value == WILD for f in die.faces)


def _can_show(die, value: int | None = None, color: str | None = None) -> bool:
    return any(
        (value is None or f.value == value) and (color is None or f.color == color)
        for f in die.faces
    )


def _count_words(n: int, thing: str) -> str:
    if n == 1:
        return f"1 {thing}"
    return f"{n} " + (thing[:-3] + "dice" if thing.endswith("die") else thing + "s")


def _needs(state: TurnState, keep: Sequence[Face]) -> list[tuple[str, list[int], str | None]]:
    """What the groups not yet done still need: (group words, numbers, color)."""
    ph = state.phase
    out = []
    for g, gp in zip(ph.groups, partial(ph, keep, state.rules)):
        if gp.done:
            continue
        missing = gp.size - gp.have
        if g.kind == "set":
            if gp.have and gp.label is not None:
                out.append(
                    (f"{missing} more {gp.label}{'s' if missing > 1 else ''}", [gp.label], None)
                )
        elif g.kind == "run" and gp.have and gp.label is not None:
            have = {f.value for f in keep}
            nums = [n for n in range(gp.label, gp.label + gp.size) if n not in have]
            if nums:
                out.append((f"the run's missing {' '.join(map(str, nums))}", nums, None))
        elif g.kind == "color" and gp.have and gp.label is not None:
            out.append((f"{missing} more {COLOR_NAMES[gp.label]}", [], gp.label))
    return out


def why(state: TurnState, mine: Iterable[int] | None = None) -> list[str]:
    """Plain-words sentences on the best hold and (if different) the hold ``mine`` (die
    indices; default: the dice held now). Empty before the first roll and after the turn."""
    st = standing(state)
    if st is None:
        return []
    layout, n = state.layout, state.n_dice
    aim = (
        f"chance to make phase {state.phase.number}"
        if state.objective == "complete"
        else "expected score"
    )
    best = st.best
    best_idx = option_dice(state, best)
    mine_idx = set(state.held if mine is None else mine)
    out: list[str] = []

    made = made_now(state)
    if made is not None and stop_advised(state):
        return [
            f"Your dice already make phase {state.phase.number} for {made.score} points "
            f"({'; '.join(str(g) for g in made.groups)}). Rolling again could only lose it: "
            "stop and score."
        ]
    if made is not None:
        # the two keys of the best hold: the chance to make the phase and the expected score
        p, points = (
            (best.value, best.value2)
            if state.objective == "complete"
            else (best.value2, best.value)
        )
        keeps = (
            "keeps the phase made (100%)"
            if p == 1
            else f"keeps a {value_words(p, 'complete')} chance of making it"
        )
        out.append(
            f"Your dice already make the phase for {made.score} points, but rerolling "
            f"{_count_words(best.rerolled, 'die')} {keeps} and raises the expected score from "
            f"{made.score} to {float(points):.1f}."
        )

    ties = st.best_ties
    if best.keep:
        out.append(
            f"Best: keep {_faces_words(best.keep)} and reroll "
            f"{_count_words(best.rerolled, 'die')}: {value_words(best.value, state.objective)} "
            f"{aim} with best play" + (f" ({ties} holds are equally good)." if ties > 1 else ".")
        )
    else:
        out.append(
            f"Best: reroll all {n} dice ({value_words(best.value, state.objective)} {aim}); "
            "nothing in this roll is worth keeping"
            + (f" ({ties} holds are equally good)." if ties > 1 else ".")
        )

    # which rerolled dice can still show what the best hold needs
    reroll_best = [i for i in range(n) if i not in best_idx]
    wild_dice = [i for i in range(n) if _wilds_on(layout.dice[i])]
    for words, nums, color in _needs(state, best.keep):
        if color is not None:
            k = sum(_can_show(layout.dice[i], color=color) for i in reroll_best)
            out.append(
                f"It still needs {words} dice: {k} of the {len(reroll_best)} dice you reroll "
                f"have a {COLOR_NAMES[color]} face."
            )
            continue
        can = [i for i in reroll_best if any(_can_show(layout.dice[i], v) for v in nums)]
        out.append(
            f"It still needs {words}: {len(can)} of the {len(reroll_best)} dice you reroll can "
            f"show {'it' if len(nums) == 1 and 'more' in words else 'them'}"
            + (
                f", and the wilds on {sum(i in wild_dice for i in reroll_best)} of them count too."
                if wild_dice
                else "."
            )
        )
    if wild_dice:
        w_per = Counter(_wilds_on(layout.dice[i]) for i in wild_dice)
        faces_each = next(iter(w_per)) if len(w_per) == 1 else None
        rb = [i for i in reroll_best if i in wild_dice]
        exp_b = sum(_wilds_on(layout.dice[i]) for i in rb) / 6
        out.append(
            f"Wilds (W) are only on the {len(wild_dice)} low dice"
            + (f", {faces_each} faces of 6 each" if faces_each else "")
            + f"; the best hold rerolls {len(rb)} of them: about {exp_b:.1f} wilds per roll."
        )

    # your hold against the best
    if st.mine is not None and not st.is_best:
        mine_faces = [state.dice[i] for i in sorted(mine_idx)]
        out.append(
            f"Your hold (keep {_faces_words(sorted(mine_faces, reverse=True))}) gives "
            f"{value_words(st.mine.value, state.objective)}, "
            f"{cost_words(st.cost, state.objective)} less than the best ({st.rank_words()})."
        )
        nothing = next((o for o in st.options if not o.keep), None)
        if mine_idx and nothing is not None and nothing.value > st.mine.value:
            out.append(
                f"Even rerolling all {n} dice ({value_words(nothing.value, state.objective)}) "
                "beats your hold."
            )
        only_mine = sorted(mine_idx - best_idx)
        only_best = sorted(best_idx - mine_idx)
        if only_mine:
            gave = [state.dice[i] for i in only_mine]
            out.append(f"The best hold gives up your {_faces_words(gave)}.")
            low = [i for i in only_mine if i in wild_dice and state.dice[i].value != WILD]
            if low:
                values = sorted({state.dice[i].value for i in low})
                carriers = {v: sum(_can_show(d, v) for d in layout.dice) for v in values}
                high_max = max(
                    (sum(_can_show(d, v) for d in layout.dice) for v in range(1, 11)),
                    default=0,
                )
                for v, c in carriers.items():
                    if c < high_max:
                        out.append(
                            f"A {v} is only on the {c} low dice ({high_max} dice show each high "
                            "number), the same dice that carry the wilds."
                        )
                rm = [i for i in range(n) if i not in mine_idx and i in wild_dice]
                exp_m = sum(_wilds_on(layout.dice[i]) for i in rm) / 6
                out.append(
                    f"Keeping {_faces_words(state.dice[i] for i in low)} takes "
                    f"{_count_words(len(low), 'low die')} out of the reroll: your hold rerolls "
                    f"{len(rm)} low dice, about {exp_m:.1f} wilds per roll instead of "
                    f"{sum(_wilds_on(layout.dice[i]) for i in reroll_best) / 6:.1f}."
                )
        if only_best:
            out.append(
                f"The best hold keeps {_faces_words(state.dice[i] for i in only_best)}, "
                "which you reroll"
                + (" (any of the equally good holds will do)." if ties > 1 else ".")
            )
    elif st.mine is not None and st.is_best and mine_idx:
        out.append("Your hold is as good as the best.")
    return out
