import type {
  ExamArtifactSpec,
  ExamFileSpec,
  ExamRecordSpec,
  GivenSpec,
  InputSource
} from '../capabilities/contract.js'
import type { Rules } from '../config/types.js'
import { InputError } from '../errors.js'
import { localFile, type FetchedFile } from '../readers/fetched.js'

/**
 * The command line's input source: exam files where the rules name them, in the working directory (the CLI is
 * run by whoever owns the checkout, so that is its trusted source), answers from the command line's options. It
 * fetches nothing: an exam input at a ref or in an artifact must be given as a file (`overrides`, e.g.
 * --reference), never read from the working directory's copy in its place. There is no look ledger and no
 * history outside a pull request.
 */
export function cliInputSource(options: {
  given: Readonly<Record<string, string | string[] | undefined>>
  rulesFile: string
}): InputSource {
  const overrideOf = (spec: ExamFileSpec | ExamArtifactSpec): string | undefined => {
    const v = spec.override === undefined ? undefined : options.given[spec.override.option]
    return typeof v === 'string' ? v : undefined
  }
  return {
    examPlace: 'the working directory',
    examFile(spec: ExamFileSpec): Promise<FetchedFile> {
      const given = overrideOf(spec)
      if (given !== undefined) return Promise.resolve(localFile(given))
      if (spec.ref !== undefined)
        throw notFetched(options.rulesFile, spec, {
          where: `${spec.path ?? ''} at ${spec.ref}`,
          how: `e.g. git show ${spec.ref}:${spec.path ?? ''} > reference.csv, then ${overrideOption(spec)} reference.csv`
        })
      return Promise.resolve(localFile(spec.path as string))
    },
    examArtifact(spec: ExamArtifactSpec): Promise<FetchedFile> {
      const given = overrideOf(spec)
      if (given !== undefined) return Promise.resolve(localFile(given))
      throw notFetched(options.rulesFile, spec, {
        where: `the artifact ${spec.artifact}`,
        how: `download it (gh run download --name ...), then ${overrideOption(spec)} FILE`
      })
    },
    record<T>(spec: ExamRecordSpec<T>, _rules: Rules): Promise<T> {
      // Outside a pull request nothing is counted: this run is the one look (each record's spec says what that is).
      return Promise.resolve(spec.outside)
    },
    given(spec: GivenSpec): string[] {
      const v = options.given[spec.option]
      return v === undefined ? [] : Array.isArray(v) ? v : [v]
    }
  }
}

/** The CLI option that gives an exam input the CLI does not fetch itself (its spec's `override`). */
function overrideOption(spec: ExamFileSpec | ExamArtifactSpec): string {
  return spec.override === undefined ? `the ${spec.name}` : `--${spec.override.option}`
}

/** Where an exam input is that the command line does not fetch, and how to get it by hand. */
interface NotFetched {
  /** The place the rules name (`eval/rows.csv at v1.4`, `the artifact release-rows`). */
  where: string
  /** The commands that fetch it, ending in the option that passes it. */
  how: string
}

function notFetched(rulesFile: string, spec: ExamFileSpec | ExamArtifactSpec, place: NotFetched): InputError {
  const { key, name } = spec
  const { where, how } = place
  const what = spec.override?.what ?? `the ${name}`
  return new InputError(
    { file: rulesFile, key: key.split('.')[0] },
    `${what} is ${where}, which the command line does not fetch`,
    `pass the rows with ${overrideOption(spec)} FILE: ${how}`
  )
}
