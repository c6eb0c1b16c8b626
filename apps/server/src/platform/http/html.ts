// Text put into HTML the server writes: pages it sends whole (the app's page with a public event's
// head and first view).

/** Characters that would end an attribute or an element, as entities. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** JSON inside <script>: no "</script>" or "<!--" can close or confuse it. */
export const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
