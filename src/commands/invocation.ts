import path from 'node:path'

/** The command's name when it is installed (package.json `bin`), as npm links it. */
export const INSTALLED_COMMAND = 'retrieval-gate'

/**
 * How the user is running the CLI, so a command it prints for them to run next works as typed: `retrieval-gate`
 * when started through the installed command (npm links `bin` under that name: a global install, a tarball, npx
 * once published), else `node <the script as reached from here>` (`node dist/cli.js` in a clone). `script` is the
 * path Node was given (process.argv[1], not resolved through the link), `cwd` the working directory.
 */
export function invocation(script: string | undefined, cwd: string): string {
  if (script === undefined || script === '') return INSTALLED_COMMAND
  const name = path.basename(script)
  if (name === INSTALLED_COMMAND || name === `${INSTALLED_COMMAND}.cmd`) return INSTALLED_COMMAND
  const relative = path.relative(cwd, script)
  const shown = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : script
  return `node ${/[\s"'$`\\]/.test(shown) ? JSON.stringify(shown) : shown.split(path.sep).join('/')}`
}
