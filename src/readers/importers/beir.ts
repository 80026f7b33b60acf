/**
 * BEIR judgments: `qrels/test.tsv`, tab-separated with a header line, as BEIR's data files and
 * `GenericDataLoader` have them:
 *
 *     query-id	corpus-id	score
 *     1	31715818	1
 *
 * The header is recognised by its three columns with a third that is not a number (BEIR writes
 * `query-id corpus-id score`; any names are accepted, the columns are taken by position). Data lines are
 * split on tabs (document ids may contain spaces). Scores are whole-number grades, as in TREC qrels (both layouts:
 * src/readers/trec-qrels.ts).
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
