import { em, text } from '../../model/document.js'
import type { SeedSides } from '../../align/seeds.js'
import type { StatisticsRules } from '../../config/types.js'
import { SECTION_TITLES } from '../../report/sections.js'
import { seedSentences, seedsBody, seedsJson } from './report.js'
import { seedRules, seedsSummary, withSeeds, type SeedsSummary } from './stats.js'
import type { Capability } from '../contract.js'
import { refuseRepeatedSeeds, refuseUndeclaredSeeds } from './identity.js'
import { metricBounds, seedsDeclared } from '../../stats/law.js'

/** Seed replicates declared (or rules that count seeds): the two-level design is in force. */
const counted = (rules: StatisticsRules): boolean => seedsDeclared(rules) || rules.minSeeds !== undefined

/**
 * Seed replicates (several files per side, `statistics.min_seeds`): one lucky training run is not a gain. The
 * intervals resample seeds, then queries; a gain within the spread between seeds is said so.
 *
 * Baseline / answer: one per-query rows file per independently trained seed (the core's baseline and candidate
 * inputs, given several times). A seed is identified by its content: the same file given twice, a byte-identical
 * copy under another name, or a file with the same values for every query and metric is one seed, not two, and is
 * refused. How many seeds each side gives is the rules' (`statistics.seeds`), never the number of files an answer brings.
 */
export const seedsCapability: Capability<StatisticsRules, SeedSides, SeedsSummary | null> = {
  name: 'seeds',
  about: 'one lucky seed: intervals over independently trained seeds, each seed counted once by its content',
  config: (rules) => rules.statistics,
  // seeds declared or counted: the two-level design reads each seed's rows
  needsRows: (s) =>
    s.minSeeds !== undefined ? 'statistics.min_seeds' : seedsDeclared(s) ? 'statistics.seeds' : undefined,
  inputs: () => [],
  read: (_s, _inputs, { core }) => Promise.resolve(core.seeds),
  prepare(rules, core) {
    // How many seeds each side gives is the rules' declaration; a seed given twice (within rounding) is one seed.
    refuseUndeclaredSeeds(rules.statistics, core.seeds, rules.source.file)
    const ranges = new Map<string, number>()
    for (const m of rules.metrics.values()) {
      const b = metricBounds(m)
      if (b !== undefined) ranges.set(m.name, b[1] - b[0])
    }
    refuseRepeatedSeeds(core.seeds, ranges)
    return seedRules(rules)
  },
  stats: (engine, { rules, table, core, config }) =>
    counted(config) ? withSeeds(engine, table, rules, core.seeds) : engine,
  assess({ rules, table, stats, core, config }) {
    if (!counted(config)) return { guards: [], summary: null, parts: {} }
    const summary = seedsSummary(stats, table, rules, core.seeds)
    return {
      guards: [],
      summary,
      parts: {
        blocks: {
          underChecks: ({ result }) => [
            { kind: 'paragraph', lines: seedSentences(result, summary).map((t) => [em(text(t, 600))]) }
          ]
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
        json: () => ['seeds', seedsJson(summary)]
      }
    }
  }
}
