/** Link health kept in memory, for tests and the memory repository (`link-health-store.ts`). */
import type { LinkHealthRecord, LinkState } from '@linkconfig/shared';
import { hostOf, uncheckedRecord } from '../link-health-store.js';
import type { LinkClaim, LinkHealthStore } from '../link-health-store.js';

interface Lease {
  readonly owner: string;
  readonly until: number;
}

/** A {@link LinkHealthStore} in memory; `open()` throws once the repository is closed. */
export function createMemoryLinkHealth(open: () => void): LinkHealthStore {
  const records = new Map<string, LinkHealthRecord>();
  const leases = new Map<string, Lease>();
  const live = (url: string, now: number): Lease | undefined => {
    const lease = leases.get(url);
    return lease !== undefined && lease.until > now ? lease : undefined;
  };
  return {
    urls: async () => {
      open();
      return [...records.keys()];
    },
    get: async (urls) => {
      open();
      return urls.flatMap((url) => {
        const record = records.get(url);
        return record === undefined ? [] : [record];
      });
    },
    withStates: async (states) => {
      open();
      return [...records.values()].filter((r) => states.includes(r.state));
    },
    track: async (added, gone, now) => {
      open();
      for (const url of added)
        if (!records.has(url)) records.set(url, uncheckedRecord(url, now));
      for (const url of gone) {
        records.delete(url);
        leases.delete(url);
      }
    },
    schedule: async (urls, at) => {
      open();
      let count = 0;
      for (const url of urls) {
        const record = records.get(url);
        if (record === undefined) continue;
        count++;
        leases.delete(url);
        if (record.nextAt > at) records.set(url, { ...record, nextAt: at });
      }
      return count;
    },
    claim: async (claim: LinkClaim) => {
      open();
      const foreignHosts = new Set<string>();
      for (const [url, lease] of leases) {
        if (lease.owner !== claim.owner && lease.until > claim.now)
          foreignHosts.add(hostOf(url));
      }
      for (const host of claim.busyHosts ?? []) foreignHosts.add(host);
      const only = claim.only === undefined ? undefined : new Set(claim.only);
      const due = [...records.values()]
        .filter(
          (r) =>
            r.nextAt <= claim.now &&
            live(r.url, claim.now) === undefined &&
            !foreignHosts.has(hostOf(r.url)) &&
            (only === undefined || only.has(r.url)),
        )
        .sort((a, b) =>
          a.nextAt !== b.nextAt ? a.nextAt - b.nextAt : a.url < b.url ? -1 : 1,
        );
      const perHost = new Map<string, number>();
      const claimed: LinkHealthRecord[] = [];
      for (const record of due) {
        if (claimed.length >= claim.limit) break;
        const host = hostOf(record.url);
        const taken = perHost.get(host) ?? 0;
        if (taken >= claim.perHost) continue;
        perHost.set(host, taken + 1);
        leases.set(record.url, { owner: claim.owner, until: claim.until });
        claimed.push(record);
      }
      return claimed;
    },
    complete: async (list, owner) => {
      open();
      const stored = new Set<string>();
      for (const record of list) {
        const lease = leases.get(record.url);
        if (lease?.owner !== owner || !records.has(record.url)) continue;
        leases.delete(record.url);
        records.set(record.url, record);
        stored.add(record.url);
      }
      return stored;
    },
    counts: async () => {
      open();
      const counts: Partial<Record<LinkState, number>> = {};
      for (const { state } of records.values())
        counts[state] = (counts[state] ?? 0) + 1;
      return counts;
    },
    all: async () => {
      open();
      return [...records.values()].sort((a, b) => (a.url < b.url ? -1 : 1));
    },
    putAll: async (list) => {
      open();
      for (const record of list) records.set(record.url, record);
    },
  };
}
