"""Command-line sub-command ``duel``: the two-player game solved (headline, state look-ups,
the resumable solve)."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys

from phase10math._base.files import check_output_file
from phase10math.cli.dice import layout_from, placed_dice, roll_from
from phase10math.dice.phases import as_phase
from phase10math.errors import InvalidRulesError, OutsideTableError
from phase10math.guards import check_probabilities

#: ``--picks``'s default: :data:`phase10math.game.duel.solve.ROUND_PICKS` (a test checks that
#: they agree), written here so that the parser does not import the solver
ROUND_PICKS = 2000


def _range(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d{1,2})\s*(?:-\s*(\d{1,2}))?\s*", text or "")
    if not m:
        raise InvalidRulesError(f"--phases {text[:20]!r}: expected LO-HI, e.g. 9-10")
    lo = int(m.group(1))
    hi = int(m.group(2) or lo)
    if not 1 <= lo <= hi <= 20:
        raise InvalidRulesError(f"--phases {lo}-{hi}: expected 1 <= LO <= HI <= 20")
    return lo, hi


def _player(text: str, name: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d{1,2})\s*:\s*(\d{1,4})\s*", text or "")
    if not m:
        raise InvalidRulesError(f"--{name} {text[:20]!r}: expected PHASE:SCORE, e.g. 9:120")
    return int(m.group(1)), int(m.group(2))


#: options of ``duel`` that only ``--solve`` reads, and their defaults there
SOLVE_ONLY = {"checkpoint": None, "write": None, "target": 2e-5, "picks": ROUND_PICKS}
SOLVE_ONLY |= {"family_from": None, "family_phases": None}
SOLVE_ONLY |= {"scheduler": None, "local_cluster": None, "pairs_per_task": None}


def check_duel_options(args: argparse.Namespace) -> None:
    """Refuse options given where they mean nothing (a solve's options without ``--solve``,
    ``--second`` without a state), and an output file that cannot be written, before any
    work; fill in the solve's defaults."""
    given = [k for k in SOLVE_ONLY if getattr(args, k) is not None]
    if not args.solve and given:
        raise InvalidRulesError(
            f"--{given[0].replace('_', '-')} is an option of --solve; without --solve the "
            "shipped tables are read"
        )
    if args.scheduler is not None and args.local_cluster is not None:
        raise InvalidRulesError("give --scheduler ADDRESS or --local-cluster N, not both")
    if args.solve and args.table:
        raise InvalidRulesError("--table reads a table; --solve solves one: give one of them")
    if args.second and not args.me:
        raise InvalidRulesError("--second: the seat of the player to move needs --me")
    for k, default in SOLVE_ONLY.items():
        if getattr(args, k) is None:
            setattr(args, k, default)
    if args.write:
        check_output_file(args.write, "--write")
    if args.checkpoint:
        check_output_file(args.checkpoint, "--checkpoint")


def cluster_of(args: argparse.Namespace):
    """The solve's Dask cluster (None: in process), its address checked and Dask found
    before any work."""
    if args.scheduler is None and args.local_cluster is None:
        if args.pairs_per_task is not None:
            raise InvalidRulesError("--pairs-per-task: give --scheduler or --local-cluster")
        return None
    size = args.pairs_per_task
    if size is not None and not 1 <= size <= 10**7:
        raise InvalidRulesError(f"--pairs-per-task {size}: expected 1 to 10000000")
    from phase10math.game.duel import cluster as dask_cluster

    if args.scheduler is not None:
        address, wait = args.scheduler.strip(), dask_cluster.CONNECT_TIMEOUT
        cluster = dask_cluster.Cluster(scheduler=address, connect_timeout=wait, pairs_per_task=size)
    elif not 1 <= args.local_cluster <= 256:
        raise InvalidRulesError(f"--local-cluster {args.local_cluster}: expected 1 to 256 workers")
    else:
        cluster = dask_cluster.Cluster(local=args.local_cluster, pairs_per_task=size)
    dask_cluster.require_dask()
    return cluster


def state_of(args: argparse.Namespace) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """``--me`` and ``--opponent`` read (both or neither: a state's look-up, refused before
    any work); (None, None) without them."""
    if not (args.me or args.opponent):
        return None, None
    if not (args.me and args.opponent):
        raise InvalidRulesError("give both --me PHASE:SCORE and --opponent PHASE:SCORE")
    return _player(args.me, "me"), _player(args.opponent, "opponent")


def cmd_duel(args: argparse.Namespace) -> int:
    check_duel_options(args)
    me, opp = state_of(args)
    if args.solve:
        sol, data, layout = solve_table(args)
    else:
        sol, data, layout = read_shipped(args, me, opp)
    if me:
        print_chance(args, sol, me, opp, layout)
        return 0
    print_headline(args, sol, data, layout)
    return 0


def solve_table(args: argparse.Namespace):
    """``duel --solve``: the game of ``--phases`` solved (its families seeded from
    ``--family-from``, on the cluster of ``--scheduler`` or ``--local-cluster``), written
    to ``--write``; the solution, its headline's data and the dice."""
    from phase10math.game.duel import RECOMPUTE, DuelGame, seed_families, solve_duel, write_table

    lo, hi = _range(args.phases or "9-10")
    if not (math.isfinite(args.target) and args.target > 0):
        raise InvalidRulesError(f"--target {args.target}: expected a finite number > 0")
    cluster = cluster_of(args)
    layout = layout_from(args)
    game = DuelGame.standard(lo, hi, layout=layout)
    if bool(args.family_from) != bool(args.family_phases):
        raise InvalidRulesError(
            "give --family-from CHECKPOINT with --family-phases LO-HI (the phases of the "
            "game it was written for)"
        )
    if args.family_from:
        source = DuelGame.standard(*_range(args.family_phases), layout=layout)
        taken = seed_families(game, source, args.family_from)
        if not args.json:
            print(
                "families taken from "
                + ", ".join(f"phase {k}: {n} policies" for k, n in taken.items()),
                file=sys.stderr,
                flush=True,
            )
    sol = solve_duel(
        game,
        checkpoint=args.checkpoint,
        show_progress=not args.json,
        log=None if args.json else (lambda line: print(line, file=sys.stderr, flush=True)),
        target=args.target,
        picks=args.picks,
        cluster=cluster,
    )
    if args.write:
        write_table(
            sol,
            args.write,
            f"phase10math duel --solve --phases {lo}-{hi} --target {args.target:g} "
            f"--picks {args.picks}"
            + (f" --layout {args.layout.strip().lower()}" if args.layout else "")
            + " --write FILE",
        )
    return sol, {"headline": sol.headline(), "seconds": sol.seconds, "command": RECOMPUTE}, layout


def read_shipped(args: argparse.Namespace, me, opp):
    """The table read (``--table``, else the shipped one that serves the dice): the
    solution, the file's data and the dice."""
    from phase10math.game.duel import first_covered, read_table, serving_tables, table_for_state

    layout = layout_from(args)
    if me and not (args.phases or args.table):
        # a state's look-up: the shipped table of fewest phases that holds it
        return table_for_state(me, opp, layout), None, layout
    # the shipped tables that serve the dice (--layout; default the recorded dice, as every
    # command's) from their first phase: those solved on them, and those without a color
    # phase
    tables = serving_tables(layout)
    whole = [(r, d) for r, d in tables if first_covered(r, layout, d) == r[0]]
    if args.phases:
        phases = _range(args.phases)
        pick = [d for r, d in whole if r == phases]
        if not (pick or args.table):
            raise OutsideTableError(
                f"no shipped table of phases {phases[0]}-{phases[1]} holds the "
                f"{layout.name} dice from phase {phases[0]} (shipped for them: "
                + ", ".join(f"{a}-{b}" for (a, b), _ in whole)
                + "; another --layout, or solve it with duel --solve)"
            )
        table_dice = pick[-1] if pick else None
    else:  # the headline: the table of the most phases
        phases, table_dice = max(whole, key=lambda t: t[0][1] - t[0][0])
    sol, data = read_table(args.table, phases, None if args.table else table_dice)
    return sol, data, layout


def print_chance(args: argparse.Namespace, sol, me, opp, layout) -> None:
    """A state's chance to win, P(win) and P(tie), with its proven error."""
    from phase10math.game.duel import chance_error, chance_to_win

    g = sol.game
    w, t = chance_to_win(sol, me, opp, args.second, False, layout)
    out = {
        "me": list(me),
        "opponent": list(opp),
        "seat": "second" if args.second else "first",
        "p_win": w - t / 2,
        "p_tie": t,
        "chance_to_win": w,
        "bound": chance_error(sol, me, opp, args.second),
        "table": g.describe(),
    }
    check_probabilities([out["p_win"], t, w], "a chance to win")
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(
            f"my turn at phase {me[0]} with {me[1]} points, opponent at phase {opp[0]} with "
            f"{opp[1]} ({out['seat']} seat): P(win) = {out['p_win']:.6f}, "
            f"P(tie) = {t:.6f}, chance to win {w:.6f} (a tie counted half; "
            f"within {out['bound']:.0e}; the table of {g.describe()})"
        )


def print_headline(args: argparse.Namespace, sol, data: dict, layout) -> None:
    """The table's headline: who wins how often, each play's matchups."""
    from phase10math.game.duel import format_headline

    h = data["headline"]
    check_headline(h)
    if args.json:
        keep = ("game", "rules", "layout", "code_version", "command", "seconds", "headline")
        print(json.dumps({k: data[k] for k in keep if k in data}, indent=2, default=str))
        return
    dice = sol.game.layout.name if args.table or args.solve else layout.name
    print(format_headline(h, dice, sol.game.lo))
    if not args.solve:
        where = f"the table {args.table}" if args.table else "the shipped table"
        print(
            f"\nfrom {where} (code {data['code_version']}, solved in "
            f"{data['seconds']:.0f} s); recompute: {data['command']}"
        )


def check_headline(h: dict) -> None:
    """The headline's chances in [0, 1] (:mod:`phase10math.guards`)."""
    seats = ("p_first_wins", "p_tie", "p_second_wins", "first_worth", "second_worth")
    check_probabilities([h[k] for k in seats if k in h], "the headline's chance")
    rows = h.get("matchups", ())
    check_probabilities(
        [r[k] for r in rows for k in ("p_first_wins", "p_tie", "first_worth")], "a matchup's chance"
    )


def advise_win(args: argparse.Namespace) -> int:
    """``advise --objective win``: the holds of a roll ranked by the chance to win, from the
    shipped two-player table of fewest phases that holds the state on those dice
    (:func:`~phase10math.game.duel.table_for_state`)."""
    if not (args.me and args.opponent):
        raise InvalidRulesError("--objective win needs --me PHASE:SCORE and --opponent PHASE:SCORE")
    me, opp = _player(args.me, "me"), _player(args.opponent, "opponent")
    ph = as_phase(args.phase)
    if ph.number != me[0]:
        raise InvalidRulesError(f"--phase {args.phase} but --me is at phase {me[0]}")
    if args.holds != "free":
        raise InvalidRulesError("the two-player table is solved for free holds")
    layout = layout_from(args)
    faces = roll_from(args.dice, ph, layout)
    dice_of = placed_dice(args, layout)
    from phase10math.game.duel import format_advice, read_table, table_for_state, win_advice

    if args.table:
        sol = read_table(args.table)[0]
    else:
        sol = table_for_state(me, opp, layout, args.last_chance)
    adv = win_advice(
        sol,
        me,
        opp,
        faces,
        args.rolls_left,
        args.second,
        args.last_chance,
        layout=layout,
        by_die=args.by_die,
        dice_of=dice_of,
    )
    chances = [o["chance_to_win"] for o in adv["options"]]
    chances += [f["best"]["chance_to_win"] for f in adv.get("fits") or ()]
    chances += [o["chance_to_win"] for o in adv["per_turn"].values()]
    check_probabilities(chances, "a chance to win")
    if args.json:
        out = dict(adv)
        if args.top:
            out["options"] = out["options"][: args.top]
        print(json.dumps(out, indent=2))
    else:
        print(format_advice(adv, args.top))
    return 0


def add_cluster_options(p) -> None:
    """``duel --solve``'s options of a solve on a Dask cluster."""
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="with --solve: run the solve's tasks on the Dask cluster of this scheduler "
        "(tcp://host:8786; started with `dask scheduler`, its workers with `dask worker "
        "tcp://host:8786`; needs pip install 'phase10math[cluster]')",
    )
    p.add_argument(
        "--local-cluster",
        type=int,
        default=None,
        metavar="N",
        help="with --solve: run the solve's tasks on a Dask cluster of N worker processes "
        "started on this machine",
    )
    p.add_argument(
        "--pairs-per-task",
        type=int,
        default=None,
        metavar="N",
        help="with --scheduler or --local-cluster: split a layer's parts into tasks of about "
        "N pairs (default: one task a part, as many as the layer has phases of the first "
        "seat); the same values and policies, the proven errors within rounding margins",
    )


def add_commands(sub) -> None:
    p = sub.add_parser(
        "duel",
        help="the two-player game solved: chance to win under optimal play, per-turn matchups",
    )
    p.add_argument("--solve", action="store_true", help="recompute (resumable with --checkpoint)")
    p.add_argument(
        "--phases",
        default=None,
        help="phase range LO-HI: the shipped table to read (default: the one of most phases, "
        "today 1-10; with --me and --opponent the one of fewest phases that holds both), or "
        "the game to solve (default 9-10)",
    )
    p.add_argument("--checkpoint", default=None, help="file to resume from and save to")
    p.add_argument(
        "--write",
        default=None,
        help="write the solved table here (.npz): every matchup's values at every state in "
        "full for a game of at most 500,000 states, else packed (optimal play's values as "
        "float32, the matchups at the start)",
    )
    p.add_argument(
        "--target",
        type=float,
        default=None,
        help="with color phases: the proven error wanted at the start (default 2e-5)",
    )
    p.add_argument(
        "--picks",
        type=int,
        default=None,
        help=f"with --target: exact solves a round at most (default {ROUND_PICKS})",
    )
    p.add_argument(
        "--layout",
        metavar="NAME|FILE",
        default=None,
        help="the dice (default recorded, as every command's): with --solve, those to solve "
        "on (recorded: a color phase solves on the tensor engine, about 25 s an exact solve; "
        "compact: most shipped tables' dice), or a file; else the tables that serve them "
        "(those solved on them, and those without a color phase)",
    )
    p.add_argument(
        "--family-from",
        default=None,
        metavar="CHECKPOINT",
        help="with --solve: start the color phases' families from another game's checkpoint "
        "(the same dice and rules; e.g. the end game's for the 10-phase game), or from the "
        "small CHECKPOINT.families file written beside it: fewer exact solves of its own",
    )
    p.add_argument(
        "--family-phases",
        default=None,
        metavar="LO-HI",
        help="the phases of the game --family-from was written for",
    )
    add_cluster_options(p)
    add_state_options(p)
    p.set_defaults(func=cmd_duel)


def add_state_options(p) -> None:
    """``duel``'s options of the table read and the state looked up in it."""
    p.add_argument("--table", default=None, help="read this table instead of the shipped one")
    p.add_argument("--me", default=None, help="PHASE:SCORE of the player to move")
    p.add_argument("--opponent", default=None, help="PHASE:SCORE of the other player")
    p.add_argument("--second", action="store_true", help="the player to move sits second")
    p.add_argument("--json", action="store_true")
