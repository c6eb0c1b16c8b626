import type { AttendeeRow } from '@admit/shared/checkin';

/**
 * The door's attendee list as the scanner reads it: a ticket by its code, and people by name, email
 * or code as someone types. Kept up to date row by row: the live channel and the query cache keep
 * every unchanged row the same object, so an admission elsewhere, which changes one row of 10,000,
 * costs one row here and not a new index on a phone (bench/scanner-10k).
 */
export class AttendeeIndex {
  private rows: readonly AttendeeRow[] = [];
  private readonly byCode = new Map<string, AttendeeRow>();
  /** Codes lower-cased (a scanner with Caps Lock on, a code typed by hand), built when first asked. */
  private byLowerCode: Map<string, AttendeeRow | null> | undefined;
  /** Each row's name and email, lower-cased once. */
  private readonly searchText = new WeakMap<AttendeeRow, string>();

  update(rows: readonly AttendeeRow[]) {
    if (rows === this.rows) return;
    this.byLowerCode = undefined;
    if (!this.patch(rows)) {
      this.byCode.clear();
      for (const row of rows) this.byCode.set(row.code, row);
    }
    this.rows = rows;
  }

  /** Changes the rows that changed, if the list still holds the same tickets; false if it does not. */
  private patch(rows: readonly AttendeeRow[]): boolean {
    if (rows.length !== this.rows.length) return false;
    const changed: AttendeeRow[] = [];
    for (const row of rows) {
      const known = this.byCode.get(row.code);
      // A code not known before, with as many rows as before: some ticket left the list.
      if (!known) return false;
      if (known !== row) changed.push(row);
    }
    for (const row of changed) this.byCode.set(row.code, row);
    return true;
  }

  get(code: string): AttendeeRow | undefined {
    return this.byCode.get(code);
  }

  /** The ticket whose code this is when case is ignored, if exactly one is. */
  getIgnoringCase(code: string): AttendeeRow | undefined {
    if (!this.byLowerCode) {
      this.byLowerCode = new Map();
      for (const row of this.rows) {
        const key = row.code.toLowerCase();
        // Two codes that differ only in case: neither is meant.
        this.byLowerCode.set(key, this.byLowerCode.has(key) ? null : row);
      }
    }
    return this.byLowerCode.get(code.toLowerCase()) ?? undefined;
  }

  /** The ticket whose code `text` is, or else the first `limit` people whose name or email contains it, or whose code is it, ignoring case. */
  search(text: string, limit: number): AttendeeRow[] {
    // A whole code (a scanner types one in a few milliseconds): its ticket, without reading the list.
    const exact = this.byCode.get(text);
    if (exact) return [exact];
    const query = text.toLowerCase();
    const found: AttendeeRow[] = [];
    for (const row of this.rows) {
      let text = this.searchText.get(row);
      if (text === undefined) {
        text = `${row.holderName}\n${row.holderEmail ?? ''}`.toLowerCase();
        this.searchText.set(row, text);
      }
      if (text.includes(query) || row.code.toLowerCase() === query) found.push(row);
      if (found.length === limit) break;
    }
    return found;
  }

  /** As a Map, for `decide`. */
  get codes(): ReadonlyMap<string, AttendeeRow> {
    return this.byCode;
  }
}
