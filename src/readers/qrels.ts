import type { Qrels } from '../model/qrels.js'
import { detectFormat } from './detect.js'

/**
 * Reads a judgments file in whatever format it is (TREC qrels, ranx / pytrec_eval JSON, BEIR TSV:
 * src/readers/formats.ts), detected once (src/readers/detect.ts). Read once and shared by the baseline and the
 * candidate run; every format has the TREC reader's semantics (src/readers/trec-qrels.ts).
 */
export async function readQrels(file: string): Promise<Qrels> {
  const { entry, probe } = await detectFormat({ kind: 'qrels', file })
  return entry.read(probe)
}
