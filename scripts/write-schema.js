// Writes rules/schema.json from the schema in src/config/schema.ts (the loader's own copy), so the
// published schema and the validator never differ. Run through `npm run schema` (after `npm run bundle`
// is not needed: it compiles the one file with TypeScript).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const out = mkdtempSync(path.join(tmpdir(), 'rg-schema-'))
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', 'src/config/schema.ts', '--outDir', out, '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022'], { stdio: 'inherit' })
const { RULES_SCHEMA } = await import(path.join(out, 'schema.js'))
const text = JSON.stringify(RULES_SCHEMA, null, 2) + '\n'
writeFileSync('rules/schema.json', text)
console.log(`wrote rules/schema.json (${text.length} bytes)`)
