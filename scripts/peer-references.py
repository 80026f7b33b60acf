"""The peers' per-query values as references for `metrics` (docs/metrics.md, "The peers"), written to
__tests__/metrics/peer-references.json, which __tests__/metrics/peers.test.ts holds our values to (no Python there).

    scripts/tool-fixtures.sh                  # once: the venv with the pinned tools (node_modules/.cache/rg-tools-venv)
    node_modules/.cache/rg-tools-venv/bin/python scripts/peer-references.py

Sets: the trec_eval conformance fixtures (__tests__/fixtures/trec: qrels.txt + run.txt, qrels-norel.txt +
run-norel.txt) and a seeded 3,000-query run pair (scripts/run-pair.js: graded judgments, ties, short rankings, absent
and run-only queries). Tools: pytrec_eval (trec_eval's own C code), ir_measures (its default provider for each measure)
and ranx (its own numba implementation, with make_comparable=True, as its docs advise when the query sets differ).

Per set, tool and measure: how many queries it scores, a sha256 of its values on the queries pytrec_eval scores (the
judged queries of the run; lines "query<TAB>value" in byte order of the ids, each value to 12 significant digits as
d.ddddddddddde<exp>), how many of them differ from pytrec_eval by more than 1e-12, and what it gives the judged queries
the run lacks. ranx is also run on the same run with its ties broken as trec_eval breaks them ("ranx_ties_broken"),
and the queries where plain ranx differs are listed, so the test can check that each has tied scores.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections import OrderedDict
from importlib.metadata import version

import ir_measures
import pytrec_eval
from ranx import Qrels, Run, evaluate

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..')
TREC = os.path.join(ROOT, '__tests__', 'fixtures', 'trec')
OUT = os.path.join(ROOT, '__tests__', 'metrics', 'peer-references.json')

# ours -> (pytrec_eval's measure and key, ir_measures' measure, ranx's metric)
MEASURES = OrderedDict([
    ('AP', ('map', 'map', ir_measures.AP, 'map')),
    ('nDCG@10', ('ndcg_cut.10', 'ndcg_cut_10', ir_measures.nDCG @ 10, 'ndcg@10')),
    ('nDCG', ('ndcg', 'ndcg', ir_measures.nDCG, 'ndcg')),
    ('P@10', ('P.10', 'P_10', ir_measures.P @ 10, 'precision@10')),
    ('R@100', ('recall.100', 'recall_100', ir_measures.R @ 100, 'recall@100')),
    ('RR', ('recip_rank', 'recip_rank', ir_measures.RR, 'mrr')),
])


def read_run(path):
    run = OrderedDict()
    for line in open(path, encoding='utf-8'):
        f = line.split()
        if len(f) >= 5:
            run.setdefault(f[0], OrderedDict())[f[2]] = float(f[4])
    return run


def read_qrels(path):
    qrels = OrderedDict()
    for line in open(path, encoding='utf-8'):
        f = line.split()
        if len(f) == 4 and not line.startswith('#'):
            qrels.setdefault(f[0], OrderedDict())[f[2]] = int(f[3])
    return qrels


def canonical(v):
    mantissa, exponent = ('%.11e' % v).split('e')
    return f'{mantissa}e{int(exponent)}'


def digest(values):
    lines = ''.join(f'{q}\t{canonical(values[q])}\n' for q in sorted(values, key=lambda q: q.encode('utf-8')))
    return hashlib.sha256(lines.encode('utf-8')).hexdigest()


def ties_broken(run):
    """The run with its ties broken as trec_eval breaks them (score descending, then docno descending in byte order):
    each document's score replaced by its rank from the bottom, so no two are equal."""
    out = OrderedDict()
    for q, docs in run.items():
        by_docno = sorted(docs.items(), key=lambda x: x[0].encode('utf-8'), reverse=True)
        order = sorted(by_docno, key=lambda x: -x[1])  # stable: docno descending within a score
        out[q] = OrderedDict((d, float(len(order) - i)) for i, (d, _) in enumerate(order))
    return out


def ranx_scores(qrels, run, metrics):
    r = Run(run)
    evaluate(Qrels(qrels), r, metrics, return_mean=False, make_comparable=True)
    return {m: {q: float(v) for q, v in r.scores[m].items()} for m in metrics}


def peers(qrels_path, run_path):
    qrels, run = read_qrels(qrels_path), read_run(run_path)
    trec = pytrec_eval.RelevanceEvaluator(qrels, {m[0] for m in MEASURES.values()}).evaluate(run)
    scored = sorted(trec, key=lambda q: q.encode('utf-8'))  # judged and in the run: the queries pytrec_eval scores
    absent = sorted((q for q in qrels if q not in run), key=lambda q: q.encode('utf-8'))  # judged, not in the run
    irm = {}
    for r in ir_measures.iter_calc([m[2] for m in MEASURES.values()], ir_measures.read_trec_qrels(qrels_path),
                                   ir_measures.read_trec_run(run_path)):
        irm.setdefault(str(r.measure), {})[r.query_id] = r.value
    ranx_metrics = [m[3] for m in MEASURES.values()]
    ranx, untied = ranx_scores(qrels, run, ranx_metrics), ranx_scores(qrels, ties_broken(run), ranx_metrics)
    measures = OrderedDict()
    differing = set()
    for ours, (_, key, irm_measure, ranx_metric) in MEASURES.items():
        tools = OrderedDict([
            ('pytrec_eval', {q: v[key] for q, v in trec.items()}),
            ('ir_measures', irm.get(str(irm_measure), {})),
            ('ranx', ranx[ranx_metric]),
            ('ranx_ties_broken', untied[ranx_metric]),
        ])
        reference = tools['pytrec_eval']
        measures[ours] = OrderedDict()
        for tool, values in tools.items():
            differs = [q for q in scored if abs(values[q] - reference[q]) > 1e-12]
            if tool == 'ranx':
                differing.update(differs)
            measures[ours][tool] = OrderedDict([
                ('scored', len(values)),
                ('sha256', digest({q: values[q] for q in scored})),
                ('differs_from_pytrec_eval', len(differs)),
                ('absent_values', sorted(set(values[q] for q in absent if q in values))),
            ])
    return OrderedDict([
        ('scored_by_pytrec_eval', len(scored)),
        ('absent_from_run', absent),
        ('ranx_differs_on', sorted(differing, key=lambda q: q.encode('utf-8'))),
        ('measures', measures),
    ])


with tempfile.TemporaryDirectory() as pair:
    subprocess.run(['node', os.path.join(HERE, 'run-pair.js'), pair], check=True)
    sets = OrderedDict([
        ('trec', peers(os.path.join(TREC, 'qrels.txt'), os.path.join(TREC, 'run.txt'))),
        ('norel', peers(os.path.join(TREC, 'qrels-norel.txt'), os.path.join(TREC, 'run-norel.txt'))),
        ('pair-baseline', peers(os.path.join(pair, 'qrels.txt'), os.path.join(pair, 'baseline.txt'))),
        ('pair-candidate', peers(os.path.join(pair, 'qrels.txt'), os.path.join(pair, 'candidate.txt'))),
    ])
document = OrderedDict([
    ('written_by', 'node_modules/.cache/rg-tools-venv/bin/python scripts/peer-references.py'),
    ('versions', OrderedDict((p, version(p)) for p in ['pytrec-eval-terrier', 'ir-measures', 'ranx', 'numba'])),
    ('python', sys.version.split()[0]),
    ('sets', sets),
])
with open(OUT, 'w') as f:
    json.dump(document, f, indent=1)
    f.write('\n')
for name, s in sets.items():
    for measure, tools in s['measures'].items():
        print(name, measure, {t: (v['scored'], v['differs_from_pytrec_eval']) for t, v in tools.items()})
