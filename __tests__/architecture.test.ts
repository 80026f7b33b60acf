/**
 * The rooms of src/ in pipeline order (docs/architecture.md): every import points down the list (same room or
 * an earlier one) and no import circle exists, so src/ reads top-down. Before the move to rooms (issue 15) this
 * found 28 upward imports and 3 circles.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const src = path.join(root, 'src')

/** Rooms in pipeline order; names on one line share a rank. Keep in step with docs/architecture.md. */
const ROOMS: readonly string[][] = [
  ['util', 'errors', 'version'],
  ['model'],
  ['config'],
  ['readers'],
  ['metrics'],
  ['align'],
  ['trust'],
  ['stats'],
  ['decide'],
  ['report'],
  ['capabilities'],
  ['load', 'gate'],
  ['output', 'commands', 'github', 'main', 'cli', 'index']
]

/** Upward imports that are known and have a reason (`from -> to`, paths relative to src/). */
const KNOWN_UPWARD = new Set<string>([])

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sourceFiles(p))
    else if (p.endsWith('.ts')) out.push(p)
  }
  return out
}

function roomOf(file: string): string {
  const rel = path.relative(src, file).split(path.sep).join('/').replace(/\.ts$/, '')
  return rel.split('/')[0]
}

function rankOf(file: string): number {
  const rank = ROOMS.findIndex((names) => names.includes(roomOf(file)))
  if (rank < 0)
    throw new Error(`${path.relative(src, file)} is in no room: add its folder to ROOMS and docs/architecture.md`)
  return rank
}

/** Relative imports and re-exports of every file (type-only ones too: a type is a dependency for a reader). */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles(src)
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const targets = new Set<string>()
    for (const m of readFileSync(file, 'utf8').matchAll(
      /^\s*(?:import|export)\b[^'"\n]*(?:\n[^'"\n]*)*?from\s+'(\.[^']+)'/gm
    )) {
      targets.add(path.resolve(path.dirname(file), m[1].replace(/\.js$/, '.ts')))
    }
    graph.set(
      file,
      [...targets].filter((t) => known.has(t))
    )
  }
  return graph
}

/** Strongly connected components with more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop() as string
        onStack.delete(w)
        component.push(path.relative(src, w))
      } while (w !== v)
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

describe('src/ in pipeline order (docs/architecture.md)', () => {
  const graph = importGraph()

  it('finds the imports it checks', () => {
    expect(graph.size).toBeGreaterThan(100)
    const edges = [...graph.values()].reduce((n, t) => n + t.length, 0)
    expect(edges).toBeGreaterThan(300)
  })

  it('every import points down the rooms (or is a listed exception)', () => {
    const upward: string[] = []
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const edge = `${path.relative(src, file)} -> ${path.relative(src, target)}`
        if (rankOf(target) > rankOf(file) && !KNOWN_UPWARD.has(edge)) upward.push(edge)
      }
    }
    expect(upward).toEqual([])
  })

  it('no import circle', () => {
    expect(circles(graph)).toEqual([])
  })

  it('the pipeline builds no display text: nothing in gate, load, decide, stats or trust imports report/', () => {
    const core = (f: string): boolean => ['gate', 'load', 'decide', 'stats', 'trust'].includes(roomOf(f))
    const leaks: string[] = []
    for (const [file, targets] of graph) {
      if (!core(file)) continue
      for (const t of targets)
        if (roomOf(t) === 'report') leaks.push(`${path.relative(src, file)} -> ${path.relative(src, t)}`)
    }
    expect(leaks).toEqual([])
  })

  it('importers never import the entry readers that call them', () => {
    const entries = ['readers/read.ts'].map((f) => path.join(src, f))
    const back: string[] = []
    for (const [file, targets] of graph) {
      if (!path.relative(src, file).startsWith('readers/importers/')) continue
      for (const t of targets)
        if (entries.includes(t)) back.push(`${path.relative(src, file)} -> ${path.relative(src, t)}`)
    }
    expect(back).toEqual([])
  })
})

describe('docs/architecture.md describes this house', () => {
  const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8')
  /** The first column of cells (backticked names) of the table after `marker`, one row per table line. */
  const tableAfter = (marker: string, column: number): string[][] => {
    const start = doc.indexOf(marker)
    expect(start).toBeGreaterThan(-1)
    const lines = doc.slice(start).split('\n').slice(1)
    const rows: string[][] = []
    for (const line of lines.slice(2)) {
      if (!line.startsWith('|')) break
      const cell = line.split('|')[column + 1]
      rows.push([...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]))
    }
    return rows
  }

  it('lists the rooms in their ranks', () => {
    expect(tableAfter('<!-- rooms', 1)).toEqual(ROOMS.map((r) => [...r]))
  })

  it('lists every capability of the registry, in registry order', async () => {
    const { CAPABILITIES } = await import('../src/capabilities/registry.js')
    expect(tableAfter('<!-- capabilities', 0).map((r) => r[0])).toEqual(CAPABILITIES.map((c) => c.name))
  })
})
