/**
 * A reduced run of the property study (npm run calibrate:designs; bench/calibration/property.ts): designs drawn at
 * random from every family, every check kind and test at its truth, the gate's own path. Per design and check the
 * false-pass count over 300 evaluations is judged against 0.035 by a one-sided binomial test at 0.1% (looser than
 * the study's 1%, for 300 draws instead of 1,000). The family outside the promise (latency with a tail index below 4)
 * must break it: the study can see what it claims to catch, so this test can fail.
 */
import { describe, expect, it } from '@jest/globals'
import { runProperty } from '../../bench/calibration/property.js'

const SEED = 'property-test-32'

describe('calibration as a property (reduced)', () => {
  const rows = runProperty({ seed: SEED, designsPerFamily: 2, simulations: 300 })
  it('no design of the promised families breaks the level', () => {
    const broken = rows.filter((r) => !r.family.includes('beyond the promise') && r.pAbove < 0.001)
    expect(broken.map((r) => `${r.family} #${r.design} ${r.check}: ${r.passed}/300 (${r.label})`)).toEqual([])
    expect(new Set(rows.map((r) => r.check))).toEqual(
      new Set([
        'non_inferior',
        'superior',
        'superior_t',
        'superior_randomization',
        'superior_mcnemar',
        'level',
        'budget'
      ])
    )
  })
  it('the family beyond the promise does break it (the study is not blind)', () => {
    const beyond = rows.filter((r) => r.family.includes('beyond the promise'))
    expect(beyond.length).toBeGreaterThan(0)
    expect(Math.max(...beyond.map((r) => r.passed / r.simulations))).toBeGreaterThan(0.035)
  })
})
