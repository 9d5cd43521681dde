/**
 * The import preview (inside the import dialog, view-import.ts): what an import would do before anything
 * is saved. New links are counted apart from links merged into ones the config already has and from
 * repeats within the file; a few of the new links are shown as rows; folders and tags that give no tag
 * and titles that give no id are said; skipped links are listed with their reasons.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Link } from '@linkconfig/shared';
import type { Actions } from './actions.js';
import type { ImportPreview } from '../state/transfer-state.js';
import { tagChips } from './view-parts.js';

/** How many of the new links the preview shows as rows. */
const SAMPLE_ROWS = 5;

const count = (n: number, one: string, many: string): string =>
  `${n} ${n === 1 ? one : many}`;

/** The counts line: new, merged into the config's links, repeated in the file, skipped, new tags. */
export function previewSummary(report: ImportPreview['report']): string {
  const { added, merged, skipped, tagsCreated } = report;
  const inFile = merged.filter((item) => item.inFile === true).length;
  const parts = [
    count(added.length, 'new link', 'new links'),
    `${merged.length - inFile} already in the config (merged into them)`,
    ...(inFile === 0
      ? []
      : [
          `${inFile} repeated in the file (merged into the first of ${inFile === 1 ? 'its URL' : 'their URLs'})`,
        ]),
    `${skipped.length} skipped`,
    count(tagsCreated.length, 'new tag', 'new tags'),
  ];
  return `${parts.join(', ')}. Nothing is saved until you import.`;
}

/** The confirm button's words: the new links only; merges are said apart. */
export function confirmText(report: ImportPreview['report']): string {
  const { added, merged } = report;
  if (added.length === 0)
    return `Merge into ${count(merged.length, 'link', 'links')}`;
  return `Import ${count(added.length, 'new link', 'new links')}`;
}

function sampleRows(preview: ImportPreview): TemplateResult | typeof nothing {
  const ids = preview.report.added.slice(0, SAMPLE_ROWS);
  if (ids.length === 0) return nothing;
  const links = preview.config.allLinks;
  return html`<table class="import-sample" data-testid="import-sample">
    <caption>
      ${
        ids.length === preview.report.added.length
          ? `The new ${ids.length === 1 ? 'link' : 'links'}`
          : `The first ${ids.length} of ${preview.report.added.length} new links`
      }
    </caption>
    <thead>
      <tr>
        <th scope="col">Id</th>
        <th scope="col">Label and URL</th>
        <th scope="col">Tags</th>
      </tr>
    </thead>
    <tbody>
      ${ids.map((id) => {
        const link: Link | undefined = links[id];
        return html`<tr data-testid="import-sample-row" data-link-id=${id}>
          <td><code>${id}</code></td>
          <td>
            ${link?.label ?? ''}
            <span class="import-sample-url">${link?.url ?? ''}</span>
          </td>
          <td>${tagChips(link?.tags)}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

function positionsList(
  testId: string,
  heading: string,
  items: readonly {
    position: { line: number };
    url?: string | undefined;
    text: string;
  }[],
): TemplateResult | typeof nothing {
  if (items.length === 0) return nothing;
  return html`<details open>
    <summary>${heading}</summary>
    <ul data-testid=${testId}>
      ${items.map(
        (item) =>
          html`<li>
            Line
            ${item.position.line}${item.url === undefined ? '' : html`: <code>${item.url}</code>`}
            — ${item.text}
          </li>`,
      )}
    </ul>
  </details>`;
}

/** The preview section, with its confirm button. */
export function previewView(
  preview: ImportPreview,
  actions: Actions,
  busy: boolean,
): TemplateResult {
  const { report } = preview;
  const { added, merged, tagsCreated } = report;
  const dropped = report.tagsDropped ?? [];
  return html`<section
    class="import-preview"
    aria-labelledby="import-preview-heading"
    data-testid="import-preview"
  >
    <h3 id="import-preview-heading" tabindex="-1">
      Preview:
      ${preview.exists ? `into “${preview.into}”` : `a new config “${preview.into}”`}
    </h3>
    <p data-testid="import-counts">${previewSummary(report)}</p>
    ${sampleRows(preview)}
    ${positionsList(
      'import-skipped',
      'Skipped links and why',
      report.skipped.map((item) => ({ ...item, text: item.reason })),
    )}
    ${positionsList(
      'import-notes',
      'Read, but not as written',
      report.notes.map((item) => ({ ...item, text: item.note })),
    )}
    ${
      dropped.length === 0
        ? nothing
        : html`<p class="notice" data-testid="import-tags-dropped">
            No tag is made from
            ${dropped.map((name, index) => html`${index === 0 ? '' : ', '}“${name}”`)}:
            the tag rule keeps only the letters a-z, digits and _, and nothing
            is left of ${dropped.length === 1 ? 'this name' : 'these names'}.
          </p>`
    }
    ${
      tagsCreated.length > 0
        ? html`<p class="hint">
            New tags: ${tagsCreated.join(', ')}. ${report.tagRule}.
          </p>`
        : nothing
    }
    <div class="actions">
      <button
        type="button"
        class="button primary"
        data-testid="import-confirm"
        ?disabled=${busy || added.length + merged.length === 0}
        @click=${() => actions.transfer.confirm()}
      >
        ${confirmText(report)}
      </button>
    </div>
  </section>`;
}
