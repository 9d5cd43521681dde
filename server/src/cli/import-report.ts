/** How `linkconfig import` prints its report: a few lines a person reads, or the report as JSON (`--json`). */
import type { ImportReport, SourcePosition } from '@linkconfig/shared';

/** Where in the file: `line 12`, or `line 12:5` with a column. */
const where = (position: SourcePosition): string =>
  `line ${position.line}${position.column === undefined ? '' : `:${position.column}`}`;

/** The report as text: the counts, then each skipped link and each note with where it was and why. */
export function formatReport(
  report: ImportReport,
  into: string,
  outcome: 'written' | 'unchanged' | 'dry run',
): string {
  const lines = [
    `import into "${into}" (${report.format}, ${report.mode}): ${report.added.length} added, ${report.merged.length} merged, ${report.skipped.length} skipped, ${report.tagsCreated.length} new tags`,
  ];
  if (report.skipped.length > 0) {
    lines.push('skipped:');
    for (const { position, url, reason } of report.skipped) {
      lines.push(
        `  ${where(position)}  ${url === undefined ? '' : `${url}  `}${reason}`,
      );
    }
  }
  if (report.notes.length > 0) {
    lines.push('notes:');
    for (const { position, url, note } of report.notes) {
      lines.push(
        `  ${where(position)}  ${url === undefined ? '' : `${url}  `}${note}`,
      );
    }
  }
  if (report.tagsCreated.length > 0) {
    lines.push(`new tags: ${report.tagsCreated.join(', ')}`);
  }
  const inFile = report.merged.filter((item) => item.inFile === true).length;
  if (inFile > 0) {
    lines.push(`repeated in the file: ${inFile} (merged into the first)`);
  }
  if (report.tagsDropped !== undefined && report.tagsDropped.length > 0) {
    lines.push(`no tag from: ${report.tagsDropped.join(', ')}`);
  }
  lines.push(`tag rule: ${report.tagRule}`);
  lines.push(
    outcome === 'written'
      ? `written to "${into}"`
      : outcome === 'unchanged'
        ? `"${into}" already had every link: nothing was written`
        : 'dry run: nothing was written',
  );
  return `${lines.join('\n')}\n`;
}
