"""Runs the statements of a job file on a local Spark session, for __tests__/warehouse/spark.slow.test.ts.

    python spark-run.py JOBS.json      (the python of the venv scripts/spark-venv.sh makes: pinned pyspark)

JOBS.json: {"tables": {"name": "file.parquet", ...}, "jobs": [{"name": ..., "sql": ..., "out": DIR,
"export": "parquet" | "csv" | "json" | "insert-directory"}, ...]}. Each table is a temporary view over its Parquet
file; each job's statement is run and its result exported as a Spark user would: df.write.parquet(DIR),
df.write.option("header", True).csv(DIR), df.write.json(DIR), or, as in spark-sql, CREATE TEMPORARY VIEW over the
statement and INSERT OVERWRITE DIRECTORY DIR USING parquet. Prints one JSON object: per job its seconds or its
error (the Spark error class and message), and the Spark version. Local mode, 2 threads, the UI off.
"""
import json
import sys
import time

t0 = time.time()
from pyspark.sql import SparkSession  # noqa: E402

spark = (
    SparkSession.builder.master('local[2]')
    .appName('retrieval-gate spark test')
    .config('spark.ui.enabled', 'false')
    .config('spark.ui.showConsoleProgress', 'false')
    .config('spark.sql.shuffle.partitions', '4')
    .config('spark.driver.memory', '2g')
    .config('spark.sql.session.timeZone', 'UTC')
    .getOrCreate()
)
spark.sparkContext.setLogLevel('ERROR')
started = time.time() - t0
spec = json.load(open(sys.argv[1]))
for name, path in spec['tables'].items():
    spark.read.parquet(path).createOrReplaceTempView(name)
results = []
for job in spec['jobs']:
    t = time.time()
    try:
        df = spark.sql(job['sql'])
        export = job['export']
        if export == 'parquet':
            df.write.mode('overwrite').parquet(job['out'])
        elif export == 'csv':
            df.write.mode('overwrite').option('header', True).csv(job['out'])
        elif export == 'json':
            df.write.mode('overwrite').json(job['out'])
        elif export == 'insert-directory':
            df.createOrReplaceTempView('rg_aggregates')
            spark.sql(f"INSERT OVERWRITE DIRECTORY '{job['out']}' USING parquet SELECT * FROM rg_aggregates")
        else:
            raise ValueError(f'unknown export {export}')
        results.append({'name': job['name'], 'seconds': round(time.time() - t, 2)})
        print(f"{job['name']}: {time.time() - t:.1f} s", file=sys.stderr, flush=True)
    except Exception as error:  # the test asserts which statements fail, and why
        condition = getattr(error, 'getCondition', None) or getattr(error, 'getErrorClass', None)
        results.append({
            'name': job['name'],
            'seconds': round(time.time() - t, 2),
            'error': str(condition() if condition else type(error).__name__),
            'message': str(error)[:2000],
        })
print(json.dumps({'spark': spark.version, 'start_seconds': round(started, 2), 'jobs': results}))
spark.stop()
