/** Past maxBodyBytes: the request fails and the rest of the answer is not read. */
export class ResponseTooLarge extends Error {
  constructor(what: string, limit: number) {
    super(`${what} answered more than ${mebibytes(limit)}; convy-ci stops reading an answer there (max_reply_kb sets what is kept)`)
    this.name = 'ResponseTooLarge'
  }
}

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / 2 ** 20) * 10) / 10} MiB`
}
