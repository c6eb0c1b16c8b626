import { applyImport, completeImportReport, prepareImport, validateImport, type ImportRowReport } from '@admit/shared/csv';
import { defineCallable } from '../../platform/http/callable';
import { applyGuestList } from './apply-guest-list';
import {
  checkRows,
  importedKeys,
  placesLeft,
  requireImportableEvent,
  requireRowsWithinLimit,
  ticketTypesOf,
} from './import-rows';

// Guest-list import (docs/decisions/0023): `imports.validate` reports on every row before anything
// is written, `imports.apply` writes complimentary orders for the valid ones.

const prepareImportCallable = defineCallable(prepareImport, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await requireImportableEvent(ctx, input.eventId);
    const types = await ticketTypesOf(ctx.db, found.id);
    return {
      maxBytes: ctx.config.IMPORT_MAX_BYTES,
      maxRows: ctx.config.IMPORT_MAX_ROWS,
      currency: found.currency,
      ticketTypes: types.map(({ id, name }) => ({ id, name })),
    };
  },
});

const validateImportCallable = defineCallable(validateImport, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await requireImportableEvent(ctx, input.eventId);
    requireRowsWithinLimit(ctx.config.IMPORT_MAX_ROWS, input.rows);
    const types = await ticketTypesOf(ctx.db, found.id);
    const checked = checkRows(found.id, input.rows, types, input.defaultTicketTypeId);
    const done = await importedKeys(
      ctx.db,
      found.id,
      checked.flatMap((row) => (row.key ? [row.key] : [])),
    );
    const capacity = placesLeft(found, types);
    const reports: ImportRowReport[] = checked.map((row) => ({
      line: row.line,
      status: row.errors.length > 0 ? 'error' : row.key && done.has(row.key) ? 'imported' : 'ok',
      errors: row.errors,
      key: row.key,
      ticketTypeId: row.ticketTypeId,
      quantity: row.quantity,
    }));
    return { rows: completeImportReport(reports, capacity), capacity };
  },
});

const applyImportCallable = defineCallable(applyImport, {
  auth: 'required',
  handler: (input, ctx) => applyGuestList({ ctx, input }),
});

export const importsCallables = [prepareImportCallable, validateImportCallable, applyImportCallable];
