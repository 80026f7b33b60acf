"""Writes __tests__/fixtures/importers/ with the tools' own code (run by scripts/tool-fixtures.sh, in its venv).

Every file is written by the call a user of the tool makes, at the versions pinned in
scripts/tool-fixtures.requirements.txt (recorded with every installed package in VERSIONS.txt beside the files):

  ranx         Run.save(".json" / ".lz4" / ".parquet"), Qrels.save(".json" / ".parquet"), ranx.io.save_lz4 for
               judgments in ranxhub's layout, compare(...).save() (a Report), evaluate(..., return_mean=False) then
               run.scores (metric-major) and its transpose (per-query)
  pytrec_eval  RelevanceEvaluator(qrels, measures).evaluate(run), dumped with json.dump as its README does; the run
               and qrels dicts it takes, dumped with json.dump
  ir_measures  its command line `ir_measures QRELS RUN 'AP nDCG@10 P@5 R@100 RR' -q` (stdout), and iter_calc(...)
               into a pandas DataFrame written with to_csv (the long, tidy layout)
  ragas        EvaluationResult(scores, EvaluationDataset(SingleTurnSample...)).to_pandas(), written with to_csv,
               to_json and to_parquet (see RAGAS below for why the scores are given, not computed); and evaluate()
               itself with the metrics that need no model (ExactMatch, StringPresence)
  deepeval     TestRun(...LLMApiTestCase, MetricData...).save(f) as evaluate() saves it in DEEPEVAL_RESULTS_FOLDER,
               TestRunManager.save_test_run(path, save_under_key="testRunData") as `deepeval test run` keeps the last
               run, and EvaluationResult(...).model_dump() dumped by a user (see DEEPEVAL below)
  BEIR         beir/util.py write_to_tsv from the installed package, executed alone (its module imports torch)

The inputs are the TREC conformance fixtures (../trec/run.txt, qrels.txt), so every format gives numbers the tests can
hold to trec_eval's. Deterministic: the same versions write the same bytes (checked by running it twice).
"""
import ast
import csv
import importlib.metadata as metadata
import io
import json
import os
import subprocess
import sys
from collections import OrderedDict
from contextlib import redirect_stdout

import cbor2
import lz4.frame
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', '__tests__', 'fixtures', 'importers')
TREC = os.path.join(HERE, '..', '__tests__', 'fixtures', 'trec')
TOOLS = ['ranx', 'ir-measures', 'pytrec-eval-terrier', 'ragas', 'langchain-community', 'deepeval', 'beir', 'pandas', 'pyarrow',
         'numpy',
         'orjson', 'lz4', 'cbor2', 'pydantic', 'numba']


def path(name):
    full = os.path.join(OUT, name)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    return full


def write(name, text):
    with open(path(name), 'w', newline='') as f:
        f.write(text)


def read_run():
    run = OrderedDict()
    with open(os.path.join(TREC, 'run.txt')) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 5:
                run.setdefault(fields[0], OrderedDict())[fields[2]] = float(fields[4])
    return run


def read_qrels():
    qrels = OrderedDict()
    with open(os.path.join(TREC, 'qrels.txt')) as f:
        for line in f:
            fields = line.split()
            if len(fields) == 4:
                qrels.setdefault(fields[0], OrderedDict())[fields[2]] = int(fields[3])
    return qrels


RUN, QRELS = read_run(), read_qrels()

# ---------------------------------------------------------------------------------------------------------------
# ranx
from ranx import Qrels, Run, compare, evaluate  # noqa: E402
from ranx.io import save_lz4  # noqa: E402

run = Run(RUN, name='fixture')
qrels = Qrels(QRELS)
run.save(path('ranx/run.json'))
run.save(path('ranx/run.lz4'))
run.save(path('ranx/run.parquet'))
qrels.save(path('ranx/qrels.json'))
qrels.save(path('ranx/qrels.parquet'))  # judgments in Parquet: refused where judgments are read, with the fix
save_lz4(qrels.to_dict(), path('ranx/qrels.lz4'))  # Qrels.save has no lz4 kind; ranxhub serves qrels in this layout

# A Report (refused as rows: it holds means, not per-query values) of the run against a second one.
other = Run(OrderedDict((q, OrderedDict((d, s + (0.5 if i % 3 == 0 else 0.0)) for i, (d, s) in enumerate(docs.items())))
                        for q, docs in RUN.items()), name='other')
with redirect_stdout(io.StringIO()):  # compare() prints progress
    report = compare(qrels, runs=[run, other], metrics=['ndcg@10', 'map'], max_p=0.05, random_seed=42, make_comparable=True)
report.save(path('ranx/report.json'))

# evaluate(..., return_mean=False) leaves the per-query scores in run.scores, metric-major ({metric: {qid: value}}):
# refused as rows (a wrong guess would pair metrics as queries); its transpose is the per-query layout.
scored = Run(RUN, name='fixture')
evaluate(qrels, scored, ['ndcg@10', 'map', 'mrr'], return_mean=False, make_comparable=True)
scores = {m: dict(v) for m, v in scored.scores.items()}
with open(path('ranx/scores.json'), 'w') as f:
    json.dump(scores, f)
pd.DataFrame(scores).to_json(path('ranx/per-query.json'), orient='index')

# A larger .lz4 run for the decoder's harder paths, as ranx's own save_lz4 nests it (lz4.frame.open around
# lz4.frame.compress of cbor2.dumps), but with 64 KiB LINKED blocks and block and content checksums (lz4.frame allows
# them; ranx leaves them off): about 600 KB of CBOR over ten blocks. Scores are exact binary fractions from a formula the
# test repeats: query q{i:03d}, document d{j:03d}, ((i * 7919 + j * 104729) % 1000) / 8.
big = OrderedDict((f'q{i:03d}', OrderedDict((f'd{j:03d}', ((i * 7919 + j * 104729) % 1000) / 8) for j in range(100)))
                  for i in range(300))
frame = dict(block_size=lz4.frame.BLOCKSIZE_MAX64KB, block_linked=True, block_checksum=True, content_checksum=True)
inner = lz4.frame.compress(cbor2.dumps(big), compression_level=16, **frame)
with lz4.frame.open(path('ranx/run-linked-checksums.lz4'), mode='wb', **frame) as f:
    f.write(inner)

# ---------------------------------------------------------------------------------------------------------------
# pytrec_eval (its README: evaluator = pytrec_eval.RelevanceEvaluator(qrel, {'map', 'ndcg'});
# json.dumps(evaluator.evaluate(run), indent=1)). The measures of ../trec/expected.txt.
import pytrec_eval  # noqa: E402

MEASURES = {'map', 'P.5,10', 'recall.10,100', 'ndcg', 'ndcg_cut.10', 'recip_rank', 'Rprec', 'success.1,5,10', 'bpref',
            'num_ret', 'num_rel'}
evaluator = pytrec_eval.RelevanceEvaluator(QRELS, MEASURES)
write('pytrec_eval/results.json', json.dumps(evaluator.evaluate(RUN), indent=2))
write('pytrec_eval/run.json', json.dumps(RUN))
write('pytrec_eval/qrels.json', json.dumps(QRELS, indent=4))

# ---------------------------------------------------------------------------------------------------------------
# ir_measures: the command line, run for real; its stdout as a user redirects it. On Windows, Python's text stdout
# writes "\r\n" for each "\n" when redirected: run-windows.tsv is that translation of the same bytes.
import ir_measures  # noqa: E402

cli = subprocess.run([sys.executable, '-m', 'ir_measures', os.path.join(TREC, 'qrels.txt'), os.path.join(TREC, 'run.txt'),
                      'AP nDCG@10 P@5 R@100 RR', '-q'], capture_output=True, check=True)
write('ir_measures/run.tsv', cli.stdout.decode('utf-8'))
write('ir_measures/run-windows.tsv', cli.stdout.decode('utf-8').replace('\n', '\r\n'))
long = pd.DataFrame(ir_measures.iter_calc([ir_measures.AP, ir_measures.nDCG @ 10], ir_measures.read_trec_qrels(os.path.join(TREC, 'qrels.txt')),
                                          ir_measures.read_trec_run(os.path.join(TREC, 'run.txt'))))
long['measure'] = long['measure'].map(str)
long.sort_values(['query_id', 'measure'], kind='stable').to_csv(path('ir_measures/long.csv'), index=False)

# ---------------------------------------------------------------------------------------------------------------
# BEIR 2.2.0: qrels/*.tsv as beir/util.py write_to_tsv writes them (csv.writer's "\r\n" on every platform). The module
# imports torch at the top, so the function is executed alone from the installed package's source.
beir_util = os.path.join(os.path.dirname(metadata.distribution('beir').locate_file('beir/__init__.py')), 'util.py')
tree = ast.parse(open(beir_util).read())
found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == 'write_to_tsv']
namespace = {'csv': csv}
exec(compile(ast.Module(body=found, type_ignores=[]), beir_util, 'exec'), namespace)
os.makedirs(path('beir/qrels').rsplit('/', 1)[0], exist_ok=True)
namespace['write_to_tsv'](path('beir/qrels/test.tsv'), QRELS)

# ---------------------------------------------------------------------------------------------------------------
# RAGAS. evaluate() scores with an LLM (faithfulness, answer_relevancy, context_precision: a judge model, which this
# machine cannot reach), so the scores are given and the result is built with ragas' own classes, as evaluate()
# builds it: EvaluationResult(scores=[{metric: score} per sample], dataset=EvaluationDataset([SingleTurnSample])),
# then to_pandas() (the dataset's columns, then the scores'), written by pandas as a user writes it.
from ragas.callbacks import ChainRun  # noqa: E402
from ragas.dataset_schema import EvaluationDataset, EvaluationResult, SingleTurnSample  # noqa: E402

QUESTIONS = [
    ('How do I reset my password?', 'account'),
    ('Where can I download my invoice?', 'billing'),
    ('Can I change the billing currency?', 'billing'),
    ('How do I add a team member?', 'account'),
    ('What is the refund policy?', 'billing'),
    ('Why was my card declined?', 'billing'),
    ('How do I enable two-factor authentication?', 'account'),
    ('Can I export my data as CSV?', 'account'),
]


def ragas_result(shift, nan_at):
    samples, scores = [], []
    for i, (q, topic) in enumerate(QUESTIONS):
        base = 0.55 + 0.05 * (i % 5)
        samples.append(SingleTurnSample(user_input=q, retrieved_contexts=[f'Help article {i}: {q.lower()}', f'FAQ/{topic}/{i}'],
                                        response=f'Answer to "{q}"', reference=f'Reference answer {i}'))
        scores.append({
            'context_precision': round(min(1.0, base + shift), 10),
            'context_recall': round(min(1.0, base + 0.1 + shift / 2), 10),
            'faithfulness': float('nan') if i == nan_at else round(min(1.0, 0.7 + 0.03 * i + shift), 10),
            'answer_relevancy': round(0.8 + 0.02 * (i % 3) + shift / 3, 10),
        })
    # The one trace evaluate() always records (its root chain); EvaluationResult parses the traces on construction.
    root = ChainRun(run_id='root', parent_run_id=None, name='ragas evaluation', inputs={}, metadata={}, children=[])
    return EvaluationResult(scores=scores, dataset=EvaluationDataset(samples=samples), ragas_traces={'root': root})


baseline_df = ragas_result(0.0, None).to_pandas()
candidate_df = ragas_result(0.04, 5).to_pandas()
baseline_df.to_csv(path('ragas/baseline.csv'), index=False, lineterminator='\n')
baseline_df.to_csv(path('ragas/baseline-windows.csv'), index=False, lineterminator='\r\n')  # os.linesep on Windows
candidate_df.to_csv(path('ragas/candidate.csv'), index=False, lineterminator='\n')
candidate_df.to_parquet(path('ragas/candidate.parquet'), index=False)
with_ids = baseline_df.copy()
with_ids.insert(0, 'query_id', [f'faq-{i:02d}' for i in range(len(QUESTIONS))])
with_ids.to_csv(path('ragas/baseline-with-index.csv'), lineterminator='\n')  # pandas' default index=True
numbered = baseline_df.copy()
numbered.insert(0, 'id', list(range(101, 101 + len(QUESTIONS))))
numbered.to_json(path('ragas/baseline.json'), orient='records')
numbered_c = candidate_df.copy()
numbered_c.insert(0, 'id', list(range(101, 101 + len(QUESTIONS))))
numbered_c.to_json(path('ragas/candidate.jsonl'), orient='records', lines=True)
baseline_df.to_json(path('ragas/columns.json'))  # pandas' default orient="columns": must be refused

# ragas' own evaluate(), for real, with the metrics that need no model (ExactMatch, StringPresence: string
# comparisons): the layout evaluate() itself returns, written with to_csv as a user does.
from ragas import evaluate as ragas_evaluate  # noqa: E402
from ragas.metrics import ExactMatch, StringPresence  # noqa: E402

graded = EvaluationDataset(samples=[SingleTurnSample(user_input=q, response='Settings > Security' if i % 3 else f'Reference answer {i}',
                                                     reference=f'Reference answer {i}') for i, (q, _) in enumerate(QUESTIONS)])
evaluated = ragas_evaluate(graded, metrics=[ExactMatch(), StringPresence()], show_progress=False)
evaluated.to_pandas().to_csv(path('ragas/evaluate-string-metrics.csv'), index=False, lineterminator='\n')

# ---------------------------------------------------------------------------------------------------------------
# DEEPEVAL. evaluate() and `deepeval test run` score with an LLM judge too; the test run is built from deepeval's own
# models (TestRun, LLMApiTestCase, MetricData: what evaluate() fills in) and written by deepeval's own serializers:
# TestRun.save(f) (json.dump(model_dump(by_alias=True, exclude_none=True)), what the results folder receives) and
# TestRunManager.save_test_run(path, save_under_key="testRunData") (.deepeval/.latest_test_run.json).
from deepeval.evaluate.types import EvaluationResult as DeepevalResult, TestResult  # noqa: E402
from deepeval.test_run.api import LLMApiTestCase  # noqa: E402
from deepeval.test_run.test_run import TestRun, TestRunManager  # noqa: E402
from deepeval.tracing.api import MetricData  # noqa: E402


def metric(name, score, threshold, errored):
    if errored:
        return MetricData(name=name, threshold=threshold, success=False, error='Evaluation LLM outputted an invalid JSON.',
                          strictMode=False, evaluationModel='gpt-4.1', evaluationCost=0.00042)
    score = round(min(score, 1.0), 4)
    return MetricData(name=name, threshold=threshold, success=score >= threshold, score=score,
                      reason=f'The score is {score:.2f} because the retrieval context covers the question.',
                      strictMode=False, evaluationModel='gpt-4.1', evaluationCost=0.00042)


def test_case(i, q, topic, shift, named, errored):
    metrics = [metric('Contextual Precision', 0.6 + 0.05 * (i % 4) + shift, 0.7, False),
               metric('Faithfulness', 0.75 + 0.02 * i + shift, 0.7, errored)]
    return LLMApiTestCase(name=f'test_case_{i}', input=q, actualOutput=f'Answer to "{q}"', retrievalContext=[f'Help article {i}'],
                          success=all(m.success for m in metrics), metricsData=metrics, runDuration=round(1.5 + 0.1 * i + shift, 3),
                          evaluationCost=0.00084, order=i,
                          metadata=OrderedDict([('query_id', f'faq-{i:02d}'), ('topic', topic)]) if named else None)


def test_run(shift, named=True, errored_at=None):
    return TestRun(testFile='test_rag.py', testCases=[test_case(i, q, t, shift, named, i == errored_at) for i, (q, t) in enumerate(QUESTIONS)],
                   testPassed=6, testFailed=2, runDuration=14.2, evaluationCost=0.0067)


for name, run_ in [('baseline', test_run(0.0)), ('candidate', test_run(0.03, errored_at=3)), ('positional', test_run(0.0, named=False))]:
    with open(path(f'deepeval/{name}.json'), 'w') as f:
        run_.save(f)
manager = TestRunManager()
manager.test_run = test_run(0.0)
manager.save_to_disk = True
manager.save_test_run(path('deepeval/latest_test_run.json'), save_under_key='testRunData')
results = [TestResult(name=f'test_case_{i}', success=True, conversational=False, multimodal=False, input=q, actual_output=f'Answer to "{q}"',
                      retrieval_context=[f'Help article {i}'], metadata={'query_id': f'faq-{i:02d}', 'topic': topic},
                      metrics_data=[MetricData(name='Answer Relevancy', threshold=0.5, success=True, score=round(0.9 - 0.1 * i, 4), reason='Relevant.',
                                               strictMode=False, evaluationModel='gpt-4.1', evaluationCost=0.0002, verboseLogs='Statements: [...]')])
           for i, (q, topic) in enumerate(QUESTIONS[:3])]
write('deepeval/evaluation-result.json',
      json.dumps(DeepevalResult(test_results=results, confident_link=None, test_run_id=None).model_dump(), indent=2))

# ---------------------------------------------------------------------------------------------------------------
versions = [f'{name}=={metadata.version(name)}' for name in TOOLS]
write('VERSIONS.txt', '\n'.join([f'python=={sys.version.split()[0]}', *versions]) + '\n')
print('\n'.join(versions))
