import { createHash, timingSafeEqual } from 'node:crypto';
import type { Author } from '@linkconfig/shared';

/** The tokens a server is configured with (both optional). */
export interface AuthSettings {
  /** Needed for writes when set. */
  readonly apiToken?: string | undefined;
  /** When set (with `apiToken`), reads need either token. */
  readonly readToken?: string | undefined;
}

/** Which token a request presented. */
export type PresentedToken = 'none' | 'api' | 'read' | 'invalid';

/** The caller's rights, derived from its `Authorization` header only. */
export interface RequestAuth {
  canRead(): boolean;
  canWrite(): boolean;
  token(): PresentedToken;
  /** Who the caller is, as history records it; `null` when no key names it. */
  author(): Author | null;
}

const digest = (value: string): Buffer =>
  createHash('sha256').update(value, 'utf8').digest();

/**
 * Builds the per-request access check. Tokens are compared in constant time (on SHA-256 digests, so
 * lengths leak nothing either). Without `apiToken` everything is open, like the reference servers.
 */
export function createAuthenticator(
  settings: AuthSettings,
): (authorization: string | undefined) => RequestAuth {
  const api = settings.apiToken ? digest(settings.apiToken) : undefined;
  const read = settings.readToken ? digest(settings.readToken) : undefined;
  const classify = (header: string | undefined): PresentedToken => {
    const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')?.[1];
    if (token === undefined) return header ? 'invalid' : 'none';
    const given = digest(token);
    if (api !== undefined && timingSafeEqual(api, given)) return 'api';
    if (read !== undefined && timingSafeEqual(read, given)) return 'read';
    return 'invalid';
  };
  return (header) => {
    let presented: PresentedToken | undefined;
    const token = (): PresentedToken => (presented ??= classify(header));
    return {
      token,
      author: () => null,
      canWrite: () => api === undefined || token() === 'api',
      canRead: () =>
        api === undefined ||
        read === undefined ||
        token() === 'api' ||
        token() === 'read',
    };
  };
}
