/**
 * Every error answer is JSON: requests Node's HTTP parser refuses before the app sees them (too large,
 * an unknown method, conflicting length headers) and the requests tRPC refuses before splitting them
 * into calls. Raw sockets to a real server on a loopback port, since `fetch` cannot send such requests.
 */
import { maxHeaderSize } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { LIMITS } from '@linkconfig/shared';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalOf } from '../src/http/client-error.js';
import { SECURITY_HEADERS } from '../src/http/middleware/security-headers.js';
import type { AppRouter } from '../src/index.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';

/** What came back on a raw connection, and whether the server closed it. */
interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly closed: boolean;
}

let server: RunningServer;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line !== '')
          logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  server = await startServer({
    repository: createMemoryConfigRepository(),
    logger: pino({ level: 'info' }, sink),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
    rateLimit: false,
  });
});
afterAll(async () => {
  await server.close(100);
});

/** Writes `raw` on a new connection and reads until the server closes it (or 5 s pass). */
function sendRaw(raw: string): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(raw));
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line
          .slice(colon + 1)
          .trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: rest.join('\r\n\r\n'),
        closed,
      });
    };
    const timer = setTimeout(finish, 5000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
  });
}

const request = (head: string, body = '') =>
  `${head.replace(/\n/g, '\r\n')}\r\n\r\n${body}`;

describe('requests refused by the HTTP parser', () => {
  const longUrl = `/search?q=${'a'.repeat(20_000)}`;
  const cases: {
    name: string;
    status: number;
    message: string;
    raw: string;
  }[] = [
    {
      name: 'a search URL larger than the header limit',
      status: 431,
      message: `request line and headers are larger than ${maxHeaderSize} bytes`,
      raw: request(`GET ${longUrl} HTTP/1.1\nHost: localhost`),
    },
    {
      name: 'a tRPC GET with a huge input',
      status: 431,
      message: `request line and headers are larger than ${maxHeaderSize} bytes`,
      raw: request(
        `GET /trpc/configs.get?input=${encodeURIComponent(JSON.stringify({ name: 'x'.repeat(20_000) }))} HTTP/1.1\nHost: localhost`,
      ),
    },
    {
      name: 'a batch URL of 1,500 calls',
      status: 431,
      message: `request line and headers are larger than ${maxHeaderSize} bytes`,
      raw: request(
        `GET /trpc/${Array<string>(1500).fill('configs.list').join(',')}?batch=1 HTTP/1.1\nHost: localhost`,
      ),
    },
    {
      name: 'an unknown method',
      status: 400,
      message: 'unknown HTTP method',
      raw: request('FOO /configs HTTP/1.1\nHost: localhost'),
    },
    {
      name: 'two Content-Length headers',
      status: 400,
      message: 'conflicting length headers: more than one Content-Length',
      raw: request(
        'PUT /configs/a HTTP/1.1\nHost: localhost\nContent-Type: application/json\nContent-Length: 2\nContent-Length: 3',
        '{}',
      ),
    },
    {
      name: 'Content-Length before Transfer-Encoding',
      status: 400,
      message:
        'conflicting length headers: both Content-Length and Transfer-Encoding',
      raw: request(
        'PUT /configs/a HTTP/1.1\nHost: localhost\nContent-Type: application/json\nContent-Length: 2\nTransfer-Encoding: chunked',
        '2\r\n{}\r\n0\r\n\r\n',
      ),
    },
    {
      name: 'Transfer-Encoding before Content-Length',
      status: 400,
      message:
        'conflicting length headers: both Content-Length and Transfer-Encoding',
      raw: request(
        'PUT /configs/a HTTP/1.1\nHost: localhost\nContent-Type: application/json\nTransfer-Encoding: chunked\nContent-Length: 2',
        '2\r\n{}\r\n0\r\n\r\n',
      ),
    },
  ];

  for (const { name, status, message, raw } of cases)
    it(`${name}: ${status}, JSON, the usual headers, then the connection closes`, async () => {
      const before = logLines.length;
      const answer = await sendRaw(raw);
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body)).toEqual({ error: message });
      expect(answer.headers['connection']).toBe('close');
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(answer.headers[name.toLowerCase()]).toBe(value);
      expect(answer.closed).toBe(true);
      // One log line, naming the answer's id, without the request's bytes.
      const logged = logLines
        .slice(before)
        .filter((line) => line['reqId'] === answer.headers['x-request-id']);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({
        level: 30,
        status,
        code: expect.any(String),
      });
      expect(JSON.stringify(logged[0])).not.toContain('aaaa');

      // The server goes on answering on new connections.
      const next = await fetch(`${server.url}/healthz`);
      expect(next.status).toBe(200);
    });

  it.each([
    ['xn--a', '/configs', 'Origin: http://elsewhere.test'],
    ['xn--a', '/configs/a', 'Origin: http://elsewhere.test'],
    [
      '999.999.999.999',
      '/published/configs/a',
      'Origin: http://elsewhere.test',
    ],
    ['xn--a', '/trpc/configs.list', 'Accept: */*'],
  ])(
    'a Host that is no host name (%s) gets 400 in JSON on %s, not a 500',
    async (host, path, header) => {
      // Node's parser takes such a Host; the URL the server builds from it does not parse.
      const answer = await sendRaw(
        request(
          `GET ${path} HTTP/1.1\nHost: ${host}\n${header}\nConnection: close`,
        ),
      );
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body)).toEqual({
        error:
          'the request URL is not valid: the Host header must be a host name',
      });
    },
  );

  it('a bad request pipelined after a good one gets its JSON answer after the good one’s', async () => {
    // Both requests in one write: the parser refuses the second while the first is still being answered.
    const answer = await sendRaw(
      request('GET /healthz HTTP/1.1\nHost: localhost') +
        request('FOO /configs HTTP/1.1\nHost: localhost'),
    );
    expect(answer.status).toBe(200);
    expect(answer.closed).toBe(true);
    const second = answer.body.slice(answer.body.indexOf('HTTP/1.1 '));
    expect(second).toMatch(/^HTTP\/1\.1 400 /);
    expect(second).toMatch(/\r\nContent-Type: application\/json/);
    expect(second.endsWith('{"error":"unknown HTTP method"}')).toBe(true);
  });

  it('a header timeout is a 408; a reset connection gets no answer', () => {
    const timeout = Object.assign(new Error('timeout'), {
      code: 'ERR_HTTP_REQUEST_TIMEOUT',
    });
    expect(refusalOf(timeout, maxHeaderSize)?.status).toBe(408);
    const reset = Object.assign(new Error('reset'), { code: 'ECONNRESET' });
    expect(refusalOf(reset, maxHeaderSize)).toBeUndefined();
  });
});

describe('requests tRPC refuses before making any call', () => {
  const refused: [string, string, RequestInit?][] = [
    [
      `a batch of ${LIMITS.trpcBatchMax + 1} calls`,
      `/trpc/${Array<string>(LIMITS.trpcBatchMax + 1)
        .fill('configs.list')
        .join(',')}?batch=1&input=%7B%7D`,
    ],
    [
      'a mutation and a query in one batch',
      '/trpc/configs.put,configs.get?batch=1',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      },
    ],
    ['a path that is not valid URL-encoding', '/trpc/%ff'],
  ];

  it.each(refused)(
    "%s: 400 in JSON, typed as JSON, in tRPC's shape",
    async (_name, path, init) => {
      const response = await fetch(`${server.url}${path}`, init);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(
        /^application\/json/,
      );
      const body = (await response.json()) as {
        error: { message: string; data: { httpStatus: number } };
      };
      expect(body.error.data.httpStatus).toBe(400);
      expect(body.error.message).not.toBe('');
    },
  );

  it('@trpc/client still reads the refusal as a tRPC error', async () => {
    const client = createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: `${server.url}/trpc` })],
    });
    const calls = Array.from({ length: LIMITS.trpcBatchMax + 1 }, () =>
      client.configs.list.query({}),
    );
    const outcomes = await Promise.allSettled(calls);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const reason = (outcome as PromiseRejectedResult).reason as unknown;
      expect(reason).toBeInstanceOf(TRPCClientError);
      expect((reason as TRPCClientError<AppRouter>).message).toBe(
        'Batch call exceeds maximum size',
      );
    }
  });
});
