import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboundAllowList } from '../src/outbound/index.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close(0);
  server = undefined;
});

/** The value of one sample line, e.g. `name{a="b"} 3`, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('the outbound module in the server', () => {
  it('is one per server, with OUTBOUND_ALLOW, and its refusals are counted on /metrics', async () => {
    server = await startServer({
      repository: createMemoryConfigRepository(),
      logger: pino({ level: 'silent' }),
      port: 0,
      host: '127.0.0.1',
      seed: 'none',
      appDir: '/nonexistent',
      outboundAllow: new OutboundAllowList([`127.0.0.1:1`]),
      outboundContact: 'mailto:ops@example.org',
    });
    const { outbound } = server.services;
    expect(outbound.allowList.entries).toEqual(['127.0.0.1:1']);
    for (const url of [
      `http://127.0.0.2:${server.port}/healthz`,
      `http://localhost:${server.port}/healthz`,
      'http://169.254.169.254/',
    ]) {
      await expect(
        outbound.send({ url, purpose: 'webhook' }),
      ).rejects.toMatchObject({ kind: 'refused' });
    }
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(
      sample(text, 'linkconfig_outbound_refused_total{reason="loopback"}'),
    ).toBe(1);
    expect(
      sample(text, 'linkconfig_outbound_refused_total{reason="localhost"}'),
    ).toBe(1);
    expect(
      sample(text, 'linkconfig_outbound_refused_total{reason="metadata"}'),
    ).toBe(1);
    expect(
      sample(
        text,
        'linkconfig_outbound_requests_total{purpose="webhook",outcome="refused"}',
      ),
    ).toBe(3);
  });

  it('counts link checks, prevented false alarms and URLs by state on /metrics', async () => {
    server = await startServer({
      repository: createMemoryConfigRepository(),
      logger: pino({ level: 'silent' }),
      port: 0,
      host: '127.0.0.1',
      seed: 'none',
      appDir: '/nonexistent',
    });
    const { configs, linkHealth } = server.services;
    // A loopback URL outside OUTBOUND_ALLOW: the check is refused by the guard, no byte is sent.
    const url = 'http://127.0.0.1:1/page';
    await configs.put('site', { allLinks: { a: { url } } });
    await linkHealth.checker.runFor([url]);
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(sample(text, 'linkconfig_link_checks_total{result="blocked"}')).toBe(
      1,
    );
    expect(sample(text, 'linkconfig_links{state="blocked"}')).toBe(1);
    expect(sample(text, 'linkconfig_links{state="broken"}')).toBe(0);
    expect(sample(text, 'linkconfig_link_false_alarms_prevented_total')).toBe(
      0,
    );
    expect(
      sample(text, 'linkconfig_outbound_refused_total{reason="loopback"}'),
    ).toBe(2);
  });
});
