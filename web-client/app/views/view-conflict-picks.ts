/**
 * The true conflicts of one config in the conflicts panel (`view-conflicts.ts`): each link field (or
 * link, or key) both versions changed differently, with the version both started from, yours and the
 * server's, and a pick per field or per link.
 */
import type {
  ConflictResolution,
  Link,
  MergeConflict,
} from '@linkconfig/shared';
import type { Conflict } from '@linkconfig/web-client';
import { html } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Actions } from './actions.js';
import { srOnly } from './view-parts.js';

/** How the other parts of a config read in the diff. */
export const PART_NAMES: Record<string, string> = {
  macros: 'macros',
  searchPatterns: 'search patterns',
  settings: 'settings',
  other: 'other fields',
};

/** A link in a few words: label, URL, tags. */
export function describeLink(link: Link | undefined): string {
  if (link === undefined) return '';
  return [
    link.label ? `“${link.label}”` : '',
    link.url,
    link.tags && link.tags.length > 0 ? `tags ${link.tags.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** What a conflict's path names, in words. */
function placeOf(path: readonly string[]): { link?: string; text: string } {
  const [part, key, field] = path;
  if (part === undefined) return { text: 'the whole config' };
  if (part === 'allLinks' && key !== undefined) {
    return field === undefined
      ? { link: key, text: `link ${key} (removed on one side)` }
      : { link: key, text: `link ${key} · ${field}` };
  }
  return {
    text: key === undefined ? part : `${PART_NAMES[part] ?? part} · ${key}`,
  };
}

/** A value of one side, short. */
function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  const link = value as Link;
  if (typeof link === 'object' && link !== null && typeof link.url === 'string')
    return describeLink(link);
  return JSON.stringify(value);
}

/**
 * The true conflicts of one config, each with the base, yours and the server's, and a pick per field;
 * buttons pick a whole link. Nothing is chosen beforehand: the person picks every one.
 */
export function picksView(
  conflict: Conflict,
  index: number,
  actions: Actions,
): TemplateResult {
  const rows = conflict.conflicts;
  const links = [
    ...new Set(rows.map((row) => placeOf(row.path).link).filter(Boolean)),
  ] as string[];
  const pickLink = (event: Event, link: string, side: 'local' | 'remote') => {
    const form = (event.target as HTMLElement).closest('form');
    for (const input of form?.querySelectorAll<HTMLInputElement>(
      `input[data-link="${CSS.escape(link)}"][value="${side}"]`,
    ) ?? [])
      input.checked = true;
  };
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const resolutions: ConflictResolution[] = rows.map((row, r) => ({
      path: row.path,
      take: data.get(`pick-${index}-${r}`) === 'remote' ? 'remote' : 'local',
    }));
    actions.resolveConflict(conflict.name, { resolutions });
  };
  return html`<form
    class="conflict-picks"
    data-testid="conflict-picks"
    @submit=${submit}
  >
    <table>
      <thead>
        <tr>
          <th scope="col">What</th>
          <th scope="col">Before</th>
          <th scope="col">Yours</th>
          <th scope="col">Server’s</th>
          <th scope="col">Keep</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map((row: MergeConflict, r) => {
          const place = placeOf(row.path);
          const name = `pick-${index}-${r}`;
          return html`<tr
            data-testid="conflict-row"
            data-path=${row.path.join('/')}
          >
            <th scope="row">${place.text}</th>
            <td>${shown(row.base)}</td>
            <td>${shown(row.local)}</td>
            <td>${shown(row.remote)}</td>
            <td>
              <label
                ><input
                  type="radio"
                  name=${name}
                  value="local"
                  data-link=${place.link ?? ''}
                  required
                />
                Yours</label
              >
              <label
                ><input
                  type="radio"
                  name=${name}
                  value="remote"
                  data-link=${place.link ?? ''}
                />
                Server’s</label
              >
            </td>
          </tr>`;
        })}
      </tbody>
    </table>
    ${links.map(
      (link) =>
        html`<p class="actions">
          Link <code>${link}</code>:
          <button
            type="button"
            class="button small"
            @click=${(e: Event) => pickLink(e, link, 'local')}
          >
            Yours for the whole link
          </button>
          <button
            type="button"
            class="button small"
            @click=${(e: Event) => pickLink(e, link, 'remote')}
          >
            Server’s for the whole link
          </button>
        </p>`,
    )}
    <p class="hint">Everything else both versions changed is merged already.</p>
    <button type="submit" class="button small" data-testid="apply-picks">
      Save with these choices${srOnly(` for “${conflict.name}”`)}
    </button>
  </form>`;
}
