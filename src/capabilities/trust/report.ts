import {
  cells,
  em,
  list,
  paragraph,
  row,
  strong,
  table,
  text,
  words,
  type Block,
  type Inline
} from '../../model/document.js'
import { withheldIds, type ComparabilityEntry, type RenderParts } from '../../decide/result.js'
import { fixed, signed } from '../../report/format.js'
import { label, pct } from './words.js'
import { shownSliceRows } from '../../report/slice-rows.js'
import { firstListed, MAX_LISTED } from '../../report/listed.js'
import { describeDifference, type ComparabilityResult, type FieldDifference } from '../../trust/comparability.js'
import type { PoolingResult } from '../../trust/pooling.js'
import type { DatasetSummary, UnanswerableSide } from '../../trust/trust.js'
import type { TwoStageResult } from '../../trust/two-stage.js'
import { QUANTILES, type ZeroHitResult } from '../../trust/zero-hits.js'

/**
 * The trust family's parts of the report (src/capabilities/trust/family.ts): each capability's blocks in the Trust
 * section (doc blocks: the renderers escape), its rows of the comparability table and its key of the JSON report's
 * `trust` object. The report names none of them: it draws each slot in registry order (src/report/trust-lines.ts).
 */

/**
 * A change of a ranking measure computed from runs (always in [0, 1]) in a table cell: points, as every change of
 * a share in the report (src/report/words.ts inPoints).
 */
const pointsCell = (x: number): string => `${signed(x * 100, 2)} pts`

/** Snapshot comparability: every manifest field compared, in the comparability table, and its JSON key. */
export function comparabilityParts(c: ComparabilityResult | null): RenderParts {
  return {
    comparability: () => (c === null ? [] : comparabilityEntries(c)),
    trustJson: () => ['comparability', c === null ? null : comparabilityJson(c)]
  }
}

/** Pooling bias: its blocks, the judged shares' row of the comparability table, the to-judge list, its JSON key. */
export function poolingParts(p: PoolingResult | null): RenderParts {
  if (p === null) return { trustJson: () => ['pooling', null] }
  return {
    blocks: { trustChecks: () => poolingBlocks(p) },
    comparability: () => [
      {
        aspect: `Judged share of top ${p.depth}`,
        status: p.candidate.meanUnjudged > p.baseline.meanUnjudged ? 'differs' : 'same',
        detail: `baseline ${pct(p.baseline.meanJudged)} judged, candidate ${pct(p.candidate.meanJudged)} judged (mean over queries)`
      }
    ],
    toJudge: () => p,
    trustJson: ({ result }) => ['pooling', poolingJson(p, withheldIds(result))]
  }
}

/** Whole-class failures: the table (when there are slices) and its JSON key. */
export function zeroHitsParts(z: ZeroHitResult): RenderParts {
  return {
    blocks: { trustChecks: () => (z.slices.length === 0 ? [] : zeroHitBlocks(z)) },
    trustJson: () => [
      'zero_hits',
      {
        depth: z.depth,
        from_runs: z.fromRuns,
        quantiles: [...QUANTILES],
        slices: z.slices.map((s) => ({
          slice: Object.fromEntries(s.slice),
          n: s.n,
          baseline: s.baseline,
          candidate: s.candidate,
          distributions: s.distributions
        }))
      }
    ]
  }
}

/**
 * Two-stage diagnostics: the table and its JSON key. `missing` says why rules that ask for them (`two_stage`) got
 * none (per-query rows, or runs without first-stage candidates), so the key is never read in silence.
 */
export function twoStageParts(t: TwoStageResult | null, missing: string | null = null): RenderParts {
  const none = missing === null ? [] : [paragraph(em(words(`Two-stage diagnostics (two_stage): ${missing}.`)))]
  return {
    blocks: { trustChecks: () => (t === null ? none : twoStageBlocks(t)) },
    trustJson: () => ['two_stage', t]
  }
}

/** The evaluation set: its list at the top of the trust section and its JSON key. */
export function datasetParts(d: DatasetSummary | null): RenderParts {
  return {
    blocks: { trustExam: () => (d === null ? [] : datasetList(d)) },
    trustJson: () => [
      'dataset',
      d === null
        ? null
        : {
            file: d.file,
            split: d.split,
            gated: d.gated,
            disputed_excluded: d.disputed,
            other_split: d.otherSplit,
            unanswerable: d.unanswerable
          }
    ]
  }
}

/** Every manifest field compared (at most {@link MAX_LISTED} of each kind). */
function comparabilityEntries(c: ComparabilityResult): ComparabilityEntry[] {
  const out: ComparabilityEntry[] = []
  const failing = new Set(c.mismatches.map((m) => m.path))
  for (const rule of c.mustMatch) {
    if (![...failing].some((p) => p === rule || p.startsWith(`${rule}.`)))
      out.push({ aspect: rule, status: 'same', detail: 'must match: same in every manifest' })
  }
  // each kind of difference: its first fields, then the count of the others
  const listed = (diffs: FieldDifference[], what: string, unknownWhenMissing = false): void => {
    for (const d of firstListed(diffs)) {
      const status = unknownWhenMissing && d.values.some(([, v]) => v === null) ? 'unknown' : 'differs'
      out.push({ aspect: d.path, status, detail: `${what}: ${describeDifference(d)}` })
    }
    out.push(...more(diffs.length, what))
  }
  listed(c.mismatches, 'must match (not comparable)', true)
  listed(c.warnings, 'comparability warning')
  listed(c.allowed, 'allowed to differ')
  return out
}

function comparabilityJson(c: ComparabilityResult): Record<string, unknown> {
  const diff = (d: FieldDifference): Record<string, unknown> => ({
    field: d.path,
    values: Object.fromEntries(d.values)
  })
  return {
    sides: Object.fromEntries(c.sides),
    must_match: c.mustMatch,
    comparable: c.comparable,
    // a candidate's manifest may hold any number of fields: the first differences and their count
    mismatches: firstListed(c.mismatches).map(diff),
    mismatches_count: c.mismatches.length,
    warnings: firstListed(c.warnings).map(diff),
    warnings_count: c.warnings.length,
    allowed: firstListed(c.allowed).map(diff),
    allowed_count: c.allowed.length
  }
}

function poolingJson(p: PoolingResult, withheld: ((id: string) => boolean) | null): Record<string, unknown> {
  const side = (s: PoolingResult['baseline']): Record<string, unknown> => ({
    mean_judged: s.meanJudged,
    mean_unjudged: s.meanUnjudged,
    queries: s.queries,
    empty_rankings: s.emptyRankings,
    retrieved_docs: s.retrievedDocs,
    unjudged_docs: s.unjudgedDocs
  })
  return {
    depth: p.depth,
    baseline: side(p.baseline),
    candidate: side(p.candidate),
    pool: {
      documents: p.pool.documents,
      unjudged: p.pool.unjudged,
      queries_with_unjudged: p.pool.queriesWithUnjudged
    },
    // Holdout queries' per-query shares are withheld (counted in the means above).
    judged_per_query: (withheld === null ? p.perQuery : p.perQuery.filter((q) => !withheld(q.id))).map((q) => ({
      query_id: q.id,
      baseline: q.baseline,
      candidate: q.candidate
    })),
    condensed: p.condensed.map((x) => ({
      metric: x.metric,
      n: x.n,
      full: x.full,
      condensed: x.condensed,
      direction_differs: x.directionDiffers
    }))
  }
}

/** The row that counts the fields a list left out (a manifest may hold any number of them). */
function more(total: number, what: string): ComparabilityEntry[] {
  const left = total - MAX_LISTED
  return left > 0
    ? [{ aspect: `${left} more ${left === 1 ? 'field' : 'fields'}`, status: 'differs', detail: `${what}: not listed` }]
    : []
}

/** The evaluation set: what was gated, excluded and reported apart, and how each side met the unanswerable. */
function datasetList(d: DatasetSummary): Block[] {
  const items: Inline[] = [
    [
      words('Evaluation set '),
      text(d.file, 200),
      words(': split '),
      text(d.split),
      words(
        `, ${d.gated} answerable questions gated; ${d.disputed.length} disputed excluded; ${d.unanswerable.ids.length} unanswerable reported apart; ${d.otherSplit} in other splits.`
      )
    ]
  ]
  const side = (name: string, s: UnanswerableSide | null): void => {
    if (s !== null)
      items.push([
        words(
          `Unanswerable questions, ${name}: ${s.abstained} abstained, ${s.empty} returned nothing, ${s.answered} returned documents (should have abstained), ${s.absent} absent from the run.`
        )
      ])
  }
  if (d.unanswerable.ids.length > 0) {
    side('baseline', d.unanswerable.baseline)
    side('candidate', d.unanswerable.candidate)
  }
  return [list(...items)]
}

/** Pooling bias: judged shares per side, the pool, and the judged-only second opinion. */
function poolingBlocks(p: PoolingResult): Block[] {
  const sideRow = (name: string, s: typeof p.baseline): Inline[] =>
    row(
      name,
      pct(s.meanJudged),
      pct(s.meanUnjudged),
      String(s.queries),
      String(s.emptyRankings),
      `${s.unjudgedDocs} of ${s.retrievedDocs}`
    )
  const out: Block[] = [
    paragraph(
      strong(words('Pooling bias')),
      words(` (top ${p.depth} of each side; unjudged = no judgment or a negative grade):`)
    ),
    table(cells('Side', 'Judged share (mean)', 'Unjudged share', 'Queries', 'Empty rankings', 'Unjudged docs'), [
      sideRow('baseline', p.baseline),
      sideRow('candidate', p.candidate)
    ]),
    list([
      words(
        `Pool (union of both top ${p.depth}): ${p.pool.documents} documents, ${p.pool.unjudged} without a grade in ${p.pool.queriesWithUnjudged} queries.`
      )
    ])
  ]
  if (p.condensed.length === 0) return out
  const head = cells(
    'Metric',
    'n',
    'Baseline',
    'Candidate',
    'Δ',
    'Condensed baseline',
    'Condensed candidate',
    'Condensed Δ',
    'Direction'
  )
  const rows = p.condensed.map((c) =>
    row(
      text(c.metric),
      String(c.n),
      fixed(c.full.baseline, 4),
      fixed(c.full.candidate, 4),
      pointsCell(c.full.delta),
      fixed(c.condensed.baseline, 4),
      fixed(c.condensed.candidate, 4),
      pointsCell(c.condensed.delta),
      c.directionDiffers ? '⚠️ reverses' : 'agrees'
    )
  )
  out.push(
    paragraph(
      words(
        'Judged-only second opinion (condensed rankings: unjudged documents removed before scoring, as trec_eval -J):'
      )
    ),
    table(head, rows)
  )
  return out
}

/** Whole-class failures: the share of zero-hit queries per slice and each gated metric's quantiles. */
function zeroHitBlocks(z: ZeroHitResult): Block[] {
  const head = cells(
    'Slice',
    'n',
    'Zero hits, baseline',
    'Zero hits, candidate',
    'Metric',
    'Baseline quantiles',
    'Candidate quantiles'
  )
  const rows: Inline[][] = []
  // Bounded like the per-slice breakdown: one row per slice and metric, the rest in the JSON report only.
  const bounded = shownSliceRows(z.slices, 'trust.zero_hits.slices')
  for (const s of bounded.shown) {
    const zb = s.baseline === null ? 'n/a' : pct(s.baseline)
    const zc = s.candidate === null ? 'n/a' : pct(s.candidate)
    if (s.distributions.length === 0) rows.push(row(text(label(s.slice)), String(s.n), zb, zc, '', '', ''))
    for (const d of s.distributions)
      rows.push(
        row(
          text(label(s.slice)),
          String(s.n),
          zb,
          zc,
          text(d.metric),
          d.baseline.map((x) => fixed(x, 3)).join(' / '),
          d.candidate.map((x) => fixed(x, 3)).join(' / ')
        )
      )
  }
  const quantiles = QUANTILES.map((q) => `p${q * 100}`).join('/')
  return [
    paragraph(
      strong(words('Whole-class failures')),
      words(
        `: share of queries with no relevant document in the top ${z.depth}, and the spread of each gated metric (quantiles ${quantiles}):`
      )
    ),
    table(head, rows),
    ...(bounded.note ? [bounded.note] : []),
    ...(z.fromRuns
      ? []
      : [paragraph(em(words('Zero-hit shares need runs and judgments; the sides are per-query rows.')))])
  ]
}

/** Two-stage diagnostics: pool recall, the ranker against the pool's ceiling, the headrooms. */
function twoStageBlocks(t: TwoStageResult): Block[] {
  const head = cells(
    'Side',
    'Queries',
    'Pool size (mean)',
    'Pool recall',
    `Ranker nDCG@${t.k}`,
    'Pool ceiling',
    'Ranking headroom',
    'Recall headroom'
  )
  const rows = (
    [
      ['baseline', t.baseline],
      ['candidate', t.candidate]
    ] as const
  ).map(([name, s]) =>
    s === null
      ? row(name, '0', 'no candidates', '', '', '', '', '')
      : row(
          name,
          String(s.queries),
          fixed(s.meanPoolSize, 1),
          fixed(s.coverage, 4),
          fixed(s.ranker, 4),
          fixed(s.ceiling, 4),
          fixed(s.ceiling - s.ranker, 4),
          fixed(1 - s.ceiling, 4)
        )
  )
  return [
    paragraph(
      strong(words('Two-stage diagnostics')),
      words(
        ` (nDCG@${t.k}, ${t.gain} gain; ceiling = best nDCG@${t.k} any order of the first-stage pool can reach, ideal from all judgments):`
      )
    ),
    table(head, rows)
  ]
}
