/**
 * A Node module hook for dt-sql-parser 4.5 (npm), whose build is ES modules with extensionless relative imports
 * (`from './parser'`) in a package without "type": "module": Node's own resolution refuses both. This resolves such
 * an import to `.js` or `/index.js` and loads the package's files as modules. Used by spark-grammar.mjs only.
 */
import { register } from 'node:module'

const hook = `
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context)
  } catch (error) {
    if (!specifier.startsWith('.') || context.parentURL === undefined) throw error
    for (const tail of ['.js', '/index.js']) {
      const url = new URL(specifier + tail, context.parentURL)
      if (existsSync(fileURLToPath(url))) return next(url.href, context)
    }
    throw error
  }
}
export async function load(url, context, next) {
  return next(url, url.includes('/node_modules/dt-sql-parser/') ? { ...context, format: 'module' } : context)
}
`
register(`data:text/javascript,${encodeURIComponent(hook)}`)
