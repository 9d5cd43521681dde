import { DomainError, PreconditionFailedError } from '../errors.js';
import type {
  Refused,
  WriteConditions,
  WriteOptions,
} from '../storage/config-repository.js';
import { parseEntityTags } from '../storage/etag.js';

/** Preconditions as the client sends them: `If-Match` / `If-None-Match` values (`*` or quoted tags). */
export interface ConditionHeaders {
  readonly ifMatch?: string | undefined;
  readonly ifNoneMatch?: string | undefined;
}

/** Parses the preconditions; a malformed value is the caller's mistake (400), never "no match". */
export function writeConditions(headers: ConditionHeaders): WriteConditions {
  const parse = (value: string | undefined, header: string) => {
    if (value === undefined) return undefined;
    const tags = parseEntityTags(value);
    if (tags === null) {
      throw new DomainError(
        'invalid_request',
        `${header} must be * or a list of quoted entity tags, such as "k3-m5x1"`,
      );
    }
    return tags;
  };
  return {
    ifMatch: parse(headers.ifMatch, 'If-Match'),
    ifNoneMatch: parse(headers.ifNoneMatch, 'If-None-Match'),
  };
}

/** The 412 of a refused write, with a message that says which precondition failed. */
export function preconditionFailed(
  name: string,
  headers: ConditionHeaders,
  refused: Refused,
): PreconditionFailedError {
  const { currentEtag } = refused;
  const message =
    currentEtag === null
      ? `config "${name}" does not exist`
      : headers.ifNoneMatch !== undefined && headers.ifMatch === undefined
        ? `config "${name}" already exists (ETag ${currentEtag})`
        : `config "${name}" has changed: the stored version is ${currentEtag}`;
  return new PreconditionFailedError(currentEtag, message);
}

/**
 * Who asked for a write and why, as its revision records it (`WriteOptions`); built from a request by
 * `writeOrigin` (`context.ts`). A write's options hold it beside the conditions, and the service passes
 * on what is not a condition.
 */
export type WriteOrigin = Pick<WriteOptions, 'op' | 'author' | 'requestId'>;
