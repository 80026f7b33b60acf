// Writes the published JSON Schemas from the validators' own copies, so they never differ:
// rules/schema.json from src/capabilities/rules-schema.ts (the core's keys, src/config/schema.ts, and every
// capability's rules fragment, in registry order) and rules/dataset.schema.json from src/readers/dataset/schema.ts.
// Run through `npm run schema` (`npm run bundle` is not needed: it compiles those files with TypeScript).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

// Inside node_modules/.cache: the registry's modules import packages, which Node finds from there.
mkdirSync('node_modules/.cache', { recursive: true })
const out = path.resolve(mkdtempSync(path.join('node_modules', '.cache', 'rg-schema-')))
execFileSync(
  process.execPath,
  [
    'node_modules/typescript/bin/tsc',
    'src/capabilities/rules-schema.ts',
    'src/readers/dataset/schema.ts',
    '--rootDir',
    'src',
    '--outDir',
    out,
    '--module',
    'NodeNext',
    '--moduleResolution',
    'NodeNext',
    '--target',
    'ES2022',
    '--strict',
    '--skipLibCheck'
  ],
  { stdio: 'inherit' }
)
writeFileSync(path.join(out, 'package.json'), '{"type":"module"}\n')
const { rulesSchema } = await import(path.join(out, 'capabilities', 'rules-schema.js'))
const { DATASET_SCHEMA } = await import(path.join(out, 'readers', 'dataset', 'schema.js'))
for (const [file, schema] of [
  ['rules/schema.json', rulesSchema()],
  ['rules/dataset.schema.json', DATASET_SCHEMA]
]) {
  const text = JSON.stringify(schema, null, 2) + '\n'
  writeFileSync(file, text)
  console.log(`wrote ${file} (${text.length} bytes)`)
}
rmSync(out, { recursive: true, force: true })
