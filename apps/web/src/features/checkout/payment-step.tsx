import { cancelOrder, confirmPayment, startPayment, type MyOrderRow } from '@admit/shared/orders';
import { Alert, Button, Card, Divider, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { FormattedMessage } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { isEmbedded } from '../../lib/embed-frame';
import { useErrorMessage } from '../../lib/error-message';
import { SandboxCardForm } from './sandbox-card-form';
import { minutesAndSeconds, useSecondsLeft } from './use-countdown';

// Stripe.js and its React bindings load only here, when a Stripe payment step opens.
const StripePayment = lazy(() => import('./stripe-payment').then((module) => ({ default: module.StripePayment })));

/**
 * The order's own page (outside any frame), opened by the guest's token or the session; `paid`: as
 * the page a payment comes back to.
 */
function orderPageHref(orderId: string, accessToken: string | undefined, { paid = false } = {}) {
  const search = new URLSearchParams({
    ...(paid ? { paid: '1' } : {}),
    ...(accessToken ? { token: accessToken } : {}),
  }).toString();
  return `/orders/${encodeURIComponent(orderId)}${search ? `?${search}` : ''}`;
}

/**
 * A pending order's payment: the hold's countdown, the card form (Stripe's, or the sandbox's marked
 * as test payments), and giving the places back.
 */
export function PaymentStep({
  order,
  accessToken,
  onPaid,
  confirming,
}: {
  order: MyOrderRow;
  accessToken?: string;
  onPaid: () => void;
  confirming: boolean;
}) {
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const secondsLeft = useSecondsLeft(order.holdExpiresAt);
  const start = useMutation({ mutationFn: () => callFunction(startPayment, { orderId: order.id, accessToken }) });
  const cancel = useMutation({
    mutationFn: () => callFunction(cancelOrder, { orderId: order.id, accessToken }),
    onSuccess: () => navigate({ to: '/e/$slug', params: { slug: order.eventSlug } }),
  });
  // The payment step opens with the page: the server creates the payment (idempotent per order).
  const started = useRef(false);
  useEffect(() => {
    if (!started.current) {
      started.current = true;
      start.mutate();
    }
  }, [start]);

  const timeUp = secondsLeft === 0;
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3">
            <FormattedMessage id="order.payment" defaultMessage="Payment" />
          </Title>
          {secondsLeft !== null && (
            <Group gap={6} c={secondsLeft < 60 ? 'red' : undefined}>
              <IconClock size={18} aria-hidden />
              {/* Read once by screen readers, not every second (role=timer is not live by default). */}
              <Text role="timer" aria-atomic="true" fw={600} data-testid="hold-countdown">
                <FormattedMessage
                  id="order.heldFor"
                  defaultMessage="Tickets held for {time}"
                  values={{ time: minutesAndSeconds(secondsLeft) }}
                />
              </Text>
            </Group>
          )}
        </Group>
        {timeUp ? (
          <Alert color="gray" role="status">
            <FormattedMessage
              id="order.holdEnding"
              defaultMessage="Your hold has run out. If you already paid, we will still confirm your tickets if places remain."
            />
          </Alert>
        ) : start.isError ? (
          <Stack gap="xs">
            <Alert color="red" role="alert">
              {errorMessage(start.error)}
            </Alert>
            <Button variant="light" onClick={() => start.mutate()} style={{ alignSelf: 'flex-start' }}>
              <FormattedMessage id="order.retryPayment" defaultMessage="Try again" />
            </Button>
          </Stack>
        ) : !start.data || confirming ? (
          <Group gap="sm">
            <Loader size="sm" />
            <Text size="sm" c="dimmed">
              {confirming ? (
                <FormattedMessage id="order.confirming" defaultMessage="Confirming your payment…" />
              ) : (
                <FormattedMessage id="order.preparing" defaultMessage="Preparing the payment…" />
              )}
            </Text>
          </Group>
        ) : start.data.provider === 'stripe' && start.data.publishableKey ? (
          <Suspense fallback={<Loader size="sm" />}>
            <StripePayment
              publishableKey={start.data.publishableKey}
              clientSecret={start.data.clientSecret}
              returnUrl={`${location.origin}${orderPageHref(order.id, accessToken, { paid: true })}`}
              newTabHref={isEmbedded() ? orderPageHref(order.id, accessToken) : undefined}
              onPaid={onPaid}
            />
          </Suspense>
        ) : (
          <SandboxCardForm
            clientSecret={start.data.clientSecret}
            onPaid={onPaid}
            // What Stripe's webhook tells of a declined card, the sandbox tells when the server reads the payment back.
            onDeclined={() => void callFunction(confirmPayment, { orderId: order.id, accessToken }).catch(() => undefined)}
          />
        )}
        <Divider />
        <Button
          variant="subtle"
          color="gray"
          onClick={() => cancel.mutate()}
          loading={cancel.isPending}
          style={{ alignSelf: 'flex-start' }}
        >
          <FormattedMessage id="order.cancel" defaultMessage="Cancel order" />
        </Button>
      </Stack>
    </Card>
  );
}
