import type { SeedSides } from '../align/seeds.js'
import type { StatisticsRules } from '../config/types.js'
import { SECTION_TITLES } from '../report/sections.js'
import { inline, plain } from '../report/escape.js'
import { seedSentences, seedsBody, seedsJson } from '../report/seeds.js'
import { seedRules, withSeeds, type SeedsSummary } from '../stats/seeds.js'
import type { Capability } from './contract.js'
import { refuseRepeatedSeeds } from './seed-identity.js'

/** Several seed files on a side (or rules that count seeds): the two-level design is in force. */
const counted = (rules: StatisticsRules, seeds: SeedSides): boolean =>
  seeds.baseline.length > 1 || seeds.candidate.length > 1 || rules.minSeeds !== undefined

/**
 * Seed replicates (several files per side, `statistics.min_seeds`): one lucky training run is not a gain. The
 * intervals resample seeds, then queries; a gain within the spread between seeds is said so.
 *
 * Baseline / answer: one per-query rows file per independently trained seed (the core's baseline and candidate
 * inputs, given several times). A seed is identified by its content: the same file given twice, a byte-identical
 * copy under another name, or a file with the same values for every query and metric is one seed, not two, and is
 * refused. How many seeds count is the rules' (`statistics.min_seeds`), never the number of files an answer brings.
 */
export const seedsCapability: Capability<StatisticsRules, SeedSides, SeedsSummary | null> = {
  name: 'seeds',
  about: 'one lucky seed: intervals over independently trained seeds, each seed counted once by its content',
  config: (rules) => rules.statistics,
  inputs: () => [],
  read(_s, _inputs, { core }) {
    refuseRepeatedSeeds(core.seeds)
    return Promise.resolve(core.seeds)
  },
  prepare: (rules, core) => seedRules(rules, core.seeds),
  stats: (engine, { rules, table, core, config }) =>
    counted(config, core.seeds) ? withSeeds(engine, table, rules, core.seeds).stats : engine,
  assess({ rules, table, stats, core, config }) {
    if (!counted(config, core.seeds)) return { guards: [], summary: null, parts: {} }
    const summary = withSeeds(stats, table, rules, core.seeds).summary
    return {
      guards: [],
      summary,
      parts: {
        markdown: {
          underChecks: ({ result }) => seedSentences(result, summary).map((t) => `_${inline(t, 600)}_`)
        },
        sections: ({ result }) => [{ id: 'seeds', title: SECTION_TITLES.seeds, body: seedsBody(summary, result) }],
        ...(summary.twoLevel
          ? {
              methodRows: () =>
                [
                  [
                    'Training runs',
                    'several independently trained seeds on a side: the intervals include the spread between them (section "Seeds")'
                  ]
                ] as Array<[string, string]>
            }
          : {}),
        text: { underChecks: ({ result }) => seedSentences(result, summary).map((t) => `  ${plain(t, 600)}`) },
        json: () => ['seeds', seedsJson(summary)]
      }
    }
  }
}
