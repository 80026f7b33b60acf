import { detectFormat } from './detect.js'
import type { RecordHandler } from './record-maps.js'

/**
 * Calls `onRecord` for every record of a small exam or answer file of records (judge anchors and labels, a
 * queries file): JSON Lines, or CSV with a header when its name ends in `.csv` (src/readers/formats.ts, kind
 * `records`; src/readers/record-maps.ts reads both). `hint` says what a record looks like.
 */
export async function forEachRecord(file: string, name: string, onRecord: RecordHandler, hint: string): Promise<void> {
  const { entry, probe } = await detectFormat({ kind: 'records', file })
  await entry.read(probe, { name, onRecord, hint })
}
