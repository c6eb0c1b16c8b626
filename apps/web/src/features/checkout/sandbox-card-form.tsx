import { sandboxAuthenticate, sandboxConfirm, sandboxTestCards } from '@admit/shared/payments';
import { Alert, Button, Code, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconFlask } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';

/** 4242424242424242 → 4242 4242 4242 4242, as printed on a card. */
const spaced = (cardNumber: string) => cardNumber.replace(/(\d{4})(?=\d)/g, '$1 ');
/** What the fields look like filled in (the same in every language). */
const examples = { expiry: '12/34', cvc: '123' };

/** Shown wherever the sandbox takes a payment: nobody may think real money moved. */
export function TestPaymentsNotice() {
  const intl = useIntl();
  return (
    <Alert
      color="yellow"
      icon={<IconFlask aria-hidden />}
      title={intl.formatMessage({ id: 'sandbox.notice.title', defaultMessage: 'Test payments — no money moves' })}
    >
      <Stack gap={4}>
        <Text size="sm">
          <FormattedMessage
            id="sandbox.notice.body"
            defaultMessage="This Admit runs without a card payment provider. Use one of Stripe's test cards, any future expiry date and any CVC:"
          />
        </Text>
        <List size="sm" spacing={2}>
          <List.Item>
            <FormattedMessage
              id="sandbox.card.succeeds"
              defaultMessage="{card} succeeds"
              values={{ card: <Code>{spaced(sandboxTestCards.succeeds)}</Code> }}
            />
          </List.Item>
          <List.Item>
            <FormattedMessage
              id="sandbox.card.action"
              defaultMessage="{card} asks for a confirmation step"
              values={{ card: <Code>{spaced(sandboxTestCards.requiresAction)}</Code> }}
            />
          </List.Item>
          <List.Item>
            <FormattedMessage
              id="sandbox.card.declined"
              defaultMessage="{card} is declined"
              values={{ card: <Code>{spaced(sandboxTestCards.declined)}</Code> }}
            />
          </List.Item>
        </List>
      </Stack>
    </Alert>
  );
}

/**
 * The sandbox provider's card form (the embedded default). It takes Stripe's test numbers; a
 * declined card shows why and can be tried again; 3155 opens a confirmation step, the sandbox's
 * version of 3-D Secure. `onPaid` runs once the sandbox reports the payment as succeeded: the
 * server then confirms it by reading the payment itself.
 */
export function SandboxCardForm({
  clientSecret,
  onPaid,
  onDeclined,
}: {
  clientSecret: string;
  onPaid: () => void;
  /** A try was declined (the server reads the payment back and writes it on the order's timeline). */
  onDeclined?: () => void;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const [declined, setDeclined] = useState(false);
  const [authenticating, setAuthenticating] = useState(false);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { cardNumber: '', expiry: '', cvc: '' },
  });
  const pay = useMutation({
    mutationFn: (values: typeof form.values) => callFunction(sandboxConfirm, { clientSecret, ...values }),
    onMutate: () => setDeclined(false),
    onSuccess: ({ status }) => {
      if (status === 'succeeded') onPaid();
      else if (status === 'requires_action') setAuthenticating(true);
      else {
        setDeclined(true);
        onDeclined?.();
      }
    },
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  const authenticate = useMutation({
    mutationFn: (approve: boolean) => callFunction(sandboxAuthenticate, { clientSecret, approve }),
    onSuccess: ({ status }) => {
      setAuthenticating(false);
      if (status === 'succeeded') onPaid();
      else setDeclined(true);
    },
  });

  return (
    <Stack gap="md">
      <TestPaymentsNotice />
      <form onSubmit={form.onSubmit((values) => pay.mutate(values))} noValidate>
        <Stack gap="sm">
          <TextInput
            label={intl.formatMessage({ id: 'sandbox.cardNumber', defaultMessage: 'Card number' })}
            autoComplete="cc-number"
            inputMode="numeric"
            placeholder={spaced(sandboxTestCards.succeeds)}
            required
            {...form.getInputProps('cardNumber')}
            key={form.key('cardNumber')}
          />
          <Group grow align="flex-start">
            <TextInput
              label={intl.formatMessage({ id: 'sandbox.expiry', defaultMessage: 'Expiry (MM/YY)' })}
              autoComplete="cc-exp"
              placeholder={examples.expiry}
              required
              {...form.getInputProps('expiry')}
              key={form.key('expiry')}
            />
            <TextInput
              label={intl.formatMessage({ id: 'sandbox.cvc', defaultMessage: 'CVC' })}
              autoComplete="cc-csc"
              inputMode="numeric"
              placeholder={examples.cvc}
              required
              {...form.getInputProps('cvc')}
              key={form.key('cvc')}
            />
          </Group>
          {declined && (
            <Alert color="red" role="alert">
              <FormattedMessage
                id="sandbox.declined"
                defaultMessage="The card was declined. Your tickets are still held: try another card."
              />
            </Alert>
          )}
          {(pay.isError || authenticate.isError) && (
            <Alert color="red" role="alert">
              {errorMessage(pay.error ?? authenticate.error)}
            </Alert>
          )}
          <Button type="submit" size="md" loading={pay.isPending}>
            <FormattedMessage id="sandbox.pay" defaultMessage="Pay with test card" />
          </Button>
        </Stack>
      </form>
      <Modal
        opened={authenticating}
        onClose={() => authenticate.mutate(false)}
        title={intl.formatMessage({ id: 'sandbox.auth.title', defaultMessage: 'Confirm this test payment' })}
        centered
      >
        <Stack>
          <Text size="sm">
            <FormattedMessage
              id="sandbox.auth.body"
              defaultMessage="This step stands in for your bank's check (3-D Secure). Test payments — no money moves."
            />
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => authenticate.mutate(false)} disabled={authenticate.isPending}>
              <FormattedMessage id="sandbox.auth.refuse" defaultMessage="Refuse" />
            </Button>
            <Button onClick={() => authenticate.mutate(true)} loading={authenticate.isPending} data-autofocus>
              <FormattedMessage id="sandbox.auth.approve" defaultMessage="Approve payment" />
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
