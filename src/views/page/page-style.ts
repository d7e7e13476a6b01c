/**
 * The pages' one stylesheet. Colours are variables so the light, dark and system themes are a single
 * switch on <html data-theme>; status colours always come with a word and a sign, never alone.
 */
const DARK = `color-scheme:dark;--bg:#0f1217;--surface:#171b22;--sunken:#11151b;--text:#e4e8ee;--muted:#98a1ab;--border:#2c333c;--accent:#6aa8ff;--pass:#5ccf7f;--pass-bg:rgba(60,180,100,.14);--fail:#ff7b72;--fail-bg:rgba(248,81,73,.14);--flaky:#e3b341;--flaky-bg:rgba(210,153,34,.14);--none:#98a1ab;--none-bg:rgba(140,150,160,.14);--user-bg:#16202e;--shadow:none`

export const PAGE_STYLE = `
:root{color-scheme:light;--bg:#f6f7f9;--surface:#fff;--sunken:#f0f2f5;--text:#1f2328;--muted:#5d6670;--border:#d9dee4;--accent:#0a61c9;
--pass:#17723a;--pass-bg:#dff5e5;--fail:#c0262d;--fail-bg:#fde8e8;--flaky:#8a5a00;--flaky-bg:#fdf1cc;--none:#5d6670;--none-bg:#eceff3;
--user-bg:#eef3fb;--shadow:0 1px 2px rgba(20,30,40,.06)}
:root[data-theme=dark]{${DARK}}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${DARK}}}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1120px;margin:0 auto;padding:28px 24px 64px}
h1{font-size:22px;font-weight:600;margin:0;overflow-wrap:anywhere}
h2{font-size:15px;font-weight:600;margin:32px 0 12px}
h3{font-size:13px;font-weight:600;margin:18px 0 8px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
a{color:var(--accent)}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.muted{color:var(--muted)}
.top{display:flex;gap:16px;align-items:flex-start;justify-content:space-between;flex-wrap:wrap}
.kicker{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.06em;margin-bottom:4px}
.facts{display:flex;flex-wrap:wrap;gap:6px 22px;margin:12px 0 0;padding:0}
.facts div{display:flex;gap:6px;min-width:0}.facts dt{color:var(--muted)}.facts dd{margin:0;overflow-wrap:anywhere}
.theme{display:inline-flex;border:1px solid var(--border);border-radius:8px;overflow:hidden;background:var(--surface)}
.theme button{border:0;background:none;color:var(--muted);font:inherit;font-size:12px;padding:5px 10px;cursor:pointer}
.theme button[aria-pressed=true]{background:var(--sunken);color:var(--text);font-weight:600}
.banner{margin:18px 0 0;padding:12px 14px;border-radius:8px;border:1px solid var(--flaky);background:var(--flaky-bg);color:var(--text)}
.banner strong{color:var(--flaky)}
.banner.bad{border-color:var(--fail);background:var(--fail-bg)}.banner.bad strong{color:var(--fail)}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin-top:24px}
.tile{background:var(--surface);border:1px solid var(--border);border-radius:10px;padding:14px 16px;box-shadow:var(--shadow);min-width:0}
.tile .label{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.05em}
.tile .value{font-size:24px;font-weight:600;line-height:1.25;margin-top:4px;font-variant-numeric:tabular-nums}
.tile .value small{font-size:13px;font-weight:500;color:var(--muted);white-space:nowrap}
.tile .sub{font-size:12.5px;color:var(--muted);margin-top:4px;overflow-wrap:anywhere}
.card{background:var(--surface);border:1px solid var(--border);border-radius:10px;padding:14px 16px;box-shadow:var(--shadow)}
.reliability{display:flex;flex-wrap:wrap;gap:8px 28px;align-items:baseline}
.card .reliability+.reliability{margin-top:8px;padding-top:8px;border-top:1px solid var(--border)}
.reliability .k{font-variant-numeric:tabular-nums}.reliability b{font-weight:600}
.badge{justify-self:start;display:inline-flex;align-items:center;gap:5px;border-radius:999px;padding:1px 9px;font-size:12px;font-weight:600;white-space:nowrap}
.badge::before{font-weight:700}
.s-passing,.v-passed{color:var(--pass);background:var(--pass-bg)}.s-passing::before,.v-passed::before{content:"\\2713"}
.s-failing,.v-failed{color:var(--fail);background:var(--fail-bg)}.s-failing::before,.v-failed::before{content:"\\2717"}
.s-flaky{color:var(--flaky);background:var(--flaky-bg)}.s-flaky::before{content:"~"}
.s-no_verdict,.v-no_verdict,.s-agent_error,.v-agent_error{color:var(--none);background:var(--none-bg)}.s-no_verdict::before,.v-no_verdict::before{content:"\\2013"}.s-agent_error::before,.v-agent_error::before{content:"!"}
.s-agent_error,.v-agent_error{color:var(--fail)}
.s-user_error,.v-user_error{color:var(--none);background:var(--none-bg)}.s-user_error::before,.v-user_error::before{content:"\\2639"}
.s-not_decided,.v-not_decided{color:var(--none);background:var(--none-bg)}.s-not_decided::before,.v-not_decided::before{content:"?"}
.e-cut{color:var(--flaky);background:var(--flaky-bg)}.e-cut::before{content:"\\2702"}
.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:0 0 10px}
.filters input{flex:1 1 220px;min-width:0;font:inherit;padding:7px 10px;border:1px solid var(--border);border-radius:8px;background:var(--surface);color:var(--text)}
.chip{font:inherit;font-size:12.5px;padding:5px 10px;border:1px solid var(--border);border-radius:999px;background:var(--surface);color:var(--text);cursor:pointer}
.chip[aria-pressed=true]{border-color:var(--accent);box-shadow:inset 0 0 0 1px var(--accent)}
.list{background:var(--surface);border:1px solid var(--border);border-radius:10px;box-shadow:var(--shadow);overflow:hidden}
.row{display:grid;grid-template-columns:112px minmax(0,1fr) 120px 90px 130px;gap:12px;align-items:center;padding:9px 14px}
.list-head{font-size:12px;color:var(--muted);border-bottom:1px solid var(--border);background:var(--sunken)}
.list-head .num,.row .num{text-align:right;font-variant-numeric:tabular-nums}
details.scn{border-bottom:1px solid var(--border)}details.scn:last-child{border-bottom:0}
details.scn>summary{list-style:none;cursor:pointer}details.scn>summary::-webkit-details-marker{display:none}
details.scn>summary:hover{background:var(--sunken)}details.scn[open]>summary{background:var(--sunken);border-bottom:1px solid var(--border)}
.name{font-weight:600;overflow-wrap:anywhere}.name small{font-weight:400;color:var(--muted);margin-left:8px}
.tags{display:inline-flex;gap:4px;margin-left:6px}.tag{font-size:11px;color:var(--muted);border:1px solid var(--border);border-radius:4px;padding:0 5px;font-weight:400}
.bar{display:block;height:4px;border-radius:2px;background:var(--fail-bg);margin-top:4px;overflow:hidden}
.bar svg{display:block}.bar rect{fill:var(--pass)}
.trend{display:inline-flex;align-items:center;gap:6px;margin-left:8px;vertical-align:middle}
.spark{display:block;overflow:visible}.spark polyline,.spark .to-now{fill:none;stroke:var(--muted);stroke-width:1.4;stroke-linejoin:round}
.spark .to-now{stroke-dasharray:2 2}.spark circle{fill:var(--muted)}.spark circle.now{fill:var(--accent)}.spark .floor,.spark .gap{stroke:var(--border);stroke-width:1}
.tag.flaky-main{background:var(--flaky-bg);color:var(--flaky)}
.detail{padding:6px 18px 20px;min-width:0}
.text{white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-word}
.box{background:var(--sunken);border:1px solid var(--border);border-radius:8px;padding:10px 12px;margin:0}
ol.script{margin:0;padding-left:22px}ol.script li{white-space:pre-wrap;overflow-wrap:anywhere}
.held{list-style:none;margin:0;padding:0}.held li{display:grid;grid-template-columns:minmax(0,1fr) 170px;gap:12px;padding:6px 0;border-bottom:1px dashed var(--border)}
.held li:last-child{border-bottom:0}.held .num{text-align:right;font-variant-numeric:tabular-nums}
details.att{border:1px solid var(--border);border-radius:8px;margin:8px 0;background:var(--surface)}
details.att>summary{cursor:pointer;padding:8px 12px;display:flex;gap:10px;align-items:center;flex-wrap:wrap}
details.att[open]>summary{border-bottom:1px solid var(--border)}
.att-body{padding:10px 14px 14px}
.decisions{list-style:none;margin:0 0 12px;padding:0}.decisions li{display:grid;grid-template-columns:22px minmax(0,1fr);gap:6px;padding:4px 0}
.mark{font-weight:700}.mark.ok{color:var(--pass)}.mark.no{color:var(--fail)}
.decisions li.labelled{grid-template-columns:22px minmax(0,1fr) auto}
.label-pick{display:inline-flex;align-self:start;border:1px solid var(--border);border-radius:6px;overflow:hidden}
.label-pick button{border:0;background:var(--surface);color:var(--muted);font:inherit;font-size:12px;padding:2px 8px;cursor:pointer}
.label-pick button+button{border-left:1px solid var(--border)}
.label-pick button[data-pick=right][aria-pressed=true]{background:var(--pass-bg);color:var(--pass);font-weight:600}
.label-pick button[data-pick=wrong][aria-pressed=true]{background:var(--fail-bg);color:var(--fail);font-weight:600}
.labels-bar{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:0 0 12px;padding:10px 12px;border:1px solid var(--border);border-radius:8px;background:var(--surface)}
.labels-bar .chip:disabled{opacity:.5;cursor:default}
.reason{display:block;color:var(--muted);overflow-wrap:anywhere}
.review{border-left:3px solid var(--none);background:var(--none-bg);padding:8px 12px;border-radius:0 6px 6px 0;margin:8px 0;overflow-wrap:anywhere}.review ul{margin:6px 0 0;padding-left:20px}
.error{border-left:3px solid var(--fail);background:var(--fail-bg);padding:8px 12px;border-radius:0 6px 6px 0;margin:8px 0;overflow-wrap:anywhere;white-space:pre-wrap}
.dialogue{display:flex;flex-direction:column;gap:8px;margin-top:6px}
.turn{border:1px solid var(--border);border-radius:8px;padding:8px 12px;max-width:92%;min-width:0}
.turn.user{background:var(--user-bg);align-self:flex-start}.turn.agent{background:var(--surface);align-self:flex-end}
.turn.err{border-color:var(--fail)}
.turn-h{display:flex;justify-content:space-between;gap:16px;font-size:12px;color:var(--muted);margin-bottom:3px}
.turn-h .who{font-weight:600;color:var(--text)}
details.more{display:inline}details.more>summary{display:inline;cursor:pointer;color:var(--accent);font-size:12.5px;white-space:normal}
.cut{font-size:12px;color:var(--muted);margin:6px 0 0}
.tools{list-style:none;margin:2px 0 6px;padding:0;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;color:var(--muted);overflow-wrap:anywhere}
.tools li::before{content:"⚙ "}.tools .tool{font-weight:600;color:var(--text)}.tools .result{color:var(--text)}
.tools .served-by{font-family:system-ui,sans-serif;font-size:11px;border:1px solid var(--border);border-radius:3px;padding:0 4px;white-space:nowrap}
.note{font-size:12.5px;color:var(--muted)}
.desc{margin:0 0 12px}
.empty{padding:18px;color:var(--muted);text-align:center}
table.runs{width:100%;border-collapse:collapse;background:var(--surface);border:1px solid var(--border);border-radius:10px;overflow:hidden}
table.runs th,table.runs td{text-align:left;padding:9px 14px;border-bottom:1px solid var(--border);vertical-align:top;overflow-wrap:break-word}
table.runs td.nowrap,table.runs td.num{white-space:nowrap}
table.runs th{font-size:12px;color:var(--muted);font-weight:500;background:var(--sunken)}
table.runs td.num,table.runs th.num{text-align:right;font-variant-numeric:tabular-nums}
.state-finished{color:var(--pass)}.state-interrupted{color:var(--fail)}.state-running{color:var(--flaky)}
.runcards{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin-top:18px}.runcard{min-width:0}.runcard .name{overflow-wrap:anywhere;margin:2px 0 4px}
.verdict{margin-top:18px;border-left:4px solid var(--none)}.verdict.d-worse{border-left-color:var(--fail)}.verdict.d-better{border-left-color:var(--pass)}
.gate{margin:12px 0 0;border-left:4px solid var(--none)}.gate.g-fail{border-left-color:var(--fail)}.gate.g-pass{border-left-color:var(--pass)}.gate.g-inconclusive{border-left-color:var(--flaky)}
.verdict-h{display:flex;gap:12px;align-items:baseline;font-size:15px;font-weight:500}.verdict-h .badge{font-size:14px;padding:2px 12px}.verdict .note{margin:8px 0 0}
.d-worse{color:var(--fail);background:var(--fail-bg)}.d-worse::before{content:"\\25BC"}
.d-better{color:var(--pass);background:var(--pass-bg)}.d-better::before{content:"\\25B2"}
.d-within-noise{color:var(--none);background:var(--none-bg)}.d-within-noise::before{content:"~"}
.verdict.d-worse,.verdict.d-better,.verdict.d-within-noise{color:var(--text);background:var(--surface)}.verdict::before{content:none}
.g-worse{color:var(--fail);background:var(--fail-bg)}.g-worse::before{content:"\\25BC"}
.g-better{color:var(--pass);background:var(--pass-bg)}.g-better::before{content:"\\25B2"}
.g-same{color:var(--none);background:var(--none-bg)}.g-same::before{content:"~"}
.g-not_compared{color:var(--none);background:var(--none-bg)}.g-not_compared::before{content:"\\2013"}
.ctiles{grid-template-columns:repeat(auto-fit,minmax(230px,1fr))}.ctile .value{font-size:18px}.arrow{color:var(--muted);font-weight:400}
.chips{display:flex;flex-wrap:wrap;gap:6px;margin-top:6px}
.chg{display:inline-block;border-radius:6px;padding:1px 7px;font-size:12.5px;font-weight:600;font-variant-numeric:tabular-nums}.chg small{font-weight:500}
.chg.worse{color:var(--fail);background:var(--fail-bg)}.chg.better{color:var(--pass);background:var(--pass-bg)}
.chg.within-noise{color:var(--none);background:var(--none-bg)}.chg.neutral{color:var(--muted);padding-left:0;font-weight:500}
.crow{grid-template-columns:120px minmax(0,1fr) 150px 150px 80px 110px}.crow.wm{grid-template-columns:120px minmax(0,1fr) 150px 150px 80px 110px minmax(0,1.2fr)}.moved{font-size:13px;overflow-wrap:anywhere}
.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px;align-items:start}
.side-h{font-weight:600;font-size:12.5px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
table.held2 td,table.held2 th{padding:6px 10px}
section[data-group] h2 .muted{font-weight:400}
.banner ul{margin:6px 0 0;padding-left:20px}
.errors-seen code{overflow-wrap:anywhere}
footer{margin-top:36px;font-size:12px;color:var(--muted)}
@media (max-width:720px){.row{grid-template-columns:96px minmax(0,1fr) 80px}.row .opt{display:none}.crow,.crow.wm{grid-template-columns:repeat(4,minmax(0,1fr));gap:4px 10px}.crow>:nth-child(2){grid-column:2/5}.crow>.moved{grid-column:1/5}.crow>.num,.crow .opt{display:block;text-align:left}.runcards,.pair{grid-template-columns:1fr}main{padding:18px 12px 48px}}
@media print{.theme,.filters,.labels-bar,.label-pick{display:none}details.scn>summary{break-inside:avoid}}
`
