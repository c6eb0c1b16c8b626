import { Stack } from '@mantine/core';
import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import plainField from '../../lib/plain-field.module.css';
import classes from './guest-fields.module.css';

export interface GuestDraft {
  name: string;
  email: string;
}

/**
 * A visitor who orders without an account: their name (on the tickets) and the address the tickets,
 * or the link that confirms free ones, go to (decision 0060). The browser checks that both are
 * there and that the address looks like one; the server checks again.
 */
export function GuestFields({ value, onChange }: { value: GuestDraft; onChange: (next: GuestDraft) => void }) {
  const id = useId();
  return (
    <Stack gap="sm">
      <div>
        <label className={classes.label} htmlFor={`${id}-name`}>
          <FormattedMessage id="picker.guest.name" defaultMessage="Your name" />
        </label>
        <input
          id={`${id}-name`}
          className={`${plainField.field} ${classes.input}`}
          type="text"
          autoComplete="name"
          required
          maxLength={200}
          value={value.name}
          onChange={(change) => onChange({ ...value, name: change.currentTarget.value })}
        />
      </div>
      <div>
        <label className={classes.label} htmlFor={`${id}-email`}>
          <FormattedMessage id="picker.guest.email" defaultMessage="Email address" />
        </label>
        <input
          id={`${id}-email`}
          className={`${plainField.field} ${classes.input}`}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          maxLength={254}
          aria-describedby={`${id}-email-note`}
          value={value.email}
          onChange={(change) => onChange({ ...value, email: change.currentTarget.value })}
        />
        <small id={`${id}-email-note`} style={{ color: 'var(--mantine-color-dimmed)' }}>
          <FormattedMessage id="picker.guest.emailNote" defaultMessage="Your tickets go to this address. No account needed." />
        </small>
      </div>
    </Stack>
  );
}
