import { PersonName } from '@admit/shared/account';
import { Alert, Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { z } from 'zod';
import { authClient } from '../../lib/auth-client';
import { useSession } from '../../lib/session';
import { validateWith } from '../../lib/form';
import { authErrorMessage } from './auth-error';

const NameInput = z.object({ name: PersonName });

/** A form for the person's own name (Better Auth's update-user), with `onSaved` once it is stored. */
function NameForm({
  initial,
  submitLabel,
  onSaved,
  secondary,
}: {
  initial: string;
  submitLabel: string;
  onSaved?: () => void;
  /** Another button beside the submit button ("Later"). */
  secondary?: ReactNode;
}) {
  const intl = useIntl();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm({ initialValues: { name: initial }, validate: validateWith(NameInput, intl) });
  const submit = form.onSubmit(async ({ name }) => {
    setSaving(true);
    setError(null);
    const result = await authClient.updateUser({ name: name.trim() });
    setSaving(false);
    if (result.error) return setError(authErrorMessage(intl, result.error));
    form.resetDirty({ name: name.trim() });
    onSaved?.();
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={intl.formatMessage({ id: 'account.name.label', defaultMessage: 'Your name' })}
          description={intl.formatMessage({
            id: 'account.name.hint',
            defaultMessage: 'Shown on your tickets, at the door and to the organizers of events you buy for.',
          })}
          autoComplete="name"
          required
          data-autofocus
          {...form.getInputProps('name')}
        />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group gap="sm">
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
          {secondary}
        </Group>
      </Stack>
    </form>
  );
}

/** The name on the account page, editable. */
export function NameSection({ name }: { name: string }) {
  const intl = useIntl();
  const [saved, setSaved] = useState(false);
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          <FormattedMessage id="account.name.title" defaultMessage="Name" />
        </Title>
        <NameForm
          initial={name}
          submitLabel={intl.formatMessage({ id: 'account.name.save', defaultMessage: 'Save name' })}
          onSaved={() => setSaved(true)}
        />
        {saved && (
          <Text size="sm" c="green" role="status">
            <FormattedMessage id="account.name.saved" defaultMessage="Your name is saved." />
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

const laterKey = 'admit.namePrompt.later';

/**
 * Asks a person with no name for one, once after they first sign in (by email link or phone, which
 * ask for no name). "Later" leaves them be until the next visit; the account page edits it.
 */
export function NamePrompt() {
  const intl = useIntl();
  const session = useSession();
  const [later, setLater] = useState(() => sessionStorage.getItem(laterKey) === '1');
  const user = session.data?.user;
  if (!user || user.name.trim() !== '' || later) return null;
  const postpone = () => {
    sessionStorage.setItem(laterKey, '1');
    setLater(true);
  };
  return (
    <Modal opened onClose={postpone} title={intl.formatMessage({ id: 'namePrompt.title', defaultMessage: 'What is your name?' })}>
      <Stack>
        <Text size="sm">
          <FormattedMessage
            id="namePrompt.body"
            defaultMessage="Tickets carry the name of the person they are for. Tell us yours once; you can change it on your account page."
          />
        </Text>
        <NameForm
          initial=""
          submitLabel={intl.formatMessage({ id: 'namePrompt.save', defaultMessage: 'Save' })}
          secondary={
            <Button variant="subtle" onClick={postpone}>
              <FormattedMessage id="namePrompt.later" defaultMessage="Later" />
            </Button>
          }
        />
      </Stack>
    </Modal>
  );
}
