/**
 * The page's one script: sorting the regressed-queries table by a column (click its heading: ascending, then
 * descending; numbers by value, a missing value last, text by its characters, ties in the page's order) and
 * filtering its rows by a text (case-insensitive, over all of a row's text). A row is a table body: a query's
 * numbers and the row of details under them move and hide together. It reads and moves the page's own
 * elements and writes only `hidden`, `aria-sort` and a count's `textContent`: no data is in the script, nothing
 * is parsed as HTML, nothing is fetched. The page reads the same without it (worst first, the filter box hidden).
 * The Content-Security-Policy allows exactly this text (its sha256, document.ts): change a byte and the hash
 * changes with it.
 */
export const PAGE_SCRIPT = `
'use strict'
for (const table of document.querySelectorAll('table.sortable')) {
  const rows = Array.from(table.tBodies)
  const place = new Map(rows.map((r, i) => [r, i]))
  const heads = Array.from(table.tHead.rows[0].cells)
  const key = (row, col) => {
    const cell = row.rows[0].cells[col]
    const v = cell.getAttribute('data-v')
    return v === null ? cell.textContent : v === '' ? NaN : Number(v)
  }
  heads.forEach((th, col) => {
    const button = th.querySelector('button')
    if (!button) return
    button.addEventListener('click', () => {
      const up = th.getAttribute('aria-sort') !== 'ascending'
      for (const h of heads) h.removeAttribute('aria-sort')
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending')
      const sorted = rows.slice().sort((a, b) => {
        const x = key(a, col)
        const y = key(b, col)
        let d
        if (typeof x === 'number') d = Number.isNaN(x) || Number.isNaN(y) ? Number.isNaN(x) - Number.isNaN(y) : up ? x - y : y - x
        else d = up ? (x < y ? -1 : x > y ? 1 : 0) : x < y ? 1 : x > y ? -1 : 0
        return d || place.get(a) - place.get(b)
      })
      for (const r of sorted) table.appendChild(r)
    })
  })
  const input = document.querySelector('input[data-filter="' + table.id + '"]')
  const count = document.querySelector('output[data-count="' + table.id + '"]')
  if (input && count) {
    input.closest('.filter').hidden = false
    const texts = new Map(rows.map((r) => [r, r.textContent.toLowerCase()]))
    const update = () => {
      const q = input.value.trim().toLowerCase()
      let shown = 0
      for (const r of rows) {
        const hit = q === '' || texts.get(r).includes(q)
        r.hidden = !hit
        if (hit) shown++
      }
      count.textContent = shown + ' of ' + rows.length + ' rows'
    }
    input.addEventListener('input', update)
    update()
  }
}
`
