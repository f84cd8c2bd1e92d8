"""One server for a class: the Voila settings shipped with the app (``app/voila.json``). The
ten-session check (ten browser sessions through a turn, then no kernel left) is heavy and lives
in ``benchmarks/check_class_server.py``."""

from __future__ import annotations

import json

from browser import ROOT


def test_voila_settings_shipped_with_the_app():
    cfg = json.loads((ROOT / "app" / "voila.json").read_text())
    mkm = cfg["MappingKernelManager"]
    assert mkm["cull_idle_timeout"] > 0 and mkm["cull_interval"] > 0
    assert mkm["cull_connected"] is False  # a player reading the advice keeps the kernel
    # the page's shutdown beacon is refused without this (403 '_xsrf' argument missing)
    assert cfg["Voila"]["tornado_settings"]["disable_check_xsrf"] is True
