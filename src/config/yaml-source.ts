import { LineCounter, isMap, isPair, isScalar, parseDocument, visit, type Document } from 'yaml'
import { InputError } from '../errors.js'

/** A parsed YAML/JSON document that can still say on which line each key stands. */
export interface SourceDocument {
  data: unknown
  /** 1-based line of the value at a key path (or of the key itself for `keyLine`), when it exists. */
  lineOf(path: ReadonlyArray<string | number>): number | undefined
  keyLine(path: ReadonlyArray<string | number>, key: string): number | undefined
}

/**
 * Two map keys are the same when they become the same JavaScript property: yaml's own `uniqueKeys: true`
 * compares parsed values, so `"1"` and `1` (or `"true"` and `true`) passed as two keys, and the second
 * silently won in the object the rules are read from. Mirrors yaml's stringifyKey (null becomes '').
 */
function sameJsKey(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (!isScalar(a) || !isScalar(b)) return false
  // A scalar's value is a primitive (string, number, boolean, bigint or null), never an object.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  const js = (v: unknown): string => (v === null ? '' : String(v))
  return js(a.value) === js(b.value)
}

/**
 * Parses a YAML (or JSON, which is YAML) configuration file strictly: at any depth, in block and flow
 * (JSON) mappings alike, duplicate keys are refused (the second
 * would silently win), and aliases are refused outright (an alias bomb expands to gigabytes; rules never need
 * them). Errors carry the file and line.
 */
export function parseSource(text: string, file: string, what: string): SourceDocument {
  if (text.trim() === '')
    throw new InputError(
      { file },
      `the ${what} file is empty`,
      'retrieval-gate init --baseline B --candidate C writes a starter rules file from your two files'
    )
  const lineCounter = new LineCounter()
  let doc: Document
  try {
    doc = parseDocument(text, { lineCounter, uniqueKeys: sameJsKey, prettyErrors: false, strict: true, merge: false })
  } catch (error) {
    throw new InputError({ file }, `cannot be parsed: ${(error as Error).message}`)
  }
  const lineAt = (offset: number): number => lineCounter.linePos(offset).line
  const first = doc.errors[0]
  if (first) {
    // The parser's error code, not its wording, says a key is repeated (the only error whose message says "unique").
    const repeated = first.code === 'DUPLICATE_KEY'
    const message = repeated
      ? 'a key is repeated in the same mapping (the second would silently win)'
      : first.message.split('\n')[0]
    throw new InputError(
      { file, line: lineAt(first.pos[0]) },
      `is not valid YAML/JSON: ${message}`,
      repeated ? 'remove or rename the repeated key' : undefined
    )
  }
  visit(doc, {
    Alias(_key, node) {
      throw new InputError(
        { file, line: node.range ? lineAt(node.range[0]) : undefined },
        'uses a YAML alias (*name)',
        'aliases are not allowed in rules files: write the value out'
      )
    },
    Node(_key, node) {
      // Explicit tags (!!binary, !!set, !!timestamp, custom !tags) turn text into other kinds of values;
      // rules are plain names, numbers and strings, so a tag is refused rather than interpreted.
      const tag = (node as { tag?: string }).tag
      if (tag !== undefined && tag !== null) {
        const range = (node as { range?: [number, number, number] }).range
        throw new InputError(
          { file, line: range ? lineAt(range[0]) : undefined },
          `uses a YAML tag (${tag})`,
          'write the value plainly, without a !tag'
        )
      }
    },
    Pair(_key, pair) {
      // A list or mapping used as a key ("? [a, b]: 1", "{a: 1}: 2") has no meaning in rules; yaml would
      // stringify it and print a process warning.
      if (pair.key !== null && !isScalar(pair.key)) {
        const range = (pair.key as { range?: [number, number, number] }).range
        throw new InputError(
          { file, line: range ? lineAt(range[0]) : undefined },
          'uses a list or mapping as a key',
          'keys are plain names such as checks or margin'
        )
      }
    }
  })
  const data: unknown = doc.toJS({ maxAliasCount: 0 })
  return {
    data,
    lineOf(path) {
      const node = doc.getIn(path as Array<string | number>, true) as { range?: [number, number, number] } | undefined
      if (node && typeof node === 'object' && node.range) return lineAt(node.range[0])
      return undefined
    },
    keyLine(path, key) {
      const parent = path.length === 0 ? doc.contents : doc.getIn(path as Array<string | number>, true)
      if (!isMap(parent)) return undefined
      for (const item of parent.items) {
        if (isPair(item) && isScalar(item.key) && String(item.key.value) === key && item.key.range)
          return lineAt(item.key.range[0])
      }
      return undefined
    }
  }
}
