import type { ImportRowReport } from '@admit/shared/csv';
import type { IntlShape } from 'react-intl';
import { rowErrorMessage } from './import-messages';
import { errorReportCsv, type ParsedFile } from './parse';

/** Downloads the rows with problems as a CSV file: the file's own cells, then the status and the problems in words. */
export function downloadErrorReport(intl: IntlShape, file: ParsedFile, fileName: string, report: ImportRowReport[]) {
  const byLine = new Map(report.map((row) => [row.line, row]));
  const statusLabel = (row: ImportRowReport | undefined) =>
    row?.status === 'ok'
      ? intl.formatMessage({ id: 'imports.status.ok', defaultMessage: 'Ready' })
      : row?.status === 'imported'
        ? intl.formatMessage({ id: 'imports.status.imported', defaultMessage: 'Already imported' })
        : intl.formatMessage({ id: 'imports.status.error', defaultMessage: 'Error' });
  const csv = errorReportCsv(
    file.columns,
    file.rows
      .filter((row) => byLine.get(row.line)?.status === 'error')
      .map((row) => {
        const reported = byLine.get(row.line);
        return {
          line: row.line,
          cells: row.cells,
          status: statusLabel(reported),
          problems: (reported?.errors ?? []).map((error) => rowErrorMessage(intl, error)).join(' '),
        };
      }),
    {
      line: intl.formatMessage({ id: 'imports.report.line', defaultMessage: 'Line' }),
      status: intl.formatMessage({ id: 'imports.report.status', defaultMessage: 'Status' }),
      problems: intl.formatMessage({ id: 'imports.report.problems', defaultMessage: 'Problems' }),
    },
  );
  downloadText(csv, `${fileName.replace(/\.(csv|txt)$/i, '')}-errors.csv`);
}

function downloadText(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
