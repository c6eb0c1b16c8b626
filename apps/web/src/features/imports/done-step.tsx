import { Alert, Button, Card, Group, Stack } from '@mantine/core';
import type { Ref } from 'react';
import { FormattedMessage } from 'react-intl';
import { useErrorMessage } from '../../lib/error-message';
import type { ImportStep } from './import-wizard';
import { StepHeading } from './step-heading';

/** Step 4: how many guests and tickets the import added, and why it stopped if it did. */
export function DoneStep({
  step,
  headingRef,
  onAnother,
}: {
  step: Extract<ImportStep, { kind: 'done' }>;
  headingRef: Ref<HTMLHeadingElement>;
  onAnother(): void;
}) {
  const errorMessage = useErrorMessage();
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <StepHeading ref={headingRef}>
          <FormattedMessage id="imports.done.title" defaultMessage="4. Done" />
        </StepHeading>
        <Alert color={step.error ? 'red' : 'green'} role="status">
          <FormattedMessage
            id="imports.done.body"
            defaultMessage="{created, plural, =0 {No new guests were imported} one {# guest was imported} other {# guests were imported}} ({tickets, plural, one {# ticket} other {# tickets}}); {skipped, plural, =0 {none had been imported before} one {# row had been imported before and was skipped} other {# rows had been imported before and were skipped}}."
            values={{ created: step.created, tickets: step.tickets, skipped: step.skipped }}
          />
        </Alert>
        {step.error !== undefined && (
          <Alert color="red" role="alert">
            <FormattedMessage
              id="imports.done.stopped"
              defaultMessage="The import stopped: {reason} Rows imported before it stopped stay imported; importing the file again adds only the rest."
              values={{ reason: errorMessage(step.error) }}
            />
          </Alert>
        )}
        <Group>
          <Button variant="default" onClick={onAnother}>
            <FormattedMessage id="imports.importAnother" defaultMessage="Import another file" />
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
