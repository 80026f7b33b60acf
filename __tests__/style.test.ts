/**
 * Style kept by a test: a function takes at most four positional parameters; beyond that, one options object
 * (or fewer parameters by grouping what belongs together: a `where`, a `{ metric, rules }` context). The
 * functions of src/ are read with the TypeScript compiler API, so a fifth parameter anywhere (a declaration, a
 * method, an arrow, a constructor, a signature) fails here unless it is listed below with its reason. Before
 * this test (issue 27) 59 functions took more than four, and the 6 added while it was pending; all were converted.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

const root = path.resolve(import.meta.dirname, '..')
const src = path.join(root, 'src')

/** Most positional parameters a function may take. */
const MAX_PARAMETERS = 4

/** Generated files: their shape is their generator's (a test diffs them against it). */
const GENERATED = new Set(['stats/kernels.ts']) // scripts/generate-kernels.js, npm run generate:kernels

/**
 * Functions allowed more than four parameters (`file name`, the file relative to src/), each with its reason.
 * A hot inner loop may stay positional only when a measurement shows an options object costs time: list it
 * with the figure (none does today: the per-query metrics and the selection of order statistics were measured
 * and converted). An entry whose function is gone (or is down to four) fails the test: delete it.
 */
const ALLOWED = new Map<string, string>([])

/** A function of a source file with more than {@link MAX_PARAMETERS} parameters. */
interface LongSignature {
  /** `name` as the allowlist keys it; `(anonymous)` when nothing names it. */
  name: string
  line: number
  parameters: number
}

/** The name a reader would search for: its own, else that of the variable, property or type it is assigned to. */
function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name !== undefined) return node.name.getText()
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const parent = node.parent
  const named = [ts.isVariableDeclaration, ts.isPropertyAssignment, ts.isPropertyDeclaration, ts.isTypeAliasDeclaration]
  if (named.some((is) => is(parent))) return (parent as ts.NamedDeclaration).name?.getText() ?? '(anonymous)'
  return '(anonymous)'
}

/** Every function-like node of `text` over the limit: declarations, methods, arrows, constructors, signatures. */
function longSignatures(file: string, text: string): LongSignature[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: LongSignature[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && node.parameters.length > MAX_PARAMETERS) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1
      found.push({ name: nameOf(node), line, parameters: node.parameters.length })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sourceFiles(p))
    else if (p.endsWith('.ts')) out.push(p)
  }
  return out.sort()
}

describe('options objects beyond four parameters', () => {
  const files = sourceFiles(src)
    .map((file) => path.relative(src, file).split(path.sep).join('/'))
    .filter((rel) => !GENERATED.has(rel))
  const long = files.flatMap((rel) => {
    const found = longSignatures(rel, readFileSync(path.join(src, rel), 'utf8'))
    return found.map((s) => ({ ...s, key: `${rel} ${s.name}`, rel }))
  })

  it('the scanner sees every kind of function with a fifth parameter, and none with four', () => {
    // Each sample line and the names the scanner must report for it.
    const five = '(a: number, b: number, c: number, d: number, e: number)'
    const samples: Array<[string, string[]]> = [
      [`export function declared${five}: void {}`, ['declared']],
      [`const arrow = ${five}: void => undefined`, ['arrow']],
      [`const expressed = function ${five}: void {}`, ['expressed']],
      [`class C { constructor${five} {} method${five}: void {} }`, ['constructor', 'method']],
      [`const object = { property: ${five}: void => undefined }`, ['property']],
      [`type Callback = ${five} => void`, ['Callback']],
      ['function four(a: number, b: number, c: number, d: number): void {}', []]
    ]
    const found = longSignatures('sample.ts', samples.map(([line]) => line).join('\n'))
    const wanted = samples.flatMap(([, names], i) => names.map((name) => `${i + 1} ${name} 5`))
    expect(found.map((s) => `${s.line} ${s.name} ${s.parameters}`)).toEqual(wanted)
  })

  it('reads the whole of src/', () => {
    expect(files.length).toBeGreaterThan(200)
  })

  it('no function outside the allowlist takes more than four parameters', () => {
    const offenders = long.filter((s) => !ALLOWED.has(s.key))
    const named = offenders.map(
      (s) => `src/${s.rel}:${s.line} ${s.name}: ${s.parameters} parameters (use an options object)`
    )
    expect(named).toEqual([])
  })

  it('every allowlist entry is still a function over the limit (delete the ones that are not)', () => {
    const present = new Set(long.map((s) => s.key))
    expect([...ALLOWED.keys()].filter((key) => !present.has(key))).toEqual([])
  })
})
