/**
 * Exact two-sided McNemar test for paired pass/fail outcomes: under "no difference", each discordant pair
 * (gained: baseline failed and candidate passed; lost: the reverse) goes either way with probability 1/2,
 * so gained ~ Binomial(gained + lost, 1/2). p = min(1, 2 * P(X <= min(gained, lost))).
 * Reference: McNemar(60, 40) = 0.0568879336409808 (exact binomial sum, see the test), McNemar(20, 0) = 2/2^20.
 */
export function mcnemarExact(gained: number, lost: number): number {
  if (!Number.isInteger(gained) || !Number.isInteger(lost) || gained < 0 || lost < 0) return Number.NaN
  const n = gained + lost
  if (n === 0) return 1
  const k = Math.min(gained, lost)
  let tail: number
  if (n <= 1000) {
    // pmf(0) = 2^-n is exact in binary; pmf(j+1) = pmf(j) * (n - j) / (j + 1).
    let term = Math.pow(2, -n)
    tail = term
    for (let j = 0; j < k; j++) {
      term = (term * (n - j)) / (j + 1)
      tail += term
    }
  } else {
    // Beyond 1000 discordant pairs 2^-n underflows: sum from the largest term downwards in log space.
    let logTerm = logChoose(n, k) - n * Math.LN2
    tail = 0
    for (let j = k; j >= 0; j--) {
      const t = Math.exp(logTerm)
      tail += t
      if (t < tail * 1e-17) break
      logTerm += Math.log(j) - Math.log(n - j + 1)
    }
  }
  return Math.min(1, 2 * tail)
}

function logChoose(n: number, k: number): number {
  let s = 0
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i)
  return s
}
