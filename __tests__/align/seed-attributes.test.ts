/**
 * Every seed file's attributes are held to the others', so the order of the files cannot decide whether a
 * contradiction is seen (red-team finding, 2026-12-02: `--candidate s1 s2 s3` gave a verdict where `s3 s1 s2`
 * was refused, because only the first file's attributes reached the pairing).
 */
import { describe, expect, it } from '@jest/globals'
import { averageSeeds } from '../../src/align/seeds.js'
import { InputError } from '../../src/errors.js'
import { sideFromRows, type QueryRow } from '../../src/model/rows.js'

function seed(file: string, segmentOfQ0: string | undefined) {
  const rows: QueryRow[] = ['q0', 'q1'].map((id, i) => ({
    id,
    line: i + 1,
    values: new Map([['m', 0.5 + i / 10]]),
    attrs: new Map(i === 0 && segmentOfQ0 === undefined ? [] : [['segment', i === 0 ? (segmentOfQ0 as string) : 'est']])
  }))
  return sideFromRows(file, rows)
}

function refusal(files: ReturnType<typeof seed>[]): InputError {
  try {
    averageSeeds(files, 'candidate')
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('seed files and their attributes', () => {
  it('refuses two seeds that give one query different values, in any order of the files', () => {
    const [s1, s2, s3] = [seed('s1.jsonl', 'new'), seed('s2.jsonl', 'new'), seed('s3.jsonl', 'est')]
    for (const order of [
      [s1, s2, s3],
      [s3, s1, s2],
      [s2, s3, s1]
    ]) {
      const e = refusal(order)
      expect(e.where.queryId).toBe('q0')
      expect(e.message).toMatch(
        /this candidate seed gives query "q0" "segment" = "(new|est)", but s\d\.jsonl:1 gives "(est|new)"/
      )
    }
  })

  it('takes a value any seed gives where the others give none, the same in every order', () => {
    const [s1, s2] = [seed('s1.jsonl', undefined), seed('s2.jsonl', 'new')]
    for (const order of [
      [s1, s2],
      [s2, s1]
    ])
      expect(averageSeeds(order, 'candidate').attrs.get('segment')).toEqual(['new', 'est'])
  })
})
