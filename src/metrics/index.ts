/**
 * Ranking metrics from run files and judgments, computed as trec_eval 10.0 computes them. The gate calls
 * {@link computeRunRows} once per side, with judgments read once by {@link readQrels}; the `metrics` CLI
 * command prints the same numbers in trec_eval's or JSON Lines form.
 */
export { computeRunRows } from './evaluate.js'
export type { MetricCoverage, NoRelevantPolicy, RunRowsOptions, RunRowsResult } from './evaluate.js'
export { parseMeasure, parseMeasures } from '../config/measures.js'
export type { MeasureKind, ParsedMeasure } from '../config/measures.js'
export { detectRunFormat, readQrels } from '../readers/read.js'
export type { JudgedQuery, Qrels } from '../model/qrels.js'
export { aggregateRows, formatFixed4, formatValue } from './format.js'
export type { RankedView, RunObserver } from './evaluate.js'
