// Bundles the action (dist/index.js) and the command line (dist/cli.js) as ESM, dependencies included.
// Rebuilding from the same sources gives the same bytes; CI checks that dist/ is what the sources build to.
import commonjs from '@rollup/plugin-commonjs'
import json from '@rollup/plugin-json'
import { nodeResolve } from '@rollup/plugin-node-resolve'
import { existsSync } from 'node:fs'
import { transformSync } from 'esbuild'
import { licenseInventory } from './scripts/licenses.js'

/**
 * Our TypeScript, transpiled file by file with esbuild (tsconfig has isolatedModules, so no file needs another's
 * types): about a second, where the type-checking TypeScript plugin took most of a 40-50 s build. Types are checked by
 * `npm run typecheck` (in `npm run check` and CI), not here. esbuild drops the comments and folds the syntax (names
 * kept) in the bundle only (the sources keep them) and is deterministic: the same sources give the same bytes.
 */
const transpile = () => ({
  name: 'transpile-typescript',
  resolveId(source, importer) {
    if (!importer?.endsWith('.ts') || !source.startsWith('.') || !source.endsWith('.js')) return null
    const file = new URL(source.replace(/\.js$/, '.ts'), `file://${importer}`).pathname
    return existsSync(file) ? file : null
  },
  transform(code, id) {
    if (!id.endsWith('.ts')) return null
    const out = transformSync(code, {
      loader: 'ts',
      format: 'esm',
      target: 'es2022',
      sourcefile: id,
      legalComments: 'none',
      minifyWhitespace: true,
      minifySyntax: true
    })
    return { code: out.code, map: null }
  }
})

/** `undici` -> scripts/undici-lean.cjs: the two exports the bundle uses, not the whole package (see that file). */
const leanUndici = () => ({
  name: 'lean-undici',
  resolveId: (source) => (source === 'undici' ? new URL('./scripts/undici-lean.cjs', import.meta.url).pathname : null)
})

const plugins = (file) => [
  transpile(),
  leanUndici(),
  nodeResolve({ preferBuiltins: true, exportConditions: ['node'] }),
  commonjs(),
  json(),
  licenseInventory(file)
]

// An import circle in our own sources fails the bundle (the order modules initialise in would depend on which file is
// imported first). Circles wholly inside node_modules are the dependencies' own business and are reported only when
// they touch src/. THIS_IS_UNDEFINED is the CommonJS-compiled `this` at module scope in dependencies: harmless in ESM.
const onwarn = (warning, warn) => {
  if (warning.code === 'CIRCULAR_DEPENDENCY') {
    const ids = warning.ids ?? []
    if (ids.every((id) => id.includes('/node_modules/'))) return
    throw new Error(`import circle in src/: ${ids.map((id) => id.replace(`${process.cwd()}/`, '')).join(' -> ')}`)
  }
  if (warning.code === 'THIS_IS_UNDEFINED') return
  warn(warning)
}

export default [
  {
    input: 'src/index.ts',
    output: { file: 'dist/index.js', format: 'es', sourcemap: false, inlineDynamicImports: true },
    plugins: plugins('dist/index.js'),
    onwarn
  },
  {
    input: 'src/cli.ts',
    output: {
      file: 'dist/cli.js',
      format: 'es',
      sourcemap: false,
      banner: '#!/usr/bin/env node',
      inlineDynamicImports: true
    },
    plugins: plugins('dist/cli.js'),
    onwarn
  }
]
