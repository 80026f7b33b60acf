/**
 * Tests that need a program outside npm (Debian's cmark-gfm and chromium, Node 24 through npx) decide up front,
 * with a probe, whether they can run, so that `npm test` on a machine with only Node runs everything else and
 * says in one line what to install, and no such test ever passes without running:
 * - the program is there: the tests run;
 * - it is missing, off CI: they are skipped (jest counts them as skipped) and one line names what to install;
 * - it is missing under CI (`CI=true`, set by GitHub Actions and by .ci/run): they fail, because CI installs
 *   every program and must run every test: a skip there would hide a broken CI image.
 * An explicit `RG_SKIP_*=1` skips with its own line, on CI too (a choice written down, not an accident).
 */
import { describe, it } from '@jest/globals'
import { accessSync, constants, statSync } from 'node:fs'
import { spawnSync } from 'node:child_process'

/** The one Debian command that installs every program these tests use (what .ci/run installs). */
export const INSTALL = 'apt-get install cmark-gfm chromium'

export type Availability = { run: true } | { run: false; reason: string; explicit: boolean }

/** What to do with tests whose program is (un)available: run, skip (with its one line), or fail (with why). */
export type Decision = { action: 'run' } | { action: 'skip' | 'fail'; line: string }

/** True when the environment says this is CI (GitHub Actions and most CI services set CI=true). */
export function onCi(env: Record<string, string | undefined> = process.env): boolean {
  const v = (env.CI ?? '').toLowerCase()
  return v !== '' && v !== '0' && v !== 'false'
}

/**
 * The decision, apart from jest so it can be tested: `what` names the tests ("GFM rendering tests"), `install`
 * what would make them run. The line is a single line, whatever the reason says.
 */
export function decide(what: string, available: Availability, install: string, ci: boolean): Decision {
  if (available.run) return { action: 'run' }
  const reason = available.reason.replace(/\s+/g, ' ').trim()
  if (available.explicit) return { action: 'skip', line: `skipped: ${what} (${reason})` }
  if (ci)
    return {
      action: 'fail',
      line: `${what} cannot run on CI: ${reason}; CI must install it (${install}) and run every test`
    }
  return { action: 'skip', line: `skipped: ${what}: ${reason}; to run them: ${install}` }
}

/** An executable file at `file` (the probe for cmark-gfm and chromium, whose paths the tests take from the env). */
export function executableAt(file: string, envName: string): Availability {
  try {
    if (!statSync(file).isFile()) return { run: false, reason: `${file} is not a file (${envName})`, explicit: false }
    accessSync(file, constants.X_OK)
    return { run: true }
  } catch (error) {
    return {
      run: false,
      reason: `${file} not found (${(error as NodeJS.ErrnoException).code ?? 'error'}; set ${envName} to another path)`,
      explicit: false
    }
  }
}

/** A program that answers `args` with exit status 0 (e.g. `npx -y node@24 --version`). */
export function answers(
  command: string,
  args: string[],
  check: (stdout: string) => boolean,
  timeoutMs: number,
  cwd?: string
): Availability {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs, cwd })
  if (r.status === 0 && check(r.stdout.trim())) return { run: true }
  const why = r.error
    ? String((r.error as NodeJS.ErrnoException).code ?? r.error.message)
    : `exit ${r.status ?? r.signal}`
  return { run: false, reason: `\`${[command, ...args].join(' ')}\` failed (${why})`, explicit: false }
}

/** An explicit skip by an environment variable set to 1. */
export function skippedBy(
  envName: string,
  env: Record<string, string | undefined> = process.env
): Availability | undefined {
  return env[envName] === '1' ? { run: false, reason: `${envName}=1`, explicit: true } : undefined
}

/**
 * jest's `describe` and `it` for tests that need a program: the real ones when it is available; `.skip` when
 * it is missing off CI (after writing the one line); under CI a single failing test carrying the line.
 */
export function needing(
  what: string,
  available: Availability,
  install = INSTALL
): { describe: typeof describe; it: typeof it } {
  const d = decide(what, available, install, onCi())
  if (d.action === 'run') return { describe, it }
  if (d.action === 'skip') {
    process.stderr.write(`${d.line}\n`)
    return { describe: describe.skip as unknown as typeof describe, it: it.skip as unknown as typeof it }
  }
  const failing = ((name: string) => {
    describe(name, () => {
      it('needs a program that is missing', () => {
        throw new Error(d.line)
      })
    })
  }) as unknown as typeof describe
  const failingIt = ((name: string) => {
    it(name, () => {
      throw new Error(d.line)
    })
  }) as unknown as typeof it
  return { describe: Object.assign(failing, { each: () => failing }), it: failingIt }
}
