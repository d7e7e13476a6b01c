import{html,trusted}from"./chunk-KDPBA63P.js";import{CONVY_VERSION}from"./chunk-R72EZT4V.js";import{createHash}from"node:crypto";var LABEL_SCRIPT=`
  var labelBar = null, labels = {}, labelRun = '';
  function labelKey(scenario, attempt, claim) { return JSON.stringify([scenario, Number(attempt), Number(claim)]); }
  function saveLabels() {
    try { window.localStorage.setItem('convy-labels:' + labelRun, JSON.stringify(labels)); } catch (e) { /* labels last this visit */ }
  }
  function loadLabels() {
    try { var kept = JSON.parse(window.localStorage.getItem('convy-labels:' + labelRun) || '{}'); if (kept && typeof kept === 'object') labels = kept; } catch (e) { labels = {}; }
  }
  function labelCount() { var n = 0; for (var k in labels) if (Object.prototype.hasOwnProperty.call(labels, k)) n++; return n; }
  function showLabelCount() {
    var n = labelCount();
    var counter = document.getElementById('labels-count');
    if (counter) counter.textContent = n === 0 ? 'No decision labelled yet' : n === 1 ? '1 decision labelled' : n + ' decisions labelled';
    var download = document.getElementById('labels-download');
    if (download) download.disabled = n === 0;
  }
  function pressLabel(group, label) {
    var buttons = group.querySelectorAll('button');
    for (var i = 0; i < buttons.length; i++) {
      var pick = buttons[i].getAttribute('data-pick');
      buttons[i].setAttribute('aria-pressed', String(label !== undefined && (pick === 'right') === (label.holds === label.judge)));
    }
  }
  // Buttons for every claim decision under root that has none yet.
  function labelControls(root) {
    if (!labelBar) return;
    var rows = root.querySelectorAll('li[data-claim]');
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      if (row.querySelector('.label-pick')) continue;
      var attempt = row.closest('details.att'), scenario = row.closest('details.scn');
      if (!attempt || !scenario) continue;
      var where = { scenario: scenario.getAttribute('data-id'), attempt: Number(attempt.getAttribute('data-attempt')), claim: Number(row.getAttribute('data-claim')) };
      var judge = row.querySelector('.mark.ok') !== null;
      var group = node('span', 'label-pick');
      group.setAttribute('role', 'group');
      group.setAttribute('aria-label', 'Your label for this decision');
      var picks = [['right', 'Right', 'The judge is right: the claim ' + (judge ? 'holds' : 'does not hold')], ['wrong', 'Wrong', 'The judge is wrong: the claim ' + (judge ? 'does not hold' : 'holds')]];
      for (var p = 0; p < picks.length; p++) {
        var button = node('button', null, picks[p][1]);
        button.type = 'button';
        button.title = picks[p][2];
        button.setAttribute('data-pick', picks[p][0]);
        button.setAttribute('aria-pressed', 'false');
        group.appendChild(button);
      }
      group.addEventListener('click', (function (where, judge, group) {
        return function (event) {
          var button = event.target.closest('button');
          if (!button) return;
          var key = labelKey(where.scenario, where.attempt, where.claim);
          var right = button.getAttribute('data-pick') === 'right';
          var holds = right ? judge : !judge;
          if (labels[key] && labels[key].holds === holds) delete labels[key];
          else labels[key] = { scenario: where.scenario, attempt: where.attempt, claim: where.claim, holds: holds, judge: judge };
          pressLabel(group, labels[key]);
          saveLabels();
          showLabelCount();
        };
      })(where, judge, group));
      pressLabel(group, labels[labelKey(where.scenario, where.attempt, where.claim)]);
      row.classList.add('labelled');
      row.appendChild(group);
    }
  }
  function labelLines() {
    var list = [];
    for (var k in labels) if (Object.prototype.hasOwnProperty.call(labels, k)) list.push(labels[k]);
    list.sort(function (a, b) { return a.scenario < b.scenario ? -1 : a.scenario > b.scenario ? 1 : a.attempt - b.attempt || a.claim - b.claim; });
    return list.map(function (l) { return JSON.stringify({ run: labelRun, scenario: l.scenario, attempt: l.attempt, claim: l.claim, holds: l.holds }); }).join('\\n') + '\\n';
  }
  function setUpLabels() {
    labelBar = document.getElementById('labels');
    if (!labelBar) return;
    labelRun = labelBar.getAttribute('data-run') || '';
    loadLabels();
    document.getElementById('labels-download').addEventListener('click', function () {
      var link = node('a');
      link.href = URL.createObjectURL(new Blob([labelLines()], { type: 'application/x-ndjson' }));
      link.download = 'labels.jsonl';
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(link.href); }, 0);
    });
    document.getElementById('labels-clear').addEventListener('click', function () {
      labels = {};
      saveLabels();
      var groups = document.querySelectorAll('.label-pick');
      for (var i = 0; i < groups.length; i++) pressLabel(groups[i], undefined);
      showLabelCount();
    });
    labelControls(document);
    showLabelCount();
  }
`;var PAGE_SCRIPT=`
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
${LABEL_SCRIPT}

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
        var call = node('li', t[8][i][3] ? 'served' : undefined);
        call.appendChild(node('span', 'tool', t[8][i][0]));
        if (t[8][i][1]) { call.appendChild(document.createTextNode(' ')); call.appendChild(node('span', 'args', t[8][i][1])); }
        if (t[8][i][2]) { call.appendChild(document.createTextNode(' ')); var result = node('span', 'result', '\u2192 ' + t[8][i][2]); result.title = 'What the tool returned'; call.appendChild(result); }
        if (t[8][i][3]) { call.appendChild(document.createTextNode(' ')); var by = node('span', 'served-by', t[8][i][3]); by.title = "Served and recorded by convy-ci's tools"; call.appendChild(by); }
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
    var claim = 0;
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var item = node('li');
      if (!row[1]) item.setAttribute('data-claim', String(++claim));
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
      if (data.d && data.d.length) labelControls(slot.parentNode.insertBefore(drawDecisions(data.d), slot));
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
    setUpLabels();
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
`;var DARK="color-scheme:dark;--bg:#0f1217;--surface:#171b22;--sunken:#11151b;--text:#e4e8ee;--muted:#98a1ab;--border:#2c333c;--accent:#6aa8ff;--pass:#5ccf7f;--pass-bg:rgba(60,180,100,.14);--fail:#ff7b72;--fail-bg:rgba(248,81,73,.14);--flaky:#e3b341;--flaky-bg:rgba(210,153,34,.14);--none:#98a1ab;--none-bg:rgba(140,150,160,.14);--user-bg:#16202e;--shadow:none",PAGE_STYLE=`
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
.tools li::before{content:"\u2699 "}.tools .tool{font-weight:600;color:var(--text)}.tools .result{color:var(--text)}
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
`;function cspHash(source){return`'sha256-${createHash("sha256").update(source,"utf8").digest("base64")}'`}var CONTENT_SECURITY_POLICY=["default-src 'none'",`script-src ${cspHash(PAGE_SCRIPT)}`,`style-src ${cspHash(PAGE_STYLE)}`,"base-uri 'none'","form-action 'none'"].join("; "),THEME_SWITCH=html`<div class="theme" role="group" aria-label="Theme" data-needs-js hidden>${["system","light","dark"].map(choice=>html`<button type="button" data-theme-choice="${choice}" aria-pressed="false">${choice[0].toUpperCase()+choice.slice(1)}</button>`)}</div>`;function pageStart(title){return`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="convy-ci ${CONVY_VERSION}">
`+html`<title>${title}</title>\n`.value+`<style>${PAGE_STYLE}</style>
<script>${PAGE_SCRIPT}</script>
</head>
<body>
<main>
`}var MAIN_END=`
</main>
`,PAGE_END=`</body>
</html>
`;function footer(){return html`<footer>Made by convy-ci ${CONVY_VERSION}. This page works offline and runs no code but its own.</footer>`}function renderPage(title,body){return pageStart(title)+body.value+MAIN_END+PAGE_END}function pageTop(kicker,title,extra=trusted("")){return html`<div class="top"><div><div class="kicker">${kicker}</div><h1>${title}</h1></div>${THEME_SWITCH}</div>${extra}`}export{pageStart,MAIN_END,PAGE_END,footer,renderPage,pageTop};
