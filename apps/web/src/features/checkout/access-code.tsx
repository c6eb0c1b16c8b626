import { Button, Group, Text, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CallError } from '../../lib/callable';
import { useErrorMessage } from '../../lib/error-message';

/**
 * Where a buyer enters an access code (or finds the one their link carried): applied, it shows the
 * ticket types it unlocks with the others; refused, it says why under the field, kept to correct.
 */
export function AccessCode({
  code,
  onChange,
  error,
  unlocked,
}: {
  code: string | null;
  onChange: (code: string | null) => void;
  error: CallError | null;
  /** How many ticket types it shows, once the server answered. */
  unlocked: number | undefined;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const [open, setOpen] = useState(code !== null);
  const [draft, setDraft] = useState(code ?? '');
  const input = useRef<HTMLInputElement>(null);
  // Focus follows the person's step: into the field they opened, or back to it when refused.
  const [focusField, setFocusField] = useState(false);
  useEffect(() => {
    if (focusField && open) input.current?.focus();
  }, [focusField, open, error]);

  const apply = (submitted: FormEvent) => {
    submitted.preventDefault();
    const written = draft.trim().toUpperCase();
    setDraft(written);
    setFocusField(true);
    onChange(written === '' ? null : written);
  };

  if (code !== null && !error && unlocked !== undefined)
    return (
      <Group justify="space-between" wrap="nowrap" gap="xs" role="status">
        <Group gap={6} wrap="nowrap">
          <IconKey size={16} aria-hidden />
          <Text size="sm">
            <FormattedMessage
              id="picker.code.applied"
              defaultMessage="Code {code} {count, plural, =0 {unlocks nothing at the moment} one {unlocked # ticket type} other {unlocked # ticket types}}"
              values={{ code: <strong>{code}</strong>, count: unlocked }}
            />
          </Text>
        </Group>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => {
            setDraft('');
            setOpen(false);
            onChange(null);
          }}
        >
          <FormattedMessage id="picker.code.remove" defaultMessage="Remove code" />
        </Button>
      </Group>
    );

  if (!open)
    return (
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconKey size={16} aria-hidden />}
        style={{ alignSelf: 'flex-start' }}
        onClick={() => {
          setOpen(true);
          setFocusField(true);
        }}
      >
        <FormattedMessage id="picker.code.open" defaultMessage="Have an access code?" />
      </Button>
    );

  return (
    <form onSubmit={apply} noValidate>
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          ref={input}
          style={{ flex: 1 }}
          label={intl.formatMessage({ id: 'picker.code.label', defaultMessage: 'Access code' })}
          value={draft}
          onChange={(changed) => setDraft(changed.currentTarget.value)}
          error={code !== null && error ? errorMessage(error) : undefined}
          maxLength={40}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
        />
        <Button type="submit" variant="default" mt={25} loading={code !== null && !error && unlocked === undefined}>
          <FormattedMessage id="picker.code.apply" defaultMessage="Apply" />
        </Button>
      </Group>
    </form>
  );
}
