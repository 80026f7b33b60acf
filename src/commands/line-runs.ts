/** Characters a run gathers before it is written: few writes, a small buffer. */
const RUN_CHARS = 1 << 16

/**
 * A writer for large output (the JSON report of 10^6 queries, trec_eval -q lines): it hands `write` runs of whole
 * lines of about 64 K characters, so the output boundary (safeLines, src/util/show.ts), which escapes line by line,
 * writes the bytes the whole text would give. `end` writes what is left.
 */
export function lineRuns(write: (text: string) => void): { add: (text: string) => void; end: () => void } {
  let buffer = ''
  return {
    add(text) {
      buffer += text
      if (buffer.length < RUN_CHARS) return
      const end = buffer.lastIndexOf('\n') + 1
      if (end === 0) return
      write(buffer.slice(0, end))
      buffer = buffer.slice(end)
    },
    end() {
      if (buffer !== '') write(buffer)
      buffer = ''
    }
  }
}
