/**
 * Node's table of reason phrases (404 → "Not Found"), for error messages. node:http is loaded only
 * when an answer failed: a run that talks to its agents through convy-ci's own client never loads
 * Node's HTTP stack (seven built-in modules compiled before the first request otherwise).
 */
export async function statusCodes(): Promise<Readonly<Record<number, string | undefined>>> {
  return (await import('node:http')).STATUS_CODES
}
