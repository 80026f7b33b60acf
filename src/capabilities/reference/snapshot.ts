import type { Rules } from '../../config/types.js'
import { InputError } from '../../errors.js'
import { underPath, type Manifest } from '../../readers/manifest.js'
import { quote } from '../../util/show.js'

/**
 * Whether the reference was made on the exam's snapshot: its manifest against the baseline's (else the
 * dataset's) on the rules' `comparability.must_match` fields. A budget spent across two snapshots (another
 * corpus, another judge) would measure the snapshot change, not the system, so a difference (or a field one
 * side lacks) is refused as not comparable, never re-paired. Returns the note the report shows: what was
 * compared, or why nothing was. Refuses a reference manifest the rules give no fields to compare on, and one
 * with nothing exam-side to compare it with: a file that is read and never used is a mistake.
 */
export function checkReferenceSnapshot(
  rules: Rules,
  reference: Manifest | null,
  exam: { baseline: Manifest | null; dataset: Manifest | null },
  label: string
): string | null {
  const mustMatch = rules.comparability?.mustMatch
  if (reference === null)
    return mustMatch === undefined
      ? null
      : `the reference's snapshot was not checked (no reference manifest was given; ${mustMatch.join(', ')} must match)`
  if (mustMatch === undefined) {
    throw new InputError(
      { file: reference.source },
      'a reference manifest was given, but the rules name no comparability.must_match fields to compare it on',
      'add comparability: { must_match: [corpus.content_hash, judge.model] } to the rules, or leave the reference manifest out'
    )
  }
  const examSide = exam.baseline ?? exam.dataset
  if (examSide === null) {
    throw new InputError(
      { file: reference.source },
      "a reference manifest was given, but there is no exam-side manifest (baseline's or dataset's) to compare it with",
      'give the baseline manifest too (--baseline-manifest / input baseline-manifest)'
    )
  }
  for (const rule of mustMatch) {
    const paths = new Set([...examSide.leaves.keys(), ...reference.leaves.keys()].filter((p) => underPath(p, rule)))
    if (paths.size === 0) throw notComparable(reference, label, `neither it nor ${examSide.source} has ${rule}`)
    for (const p of [...paths].sort()) {
      const a = examSide.leaves.get(p)
      const b = reference.leaves.get(p)
      if (a !== b)
        throw notComparable(
          reference,
          label,
          `${p} is ${b === undefined ? '(absent)' : quote(b)} in it and ${a === undefined ? '(absent)' : quote(a)} in ${examSide.source}`
        )
    }
  }
  return `the reference's snapshot matches ${examSide.source} on ${mustMatch.join(', ')}`
}

function notComparable(reference: Manifest, label: string, what: string): InputError {
  return new InputError(
    { file: reference.source },
    `the reference ${quote(label)} was made on another snapshot than the exam: ${what}`,
    'a budget across two snapshots measures the snapshot change, not the system: regenerate the reference rows on the current snapshot, or cut a new reference'
  )
}
