import { createCode, updateCode, type EventCodeRow } from '@admit/shared/codes';
import type { ManagedTicketTypeRow } from '@admit/shared/event-changes';
import { Alert, Button, Checkbox, Grid, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { failureOfError, fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';

interface CodeValues {
  code: string;
  ticketTypeIds: string[];
  /** Empty: no limit. */
  maxUses: number | string;
  maxPerBuyer: number | string;
  validFromLocal: string;
  validUntilLocal: string;
}

const limitOf = (value: number | string) => (value === '' ? null : Number(value));

/** Eight letters and digits nobody guesses, without those read alike (0 O, 1 I L). */
function generatedCode(): string {
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}

/**
 * A code's fields, to make one (`code` absent) or change one: what it is written as, the hidden
 * ticket types it unlocks, its limits and when it works (in the event's time zone).
 */
export function CodeForm({
  eventId,
  hiddenTypes,
  code,
  onDone,
  actions,
}: {
  eventId: string;
  hiddenTypes: readonly ManagedTicketTypeRow[];
  code?: EventCodeRow;
  onDone: () => void;
  /** The buttons: given the submit's pending state. */
  actions: (pending: boolean) => ReactNode;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const input = (values: CodeValues) => ({
    eventId,
    code: values.code,
    ticketTypeIds: values.ticketTypeIds,
    maxUses: limitOf(values.maxUses),
    maxPerBuyer: limitOf(values.maxPerBuyer),
    validFromLocal: values.validFromLocal || null,
    validUntilLocal: values.validUntilLocal || null,
  });
  const form = useForm<CodeValues>({
    initialValues: {
      code: code?.code ?? '',
      ticketTypeIds: code?.ticketTypeIds ?? (hiddenTypes.length === 1 ? [hiddenTypes[0]!.id] : []),
      maxUses: code?.maxUses ?? '',
      maxPerBuyer: code?.maxPerBuyer ?? '',
      validFromLocal: code?.validFromLocal ?? '',
      validUntilLocal: code?.validUntilLocal ?? '',
    },
    validate: validateWith(code ? updateCode.input : createCode.input, intl, (values: CodeValues) => ({
      ...input(values),
      ...(code ? { codeId: code.id } : {}),
    })),
  });
  const mutation = useMutation({
    mutationFn: async (values: CodeValues) => {
      if (code) await callFunction(updateCode, { ...input(values), codeId: code.id });
      else await callFunction(createCode, input(values));
    },
    onSuccess: () => {
      form.reset();
      onDone();
    },
    onError: (error) => {
      const reason = failureOfError(error)?.reason;
      if (reason === 'code-taken') form.setFieldError('code', errorMessage(error));
      else if (reason === 'code-limit-below-used') form.setFieldError('maxUses', errorMessage(error));
      else form.setErrors(fieldErrorsOf(error));
    },
  });
  const shown = mutation.error && Object.keys(form.errors).length === 0 ? errorMessage(mutation.error) : null;

  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
      <Stack gap="sm">
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={intl.formatMessage({ id: 'codes.field.code', defaultMessage: 'Code' })}
            description={intl.formatMessage({
              id: 'codes.field.codeHint',
              defaultMessage: 'Letters, digits, - and _; buyers may type it in any case.',
            })}
            required
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            {...form.getInputProps('code')}
            onChange={(changed) => form.setFieldValue('code', changed.currentTarget.value.toUpperCase())}
          />
          <Button variant="default" onClick={() => form.setFieldValue('code', generatedCode())}>
            <FormattedMessage id="codes.generate" defaultMessage="Make one up" />
          </Button>
        </Group>
        <Checkbox.Group
          label={intl.formatMessage({ id: 'codes.field.types', defaultMessage: 'Hidden ticket types it unlocks' })}
          required
          {...form.getInputProps('ticketTypeIds')}
        >
          <Stack gap={6} mt={6}>
            {hiddenTypes.map((type) => (
              <Checkbox key={type.id} value={type.id} label={type.name} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NumberInput
              label={intl.formatMessage({ id: 'codes.field.maxUses', defaultMessage: 'Tickets in all (optional)' })}
              description={intl.formatMessage({
                id: 'codes.field.maxUsesHint',
                defaultMessage: 'How many tickets may be bought with it, by everyone. Empty: no limit.',
              })}
              min={1}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('maxUses')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NumberInput
              label={intl.formatMessage({ id: 'codes.field.maxPerBuyer', defaultMessage: 'Tickets per buyer (optional)' })}
              description={intl.formatMessage({
                id: 'codes.field.maxPerBuyerHint',
                defaultMessage: 'Across all of a person’s orders. Empty: no limit.',
              })}
              min={1}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('maxPerBuyer')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              type="datetime-local"
              label={intl.formatMessage({ id: 'codes.field.validFrom', defaultMessage: 'Works from (optional)' })}
              {...form.getInputProps('validFromLocal')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              type="datetime-local"
              label={intl.formatMessage({ id: 'codes.field.validUntil', defaultMessage: 'Works until (optional)' })}
              {...form.getInputProps('validUntilLocal')}
            />
          </Grid.Col>
        </Grid>
        {shown && (
          <Alert color="red" role="alert">
            {shown}
          </Alert>
        )}
        {actions(mutation.isPending)}
      </Stack>
    </form>
  );
}
