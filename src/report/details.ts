import { pushAll } from '../util/extent.js'

/**
 * A collapsed section of the Markdown report: a top-level `<details>` line (the section boundary fit.ts drops
 * whole), the body, and the closing line. `summary` must already be HTML-safe (htmlText for any untrusted part).
 */
export function detailsBlock(summary: string, body: string[]): string[] {
  const out = [`<details><summary>${summary}</summary>`, '']
  pushAll(out, body)
  out.push('</details>', '')
  return out
}
