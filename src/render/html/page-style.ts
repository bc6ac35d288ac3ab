/**
 * The page's stylesheet, inline (no network, no web fonts). Ops are coloured
 * and also carry a symbol, so the page reads the same without colour and on paper.
 */
export const PAGE_STYLE =
  `
:root{--create:#1a7f37;--update:#9a6700;--rename:#8250df;--move:#0969da;--delete:#cf222e;--unsupported:#bf3989;--dim:#57606a;--line:#d0d7de;` +
  `--bg:#fff;--fg:#1f2328;--hl:#fff8c5}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header,main,nav.bar{padding:0 20px}
h1{font-size:20px;margin:16px 0 4px}h2{font-size:16px;margin:18px 0 6px}
.facts{display:flex;flex-wrap:wrap;gap:4px 20px;margin:0;color:var(--dim)}.facts div{display:flex;gap:6px}.facts dt{font-weight:600}.facts dd{margin:0}
.mono,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
.summary{font-weight:600}
table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:2px 8px;text-align:left;vertical-align:top}
.counts td{text-align:right;min-width:4em}thead th{background:#f6f8fa}
.attention{border-left:4px solid var(--update);padding:2px 12px;margin:10px 0;background:#fff8e6}
.attention.destructive,.attention.blocked{border-color:var(--delete);background:#ffebe9}
.tag.blocked{color:var(--delete);font-weight:600}
.attention .mark{color:var(--delete);font-weight:700}
.facts .dirty{color:var(--delete);font-family:inherit;font-weight:600}
.attention ul{margin:4px 0;padding-left:20px;max-height:40vh;overflow:auto}
nav.bar{position:sticky;top:0;background:var(--bg);border-bottom:1px solid var(--line);display:flex;gap:12px;align-items:center;` +
  `padding-top:8px;padding-bottom:8px;z-index:2}
nav.bar input{font:inherit;padding:4px 8px;width:min(420px,60vw)}nav.bar button{font:inherit}
.legend{color:var(--dim);display:flex;gap:10px;flex-wrap:wrap}
.op{display:inline-block;min-width:1.3em;text-align:center;font-weight:700;border-radius:3px}
.op-create{color:var(--create)}.op-update{color:var(--update)}.op-rename{color:var(--rename)}.op-move{color:var(--move)}` +
  `.op-delete{color:var(--delete)}.op-unsupported{color:var(--unsupported)}.op-none{color:var(--dim)}
.tree,.tree ul,.recs,.subs{list-style:none;margin:0;padding-left:0}.tree ul{padding-left:20px;border-left:1px dotted var(--line);margin-left:7px}
.row{padding:1px 4px;border-radius:3px;cursor:default;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
li.node.st-create>.row,li.rec.st-create>.row{background:#dafbe1}li.node.st-delete>.row,li.rec.st-delete>.row{background:#ffebe9}` +
  `li.st-delete>.row .n{text-decoration:line-through}
li.node.st-move>.row{background:#ddf4ff}li.node.st-rename>.row,li.rec.st-rename>.row{background:#fbefff}` +
  `li.node.st-update>.row,li.rec.st-update>.row{background:#fff8c5}
li.node.ghost>.row{background:none;border:1px dashed var(--move);color:var(--dim)}
li.node.ctx>.row .n,li.unmanaged>.row .n{color:var(--dim)}
.tw{display:inline-block;width:1.2em;cursor:pointer;color:var(--dim)}.tw::before{content:"▾"}li[aria-expanded=false]>.row .tw::before{content:"▸"}` +
  `.tw.leaf::before{content:""}
li[aria-expanded=false]>ul{display:none}
.was,.cnt,.tag,.rest{color:var(--dim);font-size:12px}.rest{padding-left:24px;font-style:italic}
.flag{color:var(--delete);font-weight:600;font-size:12px}
a.mv{color:var(--move);font-size:12px}
.detail{margin:2px 0 6px 28px}.detail table{font-size:12px}.detail .notes{margin:2px 0;padding-left:16px;color:var(--dim);font-size:12px}
.subs>li{margin:2px 0}.sublabel{font-size:12px}
.before{color:var(--delete)}.after{color:var(--create)}.none{color:var(--dim);font-style:italic}
.unapplied{color:var(--dim);white-space:pre-wrap;max-width:80ch}.unapplied .side{display:block;font-size:11px;font-style:italic}
.wdiff{white-space:pre-wrap;max-width:80ch}ins{background:#dafbe1;text-decoration:underline}del{background:#ffebe9;text-decoration:line-through}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
li:focus>.row,li.rec:focus{outline:2px solid var(--move);outline-offset:1px}
li:target>.row,li.flash>.row{background:var(--hl)!important;outline:2px solid var(--update)}
[hidden]{display:none!important}
.nomatch{color:var(--dim)}
@media print{
 nav.bar{display:none}
 li[aria-expanded=false]>ul{display:block}
 .row{white-space:normal}
 .attention ul{max-height:none;overflow:visible}
 a{color:inherit;text-decoration:none}
 li{break-inside:avoid}
 body{font-size:11px}
}
`;
