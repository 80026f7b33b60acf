import { InputError } from '../errors.js'
import { forEachLine } from './lines.js'
import { quote } from '../util/show.js'
import type { Qrels } from '../model/qrels.js'
import { isBeirHeader } from './importers/beir.js'
import { QrelsBuilder } from './importers/qrels-builder.js'

/**
 * Judgments as text lines, read once and shared by the baseline and the candidate run: TREC qrels
 * (`qid iter docno grade`, whitespace separated; blank lines and lines starting with `#` skipped, as trec_eval
 * does) and BEIR's TSV (src/readers/importers/beir.ts: a header line, then `query-id corpus-id score` split on
 * tabs, document ids may contain spaces). Grades are kept as written; as in trec_eval, a negative grade marks a
 * document that is in the pool but unjudged: it is neither relevant nor non-relevant (bpref skips it, nDCG gives
 * it no gain) and it never counts as a relevant document of the query. A malformed line, a non-integer grade and
 * a document judged twice for the same query are refused with the file and line. ranx / pytrec_eval JSON
 * judgments are read by src/readers/importers/ranx.ts with the same semantics (src/readers/formats.ts tells
 * them apart).
 */

const WS = /[ \t\v\f\r]+/

/** What the two layouts differ in: how a line splits (undefined: skipped), which fields matter, and their words. */
const LAYOUTS = {
  trec: {
    split: (text: string) => (text.trim().startsWith('#') ? undefined : text.trim().split(WS)),
    fields: 4,
    pick: (f: string[]) => [f[0], f[2], f[3]],
    count: 'a qrels line needs 4 fields "query_id iteration doc_id grade"',
    countHint: 'fix or remove the line (qrels are whitespace-separated TREC judgments)',
    grade: 'grade',
    gradeHint: 'grades are integers such as 0, 1, 2 or 3 (negative = in the pool but unjudged)',
    empty: 'a qrels file has lines "query_id iteration doc_id grade"'
  },
  beir: {
    split: (text: string) => text.split('\t'),
    fields: 3,
    pick: (f: string[]) => f.map((x) => x.trim()),
    count: 'a BEIR qrels line needs 3 tab-separated fields "query-id corpus-id score"',
    countHint: 'fix or remove the line',
    grade: 'score',
    gradeHint: 'grades are integers such as 0, 1, 2 (negative = in the pool but unjudged)',
    empty: 'a BEIR qrels file has a header and then lines "query-id<TAB>corpus-id<TAB>score"'
  }
}

/** Reads TREC qrels or BEIR TSV judgments (see the module comment). */
export async function readTextQrels(file: string, layout: keyof typeof LAYOUTS): Promise<Qrels> {
  const words = LAYOUTS[layout]
  const builder = new QrelsBuilder(file)
  let header = layout === 'beir'
  await forEachLine(file, (text, line) => {
    if (text.trim() === '') return
    if (header) {
      header = false
      if (!isBeirHeader(text)) {
        throw new InputError(
          { file, line },
          'the first line is not a BEIR header "query-id<TAB>corpus-id<TAB>score"',
          "start the file with the header line, as BEIR's qrels/*.tsv do"
        )
      }
      return
    }
    const fields = words.split(text)
    if (fields === undefined) return
    if (fields.length !== words.fields)
      throw new InputError({ file, line }, `${words.count}, found ${fields.length}`, words.countHint)
    const [id, doc, gradeText] = words.pick(fields)
    if (id === '' || doc === '')
      throw new InputError({ file, line }, 'an empty query id or corpus id', 'every line names a query and a document')
    if (!/^[+-]?[0-9]+$/.test(gradeText) || !Number.isSafeInteger(Number(gradeText))) {
      throw new InputError(
        { file, line, queryId: id },
        `${words.grade} ${quote(gradeText)} is not a whole number`,
        words.gradeHint
      )
    }
    builder.add(id, doc, Number(gradeText), line)
  })
  return builder.finish(words.empty)
}
