import { createElement, type FunctionComponent } from 'react';
import { renderEmailParts } from './compose';

// Rendering an email with React and reading its text part from the HTML costs several milliseconds
// (decision 0068), and a sales rush sends thousands of emails that differ only in a few strings
// (the buyer's name, the ticket codes, their links). So an email is rendered once with a marker in
// place of each such string, and each person's email is that template with their strings put in,
// escaped as React escapes them (and as html-to-text reads them back in the text part).

const open = '\uE000';
const close = '\uE001';
const slotPattern = /\uE000(\d+)\uE001/;

/** Templates by their props (with markers): a rush has a few kinds of order per event and language. */
const templates = new Map<string, { html: string[]; text: string[] }>();
const keptTemplates = 200;

/** What React's server renderer writes for a string, in text and in attributes alike. */
const escapeLikeReact = (value: string) =>
  value.replace(/["'&<>]/g, (char) => ({ '"': '&quot;', "'": '&#x27;', '&': '&amp;', '<': '&lt;', '>': '&gt;' })[char]!);

/**
 * A value that html-to-text would not read back as itself: empty (the space before it would be
 * trimmed), whitespace it would join or trim, and the markers themselves. Such a person's email is rendered whole, as it was before templates.
 */
const notVerbatimInText = (value: string) => value === '' || /^\s|\s$|\s\s|[^\S ]|[\u200b\uE000\uE001]/.test(value);

const fill = (parts: string[], values: string[], shown: (value: string) => string) =>
  parts.map((part, index) => (index % 2 === 0 ? part : shown(values[Number(part)]!))).join('');

/**
 * An email's HTML and text part, as `renderEmailParts(createElement(component, props))` makes them,
 * for props built by `build`: each string that differs between people goes through `slot`. The
 * props with markers are the template's key, so anything else that differs (how many tickets, the
 * language, the event) makes a template of its own. Where a marker could change what a string does
 * (an ICU `select` on a name) the caller passes the value itself, not its slot.
 */
export function renderWithSlots<P extends object>(
  component: FunctionComponent<P>,
  build: (slot: (value: string) => string) => P,
): { html: string; text: string } {
  const values: string[] = [];
  const props = build((value) => `${open}${values.push(value) - 1}${close}`);
  const key = `${component.name}:${JSON.stringify(props)}`;
  const whole = () =>
    renderEmailParts(
      createElement(
        component,
        build((value) => value),
      ),
    );
  // A marker in the event's own words (never in practice), or a value text would not keep as it is.
  if (key.split(open).length - 1 !== values.length || values.some(notVerbatimInText)) return whole();
  let template = templates.get(key);
  if (!template) {
    const rendered = renderEmailParts(createElement(component, props));
    template = { html: rendered.html.split(slotPattern), text: rendered.text.split(slotPattern) };
    templates.set(key, template);
    if (templates.size > keptTemplates) templates.delete(templates.keys().next().value!);
  }
  return { html: fill(template.html, values, escapeLikeReact), text: fill(template.text, values, (value) => value) };
}
