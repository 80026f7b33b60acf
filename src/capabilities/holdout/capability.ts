import { paragraph, text } from '../../model/document.js'
import type { DatasetRules } from '../../config/trust-rules.js'
import {
  capHoldoutUnit,
  countHoldoutLooks,
  holdoutMask,
  unitLooks,
  type HoldoutAccount,
  type PriorLooks
} from '../../decide/holdout.js'
import { holdoutJson, holdoutSentence } from '../../report/holdout.js'
import type { UnitSaid } from '../../decide/result.js'
import type { UnitResult } from '../../decide/types.js'
import type { Capability } from '../contract.js'
import { HOLDOUT_LOOKS } from './looks.js'

interface Summary {
  account: HoldoutAccount
  /** 1 for a holdout query of the paired table. */
  mask: Uint8Array
}

/**
 * Holdout accounting (rules `dataset`, `dataset.holdout_looks`): a holdout graded again and again until it agrees
 * stops measuring generalisation. Every run that grades it is counted, per pull request and over the default
 * branch's history, and a cap may make the checks on it inconclusive; per-query details of holdout queries never
 * reach a report, a file or a log a pull request's run can read.
 *
 * Exam: the look ledger (what the trusted source recorded of earlier runs, ./looks.ts over src/github/look-ledger.ts;
 * none outside a pull request). When it cannot be read or this run's look cannot be recorded, the count is unknown
 * and the checks on holdout queries are inconclusive (fail closed), never counted from 0.
 */
export const holdoutCapability: Capability<DatasetRules, PriorLooks, Summary> = {
  name: 'holdout',
  about: 'a holdout looked at until it agrees: looks counted where a PR cannot reset them, per-query details withheld',
  config: (rules) => rules.dataset,
  needsRows: () => 'dataset',
  inputs: () => [HOLDOUT_LOOKS],
  read: (_d, inputs) => Promise.resolve(inputs.record<PriorLooks>(HOLDOUT_LOOKS.name) ?? { thisPr: null }),
  assess({ rules, table, evidence }) {
    const account = countHoldoutLooks(rules, table, evidence ?? { thisPr: null }) as HoldoutAccount
    const mask = holdoutMask(rules, table)
    const graded = account.queries > 0
    return {
      guards: [],
      summary: { account, mask },
      parts: {
        blocks: { head: () => [paragraph(text(holdoutSentence(account), 800))] },
        json: () => ['holdout', holdoutJson(account)],
        unitJson: (unit) => {
          const looks = unitLooks(unit)
          return looks ? [['holdout_looks', { this_pr: looks.thisPr, max_per_pr: looks.maxPerPr }]] : []
        },
        unitWords: holdoutUnitWords,
        ...(graded ? { withheld: (i: number) => mask[i] === 1 } : {})
      }
    }
  },
  adjust: (unit, { summary, stats }) => capHoldoutUnit(unit, summary.account, summary.mask, stats)
}

/** The sentence of a unit the holdout's looks made inconclusive, else undefined. RAW text. */
function holdoutUnitWords(unit: UnitResult, { head }: UnitSaid): string | undefined {
  if (unit.reason === 'holdout_looks_unknown')
    return `${head}; the looks at the holdout so far could not be counted, so a pass on it cannot be trusted and the check is inconclusive.`
  if (unit.reason !== 'holdout_looks_exceeded') return undefined
  const looks = unitLooks(unit)
  const count =
    looks === undefined
      ? 'more often than dataset.holdout_looks allows'
      : looks.release
        ? `${looks.thisPr} times since the release, more than dataset.holdout_looks.max_per_release (${looks.maxPerPr}) allows`
        : `${looks.thisPr} times in this PR, more than dataset.holdout_looks.max_per_pr (${looks.maxPerPr}) allows`
  return `${head}; the holdout has been graded ${count}, so a pass on it cannot be trusted and the check is inconclusive.`
}
