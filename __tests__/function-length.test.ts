/**
 * A fitness test of the house (issue 35): no function of src/ over 100 lines, outside generated code. A function is
 * every function-like node with a body (declarations, methods, arrows, function expressions, constructors), counted
 * from its first line to its last, nested functions included. The 21 functions over the limit when the test came
 * (2026-12-02) were split the same day; there are no exceptions.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

const src = path.resolve(import.meta.dirname, '..', 'src')

/** Most lines a function may span. */
const MAX_LINES = 100

/** Generated files: their shape is their generator's (a test diffs them against it). */
const GENERATED = new Set(['stats/kernels.ts'])

interface LongFunction {
  name: string
  line: number
  lines: number
}

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined) return node.name.getText()
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const parent = node.parent
  const named = [ts.isVariableDeclaration, ts.isPropertyAssignment, ts.isPropertyDeclaration]
  if (named.some((is) => is(parent))) return (parent as ts.NamedDeclaration).name?.getText() ?? '(anonymous)'
  return '(anonymous)'
}

/** Every function of `text` with a body longer than {@link MAX_LINES}. */
function longFunctions(file: string, text: string): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: LongFunction[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      if (last - first + 1 > MAX_LINES) found.push({ name: nameOf(node), line: first + 1, lines: last - first + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const p = path.join(dir, entry.name)
      return entry.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : []
    })
    .sort()
}

describe('no function over 100 lines', () => {
  const long = sourceFiles(src)
    .map((file) => path.relative(src, file).split(path.sep).join('/'))
    .filter((rel) => !GENERATED.has(rel))
    .flatMap((rel) => longFunctions(rel, readFileSync(path.join(src, rel), 'utf8')).map((f) => ({ ...f, rel })))

  it('the scanner measures declarations, arrows, methods and expressions, nested ones too', () => {
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join('\n')
    const text = [
      `function long() {\n${body(99)}\n}`, // 101 lines
      `function fits() {\n${body(98)}\n}`, // 100 lines
      `const arrow = () => {\n${body(100)}\n}`,
      `class C {\n  method() {\n${body(100)}\n  }\n}`,
      `function outer() {\n  const inner = function () {\n${body(100)}\n  }\n}`
    ].join('\n')
    expect(longFunctions('sample.ts', text).map((f) => `${f.name} ${f.lines}`)).toEqual([
      'long 101',
      'arrow 102',
      'method 102',
      'outer 104',
      'inner 102'
    ])
  })

  it('no function of src/ is over the limit', () => {
    const named = long.map((f) => `src/${f.rel}:${f.line} ${f.name}: ${f.lines} lines (split it by what its parts do)`)
    expect(named).toEqual([])
  })
})
