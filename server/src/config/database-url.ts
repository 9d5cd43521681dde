/**
 * `DATABASE_URL` read into where configs live: a setting, so it sits with the settings; storage opens
 * what it names (`storage/open-repository.ts`).
 */

/** Where configs live, as `DATABASE_URL` says. */
export type StorageTarget =
  | { readonly kind: 'sqlite'; readonly path: string }
  | {
      readonly kind: 'postgres';
      /** The connection string without our own `schema` parameter. */
      readonly url: string;
      /** The schema named by `?schema=` (created when missing); default `public`. */
      readonly schema?: string;
    };

/** A scheme (`mysql:`), not a Windows drive letter (`C:`). */
const SCHEME = /^([a-z][a-z0-9+.-]+):/i;
/** Schema names we accept: a plain PostgreSQL identifier. */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/**
 * Reads a `DATABASE_URL`: `postgres://…` / `postgresql://…` for PostgreSQL (several instances; an optional
 * `?schema=name` picks the schema), and `sqlite:<path>`, `sqlite://<path>` or a plain path for the
 * embedded default. Throws on any other scheme: a typo must not silently become a SQLite file name.
 */
export function parseDatabaseUrl(url: string): StorageTarget {
  if (/^postgres(?:ql)?:\/\//i.test(url)) return parsePostgres(url);
  if (url.startsWith('sqlite://'))
    return { kind: 'sqlite', path: url.slice(9) };
  if (url.startsWith('sqlite:')) return { kind: 'sqlite', path: url.slice(7) };
  const scheme = SCHEME.exec(url)?.[1];
  if (scheme !== undefined) {
    throw new Error(
      `DATABASE_URL has the unsupported scheme "${scheme}:"; use postgres://…, sqlite:<path> or a file path`,
    );
  }
  return { kind: 'sqlite', path: url };
}

function parsePostgres(url: string): StorageTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('DATABASE_URL is not a valid postgres:// URL');
  }
  const schema = parsed.searchParams.get('schema');
  if (schema === null) return { kind: 'postgres', url };
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(
      `DATABASE_URL names the schema "${schema}"; a schema name is letters, digits, _ and $ (at most 63), not starting with a digit`,
    );
  }
  // The driver must not see our parameter (it would pass it on to the server as a setting).
  parsed.searchParams.delete('schema');
  return { kind: 'postgres', url: parsed.toString(), schema };
}
