/**
 * Fitting a Markdown report under a size limit (a PR comment is at most 65,536 characters, a job summary at
 * most 1 MiB) by dropping WHOLE sections, never by cutting a table or a `<details>` block in half (which would
 * leave broken Markdown and, worse, a half table that looks complete). The verdict and everything before the
 * first section always stay.
 *
 * The contract with the renderer (src/report/markdown.ts) is deliberately simple and needs no API: a section
 * starts at a top-level `### ` heading or a top-level `<details>` line (outside code fences), and a `<details>`
 * section ends at its matching `</details>`. Everything before the first section is the head (verdict, counts,
 * provenance) and is never dropped. Sections are dropped collapsed ones first (`<details>`), then headed ones,
 * then untitled trailing text, each kind from the end of the document backwards: the renderer states priority
 * by document order.
 */
export interface FitResult {
  text: string
  /** Titles of the sections that were dropped, in document order. */
  dropped: string[]
  /** True when even the head alone was over the limit and had to be cut. */
  cut: boolean
}

interface Section {
  kind: 'head' | 'details' | 'heading' | 'text'
  title: string
  text: string
}

/** UTF-8 bytes: the strictest reading of any of GitHub's limits (bytes >= UTF-16 units >= code points). */
export function sizeOf(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

/**
 * Returns the report unchanged when it fits, otherwise without whole sections and with one note naming them
 * and where the full report is (`whereFull`, e.g. "the report-markdown file").
 */
export function fitMarkdown(markdown: string, limit: number, whereFull: string): FitResult {
  if (sizeOf(markdown) <= limit) return { text: markdown, dropped: [], cut: false }
  const sections = splitSections(markdown)
  const keep = sections.map(() => true)
  const order = dropOrder(sections)
  const dropped: number[] = []
  // the dropped sections' titles, in document order
  const droppedTitles = (): string[] => [...dropped].sort((a, b) => a - b).map((i) => sections[i].title)
  const render = (): string =>
    sections
      .filter((_, i) => keep[i])
      .map((s) => s.text)
      .join('') + noteFor(droppedTitles(), whereFull)
  let text = render()
  for (const i of order) {
    if (sizeOf(text) <= limit) break
    keep[i] = false
    dropped.push(i)
    text = render()
  }
  const titles = droppedTitles()
  if (sizeOf(text) <= limit) return { text, dropped: titles, cut: false }
  const note =
    noteFor(titles.length > 0 ? titles : ['(all sections)'], whereFull) +
    '\n_(the head of the report was cut to fit)_\n'
  const room = Math.max(0, limit - sizeOf(note))
  return { text: cutToBytes(sections[0].text, room) + note, dropped: titles, cut: true }
}

function noteFor(titles: string[], whereFull: string): string {
  if (titles.length === 0) return ''
  const list = titles.map((t) => `“${t.length > 60 ? t.slice(0, 59) + '…' : t}”`).join(', ')
  return `\n> ⚠️ Shortened to fit GitHub's size limit: left out ${list}. The full report is in ${whereFull}.\n`
}

function dropOrder(sections: Section[]): number[] {
  const idx = (kind: Section['kind']): number[] =>
    sections
      .map((s, i) => (s.kind === kind ? i : -1))
      .filter((i) => i >= 0)
      .reverse()
  return [...idx('details'), ...idx('heading'), ...idx('text')]
}

/** Splits into head + sections at top-level `### ` headings and `<details>` blocks (code fences respected). */
export function splitSections(markdown: string): Section[] {
  const lines = markdown.split(/(?<=\n)/)
  const sections: Section[] = [{ kind: 'head', title: '', text: '' }]
  let fence: string | null = null
  let depth = 0
  let current = sections[0]
  const start = (kind: Section['kind'], title: string): void => {
    current = { kind, title, text: '' }
    sections.push(current)
  }
  for (const line of lines) {
    const bare = line.replace(/\r?\n$/, '')
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(bare)
    if (depth === 0 && fence === null) {
      if (/^<details[\s>]/i.test(bare)) {
        start('details', summaryOf(bare) ?? 'details')
      } else if (/^### /.test(bare) || (/^## /.test(bare) && sections[0].text.trim() !== '')) {
        start('heading', bare.replace(/^#+ /, '').trim())
      } else if (current.kind === 'details') {
        // text after a closed <details> block belongs to no section until the next one starts
        if (bare.trim() !== '') start('text', bare.trim().slice(0, 40))
      }
    }
    current.text += line
    if (fenceMark) {
      if (fence === null) fence = fenceMark[1][0]
      else if (fenceMark[1][0] === fence) fence = null
      continue
    }
    if (fence === null) {
      depth += (bare.match(/<details[\s>]/gi) ?? []).length
      depth -= (bare.match(/<\/details>/gi) ?? []).length
      if (depth < 0) depth = 0
    }
    if (current.kind === 'details' && depth === 0 && current.title === 'details') {
      const s = summaryOf(current.text)
      if (s) current.title = s
    }
  }
  return sections.filter((s) => s.kind === 'head' || s.text !== '')
}

function summaryOf(text: string): string | undefined {
  const m = /<summary>([\s\S]*?)<\/summary>/i.exec(text)
  return m
    ? m[1]
        .replace(/<[^>]*>/g, '')
        .replace(/\s+/g, ' ')
        .trim()
    : undefined
}

/** The longest prefix of `text` with at most `bytes` UTF-8 bytes, cut at a line end when one is near. */
function cutToBytes(text: string, bytes: number): string {
  let out = Buffer.from(text, 'utf8').subarray(0, bytes).toString('utf8')
  if (out.endsWith('\ufffd')) out = out.slice(0, -1)
  const nl = out.lastIndexOf('\n')
  return nl > out.length / 2 ? out.slice(0, nl + 1) : out
}
