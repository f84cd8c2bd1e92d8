#!/usr/bin/env bash
# Solve the recorded dice' 10-phase two-player game again (the table that ships as
# phase10math/game/data/duel_table_1_10_recorded.npz): resume CHECKPOINT where it exists,
# else start from the exact solves of the run that made the shipped table
# (tools/solves/duel_1_10_recorded.families: the color phases' policies and cuts), so that
# only the work without exact solves is done again (about 3.5 hours on two cores; the
# diary of the runs: docs/speed.md). The solve writes CHECKPOINT.families beside its
# checkpoint as it goes.
#
#   tools/solves/duel_1_10_recorded.sh [CHECKPOINT]   (default ./duel_1_10_recorded.ckpt)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ck="${1:-duel_1_10_recorded.ckpt}"
seed=()
if [ ! -e "$ck" ]; then
  (cd "$here" && sha256sum --check --quiet SHA256SUMS)  # the families as committed
  seed=(--family-from "$here/duel_1_10_recorded.families" --family-phases 1-10)
fi
exec python -m phase10math duel --solve --phases 1-10 --layout recorded --target 5e-5 \
  "${seed[@]}" --checkpoint "$ck" --write "${ck%.ckpt}.npz"
