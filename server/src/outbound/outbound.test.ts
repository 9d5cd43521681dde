import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer } from '../../test/loopback-server.js';
import type { LoopbackServer } from '../../test/loopback-server.js';
import { ManualClock, realTick } from '../test-clock.js';
import { OutboundAllowList } from './address-policy.js';
import type { Resolver } from './guarded-connector.js';
import { Outbound } from './outbound.js';
import type { OutboundRequest } from './outbound.js';
import { OutboundError } from './outbound-error.js';
import { followRedirects, RedirectChainError } from './redirects.js';

const FIVE_GB = 5 * 1024 ** 3;

let site: LoopbackServer;
let other: LoopbackServer;
/** Bytes the 5 GB answer managed to write before its reader went away. */
let hugeWritten = 0;
let hugeClosed: Promise<void> = Promise.resolve();

beforeAll(async () => {
  site = await startLoopbackServer((request, response) => {
    const { path } = request;
    if (path === '/hang') return; // never answers
    if (path === '/huge') {
      hugeClosed = new Promise((resolve) => response.once('close', resolve));
      response.writeHead(200, { 'Content-Length': String(FIVE_GB) });
      const chunk = Buffer.alloc(64 * 1024, 97);
      const pump = (): void => {
        while (hugeWritten < FIVE_GB && !response.destroyed) {
          hugeWritten += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
      };
      pump();
      return;
    }
    const redirect = /^\/to\/(\d{3})\/(.+)$/.exec(path);
    if (redirect !== null) {
      response.writeHead(Number(redirect[1]), {
        Location: decodeURIComponent(redirect[2] ?? ''),
      });
      response.end();
      return;
    }
    if (path.startsWith('/loop')) {
      response.writeHead(302, { Location: `/loop${path.length}` });
      response.end();
      return;
    }
    response.writeHead(request.method === 'POST' ? 202 : 200, {
      'Content-Type': 'text/plain',
      'Set-Cookie': 'session=abc',
    });
    response.end(request.method === 'HEAD' ? undefined : `hello ${path}`);
  });
  other = await startLoopbackServer((_request, response) => {
    response.end('other');
  });
});

afterAll(async () => {
  await site.close();
  await other.close();
});

/** An outbound module that may reach only the test site's port on 127.0.0.1. */
function outboundFor(
  options: { clock?: ManualClock; resolve?: Resolver } = {},
): Outbound {
  return new Outbound({
    allow: new OutboundAllowList([`127.0.0.1:${site.port}`]),
    userAgent: 'linkconfig-test/1 (+mailto:test@example.invalid)',
    ...options,
  });
}

const get = (url: string, extra: Partial<OutboundRequest> = {}) => ({
  url,
  purpose: 'test',
  ...extra,
});

async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe('Outbound, allowed only 127.0.0.1:PORT of the test site', () => {
  it('sends GET, HEAD, POST and PURGE and answers status, headers and body', async () => {
    const outbound = outboundFor();
    const before = site.requests.length;
    const got = await outbound.send(get(`${site.origin}/page`));
    expect(got.status).toBe(200);
    expect(Buffer.from(got.body).toString()).toBe('hello /page');
    expect(got.truncated).toBe(false);
    const head = await outbound.send(
      get(`${site.origin}/page`, { method: 'HEAD' }),
    );
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const posted = await outbound.send(
      get(`${site.origin}/hook`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Signature': 't=1,v1=ab',
        },
        body: JSON.stringify({ event: 'link-broken' }),
      }),
    );
    expect(posted.status).toBe(202);
    // (BAN goes out the same way; Node's HTTP parser, unlike Varnish, does not know it.)
    const purged = await outbound.send(
      get(`${site.origin}/menu`, { method: 'PURGE' }),
    );
    expect(purged.status).toBe(200);
    const seen = site.requests.slice(before);
    expect(seen.map((r) => r.method)).toEqual(['GET', 'HEAD', 'POST', 'PURGE']);
    expect(seen[2]?.body).toBe('{"event":"link-broken"}');
    expect(seen[2]?.headers['x-signature']).toBe('t=1,v1=ab');
    expect(seen[0]?.headers['user-agent']).toMatch(/^linkconfig-test\/1/);
    await outbound.close();
  });

  it('never sends credentials: none from a URL, no cookie it was given, and refuses credential headers', async () => {
    const outbound = outboundFor();
    const before = site.requests.length;
    await outbound.send(get(`http://user:secret@127.0.0.1:${site.port}/a`));
    // The answer before set a cookie; nothing keeps it.
    await outbound.send(get(`${site.origin}/b`));
    for (const seen of site.requests.slice(before)) {
      expect(seen.headers.authorization).toBeUndefined();
      expect(seen.headers.cookie).toBeUndefined();
    }
    for (const header of ['Authorization', 'cookie', 'Proxy-Authorization']) {
      const error = await refusal(
        outbound.send(get(`${site.origin}/c`, { headers: { [header]: 'x' } })),
      );
      expect(error.kind).toBe('url');
    }
    expect(site.requests.length).toBe(before + 2);
    await outbound.close();
  });

  it.each([
    [
      '127.0.0.2 (another loopback address)',
      'http://127.0.0.2:PORT/',
      'loopback',
    ],
    ['127.0.0.2 spelled in decimal', 'http://2130706434:PORT/', 'loopback'],
    ['127.0.0.2 spelled in hex', 'http://0x7f.0.0.2:PORT/', 'loopback'],
    ['::1', 'http://[::1]:PORT/', 'loopback'],
    ['localhost', 'http://localhost:PORT/', 'localhost'],
    ['a name under localhost', 'http://api.localhost:PORT/', 'localhost'],
    [
      'the metadata address',
      'http://169.254.169.254/latest/meta-data/',
      'metadata',
    ],
    ['a private address', 'http://10.0.0.1:PORT/', 'private'],
    ['a file URL', 'file:///etc/passwd', 'scheme'],
  ])('refuses %s without connecting', async (_label, template, reason) => {
    const outbound = outboundFor();
    const connections = site.connections();
    const error = await refusal(
      outbound.send(get(template.replace('PORT', String(site.port)))),
    );
    expect(error.kind).toBe('refused');
    expect(error.reason).toBe(reason);
    expect(site.connections()).toBe(connections);
    expect(outbound.stats().refusals.get(reason)).toBe(1);
    await outbound.close();
  });

  it('refuses another port of 127.0.0.1 (the test opened it) and lets the same address spelled otherwise through', async () => {
    const outbound = outboundFor();
    const error = await refusal(outbound.send(get(`${other.origin}/`)));
    expect(error.reason).toBe('loopback');
    expect(other.connections()).toBe(0);
    const decimal = await outbound.send(
      get(`http://2130706433:${site.port}/d`),
    );
    expect(decimal.status).toBe(200);
    await outbound.close();
  });

  it('checks every address a name resolves to, at each connection (DNS rebinding)', async () => {
    const answers = [
      ['127.0.0.1'],
      ['93.184.216.34', '127.0.0.1'],
      ['10.1.2.3'],
    ];
    const asked: string[] = [];
    const resolve: Resolver = (hostname, _options, callback) => {
      asked.push(hostname);
      const next = answers.shift() ?? [];
      callback(
        null,
        next.map((address) => ({ address, family: 4 })),
      );
    };
    const outbound = outboundFor({ resolve });
    const connections = site.connections();
    const reasons: (string | undefined)[] = [];
    for (let i = 0; i < 3; i++) {
      const error = await refusal(
        outbound.send(get(`http://rebind.example:${site.port}/`)),
      );
      expect(error.kind).toBe('refused');
      reasons.push(error.reason);
    }
    expect(reasons).toEqual(['loopback', 'loopback', 'private']);
    // Resolved once per connection attempt: the address checked is the address connected to.
    expect(asked).toEqual([
      'rebind.example',
      'rebind.example',
      'rebind.example',
    ]);
    expect(site.connections()).toBe(connections);
    await outbound.close();
  });

  it('checks the address the socket is connected to, whatever led there', async () => {
    // A connector that ends up at the test site whatever the URL said (as a rebinding resolver or a
    // routing trick might): the guard sees 127.0.0.1 and refuses the socket before any request.
    const outbound = new Outbound({
      allow: new OutboundAllowList([`127.0.0.1:${site.port}`]),
      userAgent: 'test',
      connector: (_target, callback) => {
        const socket = connect({ host: '127.0.0.1', port: site.port });
        socket.once('connect', () => callback(null, socket));
        socket.once('error', (error) => callback(error, null));
      },
    });
    const connections = site.connections();
    const requests = site.requests.length;
    const error = await refusal(
      outbound.send(get(`http://93.184.216.34:${site.port}/`)),
    );
    expect(error.reason).toBe('loopback');
    expect(error.message).toMatch(/connected to 127\.0\.0\.1/);
    expect(site.connections()).toBe(connections + 1);
    expect(site.requests.length).toBe(requests);
    await outbound.close();
  });

  it('re-checks every redirect hop: a redirect to 127.0.0.2 or to localhost is refused', async () => {
    const outbound = outboundFor();
    for (const [target, reason] of [
      [`http://127.0.0.2:${site.port}/x`, 'loopback'],
      [`http://localhost:${site.port}/x`, 'localhost'],
      [`http://[::ffff:7f00:2]:${site.port}/x`, 'loopback'],
    ] as const) {
      const start = `${site.origin}/to/302/${encodeURIComponent(target)}`;
      const error = await refusal(followRedirects(outbound, get(start)));
      expect(error).toBeInstanceOf(RedirectChainError);
      expect(error.kind).toBe('refused');
      expect(error.reason).toBe(reason);
      expect((error as RedirectChainError).hops).toEqual([
        { url: start, status: 302, location: new URL(target).href },
      ]);
    }
    await outbound.close();
  });

  it('follows allowed redirects and tells a permanent chain from a temporary one', async () => {
    const outbound = outboundFor();
    const final = `${site.origin}/final`;
    const second = `${site.origin}/to/308/${encodeURIComponent(final)}`;
    const permanent = await followRedirects(
      outbound,
      get(`${site.origin}/to/301/${encodeURIComponent(second)}`, {
        method: 'HEAD',
      }),
    );
    expect(permanent.response.url).toBe(final);
    expect(permanent.hops.map((h) => h.status)).toEqual([301, 308]);
    expect(permanent.permanent).toBe(true);
    expect(site.requests.at(-1)?.method).toBe('HEAD');
    const temporary = await followRedirects(
      outbound,
      get(`${site.origin}/to/302/${encodeURIComponent(final)}`),
    );
    expect(temporary.permanent).toBe(false);
    const error = await refusal(
      followRedirects(outbound, get(`${site.origin}/loop`)),
    );
    expect(error.kind).toBe('redirects');
    expect((error as RedirectChainError).hops).toHaveLength(6);
    await outbound.close();
  });

  it('reads at most 64 KiB of a 5 GB answer and stops the transfer', async () => {
    const outbound = outboundFor();
    const got = await outbound.send(get(`${site.origin}/huge`));
    expect(got.status).toBe(200);
    expect(got.body.length).toBe(64 * 1024);
    expect(got.truncated).toBe(true);
    await hugeClosed;
    // The server could fill the socket buffers, nothing more: far from 5 GB.
    expect(hugeWritten).toBeLessThan(64 * 1024 ** 2);
    await outbound.close();
  });

  it('ends an exchange at its time limit, timed by the clock it was given', async () => {
    const clock = new ManualClock();
    const outbound = outboundFor({ clock });
    const requests = site.requests.length;
    const pending = refusal(
      outbound.send(get(`${site.origin}/hang`, { timeoutMs: 10_000 })),
    );
    while (site.requests.length === requests) await realTick();
    await clock.advance(9_999);
    await clock.advance(1);
    const error = await pending;
    expect(error.kind).toBe('timeout');
    expect(outbound.stats().requests.get('test|timeout')).toBe(1);
    await outbound.close();
  });
});
