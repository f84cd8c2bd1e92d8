#!/usr/bin/env bash
# Go on with the recorded dice' 10-phase two-player solve: resume the whole checkpoint where
# this machine still has it, else start again from the exact solves kept in git
# (runs/duel_1_10_recorded.ckpt.families). The solve writes CHECKPOINT.families beside its
# checkpoint as it goes: copy it over runs/duel_1_10_recorded.ckpt.families and commit it.
#
#   runs/duel_1_10_recorded.sh [CHECKPOINT]   (default /work/runs_local/duel_1_10_recorded.ckpt)
set -euo pipefail
cd "$(dirname "$0")/.."
ck="${1:-/work/runs_local/duel_1_10_recorded.ckpt}"
mkdir -p "$(dirname "$ck")"
seed=()
if [ ! -e "$ck" ]; then
  seed=(--family-from runs/duel_1_10_recorded.ckpt.families --family-phases 1-10)
fi
exec .venv/bin/phase10math duel --solve --phases 1-10 --layout recorded --target 5e-5 \
  "${seed[@]}" --checkpoint "$ck" --write "${ck%.ckpt}.npz"
