/**
 * express 5 ships no types and @types/express is not installed: just what the A2A test server uses.
 * (@a2a-js/sdk's express handlers are typed against this module too.)
 */
declare module 'express' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export interface Request extends IncomingMessage {
    body: unknown
  }
  export interface Response extends ServerResponse {
    json(body: unknown): this
  }
  export type NextFunction = (error?: unknown) => void
  export type RequestHandler = (req: Request, res: Response, next: NextFunction) => void
  export interface Express {
    (req: IncomingMessage, res: ServerResponse): void
    use(...handlers: (string | RequestHandler)[]): this
    get(path: string, handler: (req: Request, res: Response) => void): this
  }
  interface ExpressFactory {
    (): Express
    json(): RequestHandler
  }
  const express: ExpressFactory
  export default express
}
