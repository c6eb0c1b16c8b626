import { spawnSync } from 'node:child_process';

// A second, independent reader of the CSV the server writes: Python's `csv` module, which splits
// records on a bare LF or CR as Excel and LibreOffice do (papaparse guesses one line ending per
// file and would keep a bare LF inside an unquoted cell).
const script = `
import csv, io, json, sys
text = sys.stdin.buffer.read().decode('utf-8-sig')
json.dump(list(csv.reader(io.StringIO(text, newline=''), delimiter=sys.argv[1])), sys.stdout)
`;

/** The records of a CSV text as Python's `csv.reader` reads them. */
export function readCsvWithPython(text: string, delimiter = ','): string[][] {
  const run = spawnSync('python3', ['-c', script, delimiter], { input: text, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`python3 could not read the CSV: ${run.stderr || run.error?.message}`);
  return JSON.parse(run.stdout) as string[][];
}
