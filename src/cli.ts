/**
 * The command line entry (dist/cli.js): the only place the CLI touches the process. All behaviour is in
 * commands/cli-main.ts, which returns an exit code so tests can call it in-process.
 */
import { main } from './commands/cli-main.js'
import { quietOnBrokenPipe } from './commands/broken-pipe.js'
import { defaultThreads } from './stats/threads.js'
import { invocation } from './commands/invocation.js'

// `gate ... | head`: the reader closed the pipe; stop writing, keep the exit code (src/commands/broken-pipe.ts).
let stdoutFailed = false
const stdout = quietOnBrokenPipe(process.stdout, (error) => {
  if (!stdoutFailed) process.stderr.write(`retrieval-gate: cannot write to stdout: ${error.message}\n`)
  stdoutFailed = true
  process.exitCode = 3
})

main(
  process.argv.slice(2),
  stdout,
  (text) => process.stderr.write(text),
  // NO_COLOR (https://no-color.org): set and not empty means no colour.
  // RG_THREADS: threads for the resampling (1 = none); changes the time, never a byte of the report.
  {
    isTTY: process.stdout.isTTY === true,
    noColor: (process.env.NO_COLOR ?? '') !== '',
    threads: defaultThreads(process.env.RG_THREADS),
    command: invocation(process.argv[1], process.cwd())
  }
).then(
  (code) => {
    // An output that could not be written (other than a reader closing the pipe) is an error, not the verdict.
    process.exitCode = stdoutFailed ? 3 : code
  },
  (error: unknown) => {
    process.stderr.write(`retrieval-gate: ${String(error)}\n`)
    process.exitCode = 3
  }
)
