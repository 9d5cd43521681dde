import { LIMITS, jsonText, validatingLinkConfig } from '@linkconfig/shared';
import type { Sliced } from '@linkconfig/shared';

/**
 * A change of a stored config: its next value worked out from the stored one (which it must not
 * modify), in steps that may pause (`util/slices.ts`): a merge patch (`mergePatching`), a restore of
 * some links.
 */
export type Change = (stored: Record<string, unknown>) => Sliced<unknown>;

/**
 * A change applied to a stored config, the result checked as a stored config (its depth too: no text
 * scan told it) and written out as JSON: steps that may pause between members.
 */
export function* changing(
  stored: Record<string, unknown>,
  change: Change,
): Sliced<
  | { ok: true; next: Record<string, unknown>; json: string }
  | { ok: false; error: string }
> {
  const next = yield* change(stored);
  const checked = yield* validatingLinkConfig(next, {
    maxDepth: LIMITS.nestingMax,
  });
  if (!checked.ok) return { ok: false, error: checked.error };
  return {
    ok: true,
    next: next as Record<string, unknown>,
    json: yield* jsonText(next),
  };
}
