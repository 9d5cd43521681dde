/**
 * Publishing over the remote store's one {@link HttpCaller} (docs/publishing.md): a config's publish
 * record, publish (the head, or an older revision: a rollback) and unpublish. Answers are checked
 * against the shared schemas, so a caller gets exactly the types the server declares.
 */
import { PublishRecordSchema, UnpublishOutputSchema } from '@linkconfig/shared';
import type {
  PublishInput,
  PublishRecord,
  UnpublishOutput,
} from '@linkconfig/shared';
import type { z } from 'zod';
import { callJson } from './http-call.js';
import type { CallSpec, HttpCaller } from './http-call.js';

/** What {@link PublishClient.publish} sends besides the name (the body and `If-Match`). */
export type PublishOptions = Omit<PublishInput, 'name'>;

/** Publishing calls of a remote store. */
export interface PublishClient {
  /** The publish record of `name`; `null` when it is not published (or no config has that name). */
  publishStatus(name: string): Promise<PublishRecord | null>;
  /**
   * Publishes revision `rev` of `name` (default: the head; an older one rolls back). `ifMatch` names
   * the draft reviewed: when the head has moved on, rejects with a `RemoteStoreError` of kind
   * `conflict` (412). A key without `publish` scope for the name rejects with status 403.
   */
  publish(name: string, options?: PublishOptions): Promise<PublishRecord>;
  /** Unpublishes `name`: answers the revision that was published (`rev: null` when none was). */
  unpublish(name: string): Promise<UnpublishOutput>;
}

/** The publishing calls over `http`. */
export function createPublishClient(http: HttpCaller): PublishClient {
  const path = (name: string) => `/configs/${encodeURIComponent(name)}/publish`;
  const json = <S extends z.ZodType>(
    spec: CallSpec,
    schema: S,
  ): Promise<z.infer<S> | null> =>
    callJson(http, spec, (value) => schema.parse(value) as z.infer<S>);
  const answered = <T>(value: T | null): T => {
    if (value === null) throw new Error('unexpected 404');
    return value;
  };
  return {
    publishStatus: (name) =>
      json(
        {
          op: 'publishStatus',
          configName: name,
          method: 'GET',
          path: path(name),
          accept: [404],
        },
        PublishRecordSchema,
      ),
    publish: async (name, options = {}) => {
      const { ifMatch, ...body } = options;
      return answered(
        await json(
          {
            op: 'publish',
            configName: name,
            method: 'POST',
            path: path(name),
            body: JSON.stringify(body),
            headers:
              ifMatch === undefined ? undefined : { 'If-Match': ifMatch },
          },
          PublishRecordSchema,
        ),
      );
    },
    unpublish: async (name) =>
      answered(
        await json(
          {
            op: 'unpublish',
            configName: name,
            method: 'DELETE',
            path: path(name),
          },
          UnpublishOutputSchema,
        ),
      ),
  };
}
