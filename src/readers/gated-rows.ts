import { neededAttributes } from '../config/attributes.js'
import type { Rules } from '../config/types.js'
import type { SideRows } from '../model/rows.js'
import { readRows } from './rows.js'
import type { RowsInput } from './rows-input.js'

/**
 * One side's per-query rows as the gate reads them: only the metric fields the rules name (and the answer length
 * the judge's length-bias diagnostic reads like a metric, never gated by itself) and only the attributes the rules
 * use, so memory grows with what the rules use, not with the other fields of a file.
 */
export async function readGatedRows(file: string, rules: Rules, input: RowsInput = {}): Promise<SideRows> {
  const keepAttributes = new Set(neededAttributes(rules).keys())
  const length = rules.judge?.lengthBias?.length
  const metricFields = new Set(rules.metrics.keys())
  if (length !== undefined) metricFields.add(length)
  return readRows(file, { metricFields, format: input.format, idField: input.idField, keepAttributes })
}
