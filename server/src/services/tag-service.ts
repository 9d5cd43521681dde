import { planTagRename } from '@linkconfig/shared';
import type { TagRenameRequest, TagRenameResult } from '@linkconfig/shared';
import type { ConfigService } from './config-service.js';
import type { WriteOrigin } from './write-conditions.js';
import {
  configNotFound,
  DomainError,
  PreconditionFailedError,
} from '../errors.js';
import { matchesStrongly, parseEntityTags } from '../storage/etag.js';

/** How often a rename without `If-Match` plans again when another write wins the race. */
const RENAME_ATTEMPTS = 3;

/**
 * Tag renames and merges of a stored config: planned by the one shared rule (`planTagRename`, the same the
 * page previews with), stored through {@link ConfigService.patch} as one merge patch, so a rename is one
 * revision with the write path's preconditions, validation and history.
 */
export class TagService {
  readonly #configs: ConfigService;

  constructor(configs: ConfigService) {
    this.#configs = configs;
  }

  /**
   * The preview of renaming `request.from` to `request.to` in `name`; unless `dryRun`, also stored. With
   * `ifMatch`, only over that version (else 412, for a dry run too: the preview would describe another
   * version than the client holds).
   */
  async rename(
    name: string,
    request: TagRenameRequest,
    conditions: { readonly ifMatch?: string | undefined } & Omit<
      WriteOrigin,
      'op'
    >,
  ): Promise<TagRenameResult> {
    const from = [
      ...new Set(
        typeof request.from === 'string' ? [request.from] : request.from,
      ),
    ];
    const { ifMatch, ...origin } = conditions;
    const wanted = ifMatch === undefined ? undefined : parseEntityTags(ifMatch);
    if (wanted === null) {
      throw new DomainError(
        'invalid_request',
        'If-Match must be * or a list of quoted entity tags, such as "k3-m5x1"',
      );
    }
    for (let attempt = 1; ; attempt++) {
      const view = await this.#configs.current(name);
      if (view === null) throw configNotFound(name);
      if (wanted !== undefined && !matchesStrongly(wanted, view.etag)) {
        throw new PreconditionFailedError(
          view.etag,
          `config "${name}" has changed: the stored version is ${view.etag}`,
        );
      }
      const plan = planTagRename(view.stored, from, request.to);
      if (request.dryRun === true || !plan.changes) {
        return { preview: plan.preview, stored: false };
      }
      // Over exactly the version planned on: a write in between means planning again (or 412).
      const over = { ifMatch: view.etag, ...origin };
      try {
        const written =
          plan.patch === undefined
            ? await this.#configs.put(name, plan.next, over)
            : await this.#configs.patch(name, plan.patch, over);
        return { preview: plan.preview, stored: true, ...written };
      } catch (error) {
        const raced = error instanceof PreconditionFailedError;
        if (!raced || wanted !== undefined || attempt >= RENAME_ATTEMPTS)
          throw error;
      }
    }
  }
}
