import { sha256Base64 } from '../../util/hash.js'
import { esc } from './escape.js'
import { PAGE_SCRIPT } from './script.js'
import { PAGE_STYLE } from './style.js'

/**
 * The page's shell: one file that needs nothing else (no font, image, script or style is fetched), opens from
 * disk, and forbids by its Content-Security-Policy everything but its own style element and script, named by
 * their sha256 (deterministic, unlike a nonce): `default-src 'none'` blocks every fetch, connection, frame,
 * font, image and plugin, `base-uri` and `form-action` (which default-src does not cover) are 'none' too. So a
 * string from the inputs that escaped escaping still could not run, load or send anything.
 */

/** The policy for a page whose only inline style and script are `style` and `script`. */
export function contentSecurityPolicy(style: string, script: string): string {
  const hash = (text: string): string => `'sha256-${sha256Base64(text)}'`
  return [
    `default-src 'none'`,
    `style-src ${hash(style)}`,
    `script-src ${hash(script)}`,
    `base-uri 'none'`,
    `form-action 'none'`
  ].join('; ')
}

/** The whole document around `body` (HTML already escaped); `title` is RAW. */
export function htmlDocument(title: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(PAGE_STYLE, PAGE_SCRIPT)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${esc(title, 200)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    '<body>',
    body,
    `<script>${PAGE_SCRIPT}</script>`,
    '</body>',
    '</html>',
    ''
  ].join('\n')
}
