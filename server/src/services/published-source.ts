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
 * The state token joins the repository's token and the publish log's head, so whatever a read kept is
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
    // Every read checks the version first: the record's, without its text.
    version: async (name) => {
      const [version, head] = await Promise.all([
        publish.version(name),
        repo.version(name),
      ]);
      return version === null || head === null ? null : version;
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
    changeToken: async () => {
      const [token, head] = await Promise.all([
        repo.changeToken(),
        publish.head(),
      ]);
      return `published:${token}:${head}`;
    },
    put: readOnly,
    remove: readOnly,
    restoreRows: readOnly,
  };
}
