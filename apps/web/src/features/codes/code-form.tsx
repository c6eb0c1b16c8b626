import { createCode, generateCodes, randomCode, updateCode, type Discount, type EventCodeRow } from '@admit/shared/codes';
import type { ManagedTicketTypeRow } from '@admit/shared/event-changes';
import { Alert, Button, Checkbox, Grid, Group, NumberInput, Radio, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { failureOfError, fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { currencyDigits, toMinorUnits } from '../../lib/money';

interface CodeValues {
  /** A new code's: how many to make. From 2 on, `code` is what each made-up code starts with. */
  count: number | string;
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
  /** The buttons: given the submit's pending state and how many codes it makes. */
  actions: (pending: boolean, count: number) => ReactNode;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const countOf = (values: CodeValues) => (code ? 1 : Math.max(1, Math.floor(Number(values.count) || 1)));
  const settings = (values: CodeValues) => ({
    eventId,
    ticketTypeIds: values.ticketTypeIds,
    discount: discountOf(values, currency),
    minQuantity: Number(values.minQuantity) || 1,
    maxUses: limitOf(values.maxUses),
    maxPerBuyer: limitOf(values.maxPerBuyer),
    validFromLocal: values.validFromLocal || null,
    validUntilLocal: values.validUntilLocal || null,
  });
  const input = (values: CodeValues) => ({ ...settings(values), code: values.code });
  const many = (values: CodeValues) => ({ ...settings(values), count: countOf(values), prefix: values.code });
  const checkOne = validateWith(code ? updateCode.input : createCode.input, intl, (values: CodeValues) => ({
    ...input(values),
    ...(code ? { codeId: code.id } : {}),
  }));
  const checkMany = validateWith(generateCodes.input, intl, many);
  const form = useForm<CodeValues>({
    initialValues: {
      count: 1,
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
    validate: (values) => {
      if (countOf(values) === 1) return checkOne(values);
      // The prefix is typed in the code's field.
      const { prefix, ...errors } = checkMany(values);
      return prefix ? { ...errors, code: prefix } : errors;
    },
  });
  const count = countOf(form.values);
  const mutation = useMutation({
    mutationFn: async (values: CodeValues) => {
      if (code) await callFunction(updateCode, { ...input(values), codeId: code.id });
      else if (countOf(values) > 1) await callFunction(generateCodes, many(values));
      else await callFunction(createCode, input(values));
      return countOf(values);
    },
    onSuccess: (made) => {
      if (made > 1)
        notifications.show({
          color: 'green',
          message: intl.formatMessage(
            {
              id: 'codes.made',
              defaultMessage:
                '{count, plural, one {# code made.} other {# codes made. Download them from the list as a CSV file.}}',
            },
            { count: made },
          ),
        });
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
        {!code && (
          <NumberInput
            label={intl.formatMessage({ id: 'codes.field.count', defaultMessage: 'How many codes' })}
            description={intl.formatMessage({
              id: 'codes.field.countHint',
              defaultMessage: 'More than one: each is made up, with the same settings, one per person.',
            })}
            min={1}
            max={1000}
            allowDecimal={false}
            allowNegative={false}
            w={220}
            {...form.getInputProps('count')}
          />
        )}
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={
              count > 1
                ? intl.formatMessage({ id: 'codes.field.prefix', defaultMessage: 'Start of each code (optional)' })
                : intl.formatMessage({ id: 'codes.field.code', defaultMessage: 'Code' })
            }
            description={
              count > 1
                ? intl.formatMessage({
                    id: 'codes.field.prefixHint',
                    defaultMessage: 'Letters, digits and _; each code is this, a dash and eight made-up characters.',
                  })
                : intl.formatMessage({
                    id: 'codes.field.codeHint',
                    defaultMessage: 'Letters, digits, - and _; buyers may type it in any case.',
                  })
            }
            required={count === 1}
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            {...form.getInputProps('code')}
            onChange={(changed) => form.setFieldValue('code', changed.currentTarget.value.toUpperCase())}
          />
          {count === 1 && (
            <Button variant="default" onClick={() => form.setFieldValue('code', randomCode())}>
              <FormattedMessage id="codes.generate" defaultMessage="Make one up" />
            </Button>
          )}
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
        {actions(mutation.isPending, count)}
      </Stack>
    </form>
  );
}
