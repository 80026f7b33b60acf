/**
 * A child Node process that runs the repository's TypeScript sources directly, for what a test must measure in
 * a process of its own: peak memory (a high-water mark, so the jest worker
 * that has run other tests cannot measure it; in the child, ../peak-memory.ts's VmHWM). Types are stripped on load by the repository's own `typescript`
 * package (`transpileModule`, as `isolatedModules` allows), and the sources' `./x.js` imports are resolved to
 * `./x.ts`; nothing is built or written to the repository.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { tempDir } from '../helpers.js'

/** The repository root, for absolute imports of `src/...ts` in a child's script. */
export const ROOT = path.resolve(import.meta.dirname, '../..')

/** An ESM loader: `.js` specifiers of `.ts` sources resolve to the `.ts` file, which loads with its types stripped. */
function loaderSource(typescript: string): string {
  return `import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from ${JSON.stringify(pathToFileURL(typescript).href)}
export async function resolve(specifier, context, next) {
  if (specifier.endsWith('.js') && specifier.startsWith('.') && context.parentURL?.endsWith('.ts')) {
    const url = new URL(specifier.slice(0, -3) + '.ts', context.parentURL)
    if (existsSync(fileURLToPath(url))) return { url: url.href, format: 'module', shortCircuit: true }
  }
  return next(specifier, context)
}
export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context)
  const file = fileURLToPath(url)
  const options = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, isolatedModules: true }
  return { format: 'module', source: ts.transpileModule(readFileSync(file, 'utf8'), { fileName: file, compilerOptions: options }).outputText, shortCircuit: true }
}
`
}

/** Runs the ES module `script` in a child process (cwd: the repository) and returns its exit code and output. */
export function runTsChild(script: string, timeoutMs = 30000): { code: number | null; stdout: string; stderr: string } {
  const dir = tempDir('rg-child-')
  const typescript = createRequire(path.join(ROOT, 'package.json')).resolve('typescript')
  const loader = path.join(dir, 'loader.mjs')
  writeFileSync(loader, loaderSource(typescript))
  const main = path.join(dir, 'main.mjs')
  writeFileSync(main, script)
  const register = `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(loader).href)})`
  const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, main], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: timeoutMs,
    // the child measures its own memory: the jest worker's options (--experimental-vm-modules) are not its business
    env: { ...process.env, NODE_OPTIONS: '' }
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}
