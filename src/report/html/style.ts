/**
 * The page's one style element: system fonts (nothing is fetched), light and dark by `prefers-color-scheme`,
 * colours as variables that the SVG pictures use too. Status colours are GitHub's (Primer) for each theme; the
 * slice colours are the Okabe-Ito set, distinct under the common colour-vision deficiencies (the yellow darkened
 * on white); losses, ties and gains are the Markdown histogram's red, grey and blue. Every status is also told by
 * a word or a shape. The Content-Security-Policy allows exactly this text (its sha256, document.ts).
 */
export const PAGE_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --panel: #f6f8fa; --grid: #e8ebef;
  --pass: #1a7f37; --fail: #cf222e; --incon: #9a6700; --explore: #59636e; --limit: #8250df;
  --worse: #d6604d; --same: #8c8c8c; --better: #4393c3;
  --c0: #0072b2; --c1: #e69f00; --c2: #009e73; --c3: #cc79a7; --c4: #d55e00; --c5: #56b4e9; --c6: #a38b00; --c7: #9a9a9a;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #f0f6fc; --muted: #9198a1; --border: #3d444d; --panel: #151b23; --grid: #262c36;
    --pass: #3fb950; --fail: #f85149; --incon: #d29922; --explore: #9198a1; --limit: #ab7df8;
    --worse: #e07b6a; --same: #9a9a9a; --better: #6cb0dc;
    --c0: #4aa3e8; --c1: #f0b429; --c2: #2fc496; --c3: #e08cc0; --c4: #f07a3a; --c5: #8fd0f2; --c6: #f0e442; --c7: #8a8f98;
  }
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); }
body {
  margin: 0 auto; max-width: 1200px; padding: 24px;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
}
h1 { font-size: 1.6rem; margin: 0 0 8px; line-height: 1.25; }
h2 { font-size: 1.3rem; margin: 36px 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--border); }
h3 { font-size: 1.05rem; margin: 24px 0 8px; }
p, ul, ol { margin: 0 0 12px; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.88em; }
code { background: var(--panel); border: 1px solid var(--border); border-radius: 4px; padding: 0 4px; overflow-wrap: anywhere; }
pre { background: var(--panel); border-radius: 6px; padding: 12px; overflow: auto; line-height: 1.35; }
a { color: var(--better); }
.verdict { border: 1px solid var(--border); border-left: 8px solid var(--pass); border-radius: 8px; padding: 16px 20px; background: var(--panel); }
.verdict.fail { border-left-color: var(--fail); }
.verdict .tool { color: var(--muted); font-size: 0.9em; margin: 0 0 4px; }
.badge { display: inline-block; border-radius: 6px; padding: 0 10px; margin-right: 8px; color: #fff; background: var(--pass); font-size: 0.85em; vertical-align: 2px; }
.fail .badge { background: var(--fail); }
.sentence { font-weight: 600; }
.counts { color: var(--muted); }
nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 16px 0 0; }
.note, figcaption, .key { color: var(--muted); font-size: 0.9em; }
.key { list-style: none; padding: 0; }
.st.pass, li.pass > .word { color: var(--pass); }
.st.fail, li.fail > .word { color: var(--fail); font-weight: 600; }
.st.inconclusive, li.inconclusive > .word { color: var(--incon); }
.findings { padding-left: 0; list-style: none; }
.findings li { margin-bottom: 6px; }
.table { overflow-x: auto; margin: 0 0 12px; }
.table.scroll { max-height: 75vh; overflow: auto; border: 1px solid var(--border); border-radius: 6px; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.92em; }
th, td { border: 1px solid var(--border); padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td code, th code { overflow-wrap: normal; }
.scroll th { position: sticky; top: 0; z-index: 1; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.worse { color: var(--fail); }
td.id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; overflow-wrap: anywhere; max-width: 24em; }
th button { font: inherit; color: inherit; background: none; border: 0; padding: 0; cursor: pointer; text-align: inherit; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
#regressed > tbody + tbody > tr:first-child > td { border-top: 2px solid var(--border); }
tr.docs > td { border-top: 0; padding-top: 0; }
tr.docs .inner { position: sticky; left: 10px; max-width: min(54em, calc(100vw - 72px)); }
tr.docs .text { margin: 0 0 4px; }
.tops { display: flex; flex-wrap: wrap; gap: 2px 28px; }
.tops .top { flex: 1 1 20em; min-width: 0; }
.tops .side { margin: 0; color: var(--muted); font-size: 0.9em; }
.topk { margin: 0 0 4px; padding-left: 1.8em; font-size: 0.9em; }
.topk .doc { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.grade { color: var(--muted); }
.grade.rel { color: var(--pass); font-weight: 600; }
.filter input { font: inherit; padding: 4px 8px; min-width: 18em; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); color: var(--fg); }
details { margin: 0 0 12px; border: 1px solid var(--border); border-radius: 6px; padding: 8px 14px; }
details > summary { cursor: pointer; font-weight: 600; }
details[open] > summary { margin-bottom: 8px; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(400px, 1fr)); gap: 8px 24px; align-items: start; }
figure { margin: 0 0 16px; }
svg.plot { display: block; max-width: 100%; height: auto; font-family: inherit; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 2px 14px; font-size: 0.9em; color: var(--muted); }
.sw { font-size: 1.1em; }
.plot text { fill: var(--fg); font-size: 12px; }
.plot text.tick, .plot .direction, .plot .unit, .plot .axis-title, .plot .corner { fill: var(--muted); }
.plot .corner { font-size: 11px; }
.plot .domain, .plot line.tick { stroke: var(--muted); stroke-width: 1; }
.plot .grid { stroke: var(--grid); stroke-width: 1; }
.plot .zero { stroke: var(--fg); stroke-width: 1.3; }
.plot .limit { stroke: var(--limit); stroke-width: 1.3; stroke-dasharray: 5 3; }
.plot .limit-label { fill: var(--limit); font-size: 11px; font-weight: 600; paint-order: stroke; stroke: var(--bg); stroke-width: 3px; stroke-linejoin: round; }
.plot .numbers { font-variant-numeric: tabular-nums; }
.forest .ci, .forest .cap { stroke-width: 2; }
.forest .pass .ci, .forest .pass .cap { stroke: var(--pass); }
.forest .pass .mark { fill: var(--pass); }
.forest .pass .status { fill: var(--pass); }
.forest .fail .ci, .forest .fail .cap { stroke: var(--fail); stroke-width: 3.5; }
.forest .fail .mark { fill: var(--fail); }
.forest .fail .status { fill: var(--fail); font-weight: 700; }
.forest .inconclusive .ci, .forest .inconclusive .cap { stroke: var(--incon); stroke-dasharray: 2 2; }
.forest .inconclusive .mark { fill: var(--bg); stroke: var(--incon); stroke-width: 2; }
.forest .inconclusive .status { fill: var(--incon); }
.forest .exploratory .ci, .forest .exploratory .cap { stroke: var(--explore); }
.forest .exploratory .mark { fill: var(--bg); stroke: var(--explore); stroke-width: 2; }
.scatter .diagonal { stroke: var(--muted); stroke-width: 1.2; stroke-dasharray: 6 4; }
.scatter .pt { fill-opacity: 0.7; }
.scatter .pt.w { fill-opacity: 0.95; stroke: var(--fg); stroke-width: 0.7; }
.c0 { fill: var(--c0); color: var(--c0); } .c1 { fill: var(--c1); color: var(--c1); } .c2 { fill: var(--c2); color: var(--c2); }
.c3 { fill: var(--c3); color: var(--c3); } .c4 { fill: var(--c4); color: var(--c4); } .c5 { fill: var(--c5); color: var(--c5); }
.c6 { fill: var(--c6); color: var(--c6); } .c7 { fill: var(--c7); color: var(--c7); }
.histogram .worse .bar, .bars .bar.worse { fill: var(--worse); }
.histogram .same .bar { fill: var(--same); }
.histogram .better .bar, .bars .bar.better { fill: var(--better); }
.plot .count { font-size: 11px; fill: var(--muted); }
.bars .count-limit { stroke: var(--fg); stroke-width: 3; }
.bars .fail .slice { fill: var(--fail); font-weight: 600; }
footer { margin-top: 36px; color: var(--muted); font-size: 0.9em; border-top: 1px solid var(--border); padding-top: 12px; }
`
