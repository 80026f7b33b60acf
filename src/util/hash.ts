import { createHash } from 'node:crypto'

/** Hex sha256 of a text or bytes: the report names the exact rules (and inputs) it enforced. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Base64 sha256 of a text, the form a Content-Security-Policy names an inline script or style by. */
export function sha256Base64(data: string): string {
  return createHash('sha256').update(data).digest('base64')
}
