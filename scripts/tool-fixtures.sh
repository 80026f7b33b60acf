#!/usr/bin/env bash
# The importer fixtures written by the tools themselves (issue 36.2): a venv with the pinned tools
# (scripts/tool-fixtures.requirements.txt; BEIR without its torch dependency, see tool-fixtures.py), then
# scripts/tool-fixtures.py, which writes __tests__/fixtures/importers/ with each tool's own API and records the
# versions in __tests__/fixtures/importers/VERSIONS.txt. Not run by the tests (they read the committed files and need
# no Python). Run it again and `git diff` shows what a tool's new version writes differently.
#   scripts/tool-fixtures.sh [VENV]      (default node_modules/.cache/rg-tools-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${1:-node_modules/.cache/rg-tools-venv}"
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/tool-fixtures.requirements.txt
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps beir==2.2.0
# No telemetry, no network, no model: everything below is written without one.
export RAGAS_DO_NOT_TRACK=true DEEPEVAL_TELEMETRY_OPT_OUT=YES HF_HUB_OFFLINE=1 PYTHONHASHSEED=0
"$venv/bin/python" scripts/tool-fixtures.py
