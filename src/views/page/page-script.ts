/**
 * The pages' one script, sent as is (no build step touches it, so it is plain ES2017 the browser runs
 * directly). Everything it adds is optional: the theme switch, the filter, keeping the open scenario
 * in the address, drawing dialogues a large run embeds as data, and labelling the judge's decisions
 * (label-script.ts). Data is only ever put on the page with textContent, never parsed as markup.
 */
import { LABEL_SCRIPT } from './label-script.ts'

export const PAGE_SCRIPT = `
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
        if (t[8][i][2]) { call.appendChild(document.createTextNode(' ')); var result = node('span', 'result', '→ ' + t[8][i][2]); result.title = 'What the tool returned'; call.appendChild(result); }
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
`
