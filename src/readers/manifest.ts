import { InputError } from '../errors.js'
import { isObject, readStrictJson } from './json/document.js'
import { quote } from '../util/show.js'

/**
 * A snapshot manifest: what a run was made from (corpus, chunker, embedding, judge, metric code). Two runs
 * are only comparable when the parts the rules name are the same; the manifest is free-form JSON so teams
 * can add fields, and fields are addressed by dotted paths (`corpus.content_hash`, `chunker.params.size`).
 * The documented shape (docs/trust.md):
 *
 * ```json
 * { "corpus": { "documents": 1200, "chunks": 5400, "content_hash": "sha256:..." },
 *   "chunker": { "name": "recursive", "params": { "size": 512, "overlap": 64 } },
 *   "embedding": { "model": "e5-base-v2", "dimension": 768, "distance": "cosine" },
 *   "judge": { "model": "gpt-4o-2024-08-06", "prompt_hash": "sha256:..." },
 *   "metric_code_version": "retrieval-gate 0.1.0" }
 * ```
 */
export interface Manifest {
  /** The file as the user named it. */
  source: string
  /** Every leaf (scalar or array) by dotted path, as canonical JSON text, sorted by path. */
  leaves: Map<string, string>
}

/** Known top-level keys and the JSON type each must have (others are allowed and compared as written). */
const KNOWN: Record<string, 'object' | 'string'> = {
  corpus: 'object',
  chunker: 'object',
  embedding: 'object',
  judge: 'object',
  metric_code_version: 'string'
}

/**
 * Parses a manifest's text. Refuses non-JSON, a key repeated in any object (with its line), a non-object, a known key of the wrong type and keys with a
 * dot (they would make dotted paths ambiguous), naming the file and the key.
 */
export function parseManifest(text: string, source: string): Manifest {
  // strict: a repeated key (a second `content_hash`) would otherwise silently win and satisfy must_match
  const data = readStrictJson(text.replace(/^\ufeff/, ''), source, 'a manifest is one JSON object (see docs/trust.md)')
  if (!isObject(data)) {
    throw new InputError(
      { file: source },
      'is not a JSON object',
      'a manifest is one JSON object with corpus, chunker, embedding, judge and metric_code_version'
    )
  }
  for (const [key, type] of Object.entries(KNOWN)) {
    if (!Object.prototype.hasOwnProperty.call(data, key)) continue
    const v = data[key]
    const actual = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v
    if (actual !== type)
      throw new InputError(
        { file: source, key },
        `"${key}" must be ${type === 'object' ? 'an object' : 'a string'}, not ${actual}`,
        'see the manifest shape in docs/trust.md'
      )
  }
  const leaves = new Map<string, string>()
  flatten(data, '', leaves, source)
  return { source, leaves: new Map([...leaves].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) }
}

function flatten(value: Record<string, unknown>, prefix: string, out: Map<string, string>, source: string): void {
  for (const key of Object.keys(value)) {
    if (key.includes('.') || key === '') {
      throw new InputError(
        { file: source, key: prefix + key },
        `key ${quote(key)} is empty or contains a dot, so it cannot be named by a dotted path`,
        'rename it (e.g. chunk_size)'
      )
    }
    const v = value[key]
    const path = prefix + key
    if (isObject(v)) {
      if (Object.keys(v).length === 0) out.set(path, '{}')
      else flatten(v, `${path}.`, out, source)
    } else out.set(path, canonicalJson(v))
  }
}

/** JSON text with object keys sorted, so equal values compare equal whatever the key order. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(v) ?? 'null'
}

/** True when `path` is `rule` or lies under it (`chunker.params.size` under `chunker`). */
export function underPath(path: string, rule: string): boolean {
  return path === rule || path.startsWith(`${rule}.`)
}
