"""Reference values for __tests__/stats/intervals.test.ts, from Debian's python3 (scipy 1.10.1, numpy 1.24.2,
statsmodels 0.13.5).

Run: /usr/bin/python3 __tests__/stats/reference-intervals.py  (prints JSON; the tests embed the numbers it printed).
Every value is computed from the published definition with library calls, not with the gate's own shortcuts:
- Tango (1998): the restricted maximum-likelihood estimate by scipy.optimize.minimize_scalar on the multinomial
  log-likelihood (not the closed-form root the gate uses), the ends by scipy.optimize.brentq;
- Hall (1992): scipy.stats.skew(bias=True), scipy.stats.t.ppf, numpy.cbrt;
- seeds: numpy variances and scipy.stats.t.ppf with the Satterthwaite / Hsu degrees of freedom;
- kappa: statsmodels.stats.inter_rater.cohens_kappa of every leave-one-out table, the jackknife by numpy.
"""
import json
import numpy as np
from scipy import optimize, special, stats
from statsmodels.stats.inter_rater import cohens_kappa

out = {}
Z = stats.norm.ppf(0.975)


def tango(g, l, n, conf=0.95):
    z = stats.norm.ppf(1 - (1 - conf) / 2)
    r = n - g - l

    def p21_mle(d):
        lo, hi = max(0.0, -d), (1 - d) / 2
        if hi - lo < 1e-15:
            return lo
        f = lambda p: -(special.xlogy(g, p + d) + special.xlogy(l, p) + special.xlogy(r, 1 - 2 * p - d))
        res = optimize.minimize_scalar(f, bounds=(lo, hi), method='bounded', options={'xatol': 1e-14})
        return res.x

    def T(d):
        q = p21_mle(d)
        return (g - l - n * d) / np.sqrt(n * (2 * q + d * (1 - d)))

    est = (g - l) / n
    eps = 1e-12
    lower = -1.0 if est <= -1 else optimize.brentq(lambda d: T(d) - z, -1 + eps, est - eps, xtol=1e-14)
    upper = 1.0 if est >= 1 else optimize.brentq(lambda d: T(d) + z, est + eps, 1 - eps, xtol=1e-14)
    return [lower, upper]


# (gained, lost, n): Cavo et al. 2012 as in contingencytables (n12 = 6, n21 = 16, N = 161), every query tied,
# the 40 queries with 1 gained and 4 lost, and a few more.
out['tango'] = {f'{g},{l},{n}': tango(g, l, n) for g, l, n in [(6, 16, 161), (0, 0, 40), (1, 4, 40), (0, 3, 30), (12, 5, 50), (3, 0, 10)]}
out['tango99'] = tango(1, 4, 40, 0.99)


def hall(d, conf=0.95, df=None):
    d = np.asarray(d, float)
    n = len(d)
    m = d.mean()
    se = d.std(ddof=1) / np.sqrt(n)
    a = stats.skew(d, bias=True) / np.sqrt(n)
    t = stats.t.ppf(1 - (1 - conf) / 2, n - 1 if df is None else df)
    ginv = lambda x: (3 / a) * (np.cbrt(1 + a * (x - a / 6)) - 1)
    return [m - se * ginv(t), m - se * ginv(-t)], float(se), float(a)


# Skewed differences: mostly 0, small gains, two large losses (45 queries).
skewed = [0.0] * 30 + [0.02, 0.05, 0.01, 0.03, 0.04, 0.02, 0.06, 0.01, 0.03, 0.05, 0.02, 0.04, 0.01] + [-0.6, -0.45]
ci, se, a = hall(skewed)
out['hall_skewed'] = {'ci': ci, 'se': se, 'a': a, 't_ci': list(stats.t.interval(0.95, len(skewed) - 1, loc=np.mean(skewed), scale=stats.sem(skewed)))}

# Clusters (query-weighted ratio): per-cluster totals S_g and sizes n_g; the linearised terms e_g = (S_g - m n_g)/N,
# se^2 = G/(G-1) * sum e_g^2, skew = sum e^3 / (sum e^2)^1.5, df = G - 1.
clusters = [[0.1, 0.0, 0.2], [0.0, -0.1], [0.3, 0.1, 0.0, 0.2], [-0.5, -0.4, -0.6], [0.05, 0.0], [0.1, 0.1, 0.0]]
S = np.array([sum(c) for c in clusters])
ng = np.array([len(c) for c in clusters], float)
N = ng.sum()
m = S.sum() / N
e = (S - m * ng) / N
G = len(clusters)
se_c = np.sqrt(G / (G - 1) * (e ** 2).sum())
a_c = (e ** 3).sum() / ((e ** 2).sum()) ** 1.5
t_c = stats.t.ppf(0.975, G - 1)
ginv = lambda x: (3 / a_c) * (np.cbrt(1 + a_c * (x - a_c / 6)) - 1)
out['hall_clusters'] = {'estimate': m, 'se': se_c, 'a': a_c, 'ci': [m - se_c * ginv(t_c), m - se_c * ginv(-t_c)]}


def seeds_t(B, C, conf=0.95):
    B, C = np.asarray(B, float), np.asarray(C, float)
    sb, n = B.shape
    sc = C.shape[0]
    d = C.mean(0) - B.mean(0)
    est = d.mean()
    ss, df = 0.0, 0
    for X in (B, C):
        if X.shape[0] >= 2:
            r = X - X.mean(1, keepdims=True) - X.mean(0, keepdims=True) + X.mean()
            ss += (r ** 2).sum()
            df += (X.shape[0] - 1) * (n - 1)
    noise = ss / df if df else 0.0
    vq = max(0.0, d.var(ddof=1) - noise * (1 / sb + 1 / sc)) / n
    if sb >= 2 and sc >= 2:
        vs = B.mean(1).var(ddof=1) / sb + C.mean(1).var(ddof=1) / sc
        fs = min(sb, sc) - 1
    else:
        X = B if sb >= 2 else C
        vs = X.mean(1).var(ddof=1) * (1 / sb + 1 / sc)
        fs = X.shape[0] - 1
    v = vq + vs
    dof = v * v / (vq * vq / (n - 1) + vs * vs / fs)
    t = stats.t.ppf(1 - (1 - conf) / 2, dof)
    return {'estimate': est, 'ci': [est - t * np.sqrt(v), est + t * np.sqrt(v)], 'df': dof, 'query_variance': vq, 'seed_variance': vs}


# 8 queries; the change helps some queries a lot and hurts others (query variance), seeds differ a little.
base2 = [[0.50, 0.61, 0.42, 0.70, 0.55, 0.38, 0.66, 0.47], [0.53, 0.60, 0.47, 0.69, 0.58, 0.41, 0.64, 0.50]]
cand3 = [[0.65, 0.51, 0.40, 0.88, 0.49, 0.55, 0.70, 0.38], [0.62, 0.55, 0.49, 0.84, 0.50, 0.50, 0.66, 0.41],
         [0.68, 0.53, 0.45, 0.90, 0.52, 0.57, 0.73, 0.40]]
out['seeds_2_3'] = seeds_t(base2, cand3)
out['seeds_1_3'] = seeds_t(base2[:1], cand3)


def jackknife_kappa(pairs, k, wt, conf=0.95):
    """pairs: (human, judge_b, judge_c) per item; kappa by statsmodels of each table."""
    def table(ps, side):
        t = np.zeros((k, k))
        for p in ps:
            t[p[0], p[side]] += 1
        return t

    kap = lambda ps, side: cohens_kappa(table(ps, side), wt=wt).kappa
    m = len(pairs)
    t = stats.t.ppf(1 - (1 - conf) / 2, m - 1)
    res = {}
    loo = {side: np.array([kap(pairs[:i] + pairs[i + 1:], side) for i in range(m)]) for side in (1, 2)}
    for side, name in ((1, 'baseline'), (2, 'candidate')):
        z = np.arctanh(loo[side])
        se = np.sqrt((m - 1) / m * ((z - z.mean()) ** 2).sum())
        zk = np.arctanh(kap(pairs, side))
        res[name] = {'kappa': kap(pairs, side), 'interval': [float(np.tanh(zk - t * se)), float(np.tanh(zk + t * se))]}
    dd = loo[2] - loo[1]
    se = np.sqrt((m - 1) / m * ((dd - dd.mean()) ** 2).sum())
    delta = res['candidate']['kappa'] - res['baseline']['kappa']
    res['drift'] = {'delta': delta, 'interval': [delta - t * se, delta + t * se]}
    return res


# 24 items on a 0..2 scale: (human, baseline judge, candidate judge), written out by hand.
items = [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 0, 0), (0, 0, 0), (0, 0, 1), (1, 1, 1), (1, 1, 2), (1, 0, 1), (1, 1, 1),
         (1, 2, 1), (1, 1, 0), (1, 1, 1), (1, 1, 2), (2, 2, 2), (2, 2, 1), (2, 1, 2), (2, 2, 2), (2, 2, 1), (2, 2, 2),
         (0, 0, 0), (1, 1, 1), (2, 2, 0), (0, 1, 1)]
out['kappa_jackknife_linear'] = jackknife_kappa(items, 3, 'linear')
out['kappa_jackknife_none'] = jackknife_kappa(items, 3, None)

print(json.dumps(out, indent=1))
