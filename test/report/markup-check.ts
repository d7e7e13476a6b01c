import assert from 'node:assert/strict'

/** Every tag the pages write themselves; anything else in the output came from data. */
const OWN_TAGS = new Set(
  'html head meta title style script body main div span h1 h2 h3 dl dt dd section details summary p ul ol li strong b small sup code pre svg rect polyline circle line button input a table thead tbody tr th td footer'.split(' '),
)

export function jsonBlocks(page: string): string[] {
  return [...page.matchAll(/<script type="application\/json" id="d-\d+">([\s\S]*?)<\/script>/g)].map((m) => m[1]!)
}

/** The markup outside the embedded data, where a browser would parse tags. */
function markupOnly(page: string): string {
  return page.replace(/<script type="application\/json" id="d-\d+">[\s\S]*?<\/script>/g, '').replace(/<script>[\s\S]*?<\/script>/, '').replace(/<style>[\s\S]*?<\/style>/, '')
}

export function assertNoInjectedMarkup(page: string): void {
  const markup = markupOnly(page)
  for (const [tag, name] of markup.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)[^>]*>/g)) {
    assert.ok(OWN_TAGS.has(name!.toLowerCase()), `unexpected tag in the page: ${tag}`)
    // Data can only sit inside double-quoted values (a data `"` is &quot;): what is left are names.
    const names = tag!.replace(/"[^"]*"/g, '""')
    assert.doesNotMatch(names, /\son[a-z]+\s*=/i, `event handler attribute in ${tag}`)
    assert.doesNotMatch(tag!, /(href|src)="\s*javascript:/i, `javascript: address in ${tag}`)
  }
  assert.equal((page.match(/<script>/g) ?? []).length, 1, "only the page's own script")
  assert.equal((page.match(/<style>/g) ?? []).length, 1, "only the page's own stylesheet")
  assert.equal((page.match(/<script\b/g) ?? []).length, 1 + jsonBlocks(page).length, 'no other script element')
  assert.doesNotMatch(markup, /<\/?(img|iframe|textarea)\b/i)
}
