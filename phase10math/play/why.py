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
    article,
    cost_words,
    made_now,
    option_dice,
    standing,
    stop_advised,
    value_words,
)
from phase10math.play.palette import LETTERS


def faces_words(faces: Iterable[Face], colors: bool = False) -> str:
    """Faces as a player reads them: numbers (``W`` a wild), with the color letter where the
    phase counts colors, as the chips show it (``7G 6R W``)."""

    def one(f: Face) -> str:
        n = "W" if f.value == WILD else str(f.value)
        return n + LETTERS[f.color] if colors else n

    return " ".join(one(f) for f in faces) or "nothing"


def _used(state: TurnState, faces: Sequence[Face]) -> int:
    return sum(min(g.have, g.size) for g in partial(state.phase, faces, state.rules))


def idle_faces(state: TurnState, keep: Sequence[Face]) -> list[Face]:
    """The faces of a hold that count toward no group of the phase (the hold would place the
    same number of dice without them)."""
    rest, idle = list(keep), []
    for f in sorted(keep, key=lambda f: (f.value == WILD, f.value)):
        without = list(rest)
        without.remove(f)
        if _used(state, without) == _used(state, rest):
            rest, idle = without, idle + [f]
    return idle


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
            natural = gp.label is not None and any(f.value == gp.label for f in keep)
            if gp.have and natural:
                out.append(
                    (f"{missing} more {gp.label}{'s' if missing > 1 else ''}", [gp.label], None)
                )
            elif gp.have:  # only wilds so far: they fit a set of any number
                wilds = "wild fits" if gp.have == 1 else "wilds fit"
                out.append(
                    (f"{missing} more of one number (the {gp.have} {wilds} any number)", [], None)
                )
        elif g.kind == "run" and gp.have and gp.label is not None:
            have = {f.value for f in keep}
            nums = [n for n in range(gp.label, gp.label + gp.size) if n not in have]
            if nums:
                out.append((f"the run's missing {' '.join(map(str, nums))}", nums, None))
        elif g.kind == "color" and gp.have and gp.label is not None:
            die = "die" if missing == 1 else "dice"
            out.append((f"{missing} more {COLOR_NAMES[gp.label]} {die}", [], gp.label))
    return out


def _group_words(kind: str, size: int) -> str:
    return f"{size} dice of one color" if kind == "color" else f"a {kind} of {size}"


def missing_groups(state: TurnState, keep: Sequence[Face]) -> list[str]:
    """The groups of the phase the hold has no die for yet, in words (``a set of 3``)."""
    ph = state.phase
    return [
        _group_words(g.kind, gp.size)
        for g, gp in zip(ph.groups, partial(ph, keep, state.rules))
        if not gp.done and not gp.have
    ]


#: How many sentences the app shows a roll (the ones that matter most; ``limit=None``: all).
WHY_LIMIT = 3


def why(
    state: TurnState, mine: Iterable[int] | None = None, limit: int | None = WHY_LIMIT
) -> list[str]:
    """Plain-words sentences on the best hold and (if different) the hold ``mine`` (die
    indices; default: the dice held now), the ``limit`` that matter most first: a phase
    already made, what your hold costs and the main reason, then what the best hold still
    needs, dice that do not count, the wilds. Empty before the first roll and after the turn."""
    ranked = sorted(_why_ranked(state, mine), key=lambda x: x[0])
    return [s for _p, s in ranked][:limit]


def _why_ranked(state: TurnState, mine: Iterable[int] | None) -> list[tuple[int, str]]:
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
    colors = state.phase.uses_color
    out: list[tuple[int, str]] = []

    def say(priority: int, text: str) -> None:
        out.append((priority, text))

    made = made_now(state)
    if made is not None and stop_advised(state):
        return [
            (
                0,
                f"Your dice already make phase {state.phase.number} for {made.score} points "
                f"({'; '.join(str(g) for g in made.groups)}). Rolling again could only lose "
                "it: stop now and score.",
            )
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
        say(
            0,
            f"Your dice already make the phase for {made.score} points, but rerolling "
            f"{_count_words(best.rerolled, 'die')} {keeps} and raises the expected score from "
            f"{made.score} to {float(points):.1f}.",
        )

    ties = st.best_ties
    if best.keep:
        say(
            4,
            f"Best: keep {faces_words(best.keep, colors)} and reroll "
            f"{_count_words(best.rerolled, 'die')}: {value_words(best.value, state.objective)} "
            f"{aim} with best play" + (f" ({ties} holds are equally good)." if ties > 1 else "."),
        )
    else:
        say(
            4,
            f"Best: reroll all {n} dice ({value_words(best.value, state.objective)} {aim}); "
            "nothing in this roll is worth keeping"
            + (f" ({ties} holds are equally good)." if ties > 1 else "."),
        )
    idle = idle_faces(state, best.keep) if best.keep else []
    if idle:
        say(
            5,
            f"The {faces_words(idle, colors)} in the best hold "
            f"{'counts' if len(idle) == 1 else 'count'} toward no group of the phase: "
            f"{'it is' if len(idle) == 1 else 'they are'} kept only for the score "
            "(rerolling "
            f"{'it' if len(idle) == 1 else 'them'} would be as good for the chance).",
        )

    # which rerolled dice can still show what the best hold needs
    reroll_best = [i for i in range(n) if i not in best_idx]
    wild_dice = [i for i in range(n) if _wilds_on(layout.dice[i])]
    empty = missing_groups(state, best.keep) if best.keep else []
    for k, (words, nums, color) in enumerate(_needs(state, best.keep)):
        if k == 0 and empty:  # never "1 more 6" alone while a whole group is missing
            others = ["another " + e[2:] if e.startswith("a ") else e for e in empty]
            words += " and " + " and ".join(others)
        if color is not None:
            k = sum(_can_show(layout.dice[i], color=color) for i in reroll_best)
            say(
                5,
                f"It still needs {words}: {k} of the {len(reroll_best)} dice you reroll "
                f"have {article(COLOR_NAMES[color])} {COLOR_NAMES[color]} face.",
            )
            continue
        if not nums:
            say(5, f"It still needs {words}.")
            continue
        can = [i for i in reroll_best if any(_can_show(layout.dice[i], v) for v in nums)]
        say(
            5,
            f"It still needs {words}: {len(can)} of the {len(reroll_best)} dice you reroll can "
            f"show {f'{article(str(nums[0]))} {nums[0]}' if len(nums) == 1 else 'them'}"
            + (
                f", and the wilds on {sum(i in wild_dice for i in reroll_best)} of them count too."
                if wild_dice
                else "."
            ),
        )
    if wild_dice and any(i in wild_dice for i in reroll_best) and best.value < 1:
        w_per = Counter(_wilds_on(layout.dice[i]) for i in wild_dice)
        faces_each = next(iter(w_per)) if len(w_per) == 1 else None
        rb = [i for i in reroll_best if i in wild_dice]
        exp_b = sum(_wilds_on(layout.dice[i]) for i in rb) / 6
        say(
            6,
            f"Wilds (W) are only on the {len(wild_dice)} low dice"
            + (f", {faces_each} faces of 6 each" if faces_each else "")
            + f"; the best hold rerolls {len(rb)} of them: about {exp_b:.1f} wilds per roll.",
        )

    # your hold against the best
    if st.mine is not None and not st.is_best and mine_idx:
        mine_faces = [state.dice[i] for i in sorted(mine_idx)]
        say(
            1,
            f"Your hold (keep {faces_words(sorted(mine_faces, reverse=True), colors)}) gives "
            f"{value_words(st.mine.value, state.objective)}, "
            f"{cost_words(st.cost, state.objective)} less than the best.",
        )
        nothing = next((o for o in st.options if not o.keep), None)
        if mine_idx and nothing is not None and nothing.value > st.mine.value:
            say(
                3,
                f"Even rerolling all {n} dice ({value_words(nothing.value, state.objective)}) "
                "beats your hold.",
            )
        only_mine = sorted(mine_idx - best_idx)
        only_best = sorted(best_idx - mine_idx)
        if only_mine:
            gave = [state.dice[i] for i in only_mine]
            say(6, f"The best hold gives up your {faces_words(gave, colors)}.")
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
                        say(
                            2,
                            f"A {v} is only on the {c} low dice ({high_max} dice show each "
                            "high number), the same dice that carry the wilds.",
                        )
                rm = [i for i in range(n) if i not in mine_idx and i in wild_dice]
                exp_m = sum(_wilds_on(layout.dice[i]) for i in rm) / 6
                say(
                    2,
                    f"Keeping {faces_words(state.dice[i] for i in low)} takes "
                    f"{_count_words(len(low), 'low die')} out of the reroll: your hold rerolls "
                    f"{len(rm)} low dice, about {exp_m:.1f} wilds per roll instead of "
                    f"{sum(_wilds_on(layout.dice[i]) for i in reroll_best) / 6:.1f}.",
                )
        if only_best:
            say(
                6,
                f"The best hold keeps {faces_words((state.dice[i] for i in only_best), colors)}, "
                "which you reroll"
                + (" (any of the equally good holds will do)." if ties > 1 else "."),
            )
    elif st.mine is not None and st.is_best and mine_idx:
        say(7, "Your hold is as good as the best.")
    return out
