import { createHash } from 'node:crypto'

/** Hex sha256 of a text or bytes: the report names the exact rules (and inputs) it enforced. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}
