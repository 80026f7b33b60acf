import { describe, expect, it } from '@jest/globals'
import { loadFiles } from '../helpers.js'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { InputError } from '../../src/errors.js'
import { readInputs } from '../../src/github/inputs.js'
import { readLocalRules } from '../../src/github/local-rules.js'
import { readRules, readRulesFile } from '../../src/load.js'

/**
 * Issue 15 item 4: a caller that branches on an error reads its structure (`code`, `problem`, `hint`), never
 * its message text. Each test below is one former message-matching site, with an input whose words would have
 * fooled the old match.
 */

const root = path.resolve(import.meta.dirname, '../..')
const ex = (f: string): string => path.join(root, 'examples/runs', f)

describe('a missing file is recognised by its code', () => {
  it('readRulesFile gives code not_found for a missing file, and no code for a directory', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rg-code-'))
    const missing = (await readRulesFile(path.join(dir, 'absent.yml')).catch((e: unknown) => e)) as InputError
    expect(missing).toBeInstanceOf(InputError)
    expect(missing.code).toBe('not_found')
    expect(missing.problem).toBe('file not found')
    const folder = (await readRulesFile(dir).catch((e: unknown) => e)) as InputError
    expect(folder.code).toBeUndefined()
  })

  it('a rules file missing from the workspace falls back to the path as given, by code whatever the words', async () => {
    const workspace = path.resolve(os.tmpdir(), 'rg-ws-absent')
    const reads: string[] = []
    // Worded differently from the real refusal: only the code says "missing".
    const read = async (f: string): Promise<string> => {
      reads.push(f)
      if (f === path.join(workspace, 'gate.yml'))
        throw new InputError({ file: f }, 'is not there', undefined, { code: 'not_found' })
      return 'version: 1\n'
    }
    expect(await readLocalRules(workspace, 'gate.yml', read)).toBe('version: 1\n')
    expect(reads).toEqual([path.join(workspace, 'gate.yml'), 'gate.yml'])
  })

  it('does not fall back on another refusal whose words say "file not found" (a folder named so)', async () => {
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'rg-ws-'))
    mkdirSync(path.join(workspace, 'file not found'))
    // The workspace path is a folder: its refusal ("…/file not found: is a directory") is the workspace file's
    // own. Matching the message text would have fallen back to the relative path and read a different file.
    const reads: string[] = []
    const read = (f: string): Promise<string> => {
      reads.push(f)
      return readRulesFile(f)
    }
    await expect(readLocalRules(workspace, 'file not found', read)).rejects.toThrow(/is a directory/)
    expect(reads).toEqual([path.join(workspace, 'file not found')])
  })
})

describe('a refusal re-placed under another name keeps its problem and hint', () => {
  it('input-format: the format refusal under the action input, without the inner place', () => {
    const get = (name: string): string =>
      ({ rules: 'r.yml', baseline: 'b', candidate: 'c', 'input-format': 'format: x' })[name] ?? ''
    const error = (() => {
      try {
        readInputs(get, 'push')
      } catch (e) {
        return e as InputError
      }
      throw new Error('expected a refusal')
    })()
    expect(error).toBeInstanceOf(InputError)
    expect(error.where).toEqual({ key: 'input input-format' })
    // The value itself starts with "format: ": stripping a "format: " prefix from the text would not tell them apart.
    expect(error.problem).toMatch(/^unknown format "format: x"\. formats: /)
    expect(error.message).toMatch(/^input input-format: unknown format "format: x"\. formats: /)
  })

  it('a metric that is neither a measure nor a run field quotes the measure refusal without its place', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rg-metric-'))
    // A metric key with a colon: the old `replace(/^[^:]*: /, '')` stopped at the key's own colon and left the
    // place in the sentence ("nDGC:1@10: unknown measure ...").
    const text = readFileSync(ex('rules.yml'), 'utf8')
      .replace('RR: {', '"nDGC:1@10": {')
      .replace('examples/runs/qrels.txt', ex('qrels.txt'))
    writeFileSync(path.join(dir, 'rules.yml'), text)
    const rules = await readRules(path.join(dir, 'rules.yml'))
    const error = (await loadFiles(rules, { baseline: ex('baseline.jsonl'), candidate: ex('candidate.jsonl') }).catch(
      (e: unknown) => e
    )) as InputError
    expect(error).toBeInstanceOf(InputError)
    expect(error.where.key).toBe('metrics.nDGC:1@10')
    expect(error.problem).toMatch(/numeric field of the run .* \(unknown measure "nDGC:1@10"/)
    expect(error.problem).not.toMatch(/\(nDGC:1@10: /)
  })
})
