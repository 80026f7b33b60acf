/**
 * A small fake of the GitHub REST API on 127.0.0.1 (node:http, no extra packages): just the endpoints the
 * action calls, with in-memory state, a request log, and programmable faults (status + headers, N times).
 * Tests aim a real octokit (with the retry and throttling plugins) at it through baseUrl / GITHUB_API_URL.
 */
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { crc32, deflateRawSync } from 'node:zlib'

export interface FakeComment {
  id: number
  body: string
  user: { login: string }
  html_url: string
}

export interface FakePull {
  number: number
  head: { sha: string; ref: string; repo: { full_name: string } | null }
  base: { sha: string; ref: string }
  state?: string
}

export interface FakeRun {
  id: number
  workflow_id: number
  /** .github/workflows/FILE: the API also takes the file name where it takes a workflow id */
  path?: string
  head_sha: string
  head_branch: string
  event: string
  status: string
  conclusion: string
  created_at: string
  html_url: string
  /** null as GitHub shows a deleted fork's */
  head_repository: { full_name: string } | null
}

export interface FakeArtifact {
  id: number
  name: string
  size_in_bytes: number
  expired: boolean
  created_at: string
  runId: number
  zip: Buffer
  /**
   * How the storage host serves the archive: whole with a Content-Length (default), `unsized` (chunked, no length),
   * `stall` (half of it, then nothing until the client gives up), `drip` (a byte every 20 ms, never ending).
   */
  serve?: 'unsized' | 'stall' | 'drip'
}

/** A commit status as POST /repos/{owner}/{repo}/statuses/{sha} received it. */
export interface FakeStatus {
  /** GitHub's id, in creation order (a status pushed by a test without one gets its place in `statuses`). */
  id?: number
  sha: string
  state: string
  context: string
  description: string | undefined
  target_url: string | undefined
}

export interface Fault {
  method: string
  path: RegExp
  status: number
  headers?: Record<string, string>
  body?: unknown
  /** How many times the fault fires (then the route answers normally). */
  times: number
}

export interface LoggedRequest {
  method: string
  path: string
  status: number
  token: string | undefined
}

export class FakeGitHub {
  readonly owner = 'acme'
  readonly repo = 'search'
  /** token -> login; a token not listed is refused with 401. */
  users = new Map<string, string>()
  /** tokens for which GET /user answers 403 (like the Actions GITHUB_TOKEN) */
  userForbidden = new Set<string>()
  /** tokens that may only read (writes answer 403 "Resource not accessible by integration") */
  readOnly = new Set<string>()
  comments = new Map<number, FakeComment[]>()
  pulls = new Map<number, FakePull>()
  /** `${sha}:${path}` -> file text or bytes; a path that is a prefix of others (`dir/`) answers with a listing */
  files = new Map<string, string | Buffer>()
  /** `${sha}:${path}` of files served without a Content-Length (chunked), as a proxy might */
  unsized = new Set<string>()
  runs: FakeRun[] = []
  artifacts: FakeArtifact[] = []
  mergeBases = new Map<string, string>()
  /** commit statuses created, in order */
  statuses: FakeStatus[] = []
  /** PR number -> its commits' shas (GET /pulls/{n}/commits; default: the PR's head) */
  pullCommits = new Map<number, string[]>()
  /** ref (tag, branch or sha) -> the commit it names and its committer date (GET /commits/{ref}; by sha: GET /git/commits/{sha}) */
  commits = new Map<string, { sha: string; date: string }>()
  /** branch name -> its tip (GET /git/ref/heads/{name}) */
  branches = new Map<string, string>()
  /** tag name -> the commit it names; an annotated one is served as a tag object to peel (GET /git/ref/tags/{name}, /git/tags/{sha}) */
  tags = new Map<string, { sha: string; annotated?: boolean }>()
  /** the commit graph, commit -> its parents: GET /compare/{base}...{head} answers ahead, behind, identical or diverged from it */
  parents = new Map<string, string[]>()
  /** GET /commits/{sha}/statuses listings of `sha` held until `count` are waiting, then answered together (interleaved runs) */
  private held: { sha: string; count: number; waiting: Array<() => void>; timer?: NodeJS.Timeout } | undefined
  /** Where the signed download addresses point (default: this server); a test names a host only a proxy reaches. */
  storageUrl: string | undefined
  faults: Fault[] = []
  log: LoggedRequest[] = []
  private server: Server | undefined
  private nextId = 1000
  url = ''

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => this.send(req, res, 500, { message: error.message }))
    })
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  async stop(): Promise<void> {
    // a response still open (a stalled archive, when a timeout under test failed to fire) must not hold the close
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
  }

  addComment(issue: number, login: string, body: string): FakeComment {
    const id = this.nextId++
    const c = {
      id,
      body,
      user: { login },
      html_url: `https://github.com/${this.owner}/${this.repo}/pull/${issue}#issuecomment-${id}`
    }
    const list = this.comments.get(issue) ?? []
    list.push(c)
    this.comments.set(issue, list)
    return c
  }

  requests(method: string, path: RegExp): LoggedRequest[] {
    return this.log.filter((r) => r.method === method && path.test(r.path.split('?')[0]))
  }

  /** A branch whose history is `shas`, oldest first (each commit's parent is the one before); its tip is the last. */
  branch(name: string, shas: readonly string[]): void {
    shas.forEach((sha, i) => {
      if (i > 0) this.parents.set(sha, [shas[i - 1]])
      else if (!this.parents.has(sha)) this.parents.set(sha, [])
    })
    this.branches.set(name, shas[shas.length - 1])
  }

  /** A tag on `sha` (lightweight, or annotated: a tag object the API peels), with the commit's date for GET /git/commits. */
  tag(name: string, sha: string, options: { annotated?: boolean; date?: string } = {}): void {
    this.tags.set(name, { sha, annotated: options.annotated })
    if (options.date !== undefined) this.commits.set(sha, { sha, date: options.date })
  }

  /**
   * Holds the next listings of `sha`'s statuses until `count` of them are waiting, then answers them together, each
   * with the statuses as they are then: two gate runs interleaved at the ledger. A listing that waits 5 s is
   * answered anyway, so a test whose runs never meet fails on its numbers instead of hanging.
   */
  holdStatusLists(sha: string, count: number): void {
    this.held = { sha, count, waiting: [] }
  }

  private async waitForHeld(sha: string): Promise<void> {
    const held = this.held
    if (held === undefined || held.sha !== sha) return
    await new Promise<void>((resolve) => {
      held.waiting.push(resolve)
      const release = (): void => {
        if (this.held === held) this.held = undefined
        clearTimeout(held.timer)
        for (const go of held.waiting.splice(0)) go()
      }
      if (held.waiting.length >= held.count) release()
      else held.timer ??= setTimeout(release, 5000)
    })
  }

  /** Every ancestor of `sha` (itself included), from the commit graph. */
  private ancestors(sha: string): Set<string> {
    const seen = new Set<string>()
    const todo = [sha]
    while (todo.length > 0) {
      const c = todo.pop() as string
      if (seen.has(c)) continue
      seen.add(c)
      todo.push(...(this.parents.get(c) ?? []))
    }
    return seen
  }

  /** The nearest common ancestor of two commits of the graph (breadth first from `head`), or undefined. */
  private mergeBase(base: string, head: string): string | undefined {
    const fromBase = this.ancestors(base)
    const queue = [head]
    const seen = new Set<string>()
    while (queue.length > 0) {
      const c = queue.shift() as string
      if (fromBase.has(c)) return c
      if (seen.has(c)) continue
      seen.add(c)
      queue.push(...(this.parents.get(c) ?? []))
    }
    return undefined
  }

  /** The tag object's sha of an annotated tag (made up, stable). */
  private tagObject(name: string): string {
    return createHash('sha1').update(`tag ${name}`).digest('hex')
  }

  private send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {}
  ): void {
    const auth = req.headers.authorization
    this.log.push({ method: req.method ?? '', path: req.url ?? '', status, token: auth?.split(' ')[1] })
    const isBuffer = Buffer.isBuffer(body)
    const text = isBuffer ? body : typeof body === 'string' ? body : JSON.stringify(body)
    res.writeHead(status, {
      'content-type':
        isBuffer || typeof body === 'string' ? 'application/octet-stream' : 'application/json; charset=utf-8',
      ...headers
    })
    res.end(text)
  }

  /** An archive served without a length, or stalling, or dripping (see FakeArtifact.serve); the client ends it. */
  private serveSlowly(req: IncomingMessage, res: ServerResponse, a: FakeArtifact): void {
    const auth = req.headers.authorization
    this.log.push({ method: req.method ?? '', path: req.url ?? '', status: 200, token: auth?.split(' ')[1] })
    res.writeHead(200, { 'content-type': 'application/zip' })
    if (a.serve === 'unsized') {
      res.write(a.zip.subarray(0, a.zip.length >> 1))
      res.end(a.zip.subarray(a.zip.length >> 1))
      return
    }
    if (a.serve === 'stall') {
      res.write(a.zip.subarray(0, a.zip.length >> 1))
      return
    }
    const drip = setInterval(() => res.write(Buffer.from([0])), 20)
    res.on('close', () => clearInterval(drip))
  }

  /** One page of `all` (per_page, page) with a Link header to the next, as GitHub paginates. */
  private page(req: IncomingMessage, res: ServerResponse, url: URL, all: unknown[]): void {
    const perPage = Number(url.searchParams.get('per_page') ?? 30)
    const page = Number(url.searchParams.get('page') ?? 1)
    const headers: Record<string, string> = {}
    if (page * perPage < all.length) {
      const next = new URL(url)
      next.searchParams.set('page', String(page + 1))
      headers.link = `<${next.toString()}>; rel="next"`
    }
    this.send(req, res, 200, all.slice((page - 1) * perPage, page * perPage), headers)
  }

  private async readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    return text ? (JSON.parse(text) as Record<string, unknown>) : {}
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET'
    const url = new URL(req.url ?? '/', this.url)
    const p = url.pathname
    const fault = this.faults.find((f) => f.method === method && f.path.test(p) && f.times > 0)
    if (fault) {
      fault.times--
      return this.send(req, res, fault.status, fault.body ?? { message: `fault ${fault.status}` }, fault.headers)
    }
    const blob = /^\/blobs\/(\d+)\.zip$/.exec(p)
    if (blob) {
      const a = this.artifacts.find((x) => x.id === Number(blob[1]))
      if (!a) return this.send(req, res, 404, { message: 'Not Found' })
      if (a.serve !== undefined) return this.serveSlowly(req, res, a)
      return this.send(req, res, 200, a.zip, {
        'content-type': 'application/zip',
        'content-length': String(a.zip.length),
        'content-disposition': `attachment; filename=${a.name}.zip`
      })
    }
    const token = req.headers.authorization?.split(' ')[1]
    const login = token ? this.users.get(token) : undefined
    if (!login) return this.send(req, res, 401, { message: 'Bad credentials' })
    const writeDenied = (): void => this.send(req, res, 403, { message: 'Resource not accessible by integration' })
    const base = `/repos/${this.owner}/${this.repo}`
    let m: RegExpExecArray | null
    if (method === 'GET' && p === '/user') {
      if (token && this.userForbidden.has(token))
        return this.send(req, res, 403, { message: 'Resource not accessible by integration' })
      return this.send(req, res, 200, { login, type: 'User' })
    }
    if (!p.startsWith(base + '/')) return this.send(req, res, 404, { message: 'Not Found' })
    const rest = p.slice(base.length)
    if (method === 'GET' && (m = /^\/pulls\/(\d+)$/.exec(rest))) {
      const pull = this.pulls.get(Number(m[1]))
      return pull ? this.send(req, res, 200, pull) : this.send(req, res, 404, { message: 'Not Found' })
    }
    if (method === 'GET' && (m = /^\/pulls\/(\d+)\/commits$/.exec(rest))) {
      const pull = this.pulls.get(Number(m[1]))
      if (!pull) return this.send(req, res, 404, { message: 'Not Found' })
      const shas = this.pullCommits.get(pull.number) ?? [pull.head.sha]
      return this.page(
        req,
        res,
        url,
        shas.map((sha) => ({ sha }))
      )
    }
    if (method === 'GET' && (m = /^\/commits\/([^/]+)\/statuses$/.exec(rest))) {
      const sha = decodeURIComponent(m[1])
      await this.waitForHeld(sha)
      // newest first, as GitHub lists them, each with its id
      const list = this.statuses
        .map((x, i) => ({ ...x, id: x.id ?? i + 1 }))
        .filter((x) => x.sha === sha)
        .reverse()
      return this.page(req, res, url, list)
    }
    if (method === 'GET' && rest === '/pulls') {
      const head = url.searchParams.get('head') ?? ''
      const [owner, ref] = head.split(':')
      const list = [...this.pulls.values()].filter(
        (x) => !head || (x.head.repo?.full_name.split('/')[0] === owner && x.head.ref === ref)
      )
      return this.send(req, res, 200, list)
    }
    if (method === 'GET' && (m = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
      const all = this.comments.get(Number(m[1])) ?? []
      const perPage = Number(url.searchParams.get('per_page') ?? 30)
      const page = Number(url.searchParams.get('page') ?? 1)
      const slice = all.slice((page - 1) * perPage, page * perPage)
      const headers: Record<string, string> = {}
      if (page * perPage < all.length) {
        const next = new URL(url)
        next.searchParams.set('page', String(page + 1))
        headers.link = `<${next.toString()}>; rel="next"`
      }
      return this.send(req, res, 200, slice, headers)
    }
    if (method === 'POST' && (m = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
      if (token && this.readOnly.has(token)) return writeDenied()
      const body = await this.readBody(req)
      return this.send(req, res, 201, this.addComment(Number(m[1]), login, String(body.body)))
    }
    if (method === 'PATCH' && (m = /^\/issues\/comments\/(\d+)$/.exec(rest))) {
      if (token && this.readOnly.has(token)) return writeDenied()
      const body = await this.readBody(req)
      for (const list of this.comments.values()) {
        const c = list.find((x) => x.id === Number(m?.[1]))
        if (c) {
          if (c.user.login !== login) return writeDenied()
          c.body = String(body.body)
          return this.send(req, res, 200, c)
        }
      }
      return this.send(req, res, 404, { message: 'Not Found' })
    }
    if (method === 'POST' && (m = /^\/statuses\/([^/]+)$/.exec(rest))) {
      if (token && this.readOnly.has(token)) return writeDenied()
      const body = await this.readBody(req)
      const sha = decodeURIComponent(m[1])
      // like GitHub: the state must be one of four, and a description over 140 characters is refused
      if (!['error', 'failure', 'pending', 'success'].includes(String(body.state)))
        return this.send(req, res, 422, { message: 'Validation Failed' })
      if (typeof body.description === 'string' && body.description.length > 140)
        return this.send(req, res, 422, {
          message: 'Validation Failed: description is too long (maximum is 140 characters)'
        })
      const status: FakeStatus = {
        sha,
        state: String(body.state),
        context: typeof body.context === 'string' ? body.context : 'default',
        description: typeof body.description === 'string' ? body.description : undefined,
        target_url: typeof body.target_url === 'string' ? body.target_url : undefined
      }
      this.statuses.push(status)
      // its id is its place in creation order, as the listing gives it
      return this.send(req, res, 201, { id: this.statuses.length, ...status })
    }
    if (method === 'GET' && (m = /^\/contents\/(.+)$/.exec(rest))) {
      const key = `${url.searchParams.get('ref')}:${decodeURIComponent(m[1])}`
      const data = this.files.get(key)
      if (data === undefined) {
        // like GitHub: a directory answers with a JSON listing, even with the raw media type
        const inside = [...this.files.keys()].filter((k) => k.startsWith(`${key}/`))
        if (inside.length > 0)
          return this.send(
            req,
            res,
            200,
            inside.map((k) => ({ type: 'file', path: k.slice(k.indexOf(':') + 1) }))
          )
        return this.send(req, res, 404, { message: 'Not Found' })
      }
      const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8')
      return this.send(req, res, 200, bytes, {
        'content-type': 'application/vnd.github.raw',
        ...(this.unsized.has(key) ? {} : { 'content-length': String(bytes.length) })
      })
    }
    if (method === 'GET' && (m = /^\/actions\/runs\/(\d+)$/.exec(rest))) {
      const run = this.runs.find((r) => r.id === Number(m?.[1]))
      return run ? this.send(req, res, 200, run) : this.send(req, res, 404, { message: 'Not Found' })
    }
    if (method === 'GET' && (m = /^\/actions\/workflows\/([^/]+)\/runs$/.exec(rest))) {
      const wf = m[1]
      const branch = url.searchParams.get('branch')
      const status = url.searchParams.get('status')
      const event = url.searchParams.get('event')
      const list = this.runs
        .filter(
          (r) =>
            (String(r.workflow_id) === wf || (r.path !== undefined && r.path.split('/').pop() === wf)) &&
            (!branch || r.head_branch === branch) &&
            (!status || r.conclusion === status) &&
            (!event || r.event === event)
        )
        .sort((a, b) => b.id - a.id)
      // one page of them (per_page, page), as GitHub answers: newest first
      const perPage = Number(url.searchParams.get('per_page') ?? 30)
      const page = Number(url.searchParams.get('page') ?? 1)
      const workflowRuns = list.slice((page - 1) * perPage, page * perPage)
      return this.send(req, res, 200, { total_count: list.length, workflow_runs: workflowRuns })
    }
    if (method === 'GET' && (m = /^\/actions\/runs\/(\d+)\/artifacts$/.exec(rest))) {
      const name = url.searchParams.get('name')
      const list = this.artifacts
        .filter((a) => a.runId === Number(m?.[1]) && (!name || a.name === name))
        .map(({ zip: _zip, runId: _run, ...a }) => a)
      return this.send(req, res, 200, { total_count: list.length, artifacts: list })
    }
    if (method === 'GET' && (m = /^\/actions\/artifacts\/(\d+)\/zip$/.exec(rest))) {
      const a = this.artifacts.find((x) => x.id === Number(m?.[1]))
      if (!a) return this.send(req, res, 404, { message: 'Not Found' })
      return this.send(req, res, 302, '', { location: `${this.storageUrl ?? this.url}/blobs/${a.id}.zip` })
    }
    if (method === 'GET' && (m = /^\/commits\/([^/]+)$/.exec(rest))) {
      const c = this.commits.get(decodeURIComponent(m[1]))
      if (!c) return this.send(req, res, 422, { message: `No commit found for SHA: ${decodeURIComponent(m[1])}` })
      return this.send(req, res, 200, { sha: c.sha, commit: { committer: { date: c.date }, author: { date: c.date } } })
    }
    if (method === 'GET' && (m = /^\/git\/ref\/(.+)$/.exec(rest))) {
      const ref = decodeURIComponent(m[1])
      const branch = ref.startsWith('heads/') ? this.branches.get(ref.slice('heads/'.length)) : undefined
      const tag = ref.startsWith('tags/') ? this.tags.get(ref.slice('tags/'.length)) : undefined
      const object =
        branch !== undefined
          ? { sha: branch, type: 'commit' }
          : tag === undefined
            ? undefined
            : tag.annotated
              ? { sha: this.tagObject(ref.slice('tags/'.length)), type: 'tag' }
              : { sha: tag.sha, type: 'commit' }
      if (object === undefined) return this.send(req, res, 404, { message: 'Not Found' })
      return this.send(req, res, 200, { ref: `refs/${ref}`, object })
    }
    if (method === 'GET' && (m = /^\/git\/tags\/([0-9a-f]+)$/.exec(rest))) {
      const name = [...this.tags.keys()].find((t) => this.tags.get(t)?.annotated && this.tagObject(t) === m?.[1])
      const tag = name === undefined ? undefined : this.tags.get(name)
      if (name === undefined || tag === undefined) return this.send(req, res, 404, { message: 'Not Found' })
      return this.send(req, res, 200, { sha: m[1], tag: name, object: { sha: tag.sha, type: 'commit' } })
    }
    if (method === 'GET' && (m = /^\/git\/commits\/([0-9a-f]+)$/.exec(rest))) {
      const sha = m[1]
      const c = [...this.commits.values()].find((x) => x.sha === sha)
      if (!c) return this.send(req, res, 404, { message: 'Not Found' })
      return this.send(req, res, 200, { sha, committer: { date: c.date }, author: { date: c.date } })
    }
    if (method === 'GET' && (m = /^\/compare\/(.+)$/.exec(rest))) {
      const basehead = decodeURIComponent(m[1])
      const [base, head] = basehead.split('...')
      const known = (sha: string): boolean => this.parents.has(sha)
      // like GitHub: behind when head is an ancestor of base, ahead when base is one of head, identical when equal
      const status =
        base === head
          ? 'identical'
          : known(base) && this.ancestors(base).has(head)
            ? 'behind'
            : known(head) && this.ancestors(head).has(base)
              ? 'ahead'
              : known(base) && known(head)
                ? 'diverged'
                : undefined
      const mb = this.mergeBases.get(basehead)
      if (!mb && status === undefined) return this.send(req, res, 404, { message: 'Not Found' })
      return this.send(req, res, 200, {
        status,
        ahead_by: status === 'ahead' || status === 'diverged' ? 1 : 0,
        behind_by: status === 'behind' || status === 'diverged' ? 1 : 0,
        merge_base_commit: { sha: mb ?? this.mergeBase(base, head) },
        commits: [],
        files: []
      })
    }
    return this.send(req, res, 404, { message: `no fake route for ${method} ${p}` })
  }
}

/** A ZIP archive built by hand (stored or deflated entries), including hostile ones the reader must refuse. */
export function makeZip(
  entries: Array<{ name: string; data: string | Buffer; deflate?: boolean; symlink?: boolean; declaredSize?: number }>
): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data, 'utf8')
    const packed = e.deflate ? deflateRawSync(data) : data
    const name = Buffer.from(e.name, 'utf8')
    const crc = crc32(data) >>> 0
    const usize = e.declaredSize ?? data.length
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x800, 6)
    local.writeUInt16LE(e.deflate ? 8 : 0, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(packed.length, 18)
    local.writeUInt32LE(usize, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(0x031e, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0x800, 8)
    central.writeUInt16LE(e.deflate ? 8 : 0, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(packed.length, 20)
    central.writeUInt32LE(usize, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(((e.symlink ? 0o120777 : 0o100644) << 16) >>> 0, 38)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, packed)
    centrals.push(central, name)
    offset += 30 + name.length + packed.length
  }
  const dir = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(dir.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, dir, end])
}
