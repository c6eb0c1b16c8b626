import { createCode, updateCode, type Discount, type EventCodeRow } from '@admit/shared/codes';
import type { ManagedTicketTypeRow } from '@admit/shared/event-changes';
import { Alert, Button, Checkbox, Grid, Group, NumberInput, Radio, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { failureOfError, fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { currencyDigits, toMinorUnits } from '../../lib/money';

interface CodeValues {
  code: string;
  ticketTypeIds: string[];
  discountKind: 'none' | Discount['kind'];
  /** A percentage, or an amount in the currency's main unit as typed (5.50), sent in minor units. */
  discountValue: number | string;
  minQuantity: number | string;
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

function discountOf(values: CodeValues, currency: string): Discount | null {
  const value = Number(values.discountValue) || 0;
  if (values.discountKind === 'percent') return { kind: 'percent', percent: value };
  if (values.discountKind === 'amount') return { kind: 'amount', amount: toMinorUnits(value, currency) };
  return null;
}

const discountValueOf = (discount: Discount | null, currency: string) =>
  discount === null ? '' : discount.kind === 'percent' ? discount.percent : discount.amount / 10 ** currencyDigits(currency);

/**
 * A code's fields, to make one (`code` absent) or change one: what it is written as, the ticket
 * types it is for (hidden ones it unlocks), its discount, its limits and when it works (in the
 * event's time zone).
 */
export function CodeForm({
  eventId,
  currency,
  types,
  code,
  onDone,
  actions,
}: {
  eventId: string;
  currency: string;
  types: readonly ManagedTicketTypeRow[];
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
    discount: discountOf(values, currency),
    minQuantity: Number(values.minQuantity) || 1,
    maxUses: limitOf(values.maxUses),
    maxPerBuyer: limitOf(values.maxPerBuyer),
    validFromLocal: values.validFromLocal || null,
    validUntilLocal: values.validUntilLocal || null,
  });
  const form = useForm<CodeValues>({
    initialValues: {
      code: code?.code ?? '',
      ticketTypeIds: code?.ticketTypeIds ?? [],
      discountKind: code?.discount?.kind ?? 'none',
      discountValue: discountValueOf(code?.discount ?? null, currency),
      minQuantity: code?.minQuantity ?? 1,
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
      else if (reason === 'not-hidden-type') form.setFieldError('ticketTypeIds', errorMessage(error));
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
        <Radio.Group
          label={intl.formatMessage({ id: 'codes.field.discount', defaultMessage: 'Discount' })}
          {...form.getInputProps('discountKind')}
        >
          <Group gap="md" mt={6}>
            <Radio value="none" label={intl.formatMessage({ id: 'codes.discount.none', defaultMessage: 'None' })} />
            <Radio value="percent" label={intl.formatMessage({ id: 'codes.discount.percent', defaultMessage: 'Percentage' })} />
            <Radio
              value="amount"
              label={intl.formatMessage({ id: 'codes.discount.amount', defaultMessage: 'Amount ({currency})' }, { currency })}
            />
          </Group>
        </Radio.Group>
        {form.values.discountKind !== 'none' && (
          <NumberInput
            label={
              form.values.discountKind === 'percent'
                ? intl.formatMessage({ id: 'codes.field.percent', defaultMessage: 'Percent off each ticket' })
                : intl.formatMessage({ id: 'codes.field.amount', defaultMessage: 'Off each ticket ({currency})' }, { currency })
            }
            required
            min={0}
            max={form.values.discountKind === 'percent' ? 100 : undefined}
            decimalScale={form.values.discountKind === 'percent' ? 0 : currencyDigits(currency)}
            allowNegative={false}
            w={220}
            {...form.getInputProps('discountValue')}
            error={form.errors['discount.percent'] ?? form.errors['discount.amount'] ?? form.errors.discountValue}
          />
        )}
        <Checkbox.Group
          label={intl.formatMessage({ id: 'codes.field.types', defaultMessage: 'Ticket types' })}
          description={intl.formatMessage({
            id: 'codes.field.typesHint',
            defaultMessage:
              'Hidden types are shown and sold to people with the code. With a discount and no type chosen, it is for every visible type.',
          })}
          {...form.getInputProps('ticketTypeIds')}
        >
          <Stack gap={6} mt={6}>
            {types.map((type) => (
              <Checkbox
                key={type.id}
                value={type.id}
                label={
                  type.hidden
                    ? intl.formatMessage({ id: 'codes.field.hiddenType', defaultMessage: '{name} (hidden)' }, { name: type.name })
                    : type.name
                }
              />
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
            <NumberInput
              label={intl.formatMessage({ id: 'codes.field.minQuantity', defaultMessage: 'Tickets needed in one order' })}
              description={intl.formatMessage({
                id: 'codes.field.minQuantityHint',
                defaultMessage: 'Of its types; 1 for any order. A group discount from 4 tickets: 4.',
              })}
              min={1}
              max={100}
              allowDecimal={false}
              allowNegative={false}
              required
              {...form.getInputProps('minQuantity')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }} />
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
