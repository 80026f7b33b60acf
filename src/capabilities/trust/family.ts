import type { Capability } from '../contract.js'
import {
  assessComparability,
  assessPooling,
  assessTwoStage,
  assessZeroHits,
  summariseDataset
} from '../../trust/trust.js'
import { COMPARABILITY_WORDS, POOLING_WORDS, ZERO_HITS_WORDS } from './words.js'
import { comparabilityParts, datasetParts, poolingParts, twoStageParts, zeroHitsParts } from './report.js'

/**
 * The trust checks that read what the core read (src/load.ts): the snapshot manifests, the runs scored against
 * the judgments, the evaluation set. Their inputs are the core's (exam: judgments, evaluation set, corpus
 * listing, dataset manifest; baseline: the baseline's run and manifest; answer: the candidate's run and
 * manifest), fetched by the same framework, so they declare none of their own. Each draws its own part of the
 * trust section (./report.ts) and fills in what the publishable judgment reads (src/trust/trust.ts).
 */

/** Snapshot comparability (rules `comparability`): a corpus, chunker or judge that differs fails the gate. */
export const comparabilityCapability: Capability<true, null, null> = {
  name: 'comparability',
  about: 'the two sides were built on the same snapshot (corpus, chunker, judge, metric code): the same exam',
  words: COMPARABILITY_WORDS,
  config: () => true,
  needsRows: (_c, rules) => (rules.comparability === undefined ? undefined : 'comparability'),
  inputs: () => [],
  read: () => Promise.resolve(null),
  assess: ({ rules, core }) => {
    const { guards, comparability } = assessComparability(rules, core.trust.manifests)
    return { guards, summary: null, trust: { comparability }, parts: comparabilityParts(comparability) }
  }
}

/** Pooling bias (rules `pooling`): judgments that cover only what the old system returned. */
export const poolingCapability: Capability<true, null, null> = {
  name: 'pooling',
  about: "the candidate's top k is judged as completely as the baseline's (judgments pooled from the old system only)",
  words: POOLING_WORDS,
  config: () => true,
  needsRows: (_c, rules) => (rules.pooling === undefined ? undefined : 'pooling'),
  inputs: () => [],
  read: () => Promise.resolve(null),
  assess: ({ rules, table, core }) => {
    const { guards, pooling } = assessPooling(rules, table, core.trust.runs)
    return { guards, summary: null, trust: { pooling }, parts: poolingParts(pooling) }
  }
}

/** Whole-class failures (rules `max_zero_hit_share`): a slice whose queries find nothing relevant at all. */
export const zeroHitsCapability: Capability<true, null, null> = {
  name: 'zero-hits',
  about: 'a slice that an average hides: queries with no relevant document in the top k, per slice',
  words: ZERO_HITS_WORDS,
  config: () => true,
  needsRows: (_c, rules) => (rules.maxZeroHitShare === undefined ? undefined : 'max_zero_hit_share'),
  inputs: () => [],
  read: () => Promise.resolve(null),
  assess: ({ rules, table, core }) => {
    const { guards, zeroHits } = assessZeroHits(rules, table, core.trust.runs)
    return { guards, summary: null, parts: zeroHitsParts(zeroHits) }
  }
}

/** Two-stage diagnostics (rules `two_stage`): the ranker against the ceiling of its first-stage pool. */
export const twoStageCapability: Capability<true, null, null> = {
  name: 'two-stage',
  about: 'a ranker gain that is a retrieval loss: the first stage’s ceiling and the ranker’s nDCG, per side',
  config: () => true,
  needsRows: (_c, rules) => (rules.twoStage === undefined ? undefined : 'two_stage'),
  inputs: () => [],
  read: () => Promise.resolve(null),
  assess: ({ rules, table, core }) => {
    const t = assessTwoStage(rules, table, core.trust.runs)
    const missing =
      t !== null || rules.twoStage === undefined
        ? null
        : core.trust.runs === null
          ? 'they need runs whose records carry the first-stage "candidates"; the sides are per-query rows'
          : 'neither run carries first-stage "candidates" in its records, so there is no pool to measure'
    return { guards: [], summary: null, parts: twoStageParts(t, missing) }
  }
}

/** The evaluation set (rules `dataset`): what it gated, disputed, left out and how unanswerable questions went. */
export const datasetCapability: Capability<true, null, null> = {
  name: 'dataset',
  about: 'the exam is the agreed one: its split, disputed and unanswerable questions are counted, never silent',
  config: () => true,
  needsRows: (_c, rules) => (rules.dataset === undefined ? undefined : 'dataset'),
  inputs: () => [],
  read: () => Promise.resolve(null),
  assess: ({ core }) => {
    const dataset = core.trust.dataset === null ? null : summariseDataset(core.trust.dataset, core.trust.runs)
    return { guards: [], summary: null, trust: { dataset }, parts: datasetParts(dataset) }
  }
}
