import type { Dispatcher } from 'undici'
import { RequestTimedOut, ResponseTooLarge, type SendWhole, type WholeAnswer } from './whole.ts'
import { onAbort } from '../shared/abort-listeners.ts'

/**
 * createFetch's `whole`: one request straight on undici's `Dispatcher#dispatch`, with a handler that
 * gathers the body, for the calls whose answer is read whole (an agent's JSON turn, the gateway
 * check). undici's `request` would make a Readable body, an abort signal of its own and a promise per
 * chunk for each call (bench/runner.ts: a profile of 200 conversations put them among the runner's
 * costliest frames); here a call is a handler object, one timer at most and one abort listener.
 *
 * An abort or the timeout fails the call at once, even while it waits for a connection (undici would
 * hear it only once a connection takes the request), and undici drops the request when it gets there.
 * Past `limit` bytes (what a BodyReader keeps, when one is given) the call fails with ResponseTooLarge.
 */
export function dispatchWhole(dispatcher: Dispatcher, limit: number | undefined): SendWhole {
  return (url, { method, headers, body, signal, timeoutMs, reader }) =>
    new Promise<WholeAnswer>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
      const target = new URL(url)
      const what = `${method} ${url}`
      let controller: Dispatcher.DispatchController | undefined
      let stopped: Error | undefined
      let settled = false
      let status = 0
      let answerHeaders: WholeAnswer['headers'] = {}
      const chunks: Buffer[] = []
      let size = 0
      const finish = (error: Error | undefined, answer?: WholeAnswer) => {
        if (settled) return
        settled = true
        if (timer !== undefined) clearTimeout(timer)
        stopListening?.()
        if (error === undefined) return resolve(answer!)
        reject(error)
      }
      // Stops the exchange wherever it is: at once for the caller, in undici when it can hear it.
      const stop = (error: Error) => {
        stopped ??= error
        if (controller && !controller.aborted) controller.abort(error)
        finish(error)
      }
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => stop(new RequestTimedOut(timeoutMs)), timeoutMs)
      const stopListening = signal === undefined ? undefined : onAbort(signal, () => stop(signal.reason as Error))
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(started) {
          controller = started
          if (stopped) started.abort(stopped)
        },
        onResponseStart(_controller, statusCode, responseHeaders) {
          status = statusCode
          answerHeaders = responseHeaders
        },
        onResponseData(_controller, chunk) {
          if (settled) return
          try {
            if (reader) reader.push(chunk)
            else chunks.push(chunk)
            size = reader ? reader.size : size + chunk.length
            if (limit !== undefined && size > limit) stop(new ResponseTooLarge(what, limit))
          } catch (error) {
            stop(error as Error)
          }
        },
        onResponseEnd() {
          if (settled) return
          try {
            const bytes = reader ? reader.end() : Buffer.concat(chunks, size)
            // As a fetch's text(): UTF-8, without a byte-order mark.
            finish(undefined, { status, headers: answerHeaders, text: new TextDecoder().decode(bytes) })
          } catch (error) {
            finish(error as Error)
          }
        },
        onResponseError(_controller, error) {
          finish(stopped ?? error)
        },
      }
      dispatcher.dispatch({ origin: target.origin, path: `${target.pathname}${target.search}`, method: method as Dispatcher.HttpMethod, headers, body }, handler)
    })
}
