/**
 * The command line entry (dist/cli.js): the only place the CLI touches the process. All behaviour is in
 * commands/cli-main.ts, which returns an exit code so tests can call it in-process.
 */
import { main } from './commands/cli-main.js'
import { defaultThreads } from './stats/threads.js'

main(
  process.argv.slice(2),
  (text) => process.stdout.write(text),
  (text) => process.stderr.write(text),
  // NO_COLOR (https://no-color.org): set and not empty means no colour.
  // RG_THREADS: threads for the resampling (1 = none); changes the time, never a byte of the report.
  { isTTY: process.stdout.isTTY === true, noColor: (process.env.NO_COLOR ?? '') !== '', threads: defaultThreads(process.env.RG_THREADS) }
).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`retrieval-gate: ${String(error)}\n`)
    process.exitCode = 3
  }
)
