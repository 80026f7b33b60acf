import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { InputError } from '../errors.js'
import type { FetchedFile } from './fetched.js'

/**
 * A directory given where a table is expected, read as the engines write one: Spark's `df.write.parquet(DIR)` (and
 * csv, json, `INSERT OVERWRITE DIRECTORY`), Hive, BigQuery's `EXPORT DATA` with a wildcard, DuckDB's
 * `COPY ... (PER_THREAD_OUTPUT)` write a directory of part files plus markers. The parts are the directory's
 * regular files, in byte order of their names, leaving out what Hadoop's own readers leave out: names starting
 * with `_` (`_SUCCESS`, `_committed_…`, `_started_…`) or `.` (`.part-0000.crc`, editors' files), and checksum files
 * (`*.crc`). Subdirectories (a partitioned write's `key=value/`) are refused: their values would be lost.
 */

/** Most part files one directory may hold: ten per shard at the most shards the aggregates may have (10,000). */
const MAX_PART_FILES = 100_000

/** The files to read for `file`: itself, or the part files of the directory it names. */
export async function partFiles(file: FetchedFile): Promise<FetchedFile[]> {
  const isDirectory = await stat(file.path).then(
    (s) => s.isDirectory(),
    () => false // its reader names what is wrong with it
  )
  if (!isDirectory) return [file]
  const entries = await readdir(file.path, { withFileTypes: true })
  const parts: FetchedFile[] = []
  for (const entry of entries.sort((a, b) => byBytes(a.name, b.name))) {
    if (entry.name.startsWith('_') || entry.name.startsWith('.') || entry.name.endsWith('.crc')) continue
    const shown = path.join(file.name, entry.name)
    if (entry.isDirectory())
      throw new InputError(
        { file: shown },
        'is a directory inside a directory of part files (a partitioned write?)',
        'write the aggregates unpartitioned (no partitionBy), so every column is in the part files'
      )
    if (!entry.isFile()) continue
    parts.push({ path: path.join(file.path, entry.name), name: shown })
    if (parts.length > MAX_PART_FILES)
      throw new InputError(
        { file: file.name },
        `holds more than ${MAX_PART_FILES} part files`,
        'write fewer parts (Spark: .coalesce(8) before .write)'
      )
  }
  if (parts.length === 0)
    throw new InputError(
      { file: file.name },
      'is a directory without part files (only markers such as _SUCCESS, hidden or .crc files)',
      'export the result of the statement into it (Spark: spark.sql(statement).write.parquet(DIR)), or name the file itself'
    )
  return parts
}

const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b))
