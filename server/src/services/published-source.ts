import { createHash } from 'node:crypto';
import type {
  ConfigRepository,
  NameVersion,
  StoredConfig,
} from '../storage/config-repository.js';
import type { StoredPublish } from '../storage/publish-store.js';
import { checkedUrlsOf, withoutFailedLinks } from './link-health-service.js';

/** What the published view asks of link health (`LinkHealthService.failedUrls`). */
export interface PublishedHealth {
  /** The URLs among `urls` confirmed broken or unreachable. */
  failedUrls(urls: readonly string[]): Promise<Set<string>>;
}

/** What a publish record serves: its version and text, without confirmed failures when it hides them. */
interface Served {
  readonly version: number;
  readonly json: string;
}

/**
 * The version a record serves without some of its links: a number of its own (negative, so it is never
 * a stored version), from the published version and the URLs left out, so the same state gives the same
 * version (and ETag) on every instance and another state another one.
 */
function filteredVersion(version: number, failed: ReadonlySet<string>): number {
  const digest = createHash('sha256')
    .update(`${version}\n${[...failed].sort().join('\n')}`)
    .digest();
  return -(digest.readUIntBE(0, 6) + 1);
}

/**
 * The stored configs as `/published` sees them: the reads of a {@link ConfigRepository} answered from
 * the publish records instead of the heads, so the same services (configs, search, expressions) serve
 * the published view unchanged. A name is there only while it is published and its config exists (a
 * deleted config's published version is gone with it; restoring the config brings it back). Each
 * version is the published revision's change id, the version the config had when that revision was its
 * head: the same (name, version) is the same text in both views, with the same ETag.
 *
 * A record published with `hideBroken` serves its revision without the links the link checker confirmed
 * broken or unreachable (the one rule, `withoutFailedLinks`), so lists, searches and expressions never
 * see them; that text has a version of its own ({@link filteredVersion}), so caches and ETags follow it.
 *
 * The state token is the repository's (a publish is a write of the one log, and so is every change of a
 * link's state), so whatever a read kept is reused only while neither a write, a publish nor a change of
 * link health happened. Writes are refused: the published view is read-only.
 */
export function publishedSource(
  repo: ConfigRepository,
  health?: PublishedHealth,
): ConfigRepository {
  const publish = repo.publish;
  const readOnly = (): Promise<never> =>
    Promise.reject(new Error('the published view is read-only'));
  const served = async (record: StoredPublish): Promise<Served> => {
    if (!record.hideBroken || health === undefined) return record;
    const entry = {
      config: JSON.parse(record.json) as {
        allLinks: Record<string, { url?: unknown }>;
      },
    };
    const failed = await health.failedUrls(checkedUrlsOf(entry.config));
    if (failed.size === 0) return record;
    return {
      version: filteredVersion(record.version, failed),
      json: JSON.stringify(withoutFailedLinks(entry, failed).config),
    };
  };
  const versions = async (): Promise<NameVersion[]> => {
    const [published, heads] = await Promise.all([
      publish.versions(),
      repo.listVersions(),
    ]);
    const exists = new Set(heads.map((h) => h.name));
    // Only a record that hides failures may serve a version of its own: only those are read.
    return Promise.all(
      published
        .filter((p) => exists.has(p.name))
        .map(async ({ name, version, hideBroken }) => {
          const record =
            hideBroken && health !== undefined ? await publish.get(name) : null;
          return {
            name,
            version: record === null ? version : (await served(record)).version,
          };
        }),
    );
  };
  const current = async (name: string) => {
    const [record, head] = await Promise.all([
      publish.get(name),
      repo.version(name),
    ]);
    return record === null || head === null ? null : record;
  };
  return {
    ...repo,
    list: async () => (await versions()).map((v) => v.name),
    listVersions: versions,
    count: async () => (await versions()).length,
    // Every read checks the version first: the record's, without its text.
    version: async (name) => {
      const [published, head] = await Promise.all([
        publish.version(name),
        repo.version(name),
      ]);
      if (published === null || head === null) return null;
      // Only a record that hides failures may serve a version of its own: only then is its text read.
      if (!published.hideBroken || health === undefined)
        return published.version;
      const record = await current(name);
      return record === null ? null : (await served(record)).version;
    },
    get: async (name): Promise<StoredConfig | null> => {
      const record = await current(name);
      if (record === null) return null;
      const { version, json } = await served(record);
      return {
        name,
        json,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
        version,
      };
    },
    // A publish or unpublish is an entry of the one log, so the repository's token moves with it.
    changeToken: async () => `published:${await repo.changeToken()}`,
    put: readOnly,
    remove: readOnly,
    restoreRows: readOnly,
  };
}
