/**
 * The outbound module's figures on `/metrics`, read when Prometheus scrapes: requests by who asked and how
 * they ended, and the guard's refusals by reason.
 */
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import type { OutboundStats } from './outbound.js';

/** Registers the outbound counters in `registry`, filled from `read()` at each scrape. */
export function registerOutboundMetrics(
  registry: Registry,
  read: () => OutboundStats,
): void {
  const registers = [registry];
  new Counter({
    name: 'linkconfig_outbound_requests_total',
    help: 'Outbound HTTP requests (link checks, purges, webhooks), by purpose and outcome (answered, refused, dns, connect, tls, timeout, url)',
    labelNames: ['purpose', 'outcome'],
    registers,
    collect() {
      this.reset();
      for (const [key, count] of read().requests) {
        const [purpose = '', outcome = ''] = key.split('|');
        this.inc({ purpose, outcome }, count);
      }
    },
  });
  new Counter({
    name: 'linkconfig_outbound_refused_total',
    help: 'Outbound requests the SSRF guard refused, by reason (an address range, localhost, scheme)',
    labelNames: ['reason'],
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of read().refusals)
        this.inc({ reason }, count);
    },
  });
}
