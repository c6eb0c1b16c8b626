import { Stack } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import classes from './guest-fields.module.css';
import plainField from './plain-field.module.css';

export interface GuestDraft {
  name: string;
  email: string;
}

/**
 * A visitor who goes on without an account (decision 0060): their name and the address Admit writes
 * to, under which `note` says what goes there (the tickets of an order, the link of a waiting list's
 * place). The checkout and the waiting list both ask with them. The browser checks that both are
 * there and that the address looks like one; the server checks again.
 */
export function GuestFields({
  value,
  onChange,
  note,
}: {
  value: GuestDraft;
  onChange: (next: GuestDraft) => void;
  note: ReactNode;
}) {
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
          {note}
        </small>
      </div>
    </Stack>
  );
}
