/**
 * The regression-budget keys of the rules file's JSON Schema: the top-level `reference` (the rows of the last
 * release, read exam-side) and a check's `budget` (the cumulative drop allowed since that reference). Kept
 * apart from schema.ts so the feature reads in one place; spread into RULES_SCHEMA.
 */

/** A budget: the same shapes as a margin (metric units, or "N%" of the reference mean). */
export const BUDGET_PROPERTY = {
  budget: {
    description:
      'Cumulative drop allowed since the rules\' reference (the last release), in the metric\'s units (0.01 = one point of a 0..1 metric) or "N%" of the reference mean. The candidate is also compared with the reference with the same paired statistics; the check fails when the drop since the reference exceeds the budget, even when this PR alone is within its margin. Needs `reference`; non_inferior and superior checks only.',
    oneOf: [
      { type: 'number', minimum: 0 },
      { type: 'string', pattern: '^(?:100|[0-9]{1,2})(?:\\.[0-9]+)?%$' }
    ]
  }
} as const

export const REFERENCE_RULES_PROPERTIES = {
  reference: {
    type: 'object',
    additionalProperties: false,
    description:
      "The per-query rows of the last release (exam-side, trusted), against which every check's `budget` is spent. Its queries must be the exam's (the baseline's); a reference on other queries, or another snapshot, is refused as not comparable.",
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 100, description: 'Label in the report ("used since v1.4"). Default: ref, else path.' },
      path: { type: 'string', minLength: 1, description: 'The rows file in the repository (per-query rows, JSONL or CSV).' },
      ref: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        description: 'Tag, branch or commit the action reads path at (default: the base commit). The CLI reads --reference, or path in the working directory when no ref is given.'
      },
      looks: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        description:
          "How many gate runs over the release may look at the budget (pull requests and their re-runs, counted in a ledger the PR cannot reset). Each look's interval is at confidence 1 - (1 - confidence) / looks, so over the whole release the chance of passing a budget that is already spent stays at most 1 - confidence; beyond the allowance a budget that is not shown spent is inconclusive. Default: none (each run tests the budget at the rules' confidence, and many looks add up)."
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
          workflow: { type: 'string', minLength: 1, description: 'Workflow file name or id whose latest successful push run holds the artifact (default: this workflow).' },
          ref: { type: 'string', minLength: 1, maxLength: 255, description: 'The branch or tag whose push runs are searched (a release workflow run on tag pushes names the tag); default: the default branch.' },
          file: { type: 'string', minLength: 1, description: "The rows file inside the artifact (default: the artifact's only file)." }
        }
      }
    }
  }
} as const
