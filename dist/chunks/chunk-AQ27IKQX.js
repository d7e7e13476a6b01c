import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{c as _,i as h,j as b,l as D}from"./chunk-CPPDGGEL.js";import{a as H,b as M,c as I,d,e as c,f as v,h as m,n as f,p as j,r as P,t as k}from"./chunk-443IY3KA.js";import{b as w}from"./chunk-ELYOBAI2.js";import{a as y}from"./chunk-ZL7NNOHF.js";import{h as C}from"./chunk-NSUJTOJD.js";import{a as o}from"./chunk-4KE5IX3I.js";import{mkdir as Be,readdir as Le}from"node:fs/promises";import{join as Z,relative as Oe,resolve as G,sep as ze}from"node:path";import{randomBytes as xe}from"node:crypto";import{readdir as we,rename as ye,rm as N,stat as ke,writeFile as Se}from"node:fs/promises";import{basename as $e,dirname as Te,join as Ae}from"node:path";var S=".tmp";function Re(e){return`${e}.${xe(6).toString("hex")}${S}`}o(Re,"temporaryPath");function Ee(e,t){return e.startsWith(`${t}.`)&&e.endsWith(S)}o(Ee,"isTemporaryOf");async function U(e,t){let r=Re(e);try{await Se(r,t),await ye(r,e)}catch(n){throw await N(r,{force:!0}),n}}o(U,"writeFileAtomic");async function Ce(e,t,r=0,n=Date.now()){let s;try{s=await we(e)}catch{return 0}let i=0;for(let p of s.filter(l=>l.endsWith(S)&&t(l))){let l=Ae(e,p);try{if(r>0&&n-(await ke(l)).mtimeMs<r)continue;await N(l,{force:!0}),i++}catch{}}return i}o(Ce,"removeTemporaries");var B=3600*1e3;async function L(e,t){let r=$e(e);return Ce(Te(e),n=>Ee(n,r),t)}o(L,"removeOldTemporariesOf");function O(e){let t=[...e.scenarios.values()].filter(n=>n.attempts.length>0).map(n=>({id:n.id,passed:n.passed,failed:n.failed,judged:n.passed+n.failed,attempts:n.attempts.length,agentErrors:n.agentErrors,noVerdicts:n.noVerdicts,userErrors:n.userErrors,notDecided:n.notDecided})),r=o(n=>t.reduce((s,i)=>s+i[n],0),"sum");return{attempts:r("attempts"),passed:r("passed"),failed:r("failed"),judged:r("judged"),agentErrors:r("agentErrors"),noVerdicts:r("noVerdicts"),userErrors:r("userErrors"),notDecided:r("notDecided"),scenarios:t}}o(O,"runCounts");function It(e){return e.judged?e.passed/e.judged:null}o(It,"passRate");var g=class{static{o(this,"SafeHtml")}value;constructor(t){this.value=t}toString(){return this.value}},_e={"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"};function De(e){return w(e).replace(/[&<>"']/g,t=>_e[t])}o(De,"escapeHtml");function z(e){if(e instanceof g)return e.value;if(e==null||e===!1||e===!0)return"";if(typeof e=="number")return String(e);if(typeof e=="string")return De(e);let t="";for(let r of e)t+=z(r);return t}o(z,"render");function a(e,...t){let r=e[0];for(let n=0;n<t.length;n++)r+=z(t[n])+e[n+1];return new g(r)}o(a,"html");function u(e){return new g(e)}o(u,"trusted");var He={"<":"\\u003c",">":"\\u003e","&":"\\u0026","\u2028":"\\u2028","\u2029":"\\u2029"};function F(e){return JSON.stringify(e,(t,r)=>typeof r=="string"?w(r):r).replace(/[<>&\u2028\u2029]/g,t=>He[t])}o(F,"jsonForScript");function V(e,t){return`${e}-${t.replace(/[^A-Za-z0-9.-]/g,r=>`_${r.codePointAt(0).toString(16)}_`)}`}o(V,"anchorFor");import{createHash as Me}from"node:crypto";var $=`
(function () {
  'use strict';
  var KEY = 'convy-theme';
  var root = document.documentElement;

  function storedTheme() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function storeTheme(choice) {
    try {
      if (choice === 'system') window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, choice);
    } catch (e) { /* storage can be off (file pages, sandboxed viewers): the choice lasts this visit */ }
  }
  function applyTheme(choice) {
    if (choice !== 'light' && choice !== 'dark') choice = 'system';
    if (choice === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', choice);
    var buttons = document.querySelectorAll('[data-theme-choice]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute('aria-pressed', String(buttons[i].getAttribute('data-theme-choice') === choice));
    }
  }
  applyTheme(storedTheme());

  function node(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== null && text !== undefined && text !== '') el.textContent = text;
    return el;
  }

  // A turn as data: [role, label, meta, head, rest, moreLabel, cutNote, error, tools?].
  function drawTurn(t) {
    var box = node('div', 'turn ' + t[0] + (t[7] ? ' err' : ''));
    var head = node('div', 'turn-h');
    head.appendChild(node('span', 'who', t[1]));
    if (t[2]) head.appendChild(node('span', 'meta', t[2]));
    box.appendChild(head);
    if (t[8]) {
      var tools = node('ul', 'tools');
      tools.setAttribute('aria-label', 'Tool calls');
      for (var i = 0; i < t[8].length; i++) {
        var call = node('li');
        call.appendChild(node('span', 'tool', t[8][i][0]));
        if (t[8][i][1]) { call.appendChild(document.createTextNode(' ')); call.appendChild(node('span', 'args', t[8][i][1])); }
        tools.appendChild(call);
      }
      box.appendChild(tools);
    }
    var msg = node('div', 'text', t[3]);
    if (t[4]) {
      var more = node('details', 'more');
      more.appendChild(node('summary', null, t[5]));
      more.appendChild(document.createTextNode(t[4]));
      msg.appendChild(more);
    }
    box.appendChild(msg);
    if (t[6]) box.appendChild(node('p', 'cut', t[6]));
    if (t[7]) box.appendChild(node('div', 'error', t[7]));
    return box;
  }

  // A decision as data: [held, check kind ('' for a claim), text, reason].
  function drawDecisions(rows) {
    var list = node('ul', 'decisions');
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var item = node('li');
      var mark = node('span', row[0] ? 'mark ok' : 'mark no', row[0] ? '\u2713' : '\u2717');
      mark.setAttribute('role', 'img');
      mark.setAttribute('aria-label', row[0] ? 'held' : 'did not hold');
      item.appendChild(mark);
      var text = node('span', 'text');
      if (row[1]) {
        text.appendChild(node('code', null, row[1]));
        text.appendChild(document.createTextNode(' '));
        text.appendChild(node('span', 'mono', row[2]));
      } else {
        text.appendChild(document.createTextNode(row[2]));
      }
      text.appendChild(node('span', 'reason', row[3]));
      item.appendChild(text);
      list.appendChild(item);
    }
    return list;
  }

  function drawDialogues(container) {
    var slots = container.querySelectorAll('[data-dialogue]:not([data-drawn])');
    for (var i = 0; i < slots.length; i++) {
      var slot = slots[i];
      slot.setAttribute('data-drawn', '');
      var source = document.getElementById(slot.getAttribute('data-dialogue'));
      var data = null;
      try { data = source ? JSON.parse(source.textContent) : null; } catch (e) { data = null; }
      slot.textContent = '';
      if (!data || !data.t) { slot.appendChild(node('p', 'note', 'This dialogue could not be read from the page; attempts.jsonl has it.')); continue; }
      if (data.d && data.d.length) slot.parentNode.insertBefore(drawDecisions(data.d), slot);
      if (data.t.length === 0) { slot.appendChild(node('p', 'note', 'No turns were played.')); continue; }
      var fragment = document.createDocumentFragment();
      for (var j = 0; j < data.t.length; j++) fragment.appendChild(drawTurn(data.t[j]));
      slot.appendChild(fragment);
    }
  }

  // Details parsed open (failed attempts) fire toggle at load; drawing waits until they can be seen.
  function isShown(el) {
    for (var up = el.parentElement; up; up = up.parentElement) {
      if (up.tagName === 'DETAILS' && !up.open) return false;
    }
    return true;
  }

  function setAddress(id) {
    var url = location.pathname + location.search + (id ? '#' + id : '');
    try { history.replaceState(null, '', url); } catch (e) { if (id) location.hash = id; }
  }

  function currentAnchor() {
    var id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { /* keep it raw */ }
    return id;
  }

  // A glob (* any run of characters, ? one) matched against the whole of a name, as --scenarios does.
  function globMatch(pattern, text) {
    var p = 0, t = 0, star = -1, mark = 0;
    while (t < text.length) {
      if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) { p++; t++; }
      else if (p < pattern.length && pattern[p] === '*') { star = p++; mark = t; }
      else if (star !== -1) { p = star + 1; t = ++mark; }
      else return false;
    }
    while (p < pattern.length && pattern[p] === '*') p++;
    return p === pattern.length;
  }

  // Text is looked for anywhere in what a row is searched by; a glob must match one of its names
  // (id, file, tag) whole, so refund-* is the scenarios whose id starts with refund-.
  function matchesQuery(row, query) {
    if (query === '') return true;
    if (query.indexOf('*') === -1 && query.indexOf('?') === -1) return (row.getAttribute('data-search') || '').indexOf(query) !== -1;
    var names = (row.getAttribute('data-names') || row.getAttribute('data-search') || '').split(' ');
    for (var i = 0; i < names.length; i++) if (globMatch(query, names[i])) return true;
    return false;
  }

  function setUpFilter(resetHook) {
    var input = document.getElementById('filter-text');
    var chips = document.querySelectorAll('[data-filter-status]');
    var rows = document.querySelectorAll('[data-row]');
    var counter = document.getElementById('filter-count');
    var status = 'all';
    function apply() {
      var query = input ? input.value.trim().toLowerCase() : '';
      var shown = 0;
      for (var i = 0; i < rows.length; i++) {
        var row = rows[i];
        var ok = (status === 'all' || row.getAttribute('data-status') === status) && matchesQuery(row, query);
        row.hidden = !ok;
        if (ok) shown++;
      }
      var groups = document.querySelectorAll('[data-group]');
      for (var g = 0; g < groups.length; g++) {
        groups[g].hidden = groups[g].querySelector('[data-row]:not([hidden])') === null;
      }
      for (var c = 0; c < chips.length; c++) {
        chips[c].setAttribute('aria-pressed', String(chips[c].getAttribute('data-filter-status') === status));
      }
      if (counter) counter.textContent = shown === rows.length ? 'All ' + rows.length + ' shown' : shown + ' of ' + rows.length + ' shown';
    }
    if (input) input.addEventListener('input', apply);
    for (var c = 0; c < chips.length; c++) {
      chips[c].addEventListener('click', function (event) {
        status = event.currentTarget.getAttribute('data-filter-status');
        apply();
      });
    }
    resetHook.reset = function () { if (input) input.value = ''; status = 'all'; apply(); };
    apply();
  }

  function openFromAddress(filter) {
    var id = currentAnchor();
    var target = id ? document.getElementById(id) : null;
    if (!target) return;
    if (target.hidden && filter.reset) filter.reset();
    for (var el = target; el; el = el.parentElement) {
      if (el.tagName === 'DETAILS') el.open = true;
    }
    drawDialogues(target);
    target.scrollIntoView({ block: 'start' });
  }

  function ready() {
    applyTheme(storedTheme());
    var needsJs = document.querySelectorAll('[data-needs-js]');
    for (var i = 0; i < needsJs.length; i++) needsJs[i].hidden = false;
    var withoutJs = document.querySelectorAll('[data-without-js]');
    for (var n = 0; n < withoutJs.length; n++) withoutJs[n].hidden = true;
    var themeButtons = document.querySelectorAll('[data-theme-choice]');
    for (var b = 0; b < themeButtons.length; b++) {
      themeButtons[b].addEventListener('click', function (event) {
        var choice = event.currentTarget.getAttribute('data-theme-choice');
        applyTheme(choice);
        storeTheme(choice);
      });
    }
    var filter = {};
    setUpFilter(filter);
    document.addEventListener('toggle', function (event) {
      var el = event.target;
      if (!el || el.tagName !== 'DETAILS' || !el.open) {
        if (el && el.hasAttribute && el.hasAttribute('data-anchor') && currentAnchor() === el.id) setAddress('');
        return;
      }
      if (isShown(el)) drawDialogues(el);
      if (el.hasAttribute('data-anchor')) setAddress(el.id);
    }, true);
    window.addEventListener('hashchange', function () { openFromAddress(filter); });
    openFromAddress(filter);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready);
  else ready();
})();
`;var q="color-scheme:dark;--bg:#0f1217;--surface:#171b22;--sunken:#11151b;--text:#e4e8ee;--muted:#98a1ab;--border:#2c333c;--accent:#6aa8ff;--pass:#5ccf7f;--pass-bg:rgba(60,180,100,.14);--fail:#ff7b72;--fail-bg:rgba(248,81,73,.14);--flaky:#e3b341;--flaky-bg:rgba(210,153,34,.14);--none:#98a1ab;--none-bg:rgba(140,150,160,.14);--user-bg:#16202e;--shadow:none",T=`
:root{color-scheme:light;--bg:#f6f7f9;--surface:#fff;--sunken:#f0f2f5;--text:#1f2328;--muted:#5d6670;--border:#d9dee4;--accent:#0a61c9;
--pass:#17723a;--pass-bg:#dff5e5;--fail:#c0262d;--fail-bg:#fde8e8;--flaky:#8a5a00;--flaky-bg:#fdf1cc;--none:#5d6670;--none-bg:#eceff3;
--user-bg:#eef3fb;--shadow:0 1px 2px rgba(20,30,40,.06)}
:root[data-theme=dark]{${q}}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${q}}}
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
.s-no_verdict,.v-no_verdict,.v-agent_error{color:var(--none);background:var(--none-bg)}.s-no_verdict::before,.v-no_verdict::before{content:"\\2013"}
.v-agent_error{color:var(--fail)}.v-agent_error::before{content:"!"}
.v-user_error{color:var(--none);background:var(--none-bg)}.v-user_error::before{content:"\\2639"}
.v-not_decided{color:var(--none);background:var(--none-bg)}.v-not_decided::before{content:"?"}
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
.tools li::before{content:"\u2699 "}.tools .tool{font-weight:600;color:var(--text)}
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
.crow{grid-template-columns:120px minmax(0,1fr) 150px 150px 80px 110px}
.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px;align-items:start}
.side-h{font-weight:600;font-size:12.5px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
table.held2 td,table.held2 th{padding:6px 10px}
section[data-group] h2 .muted{font-weight:400}
.banner ul{margin:6px 0 0;padding-left:20px}
footer{margin-top:36px;font-size:12px;color:var(--muted)}
@media (max-width:720px){.row,.crow{grid-template-columns:96px minmax(0,1fr) 80px}.crow .num:nth-of-type(n+3){display:none}.runcards,.pair{grid-template-columns:1fr}.row .opt{display:none}main{padding:18px 12px 48px}}
@media print{.theme,.filters{display:none}details.scn>summary{break-inside:avoid}}
`;function W(e){return`'sha256-${Me("sha256").update(e,"utf8").digest("base64")}'`}o(W,"cspHash");var Ie=["default-src 'none'",`script-src ${W($)}`,`style-src ${W(T)}`,"base-uri 'none'","form-action 'none'"].join("; "),je=a`<div class="theme" role="group" aria-label="Theme" data-needs-js hidden>${["system","light","dark"].map(e=>a`<button type="button" data-theme-choice="${e}" aria-pressed="false">${e[0].toUpperCase()+e.slice(1)}</button>`)}</div>`;function Pe(e){return`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${Ie}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="convy-ci ${y}">
`+a`<title>${e}</title>\n`.value+`<style>${T}</style>
<script>${$}</script>
</head>
<body>
<main>
`}o(Pe,"pageStart");var Ne=`
</main>
`,Ue=`</body>
</html>
`;function Y(){return a`<footer>Made by convy-ci ${y}. This page works offline and runs no code but its own.</footer>`}o(Y,"footer");function K(e,t){return Pe(e)+t.value+Ne+Ue}o(K,"renderPage");function J(e,t,r=u("")){return a`<div class="top"><div><div class="kicker">${e}</div><h1>${t}</h1></div>${je}</div>${r}`}o(J,"pageTop");function Fe(e,t){return[...Oe(e,t).split(ze),_].map(encodeURIComponent).join("/")}o(Fe,"hrefFor");async function Ve(e,t,r){let n=await h(t),s={id:n.id,href:Fe(e,t),agent:n.agent.name,state:n.state,startedAt:n.startedAt,passed:0,decided:0,attempts:0,expected:n.scenarios.length*n.settings.k,errors:0};if(r){let i=O(r);return{...s,attempts:i.attempts,decided:i.judged,passed:i.passed,errors:i.attempts-i.judged}}for await(let i of b(t))s.attempts++,i.verdict==="passed"||i.verdict==="failed"?s.decided++:s.errors++,i.verdict==="passed"&&s.passed++;return s}o(Ve,"indexEntry");function qe(e){return[...e].sort((t,r)=>Date.parse(r.startedAt)-Date.parse(t.startedAt)||(t.id<r.id?1:t.id>r.id?-1:0))}o(qe,"newestFirst");function We(e){return a`<span class="state-${e}">${e==="finished"?"Finished":e==="interrupted"?"Interrupted":"Running"}</span>`}o(We,"stateCell");function Ye(e){let t=e.decided===0?"\u2013":`${v(e.passed/e.decided)} \xB7 ${d(e.passed)} of ${d(e.decided)}`,r=e.attempts===e.expected?d(e.attempts):`${d(e.attempts)} of ${d(e.expected)}`,n=e.id.startsWith(`${e.agent}/`)?e.id.slice(e.agent.length+1):e.id;return a`<tr><td><a href="${e.href}" title="${e.id}">${n}</a></td><td>${e.agent}</td><td class="nowrap">${We(e.state)}</td><td class="num">${t}</td><td class="num">${r}${e.errors?a` <span class="muted" title="attempts without a verdict">· ${d(e.errors)} ⚠</span>`:""}</td><td class="nowrap">${P(e.startedAt)}</td></tr>`}o(Ye,"runRow");function Ke(e,t=[],r=[]){let n=qe(e),s=a`${J("convy-ci \xB7 results","Runs")}<p class="muted">${d(n.length)} run(s), newest first. Each report is one file that works offline.</p>${n.length===0?a`<p class="empty card">No runs yet: <code>convy-ci run &lt;agent&gt;</code> records one here.</p>`:a`<table class="runs"><thead><tr><th>Run</th><th>Agent</th><th>State</th><th class="num">Pass rate</th><th class="num">Attempts</th><th>Started</th></tr></thead><tbody>${n.map(Ye)}</tbody></table>`}${t.length?a`<h2>Unreadable runs</h2><ul>${t.map(i=>a`<li><strong>${i.id}</strong>: <span class="text">${i.problem}</span></li>`)}</ul>`:""}${r.length?a`<h2>Comparisons</h2><ul>${r.map(i=>a`<li><a href="${`compare/${encodeURIComponent(i)}`}">${i.replace(/\.html$/,"")}</a></li>`)}</ul>`:""}${Y()}`;return K("convy-ci runs",s)}o(Ke,"renderIndex");async function Je(e){try{return(await Le(Z(e,"compare"))).filter(t=>t.endsWith(".html")).sort().reverse()}catch{return[]}}o(Je,"comparePages");async function ar(e,t){let r=[],n=[];for(let i of await D(e))try{r.push(await Ve(e,i.dir,t&&G(t.dir)===G(i.dir)?t.tally:void 0))}catch(p){n.push({id:i.id,problem:C(p)})}let s=Z(e,"index.html");return await Be(e,{recursive:!0}),await U(s,Ke(r,n,await Je(e))),await L(s,B),s}o(ar,"writeIndex");function Q(e,t){return e+t===0?"no_verdict":t===0?"passing":e===0?"failing":"flaky"}o(Q,"scenarioStatus");function X(e,t){return`${e} ${t}`}o(X,"checkKey");function ee(e,t){let r={id:e,scenario:t,attempts:[],passed:0,failed:0,agentErrors:0,noVerdicts:0,userErrors:0,notDecided:0,claims:new Map,checks:new Map,answers:0,answerSeconds:0,slowestAnswer:0,firstTokens:0,firstTokenSeconds:0,tokenAttempts:0,tokensIn:0,tokensOut:0,costUsd:0,costedAttempts:0};for(let n of t?.judge??[])r.claims.set(n,{held:0,decided:0});for(let n of t?.checks??[])r.checks.set(X(n.kind,n.value),{kind:n.kind,value:n.value,held:0,decided:0});return r}o(ee,"emptyScenario");function te(e){let t=new Map;for(let r of e.scenarios)t.set(r.id,ee(r.id,r));return{manifest:e,scenarios:t,attempts:0,unknownScenarioAttempts:0,skippedLines:0,slowest:null,costUsd:0,costedAttempts:0,answerTimes:[],firstTokenTimes:[]}}o(te,"startTally");function re(e,t,r={kind:"none"}){let n=e.scenarios.get(t.scenario);n||(n=ee(t.scenario,null),e.scenarios.set(t.scenario,n)),e.attempts++,n.scenario===null&&e.unknownScenarioAttempts++,M(n,t.verdict),Ze(n,t);let s=Qe(e,n,t);t.agentTokens&&(n.tokenAttempts++,n.tokensIn+=t.agentTokens.input,n.tokensOut+=t.agentTokens.output);let i=H(t);i!==null&&(e.costUsd+=i,e.costedAttempts++,n.costUsd+=i,n.costedAttempts++);let p={attempt:t.attempt,verdict:t.verdict,error:t.error===null?null:c(t.error),claims:t.claims.map(l=>({claim:c(l.claim,1e3),pass:l.pass,reason:c(l.reason)})),checks:t.checks.map(l=>({kind:l.kind,value:c(l.value,1e3),pass:l.pass,detail:c(l.detail)})),turns:t.turns.length,endedBy:t.endedBy??null,review:t.review?Ge(t.review):null,failedTurn:Xe(t),agentSeconds:s,agentTokens:t.agentTokens,seconds:t.seconds,startedAt:t.startedAt,costUsd:i,dialogue:r};return n.attempts.push(p),p}o(re,"addAttempt");function Ge(e){return{...e,mistakes:e.mistakes.map(t=>({...t,note:c(t.note)})),reason:c(e.reason),error:e.error===null?null:c(e.error)}}o(Ge,"cappedReview");function Ze(e,t){for(let r of t.claims){let n=e.claims.get(r.claim)??{held:0,decided:0};n.decided++,r.pass&&n.held++,e.claims.set(r.claim,n)}for(let r of t.checks){let n=X(r.kind,r.value),s=e.checks.get(n)??{kind:r.kind,value:r.value,held:0,decided:0};s.decided++,r.pass&&s.held++,e.checks.set(n,s)}}o(Ze,"countDecisions");function Qe(e,t,r){let n=0,s=t.scenario!==null;for(let i of I(r.turns))n+=i.seconds,t.answers++,t.answerSeconds+=i.seconds,t.slowestAnswer=Math.max(t.slowestAnswer,i.seconds),i.firstTokenSeconds!==void 0&&(t.firstTokens++,t.firstTokenSeconds+=i.firstTokenSeconds),s&&(e.answerTimes.push(i.seconds),i.firstTokenSeconds!==void 0&&e.firstTokenTimes.push(i.firstTokenSeconds)),(!e.slowest||i.seconds>e.slowest.seconds)&&(e.slowest={seconds:i.seconds,scenario:r.scenario,attempt:r.attempt});return n}o(Qe,"countAnswers");function Xe(e){let t={user:0,agent:0};for(let r of e.turns)if(t[r.role]++,r.error!==null)return{role:r.role,nth:t[r.role]};return null}o(Xe,"failedTurn");function ne(e){for(let t of e.scenarios.values())t.attempts.sort((r,n)=>r.attempt-n.attempt);return e}o(ne,"finishTally");async function fr(e,t={}){let r=te(t.manifest??await h(e));for await(let n of b(e,()=>r.skippedLines++))re(r,n,t.dialogue?await t.dialogue(n):void 0);return ne(r)}o(fr,"readTally");function x(e,t){return[...e.map(r=>[r.pass,"",c(r.claim,1e3),c(r.reason)]),...t.map(r=>[r.pass,r.kind,c(r.value,1e3),c(r.detail)])]}o(x,"decisionRows");function et(e){return e?a`<span class="mark ok" role="img" aria-label="held">✓</span>`:a`<span class="mark no" role="img" aria-label="did not hold">✗</span>`}o(et,"mark");function oe(e){return e.length===0?a``:a`<ul class="decisions">${e.map(([t,r,n,s])=>a`<li>${et(t)}<span class="text">${r?a`<code>${r}</code> <span class="mono">${n}</span>`:n}<span class="reason">${s}</span></span></li>`)}</ul>`}o(oe,"decisionsMarkup");function tt(e){if(e.role!=="agent")return"";let t=[f(e.seconds)];return e.firstTokenSeconds!==void 0&&t.push(`first token ${f(e.firstTokenSeconds)}`),e.tokens&&t.push(`${d(e.tokens.input)} in / ${d(e.tokens.output)} out tokens`),t.join(" \xB7 ")}o(tt,"answerMeta");function rt(e){return(e.toolCalls??[]).map(t=>[c(t.name,200),t.arguments===void 0?"":c(JSON.stringify(t.arguments)??"",1e3)])}o(rt,"toolRows");function nt(e){if(e.error===null)return"";let t=k(e.error,2e3,2e3),r=t.length>t.head.length?` \u2026 (${d(t.length)} characters in all)`:"";return`${e.role==="agent"?"Agent error":"Simulated user failed"}: ${t.head}${r}`}o(nt,"errorLine");function ae(e){let t=k(e.text),r=t.head.length+t.rest.length,n=[e.role,e.role==="agent"?"Agent":"User",tt(e),t.head,t.rest,t.rest?`Show all ${d(Math.min(t.length,r))} characters`:"",r<t.length?`The page keeps the first ${d(r)} of ${d(t.length)} characters; attempts.jsonl has all of them.`:"",nt(e)],s=rt(e);return s.length>0&&n.push(s),n}o(ae,"turnRow");function ot([e,t,r,n,s,i,p,l,E]){return a`<div class="turn ${e}${l?" err":""}"><div class="turn-h"><span class="who">${t}</span>${r?a`<span class="meta">${r}</span>`:""}</div>${E?at(E):""}<div class="text">${n}${s?a`<details class="more"><summary>${i}</summary>${s}</details>`:""}</div>${p?a`<p class="cut">${p}</p>`:""}${l?a`<div class="error">${l}</div>`:""}</div>`}o(ot,"turnMarkup");function at(e){return a`<ul class="tools" aria-label="Tool calls">${e.map(([t,r])=>a`<li><span class="tool">${t}</span>${r?a` <span class="args">${r}</span>`:""}</li>`)}</ul>`}o(at,"toolsMarkup");function se(e){return e.length===0?a`<div class="dialogue"><p class="note">No turns were played.</p></div>`:a`<div class="dialogue">${e.map(t=>ot(ae(t)))}</div>`}o(se,"dialogueMarkup");function ie(e){return a`<div class="dialogue" data-dialogue="${e}"></div>`}o(ie,"lazyDialogueMarkup");var $r=a`<p class="banner" data-without-js>This run is large, so its dialogues are embedded as data that the page's script draws when a scenario opens. With JavaScript off, every verdict and reason is here; the dialogues are in attempts.jsonl.</p>`;function de(e,t){let r=t.verdict==="passed",n={t:t.turns.map(ae)};return r&&(n.d=x(t.claims,t.checks)),{slot:{kind:"lazy",id:e,decisions:r},block:`<script type="application/json" id="${e}">${F(n)}</script>
`}}o(de,"embedAttempt");import{once as st}from"node:events";import{createReadStream as it,createWriteStream as dt}from"node:fs";import{rm as lt}from"node:fs/promises";var Dr=3e6;var le=class{constructor(t,r){this.mode=t;this.file=r}mode;file;static{o(this,"DialogueSpool")}stream=null;pending=[];pendingLength=0;blocks=0;slot=o(async t=>{if(this.mode==="inline")return{kind:"inline",markup:se(t.turns).value};let{slot:r,block:n}=de(`d-${this.blocks++}`,t);return this.pending.push(n),this.pendingLength+=n.length,this.pendingLength>=1<<20&&await this.flush(),r},"slot");async copyTo(t){if(await this.flush(),!!this.stream){await ct(this.stream);for await(let r of it(this.file))await ce(t,r)}}async dispose(){this.stream?.destroy(),await lt(this.file,{force:!0})}async flush(){let t=this.pending.join("");this.pending=[],this.pendingLength=0,t&&(this.stream??=dt(this.file),await ce(this.stream,t))}};async function ce(e,t){e.write(t)||await st(e,"drain")}o(ce,"writeChunk");async function ct(e){await new Promise((t,r)=>{e.once("error",r),e.end(t)})}o(ct,"closeStream");var pt={failing:"Failing",flaky:"Flaky",passing:"Passing",no_verdict:"No verdict"},jr=["failing","flaky","no_verdict","passing"],ut={passed:"Passed",failed:"Failed",agent_error:"Agent error",no_verdict:"No verdict",user_error:"User error",not_decided:"Not decided"};function pe(e){return a`<span class="badge s-${e}">${pt[e]}</span>`}o(pe,"statusBadge");function ue(e){return a`<span class="badge v-${e}">${ut[e]}</span>`}o(ue,"verdictBadge");function me(e,t){return mt(e,t,({passed:r,total:n})=>{let s=1;for(let i=0;i<t;i++)s*=(r-i)/(n-i);return Math.max(0,s)})}o(me,"passHatK");function mt(e,t,r){let n=0,s=0;for(let i of e)i.total<t||(n+=r(i),s++);return{k:t,value:s===0?null:n/s,scenarios:s,skipped:e.length-s}}o(mt,"averageOver");var ft={revealed_early:"revealed everything early",invented_fact:"invented a fact",stopped_early:"stopped before the agent acted",broke_character:"broke character",ignored_instructions:"ignored its instructions"};function fe(e){if(e===null)return u("");let t=a`<span class="muted">Reviewed by ${e.model}.</span>`;if(e.error!==null)return a`<div class="note">The review of the simulated user failed, so this attempt counts as failed: ${e.error} ${t}</div>`;let r=e.mistakes.length?a`<ul>${e.mistakes.map(s=>a`<li><strong>${ft[s.kind]}</strong> (user line ${s.line}): ${s.note}</li>`)}</ul>`:"",n=e.decided?a`<strong>User error:</strong> the simulated user's own mistake decided this attempt, so it is left out of the pass rate.`:e.mistakes.length?a`<strong>Reviewed:</strong> the simulated user's mistakes did not decide this attempt; it counts as failed.`:a`<strong>Reviewed:</strong> the simulated user made no mistake; the failure is the agent's.`;return a`<div class="review${e.decided?" decided":""}">${n} ${e.reason} ${t}${r}</div>`}o(fe,"reviewBlock");var gt={user_stop:"the user ended it",max_turns:"cut off at max_turns, before the user ended it",stop_check:"ended at an answer that broke a fatal check",agent_error:"ended by an agent error",model_error:"ended when convy-ci's simulated user failed",interrupted:"interrupted"};function ht(e){let t=[m(e.turns,"turn"),...e.endedBy?[gt[e.endedBy]]:[],`${f(e.agentSeconds)} answering`];return e.agentTokens&&t.push(`${d(e.agentTokens.input)} in / ${d(e.agentTokens.output)} out tokens`),e.failedTurn&&t.push(e.failedTurn.role==="agent"?`broke at answer ${e.failedTurn.nth}`:`the simulated user failed at line ${e.failedTurn.nth}`),e.costUsd!==null&&t.push(`models ${j(e.costUsd)}`),t.join(" \xB7 ")}o(ht,"summaryFacts");function bt(e){if(e.error===null)return u("");let t=e.verdict==="agent_error"?"Agent error":e.verdict==="no_verdict"?"No verdict":"Error";return a`<div class="error"><strong>${t}:</strong> ${e.error}</div>`}o(bt,"errorBlock");function vt(e){if(e.dialogue.kind!=="lazy"||!e.dialogue.decisions)return oe(x(e.claims,e.checks));let t=[e.claims.length?m(e.claims.length,"claim"):"",e.checks.length?m(e.checks.length,"check"):""].filter(Boolean);return t.length?a`<p class="note">${t.join(" and ")} held.</p>`:u("")}o(vt,"decisions");function xt(e){return e.dialogue.kind==="inline"?u(e.dialogue.markup):e.dialogue.kind==="lazy"?ie(e.dialogue.id):u("")}o(xt,"dialogue");function wt(e,t){return`${e}-a${t}`}o(wt,"attemptAnchor");function ge(e,t,r=e.verdict!=="passed"){let n=e.endedBy==="max_turns"?a` <span class="badge e-cut" title="The conversation reached the scenario's max_turns before the user ended it">Cut off</span>`:"";return a`<details class="att" id="${wt(t,e.attempt)}"${u(r?" open":"")}><summary><strong>Attempt ${e.attempt}</strong> ${ue(e.verdict)}${n} <span class="muted">${ht(e)}</span></summary><div class="att-body">${bt(e)}${fe(e.review)}${vt(e)}${xt(e)}</div></details>`}o(ge,"renderAttempt");function yt(e){return V("scenario",e)}o(yt,"scenarioAnchor");function A(e,t){if(t===0)return u("");let r=(e/t*100).toFixed(1);return a`<span class="bar" aria-hidden="true"><svg width="100%" height="4" preserveAspectRatio="none"><rect width="${r}%" height="4"></rect></svg></span>`}o(A,"passBar");function he(e){return e.decided===0?"never decided":`held in ${d(e.held)} of ${m(e.decided,"attempt")}`}o(he,"heldText");function kt(e){return e?a`${e.description===void 0?"":a`<p class="desc text">${e.description}</p>`}${e.user===void 0?"":a`<h3>What the simulated user was told</h3><div class="box text">${e.user}</div>`}${e.script===void 0?"":a`<h3>Script</h3><ol class="script box">${e.script.map(t=>a`<li>${t}</li>`)}</ol>`}`:a`<p class="note">run.json has no copy of this scenario; only its attempts are shown.</p>`}o(kt,"instructions");function St(e){let t=[...e.claims.entries()],r=[...e.checks.values()];return a`${t.length===0?"":a`<h3>Claims</h3><ul class="held">${t.map(([n,s])=>a`<li><div class="text">${n}</div><div class="num">${he(s)}${A(s.held,s.decided)}</div></li>`)}</ul>`}${r.length===0?"":a`<h3>Checks</h3><ul class="held">${r.map(n=>a`<li><div><code>${n.kind}</code> <span class="mono text">${n.value}</span></div><div class="num">${he(n)}${A(n.held,n.decided)}</div></li>`)}</ul>`}`}o(St,"holdings");function $t(e){let t=e.passed+e.failed,r=[];for(let s=1;s<=t;s++)r.push(a`<span class="k">pass<sup>${s}</sup> <b>${v(me([{passed:e.passed,total:t}],s).value)}</b></span>`);let n=[e.agentErrors?m(e.agentErrors,"agent error"):"",e.noVerdicts?m(e.noVerdicts,"attempt")+" without a verdict":"",e.userErrors?`${m(e.userErrors,"user error")} (the simulated user's own mistake)`:"",e.notDecided?`${d(e.notDecided)} not decided (no check, and the judge was not asked)`:""].filter(Boolean);return a`<h3>Reliability</h3><div class="reliability">${r.length?r:a`<span class="muted">No attempt got a verdict.</span>`}${n.length?a`<span class="muted">${n.join(" \xB7 ")} (left out of the rates)</span>`:""}</div>`}o($t,"reliabilityLine");function Tt(e){let t=e.passed+e.failed,r=e.agentErrors+e.noVerdicts,n=t===0?e.notDecided===e.attempts.length?"not decided":"no verdict":`${d(e.passed)} of ${d(t)}`,s=e.userErrors?a` <span class="muted" title="${m(e.userErrors,"attempt")} the simulated user's own mistake decided">+${d(e.userErrors)} user</span>`:"";return a`<div class="num">${n}${r?a` <span class="muted" title="${m(r,"attempt")} without a verdict">+${d(r)} ⚠</span>`:""}${s}${A(e.passed,t)}</div>`}o(Tt,"passedCell");function At(e){return e.answers===0?"\u2013":f(e.answerSeconds/e.answers)}o(At,"scenarioTimeCell");function Rt(e){return e.tokenAttempts===0?"\u2013":`${d(e.tokensIn/e.tokenAttempts)} / ${d(e.tokensOut/e.tokenAttempts)}`}o(Rt,"scenarioTokensCell");function be(e){return[e.id,e.scenario?.file??"",...e.scenario?.tags??[]].join(" ").toLowerCase()}o(be,"names");function Et(e){return[be(e),e.scenario?.description??""].join(" ").toLowerCase()}o(Et,"searchText");function nn(e){let t=Q(e.passed,e.failed),r=yt(e.id),n=e.scenario?.tags??[];return a`<details class="scn" id="${r}" data-anchor data-row data-status="${t}" data-search="${Et(e)}" data-names="${be(e)}"><summary class="row">${pe(t)}<div class="name">${e.id}${n.length?a`<span class="tags">${n.map(s=>a`<span class="tag">${s}</span>`)}</span>`:""}</div>${Tt(e)}<div class="num opt">${At(e)}</div><div class="num opt">${Rt(e)}</div></summary><div class="detail">${kt(e.scenario)}${St(e)}${$t(e)}<h3>Attempts</h3>${e.attempts.map(s=>ge(s,r))}</div></details>`}o(nn,"renderScenario");var on=a`<div class="row list-head" aria-hidden="true"><div>Status</div><div>Scenario</div><div class="num">Passed</div><div class="num opt">Answer time</div><div class="num opt">Tokens in / out</div></div>`;var ve=1.959963984540054;function dn(e,t,r=ve){if(t===0)return{lower:0,upper:1};let{lower:n,upper:s}=R(e/t,t,r);return{lower:e===0?0:n,upper:e===t?1:s}}o(dn,"wilsonInterval");function ln(e,t,r=ve){let n=R(e.rate,e.total,r),s=R(t.rate,t.total,r),i=e.rate-t.rate;return{lower:i-Math.hypot(e.rate-n.lower,s.upper-t.rate),upper:i+Math.hypot(n.upper-e.rate,t.rate-s.lower)}}o(ln,"newcombeInterval");function R(e,t,r){if(t===0)return{lower:0,upper:1};let n=r*r,s=e+n/(2*t),i=r*Math.sqrt(e*(1-e)/t+n/(4*t*t)),p=1+n/t;return{lower:Math.max(0,(s-i)/p),upper:Math.min(1,(s+i)/p)}}o(R,"wilsonForRate");export{Re as a,U as b,Ce as c,O as d,It as e,a as f,u as g,V as h,Pe as i,Ne as j,Ue as k,Y as l,J as m,ar as n,Q as o,fr as p,$r as q,Dr as r,le as s,ce as t,ct as u,pt as v,jr as w,ve as x,dn as y,ln as z,me as A,ge as B,he as C,kt as D,nn as E,on as F};
