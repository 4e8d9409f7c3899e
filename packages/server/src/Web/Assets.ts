/** The stylesheet, served by the server itself (no CDN: the pages work offline and behind a firewall). */
import { HttpServerResponse } from "@effect/platform"

const css = `
:root { --ink: #1d1d1f; --muted: #5b5b63; --line: #d9d9de; --bg: #fbfbfa; --accent: #1f5fbf; --cut: #a3362b;
  --s0: #fde8b4; --s1: #cfe8fc; --s2: #d7f2d0; --s3: #f6d6e8; --s4: #e2dcfb; --s5: #fbdcc8; --derived: #5a3fb0; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, [tabindex]:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.bar { display: flex; flex-wrap: wrap; gap: .75rem 1.25rem; align-items: center; padding: .75rem 1rem; border-bottom: 1px solid var(--line); background: #fff; }
.brand { font-weight: 700; color: var(--ink); text-decoration: none; }
nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
nav a { white-space: nowrap; }
nav a[aria-current="page"] { font-weight: 700; color: var(--ink); }
.signout { margin-left: auto; display: flex; gap: .5rem; flex-wrap: wrap; }
button { font: inherit; padding: .35rem .8rem; border: 1px solid var(--line); border-radius: .4rem; background: #fff; color: var(--ink); cursor: pointer; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
.muted { color: var(--muted); }
.list { list-style: none; padding: 0; margin: 0; }
.list > li { padding: .6rem 0; border-bottom: 1px solid var(--line); }
.list .body { margin-top: .4rem; }
[data-disposition] { font-weight: 600; }
[data-disposition="InNote"] { color: #1d6b35; } [data-disposition="InQuestion"] { color: #8a5300; }
[data-disposition="Instruction"] { color: var(--muted); } [data-disposition^="Awaiting"] { color: var(--accent); }
.count { color: var(--muted); font-variant-numeric: tabular-nums; }
.search { display: flex; gap: .5rem; margin-bottom: 1rem; align-items: center; }
.search input, .signin input { flex: 1; font: inherit; padding: .4rem .6rem; border: 1px solid var(--muted); border-radius: .4rem; min-width: 0; }
.signin { display: grid; gap: .75rem; max-width: 24rem; }
.body { white-space: pre-wrap; overflow-wrap: anywhere; background: #fff; border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; }
.slice { border-radius: .2rem; padding: .05rem 0; unicode-bidi: isolate; position: relative; }
.slice:focus::after { content: attr(title); position: absolute; left: 0; top: 100%; z-index: 1; width: max-content; max-width: min(22rem, 80vw); white-space: normal; font-size: .85rem; background: #fff; border: 1px solid var(--muted); border-radius: .3rem; padding: .3rem .5rem; }
.tech p { overflow-wrap: anywhere; font-size: .9rem; }
.s0 { background: var(--s0); } .s1 { background: var(--s1); } .s2 { background: var(--s2); }
.s3 { background: var(--s3); } .s4 { background: var(--s4); } .s5 { background: var(--s5); }
.derived { background: transparent; color: var(--derived); font-style: italic; }
.media { flex-basis: 100%; }
.media img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); margin: .5rem 0; }
.media audio { height: 2rem; max-width: 12rem; vertical-align: middle; margin-right: .5rem; }
.media figure { margin: 0 0 .75rem; max-width: 24rem; }
del.cut { color: var(--cut); text-decoration-thickness: 2px; }
.fwd { display: block; color: var(--muted); font-size: .85rem; white-space: normal; }
.sources li { display: grid; gap: .2rem; }
.tag { display: inline-block; padding: 0 .4rem; border-radius: .3rem; font-size: .85rem; background: #eee; }
.error { color: var(--cut); }
.answers { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .5rem; }
mark { background: #fff1a8; color: inherit; }
mark.quoted { background: #ffca28; outline: 2px solid #8a6d00; font-weight: 600; }
.compose, .ask { display: grid; gap: .5rem; }
.ask textarea, .compose textarea, .compose input { font: inherit; width: 100%; padding: .5rem .6rem; border: 1px solid var(--muted); border-radius: .4rem; background: #fff; }
.compose textarea { min-height: 8rem; resize: vertical; white-space: pre-wrap; }
.ask textarea { min-height: 3.5rem; resize: vertical; }
.actions { display: flex; flex-wrap: wrap; gap: .4rem; margin: .3rem 0 0; align-items: center; }
.actions input:not([type=hidden]) { font: inherit; padding: .35rem .5rem; border: 1px solid var(--muted); border-radius: .4rem; background: #fff; margin-left: .3rem; }
[data-reminder] blockquote, .answer blockquote { margin: 0; padding: .2rem .8rem; border-left: 3px solid #b58900; white-space: pre-wrap; font-size: 1.05rem; }
.compose p { margin: 0; }
[data-open] + form { margin-top: .75rem; }
.curate { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .75rem 0; }
.curate select, .curate input { font: inherit; padding: .35rem .5rem; border: 1px solid var(--muted); border-radius: .4rem; background: #fff; max-width: 100%; min-width: 0; }
.curate .muted { flex-basis: 100%; font-size: .9rem; }
[data-disposition="Discarded"] { color: var(--cut); }
.discarded { border-left-color: var(--cut); }
.summary { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; }
.summary dt { color: var(--muted); } .summary dd { margin: 0; font-variant-numeric: tabular-nums; }
.verdict { padding: .5rem .75rem; border-left: 4px solid var(--muted); background: #fff; }
[data-verdict="PASS"] { border-left-color: #1d6b35; } [data-verdict="FAIL"] { border-left-color: var(--cut); }
.notice { padding: .5rem .75rem; border-left: 4px solid var(--accent); background: #fff; }
.forget button { border-color: var(--cut); color: var(--cut); }
.curate.undo { display: inline-flex; margin: 0; }
.undoable { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .75rem; }
.merged li { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem; }
[data-disposition="Erased"] { color: var(--muted); } a[data-forget] { font-size: .9rem; margin-left: .5rem; white-space: nowrap; }
.banner { padding: .5rem .75rem; border-left: 4px solid var(--cut); background: #fff; margin: 0 0 1rem; }
`

export const stylesheet = HttpServerResponse.text(css, {
  contentType: "text/css; charset=utf-8",
  headers: { "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" }
})
