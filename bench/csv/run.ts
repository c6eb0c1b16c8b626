// bench/csv: `npm run bench:csv`; see bench/README.md.
//
// The real server (apps/server/src/main.ts in its own process, on the embedded PGlite database by
// default; on a scratch PostgreSQL database with BENCH_DATABASE_URL=<admin URL>):
//   1. a 100,000-row attendee export, streamed: time, bytes, and the server's resident memory
//      sampled every 20 ms from /proc (target: peak growth < 100 MB over the idle baseline);
//   2. a 10,000-row guest list: parsed by the browser's own module (features/imports/parse.ts),
//      validated and applied in the chunks the browser uses, one after another (target ≤ 10 s);
//      then imported again, which must create nothing.
//
// Environment: BENCH_EXPORT_ROWS (100000), BENCH_IMPORT_ROWS (10000), BENCH_DATABASE_URL (see above;
// the result says which database ran).
import { readFileSync } from 'node:fs';
import { importApplyChunk, importValidateChunk } from '../../packages/shared/src/csv';
import { guessMapping, parseGuestList, rowsForImport } from '../../apps/web/src/features/imports/parse';
import { call as callAs } from '../support/callable';
import { cleanupOnExit } from '../support/cleanup';
import { loadAverage, machine } from '../support/machine';
import { numberOption, textOption } from '../support/options';
import { writeResult } from '../support/results';
import { createScratchDatabase } from '../support/scratch-database';
import { startServer } from '../support/server';
import { round } from '../support/stats';

const exportRows = numberOption('BENCH_EXPORT_ROWS', 100_000);
const importRows = numberOption('BENCH_IMPORT_ROWS', 10_000);
const postgresAdminUrl = textOption('BENCH_DATABASE_URL');
const targets = { exportRssGrowthMb: 100, importSeconds: 10 };
const mb = (bytes: number) => round(bytes / 1_048_576, 1);

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+) kB/)![1]) * 1024;
}

async function main() {
  const loadAverageAtStart = loadAverage();
  const cleanup = cleanupOnExit();
  try {
    const env: Record<string, string> = { IMPORT_MAX_ROWS: String(Math.max(50_000, importRows)) };
    const database = postgresAdminUrl ? await createScratchDatabase(postgresAdminUrl) : undefined;
    if (database) {
      cleanup.add('drop the scratch database', () => database.drop());
      env.DATABASE_URL = database.url;
    }
    const server = await startServer({ env });
    cleanup.add('stop the server', () => server.stop());
    const pid = server.process.pid!;
    // The address the server announces: its emails link there, and sign-up checks the Origin against it.
    const base = server.publicUrl;
    // An organizer, signed up and verified through the dev outbox, as a person would.
    const email = 'bench.organizer@example.test';
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ name: 'Bench Organizer', email, password: 'correct horse battery staple', callbackURL: '/' }),
    });
    if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status}`);
    const outbox = (await (await fetch(`${base}/dev/outbox.json`)).json()) as { messages: { to: string; text: string }[] };
    const link = outbox.messages.find((message) => message.to === email)!.text.match(/https?:\/\/\S+/)![0];
    const verified = await fetch(link, { redirect: 'manual' });
    const cookie = verified.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ');

    const call = <T>(name: string, data: unknown) => callAs<T>(base, { cookie }, name, data);
    const { organizationId } = await call<{ organizationId: string }>('orgs.create', { name: 'Bench Hall' });
    async function newEvent(title: string, capacity: number) {
      const { eventId } = await call<{ eventId: string }>('events.create', {
        organizationId,
        title,
        venue: 'Bench Arena',
        timeZone: 'Europe/Berlin',
        startsAtLocal: '2030-06-14T20:00',
        endsAtLocal: '2030-06-14T23:30',
        capacity,
      });
      await call('events.addTicketType', { eventId, name: 'Standing', capacity, maxPerOrder: 10 });
      await call('events.publish', { eventId });
      return eventId;
    }

    // 1. The export: 100,000 tickets seeded through the import (50 tickets a row, 2,000 orders).
    console.log(`seeding ${exportRows} tickets…`);
    const exportEventId = await newEvent('Export Night', exportRows);
    const perRow = 50;
    const seedRows = Array.from({ length: Math.ceil(exportRows / perRow) }, (_, index) => ({
      line: index + 2,
      name: `Group ${index}`,
      email: `group${index}@example.test`,
      quantity: String(Math.min(perRow, exportRows - index * perRow)),
    }));
    for (let start = 0; start < seedRows.length; start += importApplyChunk)
      await call('imports.apply', { eventId: exportEventId, rows: seedRows.slice(start, start + importApplyChunk) });

    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const baselineRss = rssOf(pid);
    let peakRss = baselineRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(pid))), 20);
    const exportStarted = performance.now();
    const response = await fetch(`${base}/files/events/${exportEventId}/exports/attendees.csv?excel=1&locale=de`, {
      headers: { cookie },
    });
    let bytes = 0;
    let lines = 0;
    let firstByteMs = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (bytes === 0) firstByteMs = performance.now() - exportStarted;
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 0x0a) lines += 1;
    }
    const exportSeconds = (performance.now() - exportStarted) / 1000;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, rssOf(pid));
    const exportResult = {
      rows: lines - 1,
      announcedRows: Number(response.headers.get('x-row-count')),
      bytes,
      seconds: round(exportSeconds),
      rowsPerSecond: Math.round((lines - 1) / exportSeconds),
      firstByteMs: Math.round(firstByteMs),
      serverRssBaselineMb: mb(baselineRss),
      serverRssPeakMb: mb(peakRss),
      serverRssGrowthMb: mb(peakRss - baselineRss),
      fileSizeMb: mb(bytes),
    };
    console.log('export', exportResult);

    // 2. The import: 10,000 rows as a file, as the browser handles it.
    const importEventId = await newEvent('Import Night', importRows * 2);
    const csv = [
      'Name;E-Mail;Ticket type;Quantity;Note',
      ...Array.from(
        { length: importRows },
        (_, index) => `Guest ${index} Müller;guest${index}@example.test;Standing;1;"Row ${index}, table ${index % 50}"`,
      ),
    ].join('\r\n');
    const fileBytes = new TextEncoder().encode(csv);
    const importStarted = performance.now();
    const parsed = parseGuestList(fileBytes, { maxBytes: 10 * 1024 * 1024, maxRows: 50_000 });
    if (!parsed.ok) throw new Error(`parse failed: ${JSON.stringify(parsed.failure)}`);
    const parseSeconds = (performance.now() - importStarted) / 1000;
    const rows = rowsForImport(parsed.file.rows, guessMapping(parsed.file.columns));

    const validateStarted = performance.now();
    let ok = 0;
    for (let start = 0; start < rows.length; start += importValidateChunk) {
      const answer = await call<{ rows: { status: string }[] }>('imports.validate', {
        eventId: importEventId,
        rows: rows.slice(start, start + importValidateChunk),
      });
      ok += answer.rows.filter((row) => row.status === 'ok').length;
    }
    const validateSeconds = (performance.now() - validateStarted) / 1000;

    const applyStarted = performance.now();
    let created = 0;
    for (let start = 0; start < rows.length; start += importApplyChunk) {
      const answer = await call<{ created: number }>('imports.apply', {
        eventId: importEventId,
        rows: rows.slice(start, start + importApplyChunk),
      });
      created += answer.created;
    }
    const applySeconds = (performance.now() - applyStarted) / 1000;
    const importSeconds = (performance.now() - importStarted) / 1000;

    const againStarted = performance.now();
    let createdAgain = 0;
    for (let start = 0; start < rows.length; start += importApplyChunk) {
      const answer = await call<{ created: number }>('imports.apply', {
        eventId: importEventId,
        rows: rows.slice(start, start + importApplyChunk),
      });
      createdAgain += answer.created;
    }
    const againSeconds = (performance.now() - againStarted) / 1000;
    const importResult = {
      rows: importRows,
      fileSizeMb: mb(fileBytes.length),
      validRows: ok,
      created,
      parseSeconds: round(parseSeconds, 3),
      validateSeconds: round(validateSeconds),
      applySeconds: round(applySeconds),
      totalSeconds: round(importSeconds),
      rowsPerSecond: Math.round(importRows / importSeconds),
      reimportCreated: createdAgain,
      reimportSeconds: round(againSeconds),
    };
    console.log('import', importResult);

    const verdict = {
      exportRowsComplete: exportResult.rows === exportRows,
      exportMemoryFlat: exportResult.serverRssGrowthMb < targets.exportRssGrowthMb,
      importWithinTarget: importResult.totalSeconds <= targets.importSeconds,
      importComplete: created === importRows,
      reimportCreatedNothing: createdAgain === 0,
    };
    console.log(verdict);
    writeResult('csv', {
      machine: await machine({
        loadAverageAtStart,
        databaseUrl: database?.url,
        note: 'the server (with its database when embedded) and this client share these cores',
      }),
      inputs: {
        database: database ? 'postgresql (a scratch database)' : 'pglite (embedded default)',
        exportRows,
        importRows,
        exportOptions: 'excel=1&locale=de',
        chunks: { validate: importValidateChunk, apply: importApplyChunk },
        targets,
      },
      figures: { export: exportResult, import: importResult, verdict },
    });
  } finally {
    await cleanup.run();
  }
}

await main();
