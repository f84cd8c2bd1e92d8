"""The advice words: the holds of a roll ranked by the chance to win (:func:`win_advice`),
and their text (:func:`format_advice`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from phase10math._base.checks import public
from phase10math.dice.faces import Face, Layout, parse_faces
from phase10math.dice.meld import explain, require_colors
from phase10math.dice.rules import Objective
from phase10math.errors import InvalidDiceError, InvalidRulesError
from phase10math.game.duel.setting import DuelGame, Play, partner_of
from phase10math.game.duel.shipped import check_covered
from phase10math.game.duel.table import DuelSolution
from phase10math.turn.advisor import deciding_face, placed_faces, roll_fits, way_text, ways_text
from phase10math.turn.engine import final_scores
from phase10math.turn.kernels import lexicographic_utilities
from phase10math.turn.solver import solve_utility
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import cached_solution

# --------------------------------------------------------------------------- advice


def _hold_text(space, gid: int) -> str:
    vals = sorted((k for _, k in space.faces_of(gid)), reverse=True)
    return " ".join("W" if v == 0 else str(v) for v in vals) or "(nothing: reroll all)"


@public
def win_advice(
    sol: DuelSolution,
    me: tuple[int, int],
    opponent: tuple[int, int],
    faces: Sequence[Face | str] | str,
    rolls_left: int,
    second: bool = False,
    last_chance: bool = False,
    layout: Layout | None = None,
    by_die: bool = False,
    dice_of: Mapping[int, int] | None = None,
) -> dict[str, Any]:
    """Every hold of a roll ranked by the chance to win (a tie counted half) for the player
    to move at ``me`` = (phase, total) against ``opponent``, from the solved table; with the
    holds the per-turn objectives would keep and their chance. ``second``: the mover sits
    second in turn order; ``last_chance``: the opponent has finished (``opponent``'s total is
    final).

    The faces may be typed in any order, as for :func:`~phase10math.turn.advisor.advise`:
    where they fit the dice in several ways that change the best hold, ``fits`` gives the
    best hold of each way, ``question`` names the face whose die decides it, and the ranking
    is the first way's (the faces in the order of the dice, where they fit so). ``by_die``:
    the faces are in the order of the layout's dice; ``dice_of``: ``{face index: die index}``
    (both from 0) for the faces whose die is known. Each hold (``best``, ``options``) is
    ``keep`` (its faces in words), ``chance_to_win``, ``error`` (proven) and ``hold_id`` (its
    state id in the phase's turn space, ``sol.game.turns[phase].space``: a
    :class:`~phase10math.game.spacemap.SpaceMap` finds its dice). ``certified``: the best
    hold is best for any chances within the errors (no hold of a smaller chance, beyond the
    tie rule, can reach the best's; a table is coarse at states play from its start rarely
    reaches, and there it may not tell the holds apart). ``stop`` is stopping now
    with the dice as they lie (the turn scores them, or fails): its ``chance_to_win``,
    ``error``, whether the dice make the phase (``made``) and their ``score`` (0 if not)."""
    g = sol.game
    k = me[0]
    check_covered(sol, me, opponent, last_chance, layout)
    layout = layout or g.layout
    if not 1 <= rolls_left < g.rules.rolls:
        raise InvalidRulesError(f"rolls left {rolls_left}: expected 1..{g.rules.rolls - 1}")
    tb = g.turns[k]
    space = tb.space
    faces = _roll_of(faces, layout, g.phases[k])
    fits = roll_fits(space, faces, layout, placed_faces(faces, layout, by_die, dice_of))
    U, E = _turn_utility(sol, g.state_key(me, opponent, second, last_chance), last_chance)
    counts = [space.counts_for(f.typed) for f in fits]
    subs = [_hold_ids(space, cnt) for cnt in counts]
    holds = _holds_of(tb, subs, U, E, rolls_left)
    per_turn = _per_turn_solutions(g, k, space)
    stop = _stop(g, k, faces, U, E, holds.rounding)
    answers = [holds.ranked(cnt, gids, per_turn, rolls_left) for cnt, gids in zip(counts, subs)]
    out = dict(answers[0], stop=stop, dice=[str(f) for f in faces], note=None, question=None)
    out["bound"] = max(out["bound"], stop["error"])  # stopping's chance within it too
    out.update(deciding_face=None, fits=[])
    ways = sum(f.ways for f in fits)
    if len({a["best"]["keep"] for a in answers}) == 1:
        if ways > 1:
            out["note"] = (
                f"these faces fit the dice in {ways} ways; the best hold is the same for all"
            )
        return out
    return _with_fits(out, answers, fits, faces, layout, ways)


def _roll_of(faces: Sequence[Face | str] | str, layout: Layout, phase) -> list[Face]:
    """The faces of a roll read, one for each die of ``layout``, with the colors ``phase``
    needs."""
    faces = parse_faces(faces)
    if len(faces) != len(layout.dice):
        raise InvalidDiceError(
            f"give the {len(layout.dice)} dice in front of the player; got {len(faces)}"
        )
    require_colors(faces, phase)
    return faces


def _holds_of(tb, subs: list, U: np.ndarray, E: Any, rolls_left: int) -> _Holds:
    """The chances to win, and their errors, of every way's holds (``subs``) at once: a
    hold's chance is a mean of the outcomes' chances, and a best choice among means errs by
    at most the largest error among them."""
    every = np.unique(np.concatenate([np.asarray(ids, dtype=np.int64) for ids in subs]))
    HV = tb.hold_values(np.stack([U, E], axis=1), rolls_left, every)
    return _Holds(
        tb.space,
        dict(zip(every.tolist(), HV[:, 0])),
        dict(zip(every.tolist(), HV[:, 1])),
        float(np.abs(U).max()) * 1e-12,
    )


def _turn_utility(sol: DuelSolution, key: Any, last_chance: bool) -> tuple[np.ndarray, Any]:
    """The chance-to-win utility of the turn at ``key`` over its outcomes and each
    outcome's proven error."""
    if last_chance:
        U = sol.last_utility(Play.OPTIMAL, key)[0]
        E = sol.utility_errors(key)  # a failed last chance ends the game: exact
    else:
        U = sol.utility(key)[0]
        E = sol.utility_errors(key)
        E[0] = sol.error(partner_of(key))  # the partner's, on a fail
    return U, E


def _hold_ids(space: StateSpace, cnt: Any) -> list[int]:
    """The state ids of every hold of a roll (its counts of each face per group)."""
    return [
        space.state_id(sub)
        for sub in itertools.product(
            *[itertools.product(*[range(c + 1) for c in cs]) for cs in cnt]
        )
    ]


def _stop(g: DuelGame, k: int, faces, U, E, rounding: float) -> dict[str, Any]:
    """Stopping now: the outcome of the faces as they lie (whichever die shows which)."""
    meld = explain(g.phases[k], faces, g.rules)
    o = g.turns[k].outcome_of_score(meld.score if meld.complete else None)
    return {
        "chance_to_win": float(U[o]),
        "error": float(E[o]) + rounding,
        "made": bool(meld.complete),
        "score": int(meld.score) if meld.complete else 0,
    }


class _Holds:
    """Every hold's chance to win ``W`` and its error ``Werr`` (by state id), and the
    rounding of the means."""

    def __init__(self, space: StateSpace, W: dict, Werr: dict, rounding: float) -> None:
        self.space, self.W, self.Werr, self.rounding = space, W, Werr, rounding

    def option(self, w: float, h: int) -> dict[str, Any]:
        return {
            "keep": _hold_text(self.space, h),
            "chance_to_win": w,
            "error": float(self.Werr[h]) + self.rounding,
            "hold_id": int(h),  # the hold's state id in the phase's turn space
        }

    def ranked(self, cnt, gids, per_turn, rolls_left: int) -> dict[str, Any]:
        """The holds of one way the faces fit, best first, with the per-turn objectives'."""
        space, W, Werr, rounding = self.space, self.W, self.Werr, self.rounding
        sizes = space.sizes_of(gids)
        holds = [(float(W[gid]), int(sizes[i]), gid) for i, gid in enumerate(gids)]
        # ties (within float resolution) to the larger hold, as the kit orders holds
        holds.sort(key=lambda h: (round(h[0], 12), h[1], h[2]), reverse=True)
        roll_gid = space.state_id(cnt)
        others = {}
        for obj, s in per_turn.items():
            hid = s.best_hold_id(roll_gid, rolls_left)
            others[str(obj)] = {"keep": _hold_text(space, hid), "chance_to_win": float(W[hid])}
        w0, h0 = holds[0][0], holds[0][2]
        floor = w0 - float(Werr[h0]) - rounding  # the best hold's chance is at least this
        return {
            "best": self.option(w0, h0),
            "options": [self.option(w, h) for w, _, h in holds],
            "per_turn": others,
            # whether the best hold stays best for any values within the errors: no hold of
            # a smaller chance (beyond the tie rule) can reach the best's least chance
            "certified": all(
                w + float(Werr[h]) + rounding <= floor for w, _, h in holds if w < w0 - 1e-12
            ),
            # every hold's chance within this: the largest error the states after this turn
            # carry into any of this roll's holds (not the table's largest)
            "bound": max(float(Werr[h]) for _, _, h in holds) + rounding,  # of every option
        }


def _with_fits(out: dict, answers: list, fits, faces, layout: Layout, ways: int) -> dict:
    """The advice where the best hold depends on which die shows which face: each way's
    best hold, and the face whose die decides it."""
    decider, question = deciding_face(
        [(a["best"]["keep"], f.on) for a, f in zip(answers, fits)], faces, layout
    )
    out["fits"] = [
        {
            "dice": [d + 1 for d in f.dice],  # one way: the die of each face, from 1
            "deciding_face_on": [] if decider is None else sorted(d + 1 for d in f.on[decider]),
            "ways": f.ways,
            "best": a["best"],
        }
        for a, f in zip(answers, fits)
    ]
    out.update(
        question=question,
        deciding_face=None if decider is None else decider + 1,
        note=f"these faces fit the dice in {ways} ways, and the best hold depends on which "
        f"die shows which face: {question}",
    )
    return out


def _per_turn_solutions(g: DuelGame, k: int, space: StateSpace) -> dict[Objective, Any]:
    """The per-turn objectives' turn solutions of phase ``k`` on the game's dice: solved once
    and kept on disk for a layout, solved here for other dice."""
    out = {}
    for obj in (Objective.COMPLETE, Objective.SCORE):
        s = cached_solution(g.phases[k], obj, g.rules, g.layout) if g.dice is g.layout else None
        if s is None or s.space.key() != space.key():  # other dice: solved here
            best = np.asarray(final_scores(g.phases[k], space, g.rules), dtype=np.int64)
            a, b = lexicographic_utilities(best, obj)
            s = solve_utility(space, a, g.rules, second=b)
        out[obj] = s
    return out


def format_advice(adv: Mapping[str, Any], top: int = 10) -> str:
    lines = []
    if adv.get("fits"):
        face = adv["dice"][adv["deciding_face"] - 1]
        ways = [
            way_text(
                n,
                face,
                f["deciding_face_on"],
                f"keep {f['best']['keep']} -> chance to win {f['best']['chance_to_win']:.6f}",
            )
            for n, f in enumerate(adv["fits"], 1)
        ]
        lines += ways_text(adv["question"], ways)
    lines.append(f"{'keep':<24} {'chance to win':>14}")
    for o in adv["options"][: top or None]:
        lines.append(f"{o['keep']:<24} {o['chance_to_win']:>14.6f}")
    best = adv["best"]
    for name, o in adv["per_turn"].items():
        if o["keep"] == best["keep"]:
            lines.append(f"the {name}-optimal turn keeps the same")
        elif abs(best["chance_to_win"] - o["chance_to_win"]) <= 1e-12:
            lines.append(f"the {name}-optimal turn would keep {o['keep']}: the same chance to win")
        else:
            lines.append(
                f"the {name}-optimal turn would keep {o['keep']}: chance to win "
                f"{o['chance_to_win']:.6f} ({best['chance_to_win'] - o['chance_to_win']:.6f} less: "
                f"it plays for this turn's {'completion' if name == 'complete' else 'points'}, "
                "not for the score sheets)"
            )
    stop = adv["stop"]
    made = f"phase made, {stop['score']} points" if stop["made"] else "phase failed"
    lines.append(f"stop now ({made}): chance to win {stop['chance_to_win']:.6f}")
    lines.append(
        f"every chance within {adv['bound']:.1e} "
        "(proven: the errors of the table's states after this turn)"
    )
    if not adv["certified"]:
        lines.append(
            "not certified: within these errors another hold may be better (the table is "
            "coarse at the states after this turn)"
        )
    if adv.get("note") and not adv.get("fits"):
        lines.append(f"note: {adv['note']}")
    return "\n".join(lines)
