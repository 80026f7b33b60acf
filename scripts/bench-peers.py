"""One peer's whole run for scripts/bench-metrics.js: read the TREC qrels and run with the tool's own readers, compute
AP, RR, P@10, R@10, R@100 and nDCG@10 per query, and print the means as trec_eval prints its `all` lines, with our
measure names.   python scripts/bench-peers.py pytrec_eval|ranx QRELS RUN
"""
import sys

tool, qrels_path, run_path = sys.argv[1:4]
NAMES = {'map': 'AP', 'recip_rank': 'RR', 'P_10': 'P@10', 'recall_10': 'R@10', 'recall_100': 'R@100',
         'ndcg_cut_10': 'nDCG@10'}
if tool == 'pytrec_eval':
    import pytrec_eval
    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
    results = pytrec_eval.RelevanceEvaluator(qrels, {'map', 'recip_rank', 'P.10', 'recall.10,100', 'ndcg_cut.10'}).evaluate(run)
    for key, name in NAMES.items():
        values = [v[key] for v in results.values()]
        print(f'{name}\tall\t{sum(values) / len(values):.4f}')
elif tool == 'ranx':
    from ranx import Qrels, Run, evaluate
    metrics = {'map': 'AP', 'mrr': 'RR', 'precision@10': 'P@10', 'recall@10': 'R@10', 'recall@100': 'R@100',
               'ndcg@10': 'nDCG@10'}
    means = evaluate(Qrels.from_file(qrels_path, kind='trec'), Run.from_file(run_path, kind='trec'), list(metrics),
                     make_comparable=True)
    for key, name in metrics.items():
        print(f'{name}\tall\t{means[key]:.4f}')
else:
    sys.exit(f'unknown tool {tool}')
