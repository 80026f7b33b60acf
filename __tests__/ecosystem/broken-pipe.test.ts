/**
 * `gate ... | head`: when the reader closes the pipe, the CLI stops writing without a stack trace and keeps its exit
 * code (src/commands/broken-pipe.ts, used by src/cli.ts on process.stdout). Tested on a real pipe: the stdin of a
 * `head -n 1` child, which exits after one line, so later writes get EPIPE; without the guard the 'error' event has
 * no listener and is thrown (jest reports it as an uncaught error).
 */
import { describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { quietOnBrokenPipe } from '../../src/commands/broken-pipe.js'

describe('a reader that closes the pipe', () => {
  it('stops the output quietly: EPIPE on a real pipe is swallowed, nothing else is reported', async () => {
    const head = spawn('head', ['-n', '1'], { stdio: ['pipe', 'pipe', 'inherit'] })
    let shown = ''
    head.stdout.on('data', (d: Buffer) => (shown += d.toString()))
    const others: unknown[] = []
    const write = quietOnBrokenPipe(head.stdin, (e) => others.push(e))
    const exited = new Promise<number | null>((resolve) => head.on('close', resolve))
    write('first line\n')
    await new Promise((r) => setTimeout(r, 200))
    // head has printed its line and exited: these writes hit a closed pipe.
    for (let i = 0; i < 2000; i++) write(`line ${i} ${'x'.repeat(100)}\n`)
    await new Promise((r) => setTimeout(r, 300))
    expect(await exited).toBe(0)
    expect(shown).toBe('first line\n')
    expect(others).toEqual([])
  })

  it('reports any other write error to its caller (exit 3 in src/cli.ts), and stops nothing else', () => {
    const stream = new EventEmitter() as EventEmitter & { write: (t: string) => boolean; written: string[] }
    stream.written = []
    stream.write = (t: string) => stream.written.push(t) > 0
    const others: Array<{ code?: string }> = []
    const write = quietOnBrokenPipe(stream, (e) => others.push(e))
    write('a')
    stream.emit('error', Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }))
    write('b')
    stream.emit('error', Object.assign(new Error('broken pipe'), { code: 'EPIPE' }))
    write('c')
    expect(stream.written).toEqual(['a', 'b'])
    expect(others.map((e) => e.code)).toEqual(['ENOSPC'])
  })
})
