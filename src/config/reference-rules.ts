/**
 * The regression budget's rules, declared once: the JSON Schema of the top-level `reference` (the rows of the last
 * release, read exam-side) and of a check's `budget` (the cumulative drop allowed since that reference), spread into
 * RULES_SCHEMA by src/config/schema.ts; the typed value they parse to; and the refusals a schema cannot express.
 */
import { camelCased, type Camel, type Fail, type SchemaType } from './schema-type.js'
import { AMOUNT_SCHEMA } from './amount.js'

/** A budget: the same shapes as a margin (metric units, or "N%" of the reference mean). */
export const BUDGET_PROPERTY = {
  budget: {
    description:
      'Cumulative drop allowed since the rules\' reference (the last release), in the metric\'s units (0.01 = one point of a 0..1 metric) or "N%" of the reference mean. The candidate is also compared with the reference with the same paired statistics; the check fails when the drop since the reference exceeds the budget, even when this PR alone is within its margin. On non_inferior and superior checks, with where / per_slice (one budget per slice); refused without a reference, as wide as the metric\'s range, or "100%" on a better: higher metric that cannot go below 0.',
    ...AMOUNT_SCHEMA
  }
} as const

export const REFERENCE_RULES_PROPERTIES = {
  reference: {
    type: 'object',
    additionalProperties: false,
    description:
      "The per-query rows of the last release (exam-side, trusted), against which every check's `budget` is spent: path at ref, or an artifact of a push run (never a pull request, dispatched or scheduled run: docs/github.md). Its queries must be the exam's (the baseline's); a reference on other queries, or another snapshot, is refused as not comparable. Refused when no check has a budget. The CLI reads --reference FILE (or path in the working directory when there is no ref).",
    properties: {
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 100,
        description: 'Label in the report ("used since v1.4"). Default: ref, else path.'
      },
      path: {
        type: 'string',
        minLength: 1,
        description: 'The rows file in the repository (per-query rows, JSONL or CSV).'
      },
      ref: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        description:
          'Tag, branch or commit the action reads path at (default: the base commit): refs/tags/NAME, refs/heads/NAME, a full commit sha, or a bare name that is either a tag or a branch (a name that is both is refused: write the full ref). The CLI reads --reference, or path in the working directory when no ref is given.'
      },
      looks: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        description:
          "How many gate runs over the release may look at the budget (pull requests and their re-runs, counted in a ledger the PR cannot reset). Each look's interval is at confidence 1 - (1 - confidence) / looks, so over the whole release the chance of passing a budget that is already spent stays at most 1 - confidence; beyond the allowance a budget that is not shown spent is inconclusive (budget_looks_exceeded, or budget_looks_unknown when the ledger cannot be read). Default: none (each run tests the budget at the rules' confidence, and many looks add up)."
      },
      manifest: {
        type: 'string',
        minLength: 1,
        description:
          "The reference's snapshot manifest (JSON), compared with the baseline's on comparability.must_match. An exam file: read where the rules are read (in a pull request, at the base commit). The action input reference-manifest / CLI --reference-manifest name it when the rules do not."
      },
      artifact: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        description:
          "Instead of path/ref: an artifact of the latest successful push run of a workflow on the default branch (or on `ref`) of this repository. Runs of other branches, dispatched or scheduled runs, and runs triggered by pull requests are never used: a contributor who can push a branch must not be able to upload the release's rows.",
        properties: {
          name: { type: 'string', minLength: 1, description: 'Artifact name.' },
          workflow: {
            type: 'string',
            minLength: 1,
            description:
              'Workflow file name or id whose latest successful push run holds the artifact (default: this workflow).'
          },
          ref: {
            type: 'string',
            minLength: 1,
            maxLength: 255,
            description:
              "The branch or tag whose push runs are searched (a release workflow run on tag pushes names the tag): refs/tags/NAME, refs/heads/NAME, or a bare name that is either (both: refused). A run counts only if its commit is the tag's, or on the branch's history; default: the default branch."
          },
          file: {
            type: 'string',
            minLength: 1,
            description: "The rows file inside the artifact (default: the artifact's only file)."
          }
        }
      }
    }
  }
} as const

/**
 * Where the reference rows are: a file in the repository (`path` at `ref`; no ref: the base commit) or an artifact
 * of a push run, and `label`, its name in the report (name, else ref, else path, else the artifact's name).
 */
export type ReferenceRules = Omit<Camel<(typeof REFERENCE_RULES_PROPERTIES)['reference']>, 'name'> & { label: string }

/** The regression-budget keys as written in the rules file, typed from their schema (already validated). */
type RawReferenceRules = SchemaType<{ type: 'object'; properties: typeof REFERENCE_RULES_PROPERTIES }>

/**
 * The typed reference, refusing what the schema cannot express: a reference that names neither a path nor
 * an artifact (or both), `ref` with an artifact, and a reference no check spends a budget against (it would
 * be read and never used: a rule that protects nothing).
 */
export function referenceRules(
  raw: RawReferenceRules,
  checks: ReadonlyArray<{ budget?: object }>,
  fail: Fail
): { reference?: ReferenceRules } {
  const r = raw.reference
  if (r === undefined) return {}
  if ((r.path === undefined) === (r.artifact === undefined)) {
    fail(
      ['reference'],
      r.path === undefined
        ? 'reference names neither a path nor an artifact'
        : 'reference names both a path and an artifact',
      'give path (with ref: the tag of the last release) or artifact: { name, workflow }, not both'
    )
  }
  if (r.artifact !== undefined && r.ref !== undefined)
    fail(
      ['reference', 'ref'],
      'ref applies to path, not to an artifact',
      'drop ref, or name the file with path and ref'
    )
  if (r.looks !== undefined) fixedForLooks(r, fail)
  if (!checks.some((c) => c.budget !== undefined)) {
    fail(
      ['reference'],
      'no check has a budget, so the reference would be read and never used',
      'add budget: to the checks that must not drift since the reference (e.g. budget: 0.01), or drop reference'
    )
  }
  const { name, ...reference } = camelCased(REFERENCE_RULES_PROPERTIES.reference, r)
  const label = name ?? r.ref ?? r.path ?? (r.artifact as { name: string }).name
  const artifact = r.artifact && camelCased(REFERENCE_RULES_PROPERTIES.reference.properties.artifact, r.artifact)
  return { reference: { label, ...reference, artifact } }
}

/**
 * `reference.looks` counts looks on the reference's commit, so that commit must not move: a tag or a full sha. A
 * path without ref is read at each PR's base commit and an artifact without ref comes from the default branch's
 * latest push run, both of which move with every merge (the count would restart each time), and so does a branch.
 * A bare name that turns out to be a branch is refused when the action resolves it (src/github/input-source.ts).
 */
function fixedForLooks(r: RawReferenceRules['reference'] & object, fail: Fail): void {
  const ref = r.artifact === undefined ? r.ref : r.artifact.ref
  const key = r.artifact === undefined ? ['reference', 'ref'] : ['reference', 'artifact', 'ref']
  if (ref === undefined)
    fail(
      ['reference', 'looks'],
      r.artifact === undefined
        ? "counts looks on the reference's commit, but reference.path has no ref: it is read at each PR's base commit, which moves with every merge, so the count would restart"
        : "counts looks on the reference's commit, but reference.artifact has no ref: its run is the default branch's latest push, which moves with every merge, so the count would restart",
      r.artifact === undefined
        ? 'name the release by its tag (ref: refs/tags/v1.4) or a full commit sha, or drop looks'
        : 'name the release tag whose push run uploads the rows (artifact: { ..., ref: refs/tags/v1.4 }), or drop looks'
    )
  else if (ref.startsWith('refs/heads/'))
    fail(
      key,
      `is a branch, whose commit moves with every push, so the looks reference.looks counts on it would restart`,
      `name the release by its tag (refs/tags/v1.4)${r.artifact === undefined ? ' or a full commit sha' : ''}, or drop looks`
    )
}
