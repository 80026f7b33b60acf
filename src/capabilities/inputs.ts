import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import type { Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import { localFile } from '../readers/fetched.js'
import { quote } from '../util/show.js'
import type { FetchedFile, FetchedInputs, GivenSpec, InputSource, InputSpec } from './contract.js'

/**
 * The framework's half of the contract: fetches every input a capability (or the core) declares, each from
 * where its role says. Exam inputs only through the source's trusted paths (examFile, examArtifact, record); given
 * files (baseline, answers) from the invocation. A required given input that is absent is refused with the
 * option and input that give it; an input of one file given several times is refused; the files of an input of
 * several (seeds) are hashed, and two with the same bytes are refused: one seed given twice is one seed.
 */
export async function fetchInputs(
  specs: readonly InputSpec[],
  source: InputSource,
  rules: Rules
): Promise<FetchedInputs> {
  const files = new Map<string, FetchedFile[]>()
  const records = new Map<string, unknown>()
  for (const spec of specs) {
    if (spec.kind === 'record') {
      records.set(spec.name, await source.record(spec, rules))
      continue
    }
    if (spec.kind === 'artifact') {
      files.set(spec.name, [await source.examArtifact(spec)])
      continue
    }
    if (spec.kind === 'file') {
      const path = spec.path ?? namedBy(spec, source)
      if (path !== undefined) files.set(spec.name, [await source.examFile({ ...spec, path })])
      continue
    }
    files.set(spec.name, await givenFiles(spec, source))
  }
  return {
    files: (name) => files.get(name) ?? [],
    file: (name) => files.get(name)?.[0],
    record: <T>(name: string) => records.get(name) as T | undefined
  }
}

/** The path the invocation gives an exam file the rules do not name (at most one). */
function namedBy(spec: Extract<InputSpec, { kind: 'file' }>, source: InputSource): string | undefined {
  if (spec.givenBy === undefined) return undefined
  const given = source.given({
    role: 'baseline',
    kind: 'given',
    name: spec.name,
    option: spec.givenBy,
    many: false,
    required: false
  })
  if (given.length > 1) throw tooMany(spec.name, spec.givenBy)
  return given[0]
}

async function givenFiles(spec: GivenSpec, source: InputSource): Promise<FetchedFile[]> {
  const paths = source.given(spec)
  if (paths.length === 0) {
    if (spec.required)
      throw new InputError(
        { key: `--${spec.option}` },
        `the ${spec.name} ${spec.many ? 'files were' : 'file was'} not given`,
        `pass --${spec.option} FILE (action input ${spec.option})`
      )
    return []
  }
  if (!spec.many && paths.length > 1) throw tooMany(spec.name, spec.option)
  // One file: nothing to compare it with (and no second pass over a large rows file).
  if (paths.length === 1) return [localFile(paths[0])]
  const out: FetchedFile[] = []
  const byHash = new Map<string, string>()
  for (const path of paths) {
    const sha256 = await hashFile(path)
    const twin = byHash.get(sha256)
    if (twin !== undefined) {
      throw new InputError(
        { file: path, key: `--${spec.option}` },
        twin === path
          ? `${quote(path)} is given twice as ${spec.name}`
          : `has the same content as ${quote(twin)}, also given as ${spec.name}`,
        `one file per independently trained seed, each once: two copies of one seed are one seed (the rules count seeds with statistics.min_seeds)`
      )
    }
    byHash.set(sha256, path)
    out.push({ ...localFile(path), sha256 })
  }
  return out
}

function tooMany(name: string, option: string): InputError {
  return new InputError(
    { key: `--${option}` },
    `the ${name} takes one file, but several were given`,
    `pass --${option} once (action input ${option}: one line)`
  )
}

/** sha256 of a file's bytes, streamed. A file that cannot be opened is left to its reader, which names the problem. */
async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256')
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  } catch {
    return `unreadable:${path}`
  }
  return hash.digest('hex')
}
