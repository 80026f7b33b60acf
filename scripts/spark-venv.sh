#!/usr/bin/env bash
# A Python venv with a pinned pyspark for the Spark test (__tests__/warehouse/spark.slow.test.ts), on the machine's
# Java (17 or later; Spark 4 needs 17). Idempotent: prints the venv's python when it already has this pyspark.
#   scripts/spark-venv.sh [DIR]      (default node_modules/.cache/rg-spark-venv; the test looks there, or at
#                                     $RG_SPARK_PYTHON)
set -euo pipefail
cd "$(dirname "$0")/.."
PYSPARK_VERSION=4.3.0
venv="${1:-node_modules/.cache/rg-spark-venv}"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$PYSPARK_VERSION')" 2>/dev/null; then
  echo "$venv/bin/python"
  exit 0
fi
command -v java >/dev/null 2>&1 || { echo "spark-venv: java not found (Spark $PYSPARK_VERSION needs Java 17 or later)" >&2; exit 1; }
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "pyspark==$PYSPARK_VERSION" >&2
echo "$venv/bin/python"
