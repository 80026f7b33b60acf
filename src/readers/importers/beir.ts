import { InputError } from '../../errors.js'
import { forEachLine } from '../lines.js'
import type { Qrels } from '../../model/qrels.js'
import { QrelsBuilder } from './qrels-builder.js'
import { quote } from '../../util/show.js'

/**
 * BEIR judgments: `qrels/test.tsv`, tab-separated with a header line, as BEIR's data files and
 * `GenericDataLoader` have them:
 *
 *     query-id	corpus-id	score
 *     1	31715818	1
 *
 * The header is recognised by its three columns with a third that is not a number (BEIR writes
 * `query-id corpus-id score`; any names are accepted, the columns are taken by position). Data lines are
 * split on tabs (document ids may contain spaces). Scores are whole-number grades, as in TREC qrels.
 */

/**
 * True when `line` is a BEIR-style header: three tab-separated single-word names, the last not a number.
 * Names hold no blank, so a TREC qrels line with mixed tabs and spaces (`q1<TAB>0<TAB>d1 1`) is not taken
 * for a header.
 */
export function isBeirHeader(line: string): boolean {
  const f = line
    .replace(/\r$/, '')
    .split('\t')
    .map((x) => x.trim())
  return f.length === 3 && f.every((x) => x !== '' && !/\s/.test(x)) && !/^[+-]?\d+(?:\.\d*)?$/.test(f[2])
}

/** Reads BEIR-style TSV judgments. */
export async function readBeirQrels(file: string): Promise<Qrels> {
  const builder = new QrelsBuilder(file)
  let header = true
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
    const f = text.split('\t')
    if (f.length !== 3) {
      throw new InputError(
        { file, line },
        `a BEIR qrels line needs 3 tab-separated fields "query-id corpus-id score", found ${f.length}`,
        'fix or remove the line'
      )
    }
    const [id, doc, scoreText] = f.map((x) => x.trim())
    if (id === '' || doc === '')
      throw new InputError({ file, line }, 'an empty query id or corpus id', 'every line names a query and a document')
    if (!/^[+-]?[0-9]+$/.test(scoreText) || !Number.isSafeInteger(Number(scoreText))) {
      throw new InputError(
        { file, line, queryId: id },
        `score ${quote(scoreText)} is not a whole number`,
        'grades are integers such as 0, 1, 2 (negative = in the pool but unjudged)'
      )
    }
    builder.add(id, doc, Number(scoreText), line)
  })
  return builder.finish('a BEIR qrels file has a header and then lines "query-id<TAB>corpus-id<TAB>score"')
}
