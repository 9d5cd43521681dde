import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

/** What @hono/node-server passes as `c.env`: Node's request and response (absent under `app.request`). */
interface NodeBindings {
  readonly incoming?: IncomingMessage;
  readonly outgoing?: ServerResponse;
}

/** Node's request and response objects of this request, when it runs under @hono/node-server. */
export function nodeBindings(c: Context): NodeBindings | undefined {
  return typeof c.env === 'object' && c.env !== null
    ? (c.env as NodeBindings)
    : undefined;
}

/**
 * The client's address. Without trusted proxies (`trustProxy` 0) it is the socket's peer, and
 * `X-Forwarded-For` is ignored: anybody can send one. With `trustProxy` = n, the n proxies nearest to us
 * each appended the address they saw, so the client is the n-th address from the right of the chain
 * (header entries, then the socket peer); a shorter chain yields its leftmost entry.
 */
export function clientAddress(c: Context, trustProxy: number): string {
  const peer = nodeBindings(c)?.incoming?.socket.remoteAddress ?? 'unknown';
  if (trustProxy <= 0) return peer;
  const forwarded = c.req.header('x-forwarded-for');
  if (forwarded === undefined) return peer;
  const chain = forwarded
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  chain.push(peer);
  const picked = chain[Math.max(0, chain.length - 1 - trustProxy)] ?? peer;
  // Beyond the trusted hops the text is the client's own: keep it short for logs and rate-limit keys.
  return picked.slice(0, 64);
}
