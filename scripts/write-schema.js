// Writes the published JSON Schemas from the validators' own copies, so they never differ:
// rules/schema.json from src/config/schema.ts and rules/dataset.schema.json from src/readers/dataset/schema.ts.
// Run through `npm run schema` (`npm run bundle` is not needed: it compiles those files with TypeScript).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const out = mkdtempSync(path.join(tmpdir(), 'rg-schema-'))
execFileSync(
  process.execPath,
  [
    'node_modules/typescript/bin/tsc',
    'src/config/schema.ts',
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
    'ES2022'
  ],
  { stdio: 'inherit' }
)
writeFileSync(path.join(out, 'package.json'), '{"type":"module"}\n')
const { RULES_SCHEMA } = await import(path.join(out, 'config', 'schema.js'))
const { DATASET_SCHEMA } = await import(path.join(out, 'readers', 'dataset', 'schema.js'))
for (const [file, schema] of [
  ['rules/schema.json', RULES_SCHEMA],
  ['rules/dataset.schema.json', DATASET_SCHEMA]
]) {
  const text = JSON.stringify(schema, null, 2) + '\n'
  writeFileSync(file, text)
  console.log(`wrote ${file} (${text.length} bytes)`)
}
