/**
 * A varnishd of one test: Debian's varnish (e2e/scripts/ensure-varnish.mjs) started in the foreground
 * in a temporary folder, on a free port of 127.0.0.1, with the VCL of docs/varnish/linkconfig.vcl
 * pointed at the test's server. Stopped by its PID.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/server.js';

/** The documented configuration the test runs. */
export const DOCS_VCL = join(REPO_ROOT, 'docs/varnish/linkconfig.vcl');

const VARNISHD = process.env['VARNISHD_PATH'] ?? '/usr/sbin/varnishd';

/** The documented VCL with its backend at `backendPort` (the one line an operator edits). */
export function vclFor(backendPort: number): string {
  const text = readFileSync(DOCS_VCL, 'utf8');
  const edited = text.replace(
    /(backend linkconfig \{[^}]*?\.port = )"\d+";/,
    `$1"${backendPort}";`,
  );
  if (edited === text) {
    throw new Error(`${DOCS_VCL}: no backend port to point at the test server`);
  }
  return edited;
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** A running varnishd. */
export class Varnishd {
  private output = '';

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /** The cache's base URL. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** What varnishd wrote (for failure messages). */
  get log(): string {
    return this.output;
  }

  /**
   * Starts varnishd on `port` in front of 127.0.0.1:`backendPort` and waits until it accepts
   * connections. `-j none`: no privilege separation, so the same command works as root (CI) and as
   * any other user; the compiled VCL and the cache live in the temporary folder.
   */
  static async start(port: number, backendPort: number): Promise<Varnishd> {
    const dir = mkdtempSync(join(tmpdir(), 'linkconfig-varnish-'));
    const vcl = join(dir, 'linkconfig.vcl');
    writeFileSync(vcl, vclFor(backendPort));
    const child = spawn(
      VARNISHD,
      [
        '-F',
        '-j',
        'none',
        '-n',
        join(dir, 'work'),
        '-a',
        `127.0.0.1:${port}`,
        '-T',
        'none',
        '-f',
        vcl,
        '-s',
        'malloc,64m',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const varnishd = new Varnishd(port, dir, child);
    const deadline = Date.now() + 30_000;
    while (!(await accepts(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await varnishd.stop();
        throw new Error(`varnishd did not start:\n${varnishd.log}`);
      }
      await new Promise((done) => setTimeout(done, 100));
    }
    return varnishd;
  }

  /** Stops varnishd by its PID (SIGTERM, then SIGKILL after 5 s) and deletes its folder. */
  async stop(): Promise<void> {
    const { child } = this;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((done) =>
        child.once('exit', () => done()),
      );
      if (child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
      const timer = setTimeout(() => {
        if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
      }, 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
