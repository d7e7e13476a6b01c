import assert from 'node:assert/strict'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { compareFoldersToPage, comparePageName, writeComparePage } from '../../src/app/pipeline/write-compare-page.ts'
import { renderComparePage } from '../../src/views/compare/compare-page.ts'
import { escapeHtml } from '../../src/views/page/html.ts'
import { comparedRuns } from './compare-runs-fixture.ts'
import { hostileAttempts, hostileManifest } from './hostile-run.ts'
import { assertNoInjectedMarkup } from './markup-check.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'

const NOW = { now: new Date('2026-03-02T12:00:00Z') }

function rowsOf(page: string): string[] {
  return [...page.matchAll(/data-status="([a-z_]+)" data-search="([^"]*)"/g)].map((m) => `${m[2]}:${m[1]}`)
}

function section(page: string, id: string): string {
  const start = page.indexOf(`id="scenario-${id}"`)
  return page.slice(start, page.indexOf('</details><details class="scn"', start) + 1 || undefined)
}

describe('the compare page', () => {
  const runs = comparedRuns()
  const comparison = compareRuns(tallyRecord(runs.before), tallyRecord(runs.after), NOW)
  const page = renderComparePage(comparison, runs)

  test('scenarios are grouped Worse, Better, Same, then Not compared', () => {
    assert.deepEqual(rowsOf(page), ['s1:worse', 's3:better', 's2:same', 's4:same', 'edit:not_compared', 'nv:not_compared', 'old:not_compared', 'new:not_compared'])
    const headings = [...page.matchAll(/<h2>(Worse|Better|Same|Not compared) <span class="muted">(\d+)<\/span><\/h2>/g)].map((m) => `${m[1]} ${m[2]}`)
    assert.deepEqual(headings, ['Worse 1', 'Better 1', 'Same 2', 'Not compared 4'])
  })

  test('each scenario not compared says why', () => {
    assert.match(section(page, 'OLD'), /played only by the before run/)
    assert.match(section(page, 'NEW'), /played only by the after run/)
    assert.match(section(page, 'EDIT'), /edited between the runs/)
    assert.match(section(page, 'NV'), /none decided in one of the runs/)
  })

  test('an edited scenario shows both versions of what the user was told', () => {
    const edit = section(page, 'EDIT')
    assert.ok(edit.indexOf('version one') < edit.indexOf('version two'))
  })

  test('a scenario opens to both runs side by side, attempt by attempt, with every decision', () => {
    const s1 = section(page, 'S1')
    for (let n = 1; n <= 5; n++) {
      const before = s1.indexOf(`id="scenario-S1-before-a${n}"`)
      const after = s1.indexOf(`id="scenario-S1-after-a${n}"`)
      assert.ok(before > 0 && after > before, `attempt ${n} is not paired`)
      assert.ok(s1.includes(`S1 attempt ${n} passed`) && s1.includes(`S1 attempt ${n} failed`))
    }
    assert.match(s1, /claim of S1<\/td><td>held in 5 of 5 attempts<\/td><td>held in 0 of 5 attempts<\/td>/)
    assert.match(s1, /<div class="dialogue">/)
  })

  test('each side of a scenario names what is neither pass nor fail: agent errors, user errors, not decided', () => {
    const marked = structuredClone(runs)
    const kinds = ['agent_error', 'user_error', 'not_decided'] as const
    marked.after.attempts = marked.after.attempts.map((a) => (a.scenario === 'S2' && a.attempt <= 3 ? { ...a, verdict: kinds[a.attempt - 1]! } : a))
    const withKinds = renderComparePage(compareRuns(tallyRecord(marked.before), tallyRecord(marked.after), NOW), marked)
    assert.match(section(withKinds, 'S2'), /<div class="side-h">After · 2\/2 \(\+1 agent error, \+1 user error, \+1 not decided\)<\/div>/)
    assert.match(section(withKinds, 'S2'), /<div class="side-h">Before · 5\/5<\/div>/)
  })

  test('the tiles carry the tone of each change as a colour class and a word', () => {
    const tone = comparison.tiles.passRate.tone
    const passRate = page.slice(page.indexOf('<div class="label">Pass rate</div>'))
    assert.match(passRate, new RegExp(`^[^]*?<span class="chg ${tone}">`))
    assert.match(passRate.slice(0, 400), tone === 'within-noise' ? /~ .*within noise/ : tone === 'worse' ? /▼ .*worse/ : /▲ .*better/)
  })

  test('a changed judge and a different scenario set raise a warning', () => {
    const banner = page.slice(page.indexOf('<div class="banner bad" role="alert">'), page.indexOf('</div>', page.indexOf('<div class="banner bad"')))
    assert.match(banner, /The judge changed from &quot;gpt-4\.1&quot; to &quot;gpt-5&quot;/)
    assert.match(banner, /different scenarios: 1 only before, 1 only after/)
  })

  test('the verdict and the statistics are said in words', () => {
    // The fixture's judge changed from gpt-4.1 to gpt-5: the badge says so first, the verdict after it.
    assert.match(page, /<span class="badge d-worse">Inconclusive, evidence missing · Judge changed · Worse, not attributable to the agent<\/span>/)
    assert.match(page, /The judge model changed from &quot;gpt-4\.1&quot; to &quot;gpt-5&quot;: differences may come from how the runs were judged, not from the agent\./)
    assert.match(page, /Shuffling pass and fail/)
    assert.match(page, /With 5 attempts per scenario/)
  })

  test('each run links to its own report, relative to results/compare/', () => {
    assert.match(page, /<a href="\.\.\/bot\/2026-03-01T10-00-00_ab12\/report\.html">bot\/2026-03-01T10-00-00_ab12<\/a>/)
    assert.match(page, /<a href="\.\.\/bot\/2026-03-02T10-00-00_cd34\/report\.html">/)
  })

  test('large runs embed both sides as data, still with every verdict in the page', () => {
    const lazy = renderComparePage(comparison, runs, { dialogues: 'lazy' })
    assert.equal((lazy.match(/<script type="application\/json"/g) ?? []).length, runs.before.attempts.length + runs.after.attempts.length)
    assert.equal((lazy.match(/<details class="att"/g) ?? []).length, runs.before.attempts.length + runs.after.attempts.length)
  })

  test('written to results/compare/<before>-vs-<after>.html', async () => {
    const results = await mkdtemp(join(tmpdir(), 'convy-compare-page-'))
    try {
      const file = await writeComparePage(results, comparison, runs)
      assert.equal(comparePageName(comparison), 'ab12-vs-cd34.html')
      assert.equal(file, join(results, 'compare', comparePageName(comparison)))
      assert.equal(await readFile(file, 'utf8'), page)
    } finally {
      await rm(results, { recursive: true, force: true })
    }
  })
  // From run folders, each run is read once and its dialogues spooled to a file: the page must be the
  // very page made from the runs in memory, and the spool must not outlive it.
  for (const dialogues of ['inline', 'lazy'] as const) {
    test(`from run folders: the same page as from memory, and no spool left behind (${dialogues})`, async () => {
      const results = await mkdtemp(join(tmpdir(), 'convy-compare-folders-'))
      const writeFolder = async (name: string, run: RunRecord) => {
        const dir = join(results, 'bot', name)
        await mkdir(dir, { recursive: true })
        await writeFile(join(dir, 'run.json'), JSON.stringify(run.manifest))
        await writeFile(join(dir, 'attempts.jsonl'), run.attempts.map((a) => `${JSON.stringify(a)}\n`).join(''))
        return dir
      }
      try {
        const dirs = { before: await writeFolder('before', runs.before), after: await writeFolder('after', runs.after) }
        const { comparison: fromFolders, path } = await compareFoldersToPage(results, dirs, (b, a) => compareRuns(b, a, NOW), { dialogues })
        assert.deepEqual(fromFolders, comparison)
        assert.equal(await readFile(path, 'utf8'), renderComparePage(comparison, runs, { dialogues }))
        assert.deepEqual(await readdir(join(results, 'compare')), [comparePageName(comparison)])
      } finally {
        await rm(results, { recursive: true, force: true })
      }
    })
  }
})

describe('a comparison of hostile runs', () => {
  const before = { manifest: hostileManifest(), attempts: hostileAttempts() }
  const after = { manifest: { ...hostileManifest(), id: 'evil<b>/2026-01-03T03-04-05_f00d', models: { ...hostileManifest().models, judge: '<img src=x onerror=alert(1)>' } }, attempts: hostileAttempts() }
  const comparison = compareRuns(tallyRecord(before), tallyRecord(after), NOW)

  for (const dialogues of ['inline', 'lazy'] as const) {
    test(`no text from the runs becomes markup (${dialogues})`, () => {
      const page = renderComparePage(comparison, { before, after }, { dialogues })
      assertNoInjectedMarkup(page)
      assert.ok(page.includes(escapeHtml('<img src=x onerror=alert(1)>')), 'the warning quotes the judge as text')
    })
  }

  test('a file name made from hostile ids stays a plain name', () => {
    assert.match(comparePageName(comparison), /^[A-Za-z0-9._-]+-vs-[A-Za-z0-9._-]+\.html$/)
  })
})
