import assert from 'node:assert/strict'
import { test } from 'node:test'
import { exampleAnswer, loadGitHubOpenApi } from '../fakes/github-openapi.ts'
import { REST_OPERATIONS } from '../fakes/github-rest.ts'

// The fake GitHub's validators are compiled by Ajv once and later loaded from node_modules/.cache
// (github-openapi.ts, cachedCompile). Two instances of the fake's description compile the same
// schemas: the second one's validators are the first one's code, read back from the cache, and must
// refuse what the compiled ones refuse. (The fake's own operations: another list would make another
// cut of the description, which replaces the fake's in the cache.)
test("validators read back from the cache refuse a bad request and a bad answer as Ajv's own do", async () => {
  const compiled = await loadGitHubOpenApi(REST_OPERATIONS)
  const cached = await loadGitHubOpenApi(REST_OPERATIONS)
  assert.notEqual(compiled, cached)
  const badRequest = { method: 'post', path: '/repos/acme/bot/check-runs', headers: { 'content-type': 'application/json' }, query: {}, body: { name: 'convy-ci' } }
  const goodRequest = { ...badRequest, body: { name: 'convy-ci', head_sha: 'a'.repeat(40) } }
  const goodAnswer = exampleAnswer(compiled, 'checks/create')
  const { id: _id, ...badAnswer } = goodAnswer
  for (const api of [compiled, cached]) {
    const refused = api.validateRequest(badRequest, 'checks/create')
    assert.equal(refused.valid, false)
    assert.match(JSON.stringify(refused.errors), /head_sha/)
    assert.equal(api.validateRequest(goodRequest, 'checks/create').valid, true)
    const wrong = api.validateResponse(badAnswer, 'checks/create', 201)
    assert.equal(wrong.valid, false)
    assert.match(JSON.stringify(wrong.errors), /"id"/)
    assert.equal(api.validateResponse(goodAnswer, 'checks/create', 201).valid, true)
  }
})
