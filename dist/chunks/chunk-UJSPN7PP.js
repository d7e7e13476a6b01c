import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{c as H,i as x,j as w,l as M}from"./chunk-BDHMZGX3.js";import{a as I,b as N,c as P,d,e as m,f as u,g as y,n as h,p as B,r as L,t as T}from"./chunk-MEXK5I6S.js";import{b as $}from"./chunk-ELYOBAI2.js";import{a as S}from"./chunk-ZL7NNOHF.js";import{h as D}from"./chunk-NSUJTOJD.js";import{a as o}from"./chunk-4KE5IX3I.js";import{mkdir as ze,readdir as Ve}from"node:fs/promises";import{join as ee,relative as Je,resolve as X,sep as qe}from"node:path";import{randomBytes as $e}from"node:crypto";import{readdir as Se,rename as Te,rm as U,stat as Ae,writeFile as Re}from"node:fs/promises";import{basename as Ee,dirname as Ce,join as _e}from"node:path";var A=".tmp";function je(e){return`${e}.${$e(6).toString("hex")}${A}`}o(je,"temporaryPath");function De(e,t){return e.startsWith(`${t}.`)&&e.endsWith(A)}o(De,"isTemporaryOf");async function F(e,t){let r=je(e);try{await Re(r,t),await Te(r,e)}catch(n){throw await U(r,{force:!0}),n}}o(F,"writeFileAtomic");async function He(e,t,r=0,n=Date.now()){let a;try{a=await Se(e)}catch{return 0}let i=0;for(let c of a.filter(l=>l.endsWith(A)&&t(l))){let l=_e(e,c);try{if(r>0&&n-(await Ae(l)).mtimeMs<r)continue;await U(l,{force:!0}),i++}catch{}}return i}o(He,"removeTemporaries");var O=3600*1e3;async function z(e,t){let r=Ee(e);return He(Ce(e),n=>De(n,r),t)}o(z,"removeOldTemporariesOf");function V(e){let t=[...e.scenarios.values()].filter(n=>n.attempts.length>0).map(n=>({id:n.id,passed:n.passed,failed:n.failed,judged:n.passed+n.failed,attempts:n.attempts.length,agentErrors:n.agentErrors,noVerdicts:n.noVerdicts,userErrors:n.userErrors,notDecided:n.notDecided})),r=o(n=>t.reduce((a,i)=>a+i[n],0),"sum");return{attempts:r("attempts"),passed:r("passed"),failed:r("failed"),judged:r("judged"),agentErrors:r("agentErrors"),noVerdicts:r("noVerdicts"),userErrors:r("userErrors"),notDecided:r("notDecided"),scenarios:t}}o(V,"runCounts");function Ft(e){return e.judged?e.passed/e.judged:null}o(Ft,"passRate");var v=class{static{o(this,"SafeHtml")}value;constructor(t){this.value=t}toString(){return this.value}},Me={"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"};function Ie(e){return $(e).replace(/[&<>"']/g,t=>Me[t])}o(Ie,"escapeHtml");function J(e){if(e instanceof v)return e.value;if(e==null||e===!1||e===!0)return"";if(typeof e=="number")return String(e);if(typeof e=="string")return Ie(e);let t="";for(let r of e)t+=J(r);return t}o(J,"render");function s(e,...t){let r=e[0];for(let n=0;n<t.length;n++)r+=J(t[n])+e[n+1];return new v(r)}o(s,"html");function f(e){return new v(e)}o(f,"trusted");var Ne={"<":"\\u003c",">":"\\u003e","&":"\\u0026","\u2028":"\\u2028","\u2029":"\\u2029"};function q(e){return JSON.stringify(e,(t,r)=>typeof r=="string"?$(r):r).replace(/[<>&\u2028\u2029]/g,t=>Ne[t])}o(q,"jsonForScript");function W(e,t){return`${e}-${t.replace(/[^A-Za-z0-9.-]/g,r=>`_${r.codePointAt(0).toString(16)}_`)}`}o(W,"anchorFor");import{createHash as Pe}from"node:crypto";var R=`
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
`;var Y="color-scheme:dark;--bg:#0f1217;--surface:#171b22;--sunken:#11151b;--text:#e4e8ee;--muted:#98a1ab;--border:#2c333c;--accent:#6aa8ff;--pass:#5ccf7f;--pass-bg:rgba(60,180,100,.14);--fail:#ff7b72;--fail-bg:rgba(248,81,73,.14);--flaky:#e3b341;--flaky-bg:rgba(210,153,34,.14);--none:#98a1ab;--none-bg:rgba(140,150,160,.14);--user-bg:#16202e;--shadow:none",E=`
:root{color-scheme:light;--bg:#f6f7f9;--surface:#fff;--sunken:#f0f2f5;--text:#1f2328;--muted:#5d6670;--border:#d9dee4;--accent:#0a61c9;
--pass:#17723a;--pass-bg:#dff5e5;--fail:#c0262d;--fail-bg:#fde8e8;--flaky:#8a5a00;--flaky-bg:#fdf1cc;--none:#5d6670;--none-bg:#eceff3;
--user-bg:#eef3fb;--shadow:0 1px 2px rgba(20,30,40,.06)}
:root[data-theme=dark]{${Y}}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${Y}}}
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
@media (max-width:720px){.row{grid-template-columns:96px minmax(0,1fr) 80px}.row .opt{display:none}.crow{grid-template-columns:repeat(4,minmax(0,1fr));gap:4px 10px}.crow>:nth-child(2){grid-column:2/5}.crow>.num,.crow .opt{display:block;text-align:left}.runcards,.pair{grid-template-columns:1fr}main{padding:18px 12px 48px}}
@media print{.theme,.filters{display:none}details.scn>summary{break-inside:avoid}}
`;function K(e){return`'sha256-${Pe("sha256").update(e,"utf8").digest("base64")}'`}o(K,"cspHash");var Be=["default-src 'none'",`script-src ${K(R)}`,`style-src ${K(E)}`,"base-uri 'none'","form-action 'none'"].join("; "),Le=s`<div class="theme" role="group" aria-label="Theme" data-needs-js hidden>${["system","light","dark"].map(e=>s`<button type="button" data-theme-choice="${e}" aria-pressed="false">${e[0].toUpperCase()+e.slice(1)}</button>`)}</div>`;function Ue(e){return`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${Be}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="convy-ci ${S}">
`+s`<title>${e}</title>\n`.value+`<style>${E}</style>
<script>${R}</script>
</head>
<body>
<main>
`}o(Ue,"pageStart");var Fe=`
</main>
`,Oe=`</body>
</html>
`;function G(){return s`<footer>Made by convy-ci ${S}. This page works offline and runs no code but its own.</footer>`}o(G,"footer");function Z(e,t){return Ue(e)+t.value+Fe+Oe}o(Z,"renderPage");function Q(e,t,r=f("")){return s`<div class="top"><div><div class="kicker">${e}</div><h1>${t}</h1></div>${Le}</div>${r}`}o(Q,"pageTop");function We(e,t){return[...Je(e,t).split(qe),H].map(encodeURIComponent).join("/")}o(We,"hrefFor");async function Ye(e,t,r){let n=await x(t),a={id:n.id,href:We(e,t),agent:n.agent.name,state:n.state,startedAt:n.startedAt,passed:0,decided:0,attempts:0,expected:n.scenarios.length*n.settings.k,errors:0};if(r){let i=V(r);return{...a,attempts:i.attempts,decided:i.judged,passed:i.passed,errors:i.attempts-i.judged}}for await(let i of w(t))a.attempts++,i.verdict==="passed"||i.verdict==="failed"?a.decided++:a.errors++,i.verdict==="passed"&&a.passed++;return a}o(Ye,"indexEntry");function Ke(e){return[...e].sort((t,r)=>Date.parse(r.startedAt)-Date.parse(t.startedAt)||(t.id<r.id?1:t.id>r.id?-1:0))}o(Ke,"newestFirst");function Ge(e){return s`<span class="state-${e}">${e==="finished"?"Finished":e==="interrupted"?"Interrupted":"Running"}</span>`}o(Ge,"stateCell");function Ze(e){let t=e.decided===0?"\u2013":`${y(e.passed/e.decided)} \xB7 ${d(e.passed)} of ${d(e.decided)}`,r=e.attempts===e.expected?d(e.attempts):`${d(e.attempts)} of ${d(e.expected)}`,n=e.id.startsWith(`${e.agent}/`)?e.id.slice(e.agent.length+1):e.id;return s`<tr><td><a href="${e.href}" title="${e.id}">${n}</a></td><td>${e.agent}</td><td class="nowrap">${Ge(e.state)}</td><td class="num">${t}</td><td class="num">${r}${e.errors?s` <span class="muted" title="attempts without a verdict">· ${d(e.errors)} ⚠</span>`:""}</td><td class="nowrap">${L(e.startedAt)}</td></tr>`}o(Ze,"runRow");function Qe(e,t=[],r=[]){let n=Ke(e),a=s`${Q("convy-ci \xB7 results","Runs")}<p class="muted">${d(n.length)} run(s), newest first. Each report is one file that works offline.</p>${n.length===0?s`<p class="empty card">No runs yet: <code>convy-ci run &lt;agent&gt;</code> records one here.</p>`:s`<table class="runs"><thead><tr><th>Run</th><th>Agent</th><th>State</th><th class="num">Pass rate</th><th class="num">Attempts</th><th>Started</th></tr></thead><tbody>${n.map(Ze)}</tbody></table>`}${t.length?s`<h2>Unreadable runs</h2><ul>${t.map(i=>s`<li><strong>${i.id}</strong>: <span class="text">${i.problem}</span></li>`)}</ul>`:""}${r.length?s`<h2>Comparisons</h2><ul>${r.map(i=>s`<li><a href="${`compare/${encodeURIComponent(i)}`}">${i.replace(/\.html$/,"")}</a></li>`)}</ul>`:""}${G()}`;return Z("convy-ci runs",a)}o(Qe,"renderIndex");async function Xe(e){try{return(await Ve(ee(e,"compare"))).filter(t=>t.endsWith(".html")).sort().reverse()}catch{return[]}}o(Xe,"comparePages");async function pr(e,t){let r=[],n=[];for(let i of await M(e))try{r.push(await Ye(e,i.dir,t&&X(t.dir)===X(i.dir)?t.tally:void 0))}catch(c){n.push({id:i.id,problem:D(c)})}let a=ee(e,"index.html");return await ze(e,{recursive:!0}),await F(a,Qe(r,n,await Xe(e))),await z(a,O),a}o(pr,"writeIndex");function te(e){let t=e.filter(p=>p.samples>=2);if(t.length===0)return null;let r=t.length,n=t.reduce((p,g)=>p+g.passes*(g.samples-g.passes)/(g.samples*(g.samples-1)),0)/r,a=t.map(p=>p.passes/p.samples),i=a.reduce((p,g)=>p+g,0)/r,c=r<2?0:a.reduce((p,g)=>p+(g-i)**2,0)/(r-1),l=t.reduce((p,g)=>p+g.samples,0)/r,b=Math.max(0,c-n/l);return{attempts:r,judgeNoise:n,agentFlakiness:b,flipRate:2*n,unstable:n>0&&n>=b}}o(te,"judgeNoise");function re(e,t){return e+t===0?"no_verdict":t===0?"passing":e===0?"failing":"flaky"}o(re,"scenarioStatus");function ne(e,t){return`${e} ${t}`}o(ne,"checkKey");function oe(e,t){let r={id:e,scenario:t,attempts:[],passed:0,failed:0,agentErrors:0,noVerdicts:0,userErrors:0,notDecided:0,claims:new Map,checks:new Map,judgements:[],answers:0,answerSeconds:0,slowestAnswer:0,firstTokens:0,firstTokenSeconds:0,tokenAttempts:0,tokensIn:0,tokensOut:0,costUsd:0,costedAttempts:0};for(let n of t?.judge??[])r.claims.set(n,{held:0,decided:0});for(let n of t?.checks??[])r.checks.set(ne(n.kind,n.value),{kind:n.kind,value:n.value,held:0,decided:0});return r}o(oe,"emptyScenario");function ae(e){let t=new Map;for(let r of e.scenarios)t.set(r.id,oe(r.id,r));return{manifest:e,scenarios:t,attempts:0,unknownScenarioAttempts:0,skippedLines:0,slowest:null,costUsd:0,costedAttempts:0,answerTimes:[],firstTokenTimes:[]}}o(ae,"startTally");function se(e,t,r={kind:"none"}){let n=e.scenarios.get(t.scenario);n||(n=oe(t.scenario,null),e.scenarios.set(t.scenario,n)),e.attempts++,n.scenario===null&&e.unknownScenarioAttempts++,N(n,t.verdict),tt(n,t);let a=nt(e,n,t);t.agentTokens&&(n.tokenAttempts++,n.tokensIn+=t.agentTokens.input,n.tokensOut+=t.agentTokens.output);let i=I(t);i!==null&&(e.costUsd+=i,e.costedAttempts++,n.costUsd+=i,n.costedAttempts++);let c={attempt:t.attempt,verdict:t.verdict,error:t.error===null?null:u(t.error),claims:t.claims.map(l=>({claim:u(l.claim,1e3),pass:l.pass,reason:u(l.reason),...l.votes?{votes:l.votes}:{}})),checks:t.checks.map(l=>({kind:l.kind,value:u(l.value,1e3),pass:l.pass,detail:u(l.detail)})),turns:t.turns.length,endedBy:t.endedBy??null,review:t.review?et(t.review):null,failedTurn:ot(t),agentSeconds:a,agentTokens:t.agentTokens,seconds:t.seconds,startedAt:t.startedAt,costUsd:i,dialogue:r};return n.attempts.push(c),c}o(se,"addAttempt");function et(e){return{...e,mistakes:e.mistakes.map(t=>({...t,note:u(t.note)})),reason:u(e.reason),error:e.error===null?null:u(e.error)}}o(et,"cappedReview");function tt(e,t){for(let n of t.claims){let a=e.claims.get(n.claim)??{held:0,decided:0};a.decided++,n.pass&&a.held++;let i=n.votes??[];if(i.length>=2){let c=i.filter(Boolean).length;a.sampled=(a.sampled??0)+1,a.disagreement=(a.disagreement??0)+2*c*(i.length-c)/(i.length*(i.length-1))}e.claims.set(n.claim,a)}let r=rt(t);r&&e.judgements.push(r);for(let n of t.checks){let a=ne(n.kind,n.value),i=e.checks.get(a)??{kind:n.kind,value:n.value,held:0,decided:0};i.decided++,n.pass&&i.held++,e.checks.set(a,i)}}o(tt,"countDecisions");function rt(e){if(e.claims.length===0||e.verdict!=="passed"&&e.verdict!=="failed")return null;let t=e.claims[0].votes?.length??0;if(t<2||e.claims.some(a=>a.votes?.length!==t))return null;let r=e.checks.every(a=>a.pass),n=0;for(let a=0;a<t;a++)r&&e.claims.every(i=>i.votes[a])&&n++;return{passes:n,samples:t}}o(rt,"sampleJudgements");function C(e){return te(e.judgements)}o(C,"scenarioJudgeNoise");function nt(e,t,r){let n=0,a=t.scenario!==null;for(let i of P(r.turns))n+=i.seconds,t.answers++,t.answerSeconds+=i.seconds,t.slowestAnswer=Math.max(t.slowestAnswer,i.seconds),i.firstTokenSeconds!==void 0&&(t.firstTokens++,t.firstTokenSeconds+=i.firstTokenSeconds),a&&(e.answerTimes.push(i.seconds),i.firstTokenSeconds!==void 0&&e.firstTokenTimes.push(i.firstTokenSeconds)),(!e.slowest||i.seconds>e.slowest.seconds)&&(e.slowest={seconds:i.seconds,scenario:r.scenario,attempt:r.attempt});return n}o(nt,"countAnswers");function ot(e){let t={user:0,agent:0};for(let r of e.turns)if(t[r.role]++,r.error!==null)return{role:r.role,nth:t[r.role]};return null}o(ot,"failedTurn");function ie(e){for(let t of e.scenarios.values())t.attempts.sort((r,n)=>r.attempt-n.attempt);return e}o(ie,"finishTally");async function Sr(e,t={}){let r=ae(t.manifest??await x(e));for await(let n of w(e,()=>r.skippedLines++))se(r,n,t.dialogue?await t.dialogue(n):void 0);return ie(r)}o(Sr,"readTally");function k(e,t){return[...e.map(r=>[r.pass,"",u(r.claim,1e3),`${u(r.reason)}${st(r)}`]),...t.map(r=>[r.pass,r.kind,u(r.value,1e3),u(r.detail)])]}o(k,"decisionRows");function at(e){return e?s`<span class="mark ok" role="img" aria-label="held">✓</span>`:s`<span class="mark no" role="img" aria-label="did not hold">✗</span>`}o(at,"mark");function de(e){return e.length===0?s``:s`<ul class="decisions">${e.map(([t,r,n,a])=>s`<li>${at(t)}<span class="text">${r?s`<code>${r}</code> <span class="mono">${n}</span>`:n}<span class="reason">${a}</span></span></li>`)}</ul>`}o(de,"decisionsMarkup");function st(e){return!e.votes||e.votes.length<2?"":` (judge votes: ${e.votes.filter(Boolean).length} of ${e.votes.length} held)`}o(st,"votesText");function it(e){if(e.role!=="agent")return"";let t=[h(e.seconds)];return e.firstTokenSeconds!==void 0&&t.push(`first token ${h(e.firstTokenSeconds)}`),e.tokens&&t.push(`${d(e.tokens.input)} in / ${d(e.tokens.output)} out tokens`),t.join(" \xB7 ")}o(it,"answerMeta");function dt(e){return(e.toolCalls??[]).map(t=>[u(t.name,200),t.arguments===void 0?"":u(JSON.stringify(t.arguments)??"",1e3)])}o(dt,"toolRows");function lt(e){if(e.error===null)return"";let t=T(e.error,2e3,2e3),r=t.length>t.head.length?` \u2026 (${d(t.length)} characters in all)`:"";return`${e.role==="agent"?"Agent error":"Simulated user failed"}: ${t.head}${r}`}o(lt,"errorLine");function le(e){let t=T(e.text),r=t.head.length+t.rest.length,n=[e.role,e.role==="agent"?"Agent":"User",it(e),t.head,t.rest,t.rest?`Show all ${d(Math.min(t.length,r))} characters`:"",r<t.length?`The page keeps the first ${d(r)} of ${d(t.length)} characters; attempts.jsonl has all of them.`:"",lt(e)],a=dt(e);return a.length>0&&n.push(a),n}o(le,"turnRow");function ct([e,t,r,n,a,i,c,l,b]){return s`<div class="turn ${e}${l?" err":""}"><div class="turn-h"><span class="who">${t}</span>${r?s`<span class="meta">${r}</span>`:""}</div>${b?ut(b):""}<div class="text">${n}${a?s`<details class="more"><summary>${i}</summary>${a}</details>`:""}</div>${c?s`<p class="cut">${c}</p>`:""}${l?s`<div class="error">${l}</div>`:""}</div>`}o(ct,"turnMarkup");function ut(e){return s`<ul class="tools" aria-label="Tool calls">${e.map(([t,r])=>s`<li><span class="tool">${t}</span>${r?s` <span class="args">${r}</span>`:""}</li>`)}</ul>`}o(ut,"toolsMarkup");function ce(e){return e.length===0?s`<div class="dialogue"><p class="note">No turns were played.</p></div>`:s`<div class="dialogue">${e.map(t=>ct(le(t)))}</div>`}o(ce,"dialogueMarkup");function ue(e){return s`<div class="dialogue" data-dialogue="${e}"></div>`}o(ue,"lazyDialogueMarkup");var Mr=s`<p class="banner" data-without-js>This run is large, so its dialogues are embedded as data that the page's script draws when a scenario opens. With JavaScript off, every verdict and reason is here; the dialogues are in attempts.jsonl.</p>`;function pe(e,t){let r=t.verdict==="passed",n={t:t.turns.map(le)};return r&&(n.d=k(t.claims,t.checks)),{slot:{kind:"lazy",id:e,decisions:r},block:`<script type="application/json" id="${e}">${q(n)}</script>
`}}o(pe,"embedAttempt");import{once as pt}from"node:events";import{createReadStream as mt,createWriteStream as ft}from"node:fs";import{rm as gt}from"node:fs/promises";var Fr=3e6;var me=class{constructor(t,r){this.mode=t;this.file=r}mode;file;static{o(this,"DialogueSpool")}stream=null;pending=[];pendingLength=0;blocks=0;slot=o(async t=>{if(this.mode==="inline")return{kind:"inline",markup:ce(t.turns).value};let{slot:r,block:n}=pe(`d-${this.blocks++}`,t);return this.pending.push(n),this.pendingLength+=n.length,this.pendingLength>=1<<20&&await this.flush(),r},"slot");async copyTo(t){if(await this.flush(),!!this.stream){await ht(this.stream);for await(let r of mt(this.file))await fe(t,r)}}async dispose(){this.stream?.destroy(),await gt(this.file,{force:!0})}async flush(){let t=this.pending.join("");this.pending=[],this.pendingLength=0,t&&(this.stream??=ft(this.file),await fe(this.stream,t))}};async function fe(e,t){e.write(t)||await pt(e,"drain")}o(fe,"writeChunk");async function ht(e){await new Promise((t,r)=>{e.once("error",r),e.end(t)})}o(ht,"closeStream");var bt={failing:"Failing",flaky:"Flaky",passing:"Passing",no_verdict:"No verdict"},Jr=["failing","flaky","no_verdict","passing"],vt={passed:"Passed",failed:"Failed",agent_error:"Agent error",no_verdict:"No verdict",user_error:"User error",not_decided:"Not decided"};function ge(e){return s`<span class="badge s-${e}">${bt[e]}</span>`}o(ge,"statusBadge");function he(e){return s`<span class="badge v-${e}">${vt[e]}</span>`}o(he,"verdictBadge");function be(e,t){return xt(e,t,({passed:r,total:n})=>{let a=1;for(let i=0;i<t;i++)a*=(r-i)/(n-i);return Math.max(0,a)})}o(be,"passHatK");function xt(e,t,r){let n=0,a=0;for(let i of e)i.total<t||(n+=r(i),a++);return{k:t,value:a===0?null:n/a,scenarios:a,skipped:e.length-a}}o(xt,"averageOver");var wt={revealed_early:"revealed everything early",invented_fact:"invented a fact",stopped_early:"stopped before the agent acted",broke_character:"broke character",ignored_instructions:"ignored its instructions"};function ve(e){if(e===null)return f("");let t=s`<span class="muted">Reviewed by ${e.model}.</span>`;if(e.error!==null)return s`<div class="note">The review of the simulated user failed, so this attempt counts as failed: ${e.error} ${t}</div>`;let r=e.mistakes.length?s`<ul>${e.mistakes.map(a=>s`<li><strong>${wt[a.kind]}</strong> (user line ${a.line}): ${a.note}</li>`)}</ul>`:"",n=e.decided?s`<strong>User error:</strong> the simulated user's own mistake decided this attempt, so it is left out of the pass rate.`:e.mistakes.length?s`<strong>Reviewed:</strong> the simulated user's mistakes did not decide this attempt; it counts as failed.`:s`<strong>Reviewed:</strong> the simulated user made no mistake; the failure is the agent's.`;return s`<div class="review${e.decided?" decided":""}">${n} ${e.reason} ${t}${r}</div>`}o(ve,"reviewBlock");var yt={user_stop:"the user ended it",max_turns:"cut off at max_turns, before the user ended it",stop_check:"ended at an answer that broke a fatal check",agent_error:"ended by an agent error",model_error:"ended when convy-ci's simulated user failed",interrupted:"interrupted"};function kt(e){let t=[m(e.turns,"turn"),...e.endedBy?[yt[e.endedBy]]:[],`${h(e.agentSeconds)} answering`];return e.agentTokens&&t.push(`${d(e.agentTokens.input)} in / ${d(e.agentTokens.output)} out tokens`),e.failedTurn&&t.push(e.failedTurn.role==="agent"?`broke at answer ${e.failedTurn.nth}`:`the simulated user failed at line ${e.failedTurn.nth}`),e.costUsd!==null&&t.push(`models ${B(e.costUsd)}`),t.join(" \xB7 ")}o(kt,"summaryFacts");function $t(e){if(e.error===null)return f("");let t=e.verdict==="agent_error"?"Agent error":e.verdict==="no_verdict"?"No verdict":"Error";return s`<div class="error"><strong>${t}:</strong> ${e.error}</div>`}o($t,"errorBlock");function St(e){if(e.dialogue.kind!=="lazy"||!e.dialogue.decisions)return de(k(e.claims,e.checks));let t=[e.claims.length?m(e.claims.length,"claim"):"",e.checks.length?m(e.checks.length,"check"):""].filter(Boolean);return t.length?s`<p class="note">${t.join(" and ")} held.</p>`:f("")}o(St,"decisions");function Tt(e){return e.dialogue.kind==="inline"?f(e.dialogue.markup):e.dialogue.kind==="lazy"?ue(e.dialogue.id):f("")}o(Tt,"dialogue");function At(e,t){return`${e}-a${t}`}o(At,"attemptAnchor");function xe(e,t,r=e.verdict!=="passed"){let n=e.endedBy==="max_turns"?s` <span class="badge e-cut" title="The conversation reached the scenario's max_turns before the user ended it">Cut off</span>`:"";return s`<details class="att" id="${At(t,e.attempt)}"${f(r?" open":"")}><summary><strong>Attempt ${e.attempt}</strong> ${he(e.verdict)}${n} <span class="muted">${kt(e)}</span></summary><div class="att-body">${$t(e)}${ve(e.review)}${St(e)}${Tt(e)}</div></details>`}o(xe,"renderAttempt");function Rt(e){return W("scenario",e)}o(Rt,"scenarioAnchor");function _(e,t){if(t===0)return f("");let r=(e/t*100).toFixed(1);return s`<span class="bar" aria-hidden="true"><svg width="100%" height="4" preserveAspectRatio="none"><rect width="${r}%" height="4"></rect></svg></span>`}o(_,"passBar");function we(e){if(e.decided===0)return"never decided";let t=e.sampled?` \xB7 judge flip rate ${Math.round((e.disagreement??0)/e.sampled*100)}%`:"";return`held in ${d(e.held)} of ${m(e.decided,"attempt")}${t}`}o(we,"heldText");function Et(e){let t=C(e);if(!t)return s``;let r=o(a=>`${Math.round(a*100)}%`,"share"),n=t.unstable?s`<strong class="judge-unstable">judge-unstable</strong>: the judge disagrees with itself at least as much as the agent varies, so a change here may be the judge's, not the agent's.`:s`the judge is consistent here; the agent's own variation dominates.`;return s`<p class="note">Judge: flip rate ${r(t.flipRate)} over ${m(t.attempts,"attempt")} judged several times (judge noise ${t.judgeNoise.toFixed(2)}, agent flakiness ${t.agentFlakiness.toFixed(2)}); ${n}</p>`}o(Et,"judgeLine");function Ct(e){return e?s`${e.description===void 0?"":s`<p class="desc text">${e.description}</p>`}${e.user===void 0?"":s`<h3>What the simulated user was told</h3><div class="box text">${e.user}</div>`}${e.script===void 0?"":s`<h3>Script</h3><ol class="script box">${e.script.map(t=>s`<li>${t}</li>`)}</ol>`}`:s`<p class="note">run.json has no copy of this scenario; only its attempts are shown.</p>`}o(Ct,"instructions");function _t(e){let t=[...e.claims.entries()],r=[...e.checks.values()];return s`${t.length===0?"":s`<h3>Claims</h3><ul class="held">${t.map(([n,a])=>s`<li><div class="text">${n}</div><div class="num">${we(a)}${_(a.held,a.decided)}</div></li>`)}</ul>`}${r.length===0?"":s`<h3>Checks</h3><ul class="held">${r.map(n=>s`<li><div><code>${n.kind}</code> <span class="mono text">${n.value}</span></div><div class="num">${we(n)}${_(n.held,n.decided)}</div></li>`)}</ul>`}`}o(_t,"holdings");function jt(e){let t=e.passed+e.failed,r=[];for(let a=1;a<=t;a++)r.push(s`<span class="k">pass<sup>${a}</sup> <b>${y(be([{passed:e.passed,total:t}],a).value)}</b></span>`);let n=[e.agentErrors?m(e.agentErrors,"agent error"):"",e.noVerdicts?m(e.noVerdicts,"attempt")+" without a verdict":"",e.userErrors?`${m(e.userErrors,"user error")} (the simulated user's own mistake)`:"",e.notDecided?`${d(e.notDecided)} not decided (no check, and the judge was not asked)`:""].filter(Boolean);return s`<h3>Reliability</h3><div class="reliability">${r.length?r:s`<span class="muted">No attempt got a verdict.</span>`}${n.length?s`<span class="muted">${n.join(" \xB7 ")} (left out of the rates)</span>`:""}</div>`}o(jt,"reliabilityLine");function Dt(e){let t=e.passed+e.failed,r=e.agentErrors+e.noVerdicts,n=t===0?e.notDecided===e.attempts.length?"not decided":"no verdict":`${d(e.passed)} of ${d(t)}`,a=e.userErrors?s` <span class="muted" title="${m(e.userErrors,"attempt")} the simulated user's own mistake decided">+${d(e.userErrors)} user</span>`:"";return s`<div class="num">${n}${r?s` <span class="muted" title="${m(r,"attempt")} without a verdict">+${d(r)} ⚠</span>`:""}${a}${_(e.passed,t)}</div>`}o(Dt,"passedCell");function Ht(e){return e.answers===0?"\u2013":h(e.answerSeconds/e.answers)}o(Ht,"scenarioTimeCell");function Mt(e){return e.tokenAttempts===0?"\u2013":`${d(e.tokensIn/e.tokenAttempts)} / ${d(e.tokensOut/e.tokenAttempts)}`}o(Mt,"scenarioTokensCell");function ye(e){return[e.id,e.scenario?.file??"",...e.scenario?.tags??[]].join(" ").toLowerCase()}o(ye,"names");function It(e){return[ye(e),e.scenario?.description??""].join(" ").toLowerCase()}o(It,"searchText");function fn(e){let t=re(e.passed,e.failed),r=Rt(e.id),n=e.scenario?.tags??[];return s`<details class="scn" id="${r}" data-anchor data-row data-status="${t}" data-search="${It(e)}" data-names="${ye(e)}"><summary class="row">${ge(t)}<div class="name">${e.id}${n.length?s`<span class="tags">${n.map(a=>s`<span class="tag">${a}</span>`)}</span>`:""}${C(e)?.unstable?s` <span class="tag judge-unstable">judge-unstable</span>`:""}</div>${Dt(e)}<div class="num opt">${Ht(e)}</div><div class="num opt">${Mt(e)}</div></summary><div class="detail">${Ct(e.scenario)}${_t(e)}${jt(e)}${Et(e)}<h3>Attempts</h3>${e.attempts.map(a=>xe(a,r))}</div></details>`}o(fn,"renderScenario");var gn=s`<div class="row list-head" aria-hidden="true"><div>Status</div><div>Scenario</div><div class="num">Passed</div><div class="num opt">Answer time</div><div class="num opt">Tokens in / out</div></div>`;var ke=1.959963984540054;function vn(e,t,r=ke){if(t===0)return{lower:0,upper:1};let{lower:n,upper:a}=j(e/t,t,r);return{lower:e===0?0:n,upper:e===t?1:a}}o(vn,"wilsonInterval");function xn(e,t,r=ke){let n=j(e.rate,e.total,r),a=j(t.rate,t.total,r),i=e.rate-t.rate;return{lower:i-Math.hypot(e.rate-n.lower,a.upper-t.rate),upper:i+Math.hypot(n.upper-e.rate,t.rate-a.lower)}}o(xn,"newcombeInterval");function j(e,t,r){if(t===0)return{lower:0,upper:1};let n=r*r,a=e+n/(2*t),i=r*Math.sqrt(e*(1-e)/t+n/(4*t*t)),c=1+n/t;return{lower:Math.max(0,(a-i)/c),upper:Math.min(1,(a+i)/c)}}o(j,"wilsonForRate");export{je as a,F as b,He as c,V as d,Ft as e,s as f,f as g,W as h,Ue as i,Fe as j,Oe as k,G as l,Q as m,pr as n,re as o,C as p,Sr as q,Mr as r,Fr as s,me as t,fe as u,ht as v,bt as w,Jr as x,ke as y,vn as z,xn as A,be as B,xe as C,we as D,Ct as E,fn as F,gn as G};
