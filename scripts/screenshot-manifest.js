// The record of what each screenshot in docs/images was made from (docs/images/screenshots.json): per image, the
// file it shows (the demo's report.md or report.html), the sha256 of that file's bytes when the shot was taken, the
// sha256 of the image, and the command that made it. __tests__/report/screenshots.test.ts renders the same report
// from the sources in-process and fails when its bytes are not the ones a shot was taken of (or an image is not
// the one recorded, or the README or docs show an image the record does not list): a screenshot of an older page
// is caught, not shipped. The screenshot scripts (screenshot-html.js, screenshot-report.js) call recordShot.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export const MANIFEST = 'docs/images/screenshots.json'

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')

/** Records that `image` (a PNG just written) shows `source` (the file it was rendered from), made by `command`. */
export function recordShot(image, source, command) {
  const shots = existsSync(MANIFEST) ? JSON.parse(readFileSync(MANIFEST, 'utf8')) : {}
  shots[path.basename(image)] = {
    source: source.split(path.sep).join('/'),
    source_sha256: sha256(readFileSync(source)),
    image_sha256: sha256(readFileSync(image)),
    command
  }
  const sorted = Object.fromEntries(
    Object.keys(shots)
      .sort()
      .map((k) => [k, shots[k]])
  )
  writeFileSync(MANIFEST, JSON.stringify(sorted, null, 2) + '\n')
}
