import { Progress, Stack, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';

/** How far the check or the import of the rows has got. */
export function StepProgress({ label, done, total }: { label: string; done: number; total: number }) {
  const intl = useIntl();
  const value = total === 0 ? 0 : (done / total) * 100;
  return (
    <Stack gap={4}>
      <Text id="import-progress-label" size="sm">
        {label}
      </Text>
      <Progress
        value={value}
        aria-labelledby="import-progress-label"
        aria-valuetext={intl.formatMessage(
          { id: 'imports.progress.value', defaultMessage: '{done, number} of {total, number} rows' },
          { done, total },
        )}
        animated
      />
      <Text size="xs" c="dimmed" aria-hidden>
        <FormattedMessage
          id="imports.progress.value"
          defaultMessage="{done, number} of {total, number} rows"
          values={{ done, total }}
        />
      </Text>
    </Stack>
  );
}
