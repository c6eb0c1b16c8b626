import { createEvent } from '@admit/shared/events';
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { validateWith } from './form';

// The browser's forms check with the server's own schemas: what the server refuses, the form says
// first, in a sentence about the field.

const intl = createIntl({ locale: 'en', messages: {}, onError: () => {} });
const eventValues = {
  organizationId: 'org-1',
  title: 'Summer concert',
  venue: 'Town hall',
  description: '',
  timeZone: 'Europe/Berlin',
  startsAtLocal: '2030-07-01T19:00',
  endsAtLocal: '2030-07-01T22:00',
  capacity: 100,
};

describe('a form checked with a shared schema', () => {
  it('says that an event’s title and venue go on one line when they have a tab, a line break or a control character', () => {
    const validate = validateWith(createEvent.input, intl);
    expect(validate(eventValues)).toEqual({});
    expect(validate({ ...eventValues, title: 'Summer\tconcert', venue: 'Town hall\u0007' })).toEqual({
      title: 'Write this on one line, without tabs or other special characters.',
      venue: 'Write this on one line, without tabs or other special characters.',
    });
  });
});
