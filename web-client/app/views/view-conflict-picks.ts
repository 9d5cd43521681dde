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
import { html } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { placeOf } from '../model/merge-words.js';
import { srOnly } from './view-parts.js';

export { PART_NAMES } from '../model/merge-words.js';

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

/** A value of one side, short. */
function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  const link = value as Link;
  if (typeof link === 'object' && link !== null && typeof link.url === 'string')
    return describeLink(link);
  return JSON.stringify(value);
}

/** Which conflicts a picks form settles, and where its answer goes. */
export interface PicksOf {
  /** The config's name. */
  readonly name: string;
  /** Tells this form's inputs from another's on the page. */
  readonly key: string;
  readonly conflicts: readonly MergeConflict[];
  /** What the submit button says. */
  readonly submit: string;
  readonly settle: (resolutions: ConflictResolution[]) => void;
}

/**
 * The true conflicts of one config, each with the base, yours and the server's, and a pick per field;
 * buttons pick a whole link. Nothing is chosen beforehand: the person picks every one. The same form
 * settles a write that met a newer version and a draft that met one (the choices go to `shared/sync`).
 */
export function picksView(picks: PicksOf): TemplateResult {
  const rows = picks.conflicts;
  const index = picks.key;
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
    picks.settle(resolutions);
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
            <td data-label="Before">${shown(row.base)}</td>
            <td data-label="Yours">${shown(row.local)}</td>
            <td data-label="Server’s">${shown(row.remote)}</td>
            <td data-label="Keep" class="conflict-keep">
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
    <button
      type="submit"
      class="button small primary"
      data-testid="apply-picks"
    >
      ${picks.submit}${srOnly(` for “${picks.name}”`)}
    </button>
  </form>`;
}
