"""Reference values for __tests__/stats/*.test.ts, from scipy 1.17.1 / numpy 2.4.6.

Run: python3 __tests__/stats/reference.py  (prints JSON; the tests embed the numbers it printed).
Every value names the call that produced it.
"""
import itertools, json
import numpy as np
from scipy import stats
from scipy.stats import _resampling

out = {}

# Paired data (hand-written, no randomness): 25 queries.
base = [0.61, 0.42, 0.88, 0.35, 0.5, 0.73, 0.2, 0.66, 0.91, 0.47, 0.38, 0.55, 0.7, 0.29, 0.83,
        0.64, 0.52, 0.44, 0.79, 0.31, 0.58, 0.69, 0.4, 0.75, 0.62]
cand = [0.65, 0.4, 0.9, 0.41, 0.52, 0.7, 0.28, 0.69, 0.93, 0.5, 0.36, 0.61, 0.74, 0.3, 0.8,
        0.7, 0.55, 0.47, 0.81, 0.37, 0.57, 0.75, 0.46, 0.78, 0.6]
b, c = np.array(base), np.array(cand)
d = c - b
# t interval and ttest: scipy.stats.ttest_rel(c, b) and scipy.stats.t.interval(0.95, df, loc=mean, scale=sem)
tt = stats.ttest_rel(c, b)
out['ttest'] = {'p': float(tt.pvalue), 'statistic': float(tt.statistic), 'df': int(tt.df),
                'ci95': list(map(float, stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d)))),
                'ci99': list(map(float, stats.t.interval(0.99, len(d) - 1, loc=d.mean(), scale=stats.sem(d))))}

# BCa acceleration and interval ends given the SAME bootstrap distribution: scipy's own _bca_interval with
# theta_hat_b passed in (so our resamples need not match scipy's), then scipy.stats.quantile (type 7).
x = np.array([0, 0, 0, 1, 0, 2, 0, 0, 5, 1, 0, 0, 3, 0, 1], dtype=float)  # skewed, many zeros
rng = np.random.default_rng(20240501)
idx = rng.integers(0, len(x), size=(400, len(x)))
sums = x[idx].sum(axis=1)  # integers: the test rebuilds theta* = sums / 15 exactly
theta_b = sums / len(x)
a1, a2, ahat = _resampling._bca_interval((x,), np.mean, -1, 0.025, theta_b, None, np)
out['bca'] = {'x': x.tolist(), 'sums': sums.astype(int).tolist(), 'alpha1': float(a1), 'alpha2': float(a2), 'a': float(ahat),
              'ci': [float(np.quantile(theta_b, float(a1))), float(np.quantile(theta_b, float(a2)))]}

# BCa end to end: scipy.stats.bootstrap(method='BCa', n_resamples=20000) on a skewed sample (our
# resamples differ; the test allows a tolerance and states it).
rng = np.random.default_rng(7)
y = np.round(rng.exponential(1.0, 200) - 0.8, 4)
res = stats.bootstrap((y,), np.mean, method='BCa', n_resamples=20000, vectorized=True, random_state=np.random.default_rng(1))
out['bca_e2e'] = {'y': y.tolist(), 'ci': [float(res.confidence_interval.low), float(res.confidence_interval.high)]}

# Exact sign-flip p-value by enumeration of all 2^n sign patterns (itertools.product), n = 12 and 16.
def exact_p(v):
    v = np.array(v)
    t = abs(v.sum())
    hits = 0
    signs = np.array(list(itertools.product([1, -1], repeat=len(v))))
    sums = np.abs(signs @ v)
    return float(np.mean(sums >= t - 1e-9 * np.abs(v).sum()))
f12 = [0.3, -0.1, 0.25, 0.05, 0.4, -0.2, 0.15, 0.1, 0.0, 0.35, -0.05, 0.2]
f16 = [1, 0, 0, 1, -1, 1, 0, 1, 1, 0, -1, 1, 0, 1, 1, 0]
out['signflip'] = {'f12': f12, 'p12': exact_p(f12), 'f16': f16, 'p16': exact_p(f16)}
f20 = list(np.round(np.random.default_rng(3).normal(0.15, 0.3, 20), 3))
out['signflip']['f20'] = [float(v) for v in f20]
out['signflip']['p20'] = exact_p(f20)

print(json.dumps(out))
