"""The game / turns / headtohead command lines."""

from __future__ import annotations

import json

from phase10math.cli import main


def test_game_prints_score_sheet(capsys):
    # the compact dice here and below: on the recorded dice the commands play phase 8 with
    # its ten-dice solve (games on those dice: notebook 5)
    cmd = ["game", "--players", "2", "--strategies", "greedy,complete", "--seed", "3"]
    assert main([*cmd, "--layout", "compact"]) == 0
    out = capsys.readouterr().out
    assert "score sheet" in out and "total" in out and "winner" in out
    # every mark and row label of the sheet is explained under it, with the rules' numbers
    legend = out.split("\n\n")[-1]
    for mark in ("(Nt)", "- (Nt):", "bonus 5: 40 points", "over 220", "finish: 40 points"):
        assert mark in legend, legend


def test_game_json_is_reproducible(capsys):
    main(["game", "--players", "1", "--strategies", "greedy", "--seed", "4", "--json"])
    a = json.loads(capsys.readouterr().out)
    main(["game", "--players", "1", "--strategies", "greedy", "--seed", "4", "--json"])
    b = json.loads(capsys.readouterr().out)
    assert a == b and len(a["players"]) == 1


def test_game_bad_input_exit_2(capsys):
    assert main(["game", "--players", "9", "--seed", "1"]) == 2
    assert "1..8" in capsys.readouterr().err
    assert main(["game", "--players", "2", "--strategies", "a,b,c"]) == 2
    assert main(["game", "--players", "2", "--strategies", "complete,clever"]) == 2


def test_turns_json(capsys):
    cmd = ["turns", "--strategy", "complete", "--json", "--max-turns", "15"]
    assert main([*cmd, "--layout", "compact"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert 12 < d["expected_turns"]["float"] < 14
    assert d["distribution"][-1]["n"] == 15


def test_headtohead(capsys):
    cmd = ["headtohead", "--strategies", "greedy,complete", "--games", "3", "--json"]
    assert main([*cmd, "--layout", "compact"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["games"] == 3 and abs(sum(p["win_rate"] for p in d["players"]) - 1) < 1e-12
