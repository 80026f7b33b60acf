// Bundles the action (dist/index.js) and the command line (dist/cli.js) as ESM, dependencies included.
// Rebuilding from the same sources gives the same bytes; CI checks that dist/ is what the sources build to.
import commonjs from '@rollup/plugin-commonjs'
import json from '@rollup/plugin-json'
import { nodeResolve } from '@rollup/plugin-node-resolve'
import typescript from '@rollup/plugin-typescript'

const plugins = () => [
  // noEmitOnError: a type error fails the bundle instead of shipping the JavaScript TypeScript emitted anyway.
  typescript({ tsconfig: './tsconfig.build.json', noEmitOnError: true, module: 'NodeNext' }),
  nodeResolve({ preferBuiltins: true, exportConditions: ['node'] }),
  commonjs(),
  json()
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
    plugins: plugins(),
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
    plugins: plugins(),
    onwarn
  }
]
