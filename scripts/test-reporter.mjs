// node:test's spec reporter, with the compiled files' names given back: a file that fails as a whole
// (it throws while loading, or exits early) is reported by the path node --test was given,
// node_modules/.cache/convy-tests/test/x.test.js, shown here as test/x.test.ts. Stack traces and a
// test's "test at file:line" already say the .ts file: the compiled files carry source maps
// (scripts/compile-tests.mjs) and node runs with --enable-source-maps. What a file prints is left as
// it is: an error about a compiled file names the compiled file.
import { Transform } from 'node:stream'
import { spec } from 'node:test/reporters'
import { pathToFileURL } from 'node:url'
import { BUILD, ROOT } from './compile-tests.mjs'

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const BUILD_URL = pathToFileURL(BUILD).href
const ROOT_URL = pathToFileURL(ROOT).href
const COMPILED = new RegExp(`(${escape(BUILD_URL)}|${escape(BUILD)})((?:[\\\\/][^\\s'":()]*?)+)\\.js\\b|node_modules[\\\\/]\\.cache[\\\\/]convy-tests[\\\\/]([^\\s'":()]+?)\\.js\\b`, 'g')

/** A text with every compiled file's path (absolute, file: URL or relative) turned into its .ts source's. */
export function sourceNames(text) {
  return text.replace(COMPILED, (_, prefix, rest, relative) => {
    if (relative !== undefined) return `${relative}.ts`
    return `${prefix === BUILD ? ROOT : ROOT_URL}${rest}.ts`
  })
}

function renamed(event) {
  const data = event.data
  if (data === null || typeof data !== 'object') return event
  const copy = { ...data }
  if (typeof copy.name === 'string') copy.name = sourceNames(copy.name)
  if (typeof copy.file === 'string') copy.file = sourceNames(copy.file)
  return { ...event, data: copy }
}

export default class SourceNamesSpecReporter extends Transform {
  #spec = new spec()

  constructor() {
    super({ writableObjectMode: true })
  }

  _transform(event, encoding, callback) {
    this.#spec._transform(renamed(event), encoding, callback)
  }

  _flush(callback) {
    this.#spec._flush(callback)
  }
}
