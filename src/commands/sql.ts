import { refuseRowsOnly } from '../capabilities/aggregates.js'
import { readRules } from '../load.js'
import { writeOutput } from '../output.js'
import { InputError } from '../errors.js'
import { DIALECT_NAMES, type Dialect } from '../stats/sql-dialects.js'
import { warehouseSql } from '../stats/warehouse-sql.js'

/** What `retrieval-gate sql` is given. */
export interface SqlCommand {
  rules: string
  dialect: string
  baseline: string
  candidate: string
  idField?: string
  shard?: string
  histogramsOnly?: boolean
  out?: string
}

/**
 * `retrieval-gate sql`: writes the SQL statement that computes, where the rows are, the sums the gate decides from
 * (src/stats/warehouse-sql.ts), for one rules file; `gate --aggregates FILE` reads its result.
 */
export async function sqlCommand(options: SqlCommand, out: (text: string) => void): Promise<void> {
  const dialect = options.dialect as Dialect
  if (!DIALECT_NAMES.includes(dialect))
    throw new InputError(
      { key: '--dialect' },
      `${JSON.stringify(options.dialect)} is not a dialect the SQL is written for`,
      `use one of ${DIALECT_NAMES.join(', ')}`
    )
  const rules = await readRules(options.rules)
  const sql = warehouseSql(rules, {
    dialect,
    baseline: options.baseline,
    candidate: options.candidate,
    idField: options.idField,
    shard: options.shard,
    histogramsOnly: options.histogramsOnly
  })
  // What the SQL computes, the gate decides from only when nothing in the rules needs the rows.
  refuseRowsOnly(rules)
  if (options.out !== undefined) await writeOutput(options.out, sql)
  else out(sql)
}
