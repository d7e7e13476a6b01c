/**
 * The labelling part of the pages' one script (page-script.ts puts it inside its function, so it
 * shares `node` and is hashed with it for the Content-Security-Policy). On a run's report with claims
 * (a `#labels` bar naming the run), each claim decision gets two buttons — the judge is right, or
 * wrong — and the bar counts the labels and downloads them as labels.jsonl (SPEC "Judge labels"),
 * the lines records/calibration/labels.ts reads. Labels are kept in localStorage per run, so a
 * reload keeps them; nothing leaves the page but the downloaded file.
 *
 * Where a decision is: its claim's 1-based number on the <li> (data-claim), the attempt on the
 * enclosing details.att (data-attempt), the scenario id on details.scn (data-id); all read with
 * getAttribute, never as markup.
 */
export const LABEL_SCRIPT = `
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
`
