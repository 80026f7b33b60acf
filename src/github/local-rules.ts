import path from 'node:path'
import { isInputError } from '../errors.js'
import { readRulesFile } from '../load.js'

/**
 * The checked-out rules: relative to the workspace, else as given (a runner whose working directory is not the
 * workspace). Only a missing file falls back to the second path, recognised by the refusal's `code`, never by
 * its words; any other refusal (too large, not UTF-8, a directory) is the workspace file's own and is reported
 * as it is.
 */
export async function readLocalRules(
  workspace: string,
  file: string,
  read: (file: string) => Promise<string> = readRulesFile
): Promise<string> {
  const inWorkspace = path.resolve(workspace, file)
  try {
    return await read(inWorkspace)
  } catch (error) {
    if (inWorkspace === path.resolve(file) || !(isInputError(error) && error.code === 'not_found')) throw error
    return read(file)
  }
}
