/**
 * What the signed-in key may do, from the server's answer to `GET /access`: which config names it may
 * read and write (the shared name-pattern matcher, the same the server uses), and a sentence saying so.
 * Pure, so the list, the editor and the status agree.
 */
import { anyNameMatches, scopeCovers } from '@linkconfig/shared';
import type { AccessOutput } from '@linkconfig/shared';

/** Whether the grant lets its holder read config `name` (its patterns, or what anyone may read). */
export function mayRead(grant: AccessOutput, name: string): boolean {
  return (
    (grant.scope !== null && anyNameMatches(grant.configs, name)) ||
    anyNameMatches(grant.anonymousRead, name)
  );
}

/** Whether the grant lets its holder write config `name`. */
export function mayWrite(grant: AccessOutput, name: string): boolean {
  return (
    grant.scope !== null &&
    scopeCovers(grant.scope, 'write') &&
    anyNameMatches(grant.configs, name)
  );
}

/** Why the grant may not write `name`, in words; null when it may. */
export function writeRefusalOf(
  grant: AccessOutput,
  name: string,
): string | null {
  if (mayWrite(grant, name)) return null;
  if (grant.scope === null)
    return `Editing is off: without a key, this page may not write ${name}.`;
  if (grant.scope === 'read')
    return `Editing is off: this key may not write ${name} (it may only read).`;
  return `Editing is off: this key may not write ${name} (it may write ${patternList(grant.configs)}).`;
}

/** Whether the grant lets its holder publish, roll back and unpublish config `name`. */
export function mayPublish(grant: AccessOutput, name: string): boolean {
  return (
    grant.scope !== null &&
    scopeCovers(grant.scope, 'publish') &&
    anyNameMatches(grant.configs, name)
  );
}

/** Why the grant may not publish `name`, in words; null when it may. */
export function publishRefusalOf(
  grant: AccessOutput,
  name: string,
): string | null {
  if (mayPublish(grant, name)) return null;
  if (grant.scope === null)
    return `Publishing is off: without a key, this page may not publish ${name}.`;
  if (!scopeCovers(grant.scope, 'publish'))
    return `Publishing is off: this key may only ${SCOPE_WORDS[grant.scope]} ${name}; publishing needs a key with the publish scope.`;
  return `Publishing is off: this key may not publish ${name} (it may publish ${patternList(grant.configs)}).`;
}

const SCOPE_WORDS = {
  read: 'read',
  write: 'read and write',
  publish: 'read, write and publish',
  admin: 'read, write and manage keys for',
} as const;

/** What the grant allows, in one sentence. */
export function grantSummary(grant: AccessOutput): string {
  if (grant.scope === null)
    return grant.anonymousRead.length === 0
      ? 'Not signed in: this server shows nothing without a key.'
      : `Not signed in: you may read ${patternList(grant.anonymousRead)}.`;
  // A scope without a key: the server has no keys and no tokens, so it is open to everyone.
  if (grant.key === null)
    return 'This server is open: anyone may read and write every config.';
  return `The key “${grant.key.label}” may ${SCOPE_WORDS[grant.scope]} ${patternList(grant.configs)}.`;
}

/** Patterns in words: `*` is every config. */
function patternList(patterns: readonly string[]): string {
  if (patterns.includes('*')) return 'every config';
  const words = patterns.map((p) => `“${p}”`);
  return `configs named ${words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`}`;
}
