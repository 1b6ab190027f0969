/*
 * output.ts: stdout written in large chunks (a run may print millions of trace lines), and a
 * closed pipe (`| head`) treated as the reader having seen enough rather than as a crash.
 */
export class Output {
  private parts: string[] = [];
  private size = 0;
  closed = false;

  constructor() {
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') this.closed = true;
      else throw e;
    });
  }

  write(text: string): void {
    if (this.closed || text === '') return;
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    process.stdout.write(this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }

  /** Everything written, and the pipe drained. */
  async end(): Promise<void> {
    this.flush();
    if (this.closed) return;
    await new Promise<void>((resolve) => {
      if (process.stdout.writableNeedDrain) process.stdout.once('drain', () => resolve());
      else resolve();
    });
  }
}

/** A note for the user on stderr. */
export function note(message: string): void {
  process.stderr.write(`sim: ${message}\n`);
}
