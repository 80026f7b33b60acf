import { readFile, stat } from 'node:fs/promises'
import { loadRules } from './config/rules.js'
import type { Rules } from './config/types.js'
import { InputError } from './errors.js'
import { readRows } from './inputs/rows.js'
import type { SideRows } from './model.js'

/** Largest rules file read (rules are a page of YAML; anything bigger is a mistake or an attack). */
export const MAX_RULES_BYTES = 1024 * 1024

/** Reads a small text file (rules) whole, refusing directories, missing files and oversized ones by name. */
export async function readSmallText(file: string, limit = MAX_RULES_BYTES): Promise<string> {
  let size: number
  try {
    const s = await stat(file)
    if (s.isDirectory()) throw new InputError({ file }, 'is a directory, not a file', 'name the file itself')
    size = s.size
  } catch (error) {
    if (error instanceof InputError) throw error
    throw new InputError({ file }, 'file not found', 'check the path (it is read relative to the working directory)')
  }
  if (size > limit) throw new InputError({ file }, `is ${size} bytes; the limit is ${limit}`, 'a rules file is a page of YAML')
  const bytes = await readFile(file)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\ufeff/, '')
  } catch {
    throw new InputError({ file }, 'is not valid UTF-8', 'save the file as UTF-8')
  }
}

/** Reads the rules file into typed rules. */
export async function readRules(file: string): Promise<Rules> {
  return loadRules(await readSmallText(file), file)
}

/** Reads one side's per-query rows, with the metric fields the rules name. */
export async function readSide(file: string, rules: Rules): Promise<SideRows> {
  return readRows(file, { metricFields: new Set(rules.metrics.keys()) })
}
