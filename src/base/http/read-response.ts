/**
 * A Response whose body has been read already (a JSON answer, read whole and bounded by stream-fetch):
 * `json()`, `text()` and `arrayBuffer()` answer from the bytes, where a Response made of them would
 * put them through a web stream first. The `openai` SDK reads each chat completion this way; at a
 * run's thousands of model calls that stream was about a tenth of the runner's CPU (bench/runner.ts,
 * docs/performance.md). `body` and `clone()` still work, for a caller that wants a stream.
 */
// Declared as a plain class to extend: the DOM typings declare Response's methods as properties.
const ResponseClass = Response as unknown as new (body: null, init: ResponseInit) => Pick<Response, 'status' | 'statusText' | 'headers'>

export function readResponse(bytes: Uint8Array, init: ResponseInit): Response {
  return new ReadResponse(bytes, init) as unknown as Response
}

class ReadResponse extends ResponseClass {
  readonly #bytes: Uint8Array
  #used = false

  constructor(bytes: Uint8Array, init: ResponseInit) {
    super(null, init)
    this.#bytes = bytes
  }

  get bodyUsed(): boolean {
    return this.#used
  }

  get body(): ReadableStream<Uint8Array> | null {
    const bytes = this.#bytes
    return new ReadableStream({
      start(controller) {
        controller.enqueue(bytes)
        controller.close()
      },
    })
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#take()
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(this.#take())
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown
  }

  clone(): Response {
    if (this.#used) throw new TypeError('Response.clone: the body has been read already')
    return readResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers })
  }

  #take(): Uint8Array {
    // As a Response's body, read once.
    if (this.#used) throw new TypeError('the body of this response has been read already')
    this.#used = true
    return this.#bytes
  }
}
