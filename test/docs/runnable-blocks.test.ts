import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { normalise, playBlock, promisedCode, rewrite, ROOT, runnableBlocks, withoutVarying, type Block } from './runnable.ts'

// Every command block marked `<!-- runnable -->` in README.md, CONTRIBUTING.md and docs/ is played as
// written, and the output it shows must be the output it makes. CONVY_UPDATE_DOCS=1 writes the
// output instead, which is how the blocks are made.

const files = ['README.md', 'CONTRIBUTING.md', ...(await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
const blocks: Block[] = []
for (const file of files) {
  const text = await readFile(join(ROOT, file), 'utf8').catch(() => '')
  blocks.push(...runnableBlocks(file, text))
}
const updating = process.env['CONVY_UPDATE_DOCS'] === '1'

describe('runnable blocks of README and docs/', () => {
  test('README has runnable blocks, and the marker finds them', () => {
    assert.ok(blocks.filter((b) => b.file === 'README.md').length >= 2, 'README.md has fewer than two runnable blocks')
    assert.ok(blocks.every((b) => b.steps.length > 0))
  })

  const updates = new Map<string, { block: Block; outputs: string[] }[]>()
  for (const block of blocks) {
    test(`${block.file}:${block.line}: ${block.steps.map((s) => s.command).join(' · ')}`, async () => {
      const { cwd, played } = await playBlock(block)
      if (updating) {
        // What still matches is kept as shown, so that rewriting changes only what changed.
        const outputs = played.map((p, i) =>
          normalise(p.output, cwd) === normalise(block.steps[i]!.shown, cwd) ? block.steps[i]!.shown : p.output.replaceAll(`${cwd}/`, '').replace(/[ \t]+$/gm, ''),
        )
        updates.set(block.file, [...(updates.get(block.file) ?? []), { block, outputs }])
        return
      }
      for (const [i, step] of block.steps.entries()) {
        const made = withoutVarying(normalise(played[i]!.output, cwd), block.varies)
        const shown = withoutVarying(normalise(step.shown, cwd), block.varies)
        assert.equal(played[i]!.code, promisedCode(step.command), `${step.command}: exit code\n${played[i]!.output}`)
        assert.equal(made.text, shown.text, `${block.file}:${block.line}: ${step.command}`)
        assert.equal(made.varying, shown.varying, `${step.command}: the lines with ${block.varies.join(', ')}`)
      }
    })
  }

  if (updating) {
    test('write the outputs', async () => {
      for (const [file, done] of updates) await rewrite(join(ROOT, file), done)
    })
  }
})

describe('the runnable comparison', () => {
  test('a shown output that differs fails, one that differs only in run id and times passes', () => {
    const made = 'run bookshop/2026-12-01T21-38-12_790f\n  order-status  1/1   3 ms\n'
    assert.equal(normalise(made, '/tmp/x'), normalise('run bookshop/2026-11-30T10-00-00_0a0b\n  order-status 1/1 12 ms', '/tmp/x'))
    assert.notEqual(normalise(made, '/tmp/x'), normalise('run bookshop/2026-11-30T10-00-00_0a0b\n  order-status 0/1 12 ms', '/tmp/x'))
    assert.deepEqual(withoutVarying('a\nrefund flaky 2/3\nb', ['refund']), { text: 'a\nb', varying: 1 })
  })
})
