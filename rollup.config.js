// Bundles the action (dist/index.js) and the command line (dist/cli.js) as ESM, dependencies included.
// Rebuilding from the same sources gives the same bytes; CI checks that dist/ is what the sources build to.
import commonjs from '@rollup/plugin-commonjs'
import json from '@rollup/plugin-json'
import { nodeResolve } from '@rollup/plugin-node-resolve'
import typescript from '@rollup/plugin-typescript'

const plugins = () => [
  typescript({ tsconfig: './tsconfig.build.json' }),
  nodeResolve({ preferBuiltins: true, exportConditions: ['node'] }),
  commonjs(),
  json()
]

const onwarn = (warning, warn) => {
  if (warning.code === 'CIRCULAR_DEPENDENCY' || warning.code === 'THIS_IS_UNDEFINED') return
  warn(warning)
}

export default [
  {
    input: 'src/index.ts',
    output: { file: 'dist/index.js', format: 'es', sourcemap: false, inlineDynamicImports: true },
    plugins: plugins(),
    onwarn
  },
  {
    input: 'src/cli.ts',
    output: { file: 'dist/cli.js', format: 'es', sourcemap: false, banner: '#!/usr/bin/env node', inlineDynamicImports: true },
    plugins: plugins(),
    onwarn
  }
]
