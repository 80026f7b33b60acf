import { HISTORY_RULES_PROPERTIES, historyRules, type HistoryRules } from './rules.js'
import type { HistoryInput } from '../../model/history.js'
import { historyNotReadSection, historySection } from './section.js'
import { historyJson } from './json.js'
import type { Capability } from '../contract.js'

/**
 * History (rules `history`): each gated metric over the last gate runs on the default branch, with this PR as the
 * last point, so a slow slide shows. Context, never evidence: what cannot be read is a note, never a failure.
 *
 * Exam: the JSON reports of push runs on the default branch of this repository (src/github/history.ts): runs
 * of other branches, of forks, or triggered by pull requests are never read. None outside a pull request.
 */
export const historyCapability: Capability<HistoryRules, HistoryInput | undefined, HistoryInput | undefined> = {
  name: 'history',
  about: 'a slow slide no single PR shows: the gated metrics over the default branch’s last gate runs',
  rules: HISTORY_RULES_PROPERTIES,
  config: historyRules,
  needsRows: () => 'history',
  inputs: () => [
    {
      role: 'exam',
      kind: 'record',
      name: 'history',
      key: 'history',
      outside: undefined,
      read: (records, rules) => records.history(rules)
    }
  ],
  read: (_h, inputs) => Promise.resolve(inputs.record<HistoryInput>('history')),
  assess: ({ evidence: history }) => ({
    guards: [],
    summary: history,
    parts:
      history === undefined
        ? { blocks: { afterPictures: () => historyNotReadSection() } }
        : {
            blocks: { afterPictures: ({ result }) => historySection(result, history) },
            json: () => ['history', historyJson(history)]
          }
  })
}
