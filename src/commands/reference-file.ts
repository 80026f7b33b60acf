import type { Rules } from '../config/types.js'
import { InputError } from '../errors.js'

/**
 * The reference rows file the CLI reads: --reference when given (it supplies or overrides the rules' path),
 * else the rules' `reference.path` in the working directory when the rules name no `ref`. The CLI does not
 * check out tags or download artifacts, so a reference at a ref or in an artifact needs --reference (reading
 * the working directory's copy instead of the tagged one would spend the budget against the wrong rows).
 * Undefined when the rules name no reference (runGate then refuses a stray --reference).
 */
export function cliReferenceFile(rules: Rules, given: string | undefined): string | undefined {
  if (given !== undefined) return given
  const r = rules.reference
  if (r === undefined) return undefined
  if (r.path !== undefined && r.ref === undefined) return r.path
  const where = r.path !== undefined ? `${r.path} at ${r.ref as string}` : `the artifact ${r.artifact?.name ?? ''}`
  const how = r.path !== undefined ? `e.g. git show ${r.ref as string}:${r.path} > reference.csv, then --reference reference.csv` : 'download it (gh run download --name ...), then --reference FILE'
  throw new InputError({ file: rules.source.file, key: 'reference' }, `the reference is ${where}, which the command line does not fetch`, `pass the rows with --reference FILE: ${how}`)
}
