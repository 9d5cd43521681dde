import {
  LIMITS,
  jsonText,
  mergePatching,
  validatingLinkConfig,
} from '@linkconfig/shared';
import type { Sliced } from '@linkconfig/shared';

/**
 * A merge patch applied to a stored config, the result checked as a stored config (its depth too: no text
 * scan told it) and written out as JSON: steps that may pause between members (`util/slices.ts`).
 */
export function* patching(
  stored: Record<string, unknown>,
  patch: unknown,
): Sliced<
  | { ok: true; next: Record<string, unknown>; json: string }
  | { ok: false; error: string }
> {
  const next = yield* mergePatching(stored, patch);
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
