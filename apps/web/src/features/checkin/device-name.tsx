import { DeviceName } from '@admit/shared/checkin';
import { Button, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

const storageKey = 'admit.device-name';

/** This device's name at the door ("Door 2"), kept on the device (it stays across sign-outs). */
export function useDeviceName(): [string | null, (name: string | null) => void] {
  const [name, setName] = useState(() => localStorage.getItem(storageKey));
  const save = useCallback((next: string | null) => {
    if (next) localStorage.setItem(storageKey, next);
    else localStorage.removeItem(storageKey);
    setName(next);
  }, []);
  return [name, save];
}

export function DeviceNameForm({ onSave }: { onSave: (name: string) => void }) {
  const intl = useIntl();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <Card withBorder padding="lg" maw={480} mx="auto" w="100%">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = DeviceName.safeParse(value);
          if (parsed.success) onSave(parsed.data);
          else setError(intl.formatMessage({ id: 'scanner.device.required', defaultMessage: 'Name this scanner, e.g. Door 2' }));
        }}
      >
        <Stack>
          <Title order={1} size="h3">
            <FormattedMessage id="scanner.device.title" defaultMessage="Name this scanner" />
          </Title>
          <Text size="sm">
            <FormattedMessage
              id="scanner.device.body"
              defaultMessage="Other doors see this name when a ticket comes twice: “already checked in at Door 2”."
            />
          </Text>
          <TextInput
            label={intl.formatMessage({ id: 'scanner.device.label', defaultMessage: 'Scanner name' })}
            placeholder={intl.formatMessage({ id: 'scanner.device.placeholder', defaultMessage: 'Door 2' })}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={error}
            autoFocus
            required
            maxLength={60}
          />
          <Button type="submit">
            <FormattedMessage id="scanner.device.save" defaultMessage="Start scanning" />
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
