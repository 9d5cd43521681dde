/**
 * The link checker's figures on `/metrics`, read when Prometheus scrapes: checks by what they found, false
 * alarms the confirm rule prevented, events told, and how many URLs are in each state (one grouped count
 * in storage per scrape).
 */
import { LINK_STATES } from '@linkconfig/shared';
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { LinkHealthStore } from '../storage/link-health-store.js';
import type { LinkCheckStats } from './link-checker.js';

/** Registers the link-check metrics in `registry`. */
export function registerLinkCheckMetrics(
  registry: Registry,
  stats: LinkCheckStats,
  store: LinkHealthStore,
): void {
  const registers = [registry];
  new Counter({
    name: 'linkconfig_link_checks_total',
    help: 'Link checks made by this process, by what they found (ok, redirected, broken, unreachable, blocked, retry)',
    labelNames: ['result'],
    registers,
    collect() {
      this.reset();
      for (const [result, n] of stats.checks) this.inc({ result }, n);
    },
  });
  new Counter({
    name: 'linkconfig_link_false_alarms_prevented_total',
    help: 'Failures a success cleared before they were confirmed (a "broken" the confirm rule did not raise)',
    registers,
    collect() {
      this.reset();
      this.inc(stats.falseAlarmsPrevented);
    },
  });
  new Counter({
    name: 'linkconfig_link_events_total',
    help: 'Changes of a link state told (link-broken, link-recovered)',
    labelNames: ['type'],
    registers,
    collect() {
      this.reset();
      for (const [type, n] of stats.events) this.inc({ type }, n);
    },
  });
  new Gauge({
    name: 'linkconfig_links',
    help: 'Distinct URLs of the configs, by state',
    labelNames: ['state'],
    registers,
    async collect() {
      const counts = await store.counts();
      for (const state of LINK_STATES) this.set({ state }, counts[state] ?? 0);
    },
  });
}
