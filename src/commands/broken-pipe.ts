/**
 * `retrieval-gate gate ... | head` closes the pipe after ten lines; Node then reports EPIPE as an 'error' event on
 * stdout, and with no listener that event is thrown as an uncaught exception: a stack trace on stderr after the
 * lines `head` printed, and exit code 1 whatever the verdict. A reader who closed the pipe wants no more output, so
 * the writer stops writing (quietly) and the command finishes with the exit code it computed. Any other error on
 * the stream is not hidden: it goes to `onError`.
 */

/** What the guard needs of a stream: process.stdout is one. */
export interface WritableLike {
  write(text: string): unknown
  on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown
}

/** A write function for `stream` that stops, without a word, once the reader closed the pipe (EPIPE). */
export function quietOnBrokenPipe(
  stream: WritableLike,
  onError: (error: NodeJS.ErrnoException) => void
): (text: string) => void {
  let closed = false
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') closed = true
    else onError(error)
  })
  return (text) => {
    if (!closed) stream.write(text)
  }
}
