import type {
  ConfigRepository,
  NameVersion,
  StoredConfig,
} from '../storage/config-repository.js';

/**
 * The stored configs as `/published` sees them: the reads of a {@link ConfigRepository} answered from
 * the publish records instead of the heads, so the same services (configs, search, expressions) serve
 * the published view unchanged. A name is there only while it is published and its config exists (a
 * deleted config's published version is gone with it; restoring the config brings it back). Each
 * version is the published revision's change id, the version the config had when that revision was its
 * head: the same (name, version) is the same text in both views, with the same ETag.
 *
 * The state token is the repository's (a publish is a write of the one log), so whatever a read kept is
 * reused only while neither a write nor a publish happened. Writes are refused: the published view is
 * read-only.
 */
export function publishedSource(repo: ConfigRepository): ConfigRepository {
  const publish = repo.publish;
  const readOnly = (): Promise<never> =>
    Promise.reject(new Error('the published view is read-only'));
  const versions = async (): Promise<NameVersion[]> => {
    const [published, heads] = await Promise.all([
      publish.versions(),
      repo.listVersions(),
    ]);
    const exists = new Set(heads.map((h) => h.name));
    return published.filter((p) => exists.has(p.name));
  };
  return {
    ...repo,
    list: async () => (await versions()).map((v) => v.name),
    listVersions: versions,
    count: async () => (await versions()).length,
    version: async (name) => {
      const [record, head] = await Promise.all([
        publish.get(name),
        repo.version(name),
      ]);
      return record === null || head === null ? null : record.version;
    },
    get: async (name): Promise<StoredConfig | null> => {
      const [record, head] = await Promise.all([
        publish.get(name),
        repo.version(name),
      ]);
      if (record === null || head === null) return null;
      return {
        name,
        json: record.json,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
        version: record.version,
      };
    },
    // A publish or unpublish is an entry of the one log, so the repository's token moves with it.
    changeToken: async () => `published:${await repo.changeToken()}`,
    put: readOnly,
    remove: readOnly,
    restoreRows: readOnly,
  };
}
