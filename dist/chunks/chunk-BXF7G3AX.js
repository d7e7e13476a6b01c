import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a as H,c as a,d as p,e as D,f as I,g as N,h as x}from"./chunk-WME3P5US.js";import{c as T,i as E,j as R,l as C}from"./chunk-CA62QJ6G.js";import{g as d,h as l,i as m,j as g,q as f,s as _,u as j,w as b}from"./chunk-3FFDJLNJ.js";import{a as v}from"./chunk-ZL7NNOHF.js";import{h as A}from"./chunk-NSUJTOJD.js";import{a as n}from"./chunk-4KE5IX3I.js";import{mkdir as Se,readdir as Ae}from"node:fs/promises";import{join as W,relative as Te,resolve as Y,sep as Ee}from"node:path";import{randomBytes as se}from"node:crypto";import{readdir as de,rename as le,rm as M,stat as pe,writeFile as ce}from"node:fs/promises";import{basename as ue,dirname as me,join as fe}from"node:path";var w=".tmp";function ge(e){return`${e}.${se(6).toString("hex")}${w}`}n(ge,"temporaryPath");function he(e,t){return e.startsWith(`${t}.`)&&e.endsWith(w)}n(he,"isTemporaryOf");async function P(e,t){let r=ge(e);try{await ce(r,t),await le(r,e)}catch(o){throw await M(r,{force:!0}),o}}n(P,"writeFileAtomic");async function ve(e,t,r=0,o=Date.now()){let i;try{i=await de(e)}catch{return 0}let s=0;for(let u of i.filter(c=>c.endsWith(w)&&t(c))){let c=fe(e,u);try{if(r>0&&o-(await pe(c)).mtimeMs<r)continue;await M(c,{force:!0}),s++}catch{}}return s}n(ve,"removeTemporaries");var L=3600*1e3;async function z(e,t){let r=ue(e);return ve(me(e),o=>he(o,r),t)}n(z,"removeOldTemporariesOf");import{createHash as be}from"node:crypto";var y=`
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
`;var B="color-scheme:dark;--bg:#0f1217;--surface:#171b22;--sunken:#11151b;--text:#e4e8ee;--muted:#98a1ab;--border:#2c333c;--accent:#6aa8ff;--pass:#5ccf7f;--pass-bg:rgba(60,180,100,.14);--fail:#ff7b72;--fail-bg:rgba(248,81,73,.14);--flaky:#e3b341;--flaky-bg:rgba(210,153,34,.14);--none:#98a1ab;--none-bg:rgba(140,150,160,.14);--user-bg:#16202e;--shadow:none",k=`
:root{color-scheme:light;--bg:#f6f7f9;--surface:#fff;--sunken:#f0f2f5;--text:#1f2328;--muted:#5d6670;--border:#d9dee4;--accent:#0a61c9;
--pass:#17723a;--pass-bg:#dff5e5;--fail:#c0262d;--fail-bg:#fde8e8;--flaky:#8a5a00;--flaky-bg:#fdf1cc;--none:#5d6670;--none-bg:#eceff3;
--user-bg:#eef3fb;--shadow:0 1px 2px rgba(20,30,40,.06)}
:root[data-theme=dark]{${B}}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${B}}}
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
`;function F(e){return`'sha256-${be("sha256").update(e,"utf8").digest("base64")}'`}n(F,"cspHash");var xe=["default-src 'none'",`script-src ${F(y)}`,`style-src ${F(k)}`,"base-uri 'none'","form-action 'none'"].join("; "),we=a`<div class="theme" role="group" aria-label="Theme" data-needs-js hidden>${["system","light","dark"].map(e=>a`<button type="button" data-theme-choice="${e}" aria-pressed="false">${e[0].toUpperCase()+e.slice(1)}</button>`)}</div>`;function ye(e){return`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${xe}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="convy-ci ${v}">
`+a`<title>${e}</title>\n`.value+`<style>${k}</style>
<script>${y}</script>
</head>
<body>
<main>
`}n(ye,"pageStart");var ke=`
</main>
`,$e=`</body>
</html>
`;function O(){return a`<footer>Made by convy-ci ${v}. This page works offline and runs no code but its own.</footer>`}n(O,"footer");function U(e,t){return ye(e)+t.value+ke+$e}n(U,"renderPage");function q(e,t,r=p("")){return a`<div class="top"><div><div class="kicker">${e}</div><h1>${t}</h1></div>${we}</div>${r}`}n(q,"pageTop");function Re(e,t){return[...Te(e,t).split(Ee),T].map(encodeURIComponent).join("/")}n(Re,"hrefFor");async function Ce(e,t,r){let o=await E(t),i={id:o.id,href:Re(e,t),agent:o.agent.name,state:o.state,startedAt:o.startedAt,passed:0,decided:0,attempts:0,expected:o.scenarios.length*o.settings.k,errors:0};if(r){let s=H(r);return{...i,attempts:s.attempts,decided:s.judged,passed:s.passed,errors:s.attempts-s.judged}}for await(let s of R(t))i.attempts++,s.verdict==="passed"||s.verdict==="failed"?i.decided++:i.errors++,s.verdict==="passed"&&i.passed++;return i}n(Ce,"indexEntry");function _e(e){return[...e].sort((t,r)=>Date.parse(r.startedAt)-Date.parse(t.startedAt)||(t.id<r.id?1:t.id>r.id?-1:0))}n(_e,"newestFirst");function je(e){return a`<span class="state-${e}">${e==="finished"?"Finished":e==="interrupted"?"Interrupted":"Running"}</span>`}n(je,"stateCell");function He(e){let t=e.decided===0?"\u2013":`${g(e.passed/e.decided)} \xB7 ${d(e.passed)} of ${d(e.decided)}`,r=e.attempts===e.expected?d(e.attempts):`${d(e.attempts)} of ${d(e.expected)}`,o=e.id.startsWith(`${e.agent}/`)?e.id.slice(e.agent.length+1):e.id;return a`<tr><td><a href="${e.href}" title="${e.id}">${o}</a></td><td>${e.agent}</td><td class="nowrap">${je(e.state)}</td><td class="num">${t}</td><td class="num">${r}${e.errors?a` <span class="muted" title="attempts without a verdict">· ${d(e.errors)} ⚠</span>`:""}</td><td class="nowrap">${j(e.startedAt)}</td></tr>`}n(He,"runRow");function De(e,t=[],r=[]){let o=_e(e),i=a`${q("convy-ci \xB7 results","Runs")}<p class="muted">${d(o.length)} run(s), newest first. Each report is one file that works offline.</p>${o.length===0?a`<p class="empty card">No runs yet: <code>convy-ci run &lt;agent&gt;</code> records one here.</p>`:a`<table class="runs"><thead><tr><th>Run</th><th>Agent</th><th>State</th><th class="num">Pass rate</th><th class="num">Attempts</th><th>Started</th></tr></thead><tbody>${o.map(He)}</tbody></table>`}${t.length?a`<h2>Unreadable runs</h2><ul>${t.map(s=>a`<li><strong>${s.id}</strong>: <span class="text">${s.problem}</span></li>`)}</ul>`:""}${r.length?a`<h2>Comparisons</h2><ul>${r.map(s=>a`<li><a href="${`compare/${encodeURIComponent(s)}`}">${s.replace(/\.html$/,"")}</a></li>`)}</ul>`:""}${O()}`;return U("convy-ci runs",i)}n(De,"renderIndex");async function Ie(e){try{return(await Ae(W(e,"compare"))).filter(t=>t.endsWith(".html")).sort().reverse()}catch{return[]}}n(Ie,"comparePages");async function Mt(e,t=[]){let r=[],o=[];for(let s of await C(e))try{r.push(await Ce(e,s.dir,t.find(u=>Y(u.dir)===Y(s.dir))?.tally))}catch(u){o.push({id:s.id,problem:A(u)})}let i=W(e,"index.html");return await Se(e,{recursive:!0}),await P(i,De(r,o,await Ie(e))),await z(i,L),i}n(Mt,"writeIndex");function h(e,t){return[...e.map(r=>[r.pass,"",m(r.claim,1e3),`${m(r.reason)}${Me(r)}`]),...t.map(r=>[r.pass,r.kind,m(r.value,1e3),m(r.detail)])]}n(h,"decisionRows");function Ne(e){return e?a`<span class="mark ok" role="img" aria-label="held">✓</span>`:a`<span class="mark no" role="img" aria-label="did not hold">✗</span>`}n(Ne,"mark");function K(e){return e.length===0?a``:a`<ul class="decisions">${e.map(([t,r,o,i])=>a`<li>${Ne(t)}<span class="text">${r?a`<code>${r}</code> <span class="mono">${o}</span>`:o}<span class="reason">${i}</span></span></li>`)}</ul>`}n(K,"decisionsMarkup");function Me(e){return!e.votes||e.votes.length<2?"":` (judge votes: ${e.votes.filter(Boolean).length} of ${e.votes.length} held)`}n(Me,"votesText");function Pe(e){if(e.role!=="agent")return"";let t=[f(e.seconds)];return e.firstTokenSeconds!==void 0&&t.push(`first token ${f(e.firstTokenSeconds)}`),e.tokens&&t.push(`${d(e.tokens.input)} in / ${d(e.tokens.output)} out tokens`),t.join(" \xB7 ")}n(Pe,"answerMeta");function Le(e){return(e.toolCalls??[]).map(t=>[m(t.name,200),t.arguments===void 0?"":m(JSON.stringify(t.arguments)??"",1e3)])}n(Le,"toolRows");function ze(e){if(e.error===null)return"";let t=b(e.error,2e3,2e3),r=t.length>t.head.length?` \u2026 (${d(t.length)} characters in all)`:"";return`${e.role==="agent"?"Agent error":"Simulated user failed"}: ${t.head}${r}`}n(ze,"errorLine");function V(e){let t=b(e.text),r=t.head.length+t.rest.length,o=[e.role,e.role==="agent"?"Agent":"User",Pe(e),t.head,t.rest,t.rest?`Show all ${d(Math.min(t.length,r))} characters`:"",r<t.length?`The page keeps the first ${d(r)} of ${d(t.length)} characters; attempts.jsonl has all of them.`:"",ze(e)],i=Le(e);return i.length>0&&o.push(i),o}n(V,"turnRow");function Be([e,t,r,o,i,s,u,c,S]){return a`<div class="turn ${e}${c?" err":""}"><div class="turn-h"><span class="who">${t}</span>${r?a`<span class="meta">${r}</span>`:""}</div>${S?Fe(S):""}<div class="text">${o}${i?a`<details class="more"><summary>${s}</summary>${i}</details>`:""}</div>${u?a`<p class="cut">${u}</p>`:""}${c?a`<div class="error">${c}</div>`:""}</div>`}n(Be,"turnMarkup");function Fe(e){return a`<ul class="tools" aria-label="Tool calls">${e.map(([t,r])=>a`<li><span class="tool">${t}</span>${r?a` <span class="args">${r}</span>`:""}</li>`)}</ul>`}n(Fe,"toolsMarkup");function J(e){return e.length===0?a`<div class="dialogue"><p class="note">No turns were played.</p></div>`:a`<div class="dialogue">${e.map(t=>Be(V(t)))}</div>`}n(J,"dialogueMarkup");function G(e){return a`<div class="dialogue" data-dialogue="${e}"></div>`}n(G,"lazyDialogueMarkup");var Wt=a`<p class="banner" data-without-js>This run is large, so its dialogues are embedded as data that the page's script draws when a scenario opens. With JavaScript off, every verdict and reason is here; the dialogues are in attempts.jsonl.</p>`;function Q(e,t){let r=t.verdict==="passed",o={t:t.turns.map(V)};return r&&(o.d=h(t.claims,t.checks)),{slot:{kind:"lazy",id:e,decisions:r},block:`<script type="application/json" id="${e}">${D(o)}</script>
`}}n(Q,"embedAttempt");import{once as Oe}from"node:events";import{createReadStream as Ue,createWriteStream as qe}from"node:fs";import{rm as Ye}from"node:fs/promises";var Zt=3e6;var X=class{constructor(t,r){this.mode=t;this.file=r}mode;file;static{n(this,"DialogueSpool")}stream=null;pending=[];pendingLength=0;blocks=0;slot=n(async t=>{if(this.mode==="inline")return{kind:"inline",markup:J(t.turns).value};let{slot:r,block:o}=Q(`d-${this.blocks++}`,t);return this.pending.push(o),this.pendingLength+=o.length,this.pendingLength>=1<<20&&await this.flush(),r},"slot");async copyTo(t){if(await this.flush(),!!this.stream){await We(this.stream);for await(let r of Ue(this.file))await Z(t,r)}}async dispose(){this.stream?.destroy(),await Ye(this.file,{force:!0})}async flush(){let t=this.pending.join("");this.pending=[],this.pendingLength=0,t&&(this.stream??=qe(this.file),await Z(this.stream,t))}};async function Z(e,t){e.write(t)||await Oe(e,"drain")}n(Z,"writeChunk");async function We(e){await new Promise((t,r)=>{e.once("error",r),e.end(t)})}n(We,"closeStream");var Ke={failing:"Failing",flaky:"Flaky",passing:"Passing",no_verdict:"No verdict"},ar=["failing","flaky","no_verdict","passing"],Ve={passed:"Passed",failed:"Failed",agent_error:"Agent error",no_verdict:"No verdict",user_error:"User error",not_decided:"Not decided"};function ee(e){return a`<span class="badge s-${e}">${Ke[e]}</span>`}n(ee,"statusBadge");function te(e){return a`<span class="badge v-${e}">${Ve[e]}</span>`}n(te,"verdictBadge");function re(e,t){return Je(e,t,({passed:r,total:o})=>{let i=1;for(let s=0;s<t;s++)i*=(r-s)/(o-s);return Math.max(0,i)})}n(re,"passHatK");function Je(e,t,r){let o=0,i=0;for(let s of e)s.total<t||(o+=r(s),i++);return{k:t,value:i===0?null:o/i,scenarios:i,skipped:e.length-i}}n(Je,"averageOver");var Ge={revealed_early:"revealed everything early",invented_fact:"invented a fact",stopped_early:"stopped before the agent acted",broke_character:"broke character",ignored_instructions:"ignored its instructions"};function ae(e){if(e===null)return p("");let t=a`<span class="muted">Reviewed by ${e.model}.</span>`;if(e.error!==null)return a`<div class="note">The review of the simulated user failed, so this attempt counts as failed: ${e.error} ${t}</div>`;let r=e.mistakes.length?a`<ul>${e.mistakes.map(i=>a`<li><strong>${Ge[i.kind]}</strong> (user line ${i.line}): ${i.note}</li>`)}</ul>`:"",o=e.decided?a`<strong>User error:</strong> the simulated user's own mistake decided this attempt, so it is left out of the pass rate.`:e.mistakes.length?a`<strong>Reviewed:</strong> the simulated user's mistakes did not decide this attempt; it counts as failed.`:a`<strong>Reviewed:</strong> the simulated user made no mistake; the failure is the agent's.`;return a`<div class="review${e.decided?" decided":""}">${o} ${e.reason} ${t}${r}</div>`}n(ae,"reviewBlock");var Qe={user_stop:"the user ended it",max_turns:"cut off at max_turns, before the user ended it",stop_check:"ended at an answer that broke a fatal check",agent_error:"ended by an agent error",model_error:"ended when convy-ci's simulated user failed",interrupted:"interrupted"};function Xe(e){let t=[l(e.turns,"turn"),...e.endedBy?[Qe[e.endedBy]]:[],`${f(e.agentSeconds)} answering`];return e.agentTokens&&t.push(`${d(e.agentTokens.input)} in / ${d(e.agentTokens.output)} out tokens`),e.failedTurn&&t.push(e.failedTurn.role==="agent"?`broke at answer ${e.failedTurn.nth}`:`the simulated user failed at line ${e.failedTurn.nth}`),e.costUsd!==null&&t.push(`models ${_(e.costUsd)}`),t.join(" \xB7 ")}n(Xe,"summaryFacts");function Ze(e){if(e.error===null)return p("");let t=e.verdict==="agent_error"?"Agent error":e.verdict==="no_verdict"?"No verdict":"Error";return a`<div class="error"><strong>${t}:</strong> ${e.error}</div>`}n(Ze,"errorBlock");function et(e){if(e.dialogue.kind!=="lazy"||!e.dialogue.decisions)return K(h(e.claims,e.checks));let t=[e.claims.length?l(e.claims.length,"claim"):"",e.checks.length?l(e.checks.length,"check"):""].filter(Boolean);return t.length?a`<p class="note">${t.join(" and ")} held.</p>`:p("")}n(et,"decisions");function tt(e){return e.dialogue.kind==="inline"?p(e.dialogue.markup):e.dialogue.kind==="lazy"?G(e.dialogue.id):p("")}n(tt,"dialogue");function rt(e,t){return`${e}-a${t}`}n(rt,"attemptAnchor");function ne(e,t,r=e.verdict!=="passed"){let o=e.endedBy==="max_turns"?a` <span class="badge e-cut" title="The conversation reached the scenario's max_turns before the user ended it">Cut off</span>`:"";return a`<details class="att" id="${rt(t,e.attempt)}"${p(r?" open":"")}><summary><strong>Attempt ${e.attempt}</strong> ${te(e.verdict)}${o} <span class="muted">${Xe(e)}</span></summary><div class="att-body">${Ze(e)}${ae(e.review)}${et(e)}${tt(e)}</div></details>`}n(ne,"renderAttempt");function at(e){return I("scenario",e)}n(at,"scenarioAnchor");function $(e,t){if(t===0)return p("");let r=(e/t*100).toFixed(1);return a`<span class="bar" aria-hidden="true"><svg width="100%" height="4" preserveAspectRatio="none"><rect width="${r}%" height="4"></rect></svg></span>`}n($,"passBar");function oe(e){if(e.decided===0)return"never decided";let t=e.sampled?` \xB7 judge flip rate ${Math.round((e.disagreement??0)/e.sampled*100)}%`:"";return`held in ${d(e.held)} of ${l(e.decided,"attempt")}${t}`}n(oe,"heldText");function nt(e){let t=x(e);if(!t)return a``;let r=n(i=>`${Math.round(i*100)}%`,"share"),o=t.unstable?a`<strong class="judge-unstable">judge-unstable</strong>: the judge disagrees with itself at least as much as the agent varies, so a change here may be the judge's, not the agent's.`:a`the judge is consistent here; the agent's own variation dominates.`;return a`<p class="note">Judge: flip rate ${r(t.flipRate)} over ${l(t.attempts,"attempt")} judged several times (judge noise ${t.judgeNoise.toFixed(2)}, agent flakiness ${t.agentFlakiness.toFixed(2)}); ${o}</p>`}n(nt,"judgeLine");function ot(e){return e?a`${e.description===void 0?"":a`<p class="desc text">${e.description}</p>`}${e.user===void 0?"":a`<h3>What the simulated user was told</h3><div class="box text">${e.user}</div>`}${e.script===void 0?"":a`<h3>Script</h3><ol class="script box">${e.script.map(t=>a`<li>${t}</li>`)}</ol>`}`:a`<p class="note">run.json has no copy of this scenario; only its attempts are shown.</p>`}n(ot,"instructions");function it(e){let t=[...e.claims.entries()],r=[...e.checks.values()];return a`${t.length===0?"":a`<h3>Claims</h3><ul class="held">${t.map(([o,i])=>a`<li><div class="text">${o}</div><div class="num">${oe(i)}${$(i.held,i.decided)}</div></li>`)}</ul>`}${r.length===0?"":a`<h3>Checks</h3><ul class="held">${r.map(o=>a`<li><div><code>${o.kind}</code> <span class="mono text">${o.value}</span></div><div class="num">${oe(o)}${$(o.held,o.decided)}</div></li>`)}</ul>`}`}n(it,"holdings");function st(e){let t=e.passed+e.failed,r=[];for(let i=1;i<=t;i++)r.push(a`<span class="k">pass<sup>${i}</sup> <b>${g(re([{passed:e.passed,total:t}],i).value)}</b></span>`);let o=[e.agentErrors?l(e.agentErrors,"agent error"):"",e.noVerdicts?l(e.noVerdicts,"attempt")+" without a verdict":"",e.userErrors?`${l(e.userErrors,"user error")} (the simulated user's own mistake)`:"",e.notDecided?`${d(e.notDecided)} not decided (no check, and the judge was not asked)`:""].filter(Boolean);return a`<h3>Reliability</h3><div class="reliability">${r.length?r:a`<span class="muted">No attempt got a verdict.</span>`}${o.length?a`<span class="muted">${o.join(" \xB7 ")} (left out of the rates)</span>`:""}</div>`}n(st,"reliabilityLine");function dt(e){let t=e.passed+e.failed,r=e.agentErrors+e.noVerdicts,o=t===0?e.notDecided===e.attempts.length?"not decided":"no verdict":`${d(e.passed)} of ${d(t)}`,i=e.userErrors?a` <span class="muted" title="${l(e.userErrors,"attempt")} the simulated user's own mistake decided">+${d(e.userErrors)} user</span>`:"";return a`<div class="num">${o}${r?a` <span class="muted" title="${l(r,"attempt")} without a verdict">+${d(r)} ⚠</span>`:""}${i}${$(e.passed,t)}</div>`}n(dt,"passedCell");function lt(e){return e.answers===0?"\u2013":f(e.answerSeconds/e.answers)}n(lt,"scenarioTimeCell");function pt(e){return e.tokenAttempts===0?"\u2013":`${d(e.tokensIn/e.tokenAttempts)} / ${d(e.tokensOut/e.tokenAttempts)}`}n(pt,"scenarioTokensCell");function ie(e){return[e.id,e.scenario?.file??"",...e.scenario?.tags??[]].join(" ").toLowerCase()}n(ie,"names");function ct(e){return[ie(e),e.scenario?.description??""].join(" ").toLowerCase()}n(ct,"searchText");function Ar(e){let t=N(e.passed,e.failed),r=at(e.id),o=e.scenario?.tags??[];return a`<details class="scn" id="${r}" data-anchor data-row data-status="${t}" data-search="${ct(e)}" data-names="${ie(e)}"><summary class="row">${ee(t)}<div class="name">${e.id}${o.length?a`<span class="tags">${o.map(i=>a`<span class="tag">${i}</span>`)}</span>`:""}${x(e)?.unstable?a` <span class="tag judge-unstable">judge-unstable</span>`:""}</div>${dt(e)}<div class="num opt">${lt(e)}</div><div class="num opt">${pt(e)}</div></summary><div class="detail">${ot(e.scenario)}${it(e)}${st(e)}${nt(e)}<h3>Attempts</h3>${e.attempts.map(i=>ne(i,r))}</div></details>`}n(Ar,"renderScenario");var Tr=a`<div class="row list-head" aria-hidden="true"><div>Status</div><div>Scenario</div><div class="num">Passed</div><div class="num opt">Answer time</div><div class="num opt">Tokens in / out</div></div>`;export{ge as a,P as b,ve as c,ye as d,ke as e,$e as f,O as g,q as h,Mt as i,Wt as j,Zt as k,X as l,Z as m,We as n,Ke as o,ar as p,re as q,ne as r,oe as s,ot as t,Ar as u,Tr as v};
