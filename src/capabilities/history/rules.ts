/**
 * The `history` key, declared once: how many past gate runs on the default branch a PR report draws its metrics
 * over; its schema (the capability's rules fragment, merged into the rules schema by src/capabilities/rules-schema.ts)
 * and the typed value it parses to, together, in the capability's folder.
 */
import type { Rules } from '../../config/types.js'
import { camelCased, type Camel, type SchemaType } from '../../config/schema-type.js'

/** Default age (days) beyond which a past report is left out as stale: GitHub's default artifact retention. */
export const DEFAULT_HISTORY_MAX_AGE_DAYS = 90

/** The JSON Schema of the `history` key: the history capability's rules fragment. */
export const HISTORY_RULES_PROPERTIES = {
  history: {
    type: 'object',
    additionalProperties: false,
    required: ['runs'],
    description:
      'Draw each gated metric over the last N gate runs on the default branch (the JSON reports push runs upload as artifact history-artifact), with this PR as the last point. Missing or unreadable history is a note, never a failure.',
    properties: {
      runs: {
        type: 'integer',
        minimum: 1,
        maximum: 50,
        description: 'How many of the latest successful push runs on the default branch to read (1..50).'
      },
      max_age_days: {
        type: 'integer',
        minimum: 1,
        maximum: 3650,
        description: `A past report older than this many days is left out as stale (default ${DEFAULT_HISTORY_MAX_AGE_DAYS}).`
      },
      workflow: {
        type: 'string',
        pattern: '^[A-Za-z0-9._-]{1,100}\\.ya?ml$',
        title: 'a workflow file name in .github/workflows (retrieval-history.yml)',
        description:
          "The workflow file (in .github/workflows) whose push runs recorded the reports, e.g. retrieval-history.yml when another workflow gates the pull requests (default: this run's workflow)."
      },
      artifact: {
        type: 'string',
        pattern: '^[A-Za-z0-9._-]{1,100}$',
        title: 'an artifact name: letters, digits, dots, dashes and underscores (retrieval-gate-report)',
        description:
          "The report artifact's name in those runs (default: this run's own, retrieval-gate-report or retrieval-gate-report-NAME)."
      }
    }
  }
} as const

/** The typed `history` rules: runs, maxAgeDays, workflow (undefined: this run's), artifact (undefined: this run's own). */
export type HistoryRules = Camel<(typeof HISTORY_RULES_PROPERTIES)['history'], 'max_age_days'>

/** The typed `history` rules, or undefined when the rules have none (the loader has checked them against the fragment). */
export function historyRules(rules: Rules): HistoryRules | undefined {
  const schema = HISTORY_RULES_PROPERTIES.history
  const raw = rules.extra.get('history') as SchemaType<typeof schema> | undefined
  return raw && camelCased(schema, raw, { max_age_days: DEFAULT_HISTORY_MAX_AGE_DAYS })
}
