'use strict'
/**
 * What the bundle takes from undici (rollup.config.js points `undici` here): `fetch`, which @actions/github's
 * octokit sends its requests with, and `ProxyAgent`, which @actions/http-client builds when the runner sets
 * https_proxy / http_proxy. Only these two are used, but undici's index requires all of it (WebSocket,
 * EventSource, the cache and cookie APIs, mock agents): about 0.6 MB of the action's bundle that never runs.
 * The same files, from the same installed undici, so behaviour is unchanged; `npm run licenses` still lists it.
 */
const Dispatcher = require('../node_modules/undici/lib/dispatcher/dispatcher.js')
// ProxyAgent opens its tunnel with Dispatcher#connect, which undici's index adds from lib/api
Object.assign(Dispatcher.prototype, require('../node_modules/undici/lib/api/index.js'))
const fetchImpl = require('../node_modules/undici/lib/web/fetch/index.js').fetch

/** undici's own wrapper (index.js): the stack of a failed fetch starts at the caller. */
module.exports.fetch = function fetch(resource, init = undefined) {
  return fetchImpl(resource, init).catch((err) => {
    if (err && typeof err === 'object') Error.captureStackTrace(err)
    throw err
  })
}
module.exports.ProxyAgent = require('../node_modules/undici/lib/dispatcher/proxy-agent.js')
