import type { Fetch } from '../../base/http/fetch.ts'
import { sendWhole } from '../../base/http/whole.ts'
import { InputError, rootCauseCode } from '../../base/shared/errors.ts'
import type { Mask } from '../../base/shared/secrets.ts'

const OPENAI_BASE_URL = 'https://api.openai.com/v1'

/**
 * One cheap request to the model gateway before a run starts. Without it a wrong base_url or key
 * shows up only as every attempt retrying for half a minute and ending without a verdict. Only what
 * is certainly a configuration mistake stops the run (exit 2, nothing played): no connection at all,
 * or the key refused. A gateway that does not list models, or is briefly failing, is left to the
 * run's own retries.
 */
export async function checkGateway(options: {
  baseURL: string | undefined
  apiKey: string | undefined
  fetch: Fetch
  mask: Mask
  timeoutMs?: number
  signal?: AbortSignal
  source?: string
  /** The proxy the requests go through (base/http/proxy.ts `proxyInUse`): a connection that fails is then the proxy's. */
  proxy?: { address: string; from: string } | null
}): Promise<void> {
  const where = options.source ?? 'models.base_url in convy.yml, or OPENAI_BASE_URL'
  const base = (options.baseURL ?? OPENAI_BASE_URL).replace(/\/+$/, '')
  const statusOf = async (url: string) =>
    (
      await sendWhole(options.fetch)(url, {
        method: 'GET',
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? 15_000,
      })
    ).status
  let status: number
  try {
    status = await statusOf(`${base}/models`)
  } catch (error) {
    const { proxy } = options
    // Through a proxy, the connection convy-ci makes is to the proxy: a gateway behind it that is down answers 502.
    if (proxy) throw new InputError(options.mask(`the proxy at ${proxy.address} (from ${proxy.from}) cannot be reached (${rootCauseCode(error)}) on the way to the model gateway at ${base}; check ${proxy.from}, or set \`proxy: none\` under models: in convy.yml to go straight to the gateway`))
    throw new InputError(options.mask(`the model gateway at ${base} cannot be reached (${rootCauseCode(error)}); check ${where}`))
  }
  if ((status === 401 || status === 403) && !options.apiKey) {
    throw new InputError(options.mask(`the model gateway at ${base} wants an API key (HTTP ${status}) and none is set: set OPENAI_API_KEY, or models.api_key in convy.yml`))
  }
  if (status === 401 || status === 403) {
    throw new InputError(options.mask(`the model gateway at ${base} refused the API key (HTTP ${status}); check models.api_key in convy.yml, or OPENAI_API_KEY`))
  }
  if (status === 404 && !/\/v\d+[a-z]*$/i.test(new URL(base).pathname)) await suggestVersionPath(base, where, options.mask, statusOf)
}

/**
 * Most gateways serve the OpenAI API under `/v1`, and a base URL without it makes every call a 404.
 * A gateway that does not list models answers 404 too, so the run stops only when `/v1` answers
 * where the address as written did not: then the missing path is certain, and said.
 */
async function suggestVersionPath(base: string, where: string, mask: Mask, statusOf: (url: string) => Promise<number>): Promise<void> {
  const withV1 = `${base}/v1`
  const status = await statusOf(`${withV1}/models`).catch(() => 404)
  if (status !== 404 && status < 500) {
    throw new InputError(mask(`the model gateway at ${base} answers 404 for /models, and ${withV1}/models answers: the base URL needs its /v1 (write ${withV1}); check ${where}`))
  }
}
