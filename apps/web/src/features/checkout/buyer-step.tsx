import type { PublicEventRow } from '@admit/shared/events';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { GuestFields, type GuestDraft } from '../../lib/guest-fields';
import { AnchorLink, ButtonLink } from '../../lib/links';
import classes from './ticket-picker.module.css';

/**
 * The picker's last step, who is buying: a signed-in buyer's button; a guest's name and address
 * ("Continue with email") or signing in, one step each; in another site's frame (decision 0061),
 * signing in in a new tab, or the whole order there where the frame cannot take it (`newTab`).
 */
export function BuyerStep({
  event,
  code,
  embedded,
  signedIn,
  sessionPending,
  guestOrder,
  guest,
  onGuestChange,
  onContinueAsGuest,
  onSale,
  onSubmit,
  submitDisabled,
  submitting,
  submitLabel,
}: {
  event: PublicEventRow;
  code: string | null;
  embedded?: { newTab: 'insecure' | 'small' | null };
  signedIn: boolean;
  sessionPending: boolean;
  /** Not signed in, and chose to continue with an email address. */
  guestOrder: boolean;
  guest: GuestDraft;
  onGuestChange: (guest: GuestDraft) => void;
  onContinueAsGuest: () => void;
  onSale: boolean;
  onSubmit: () => void;
  submitDisabled: boolean;
  submitting: boolean;
  submitLabel: ReactNode;
}) {
  const location = useLocation();
  return (
    <>
      {embedded?.newTab ? (
        <ContinueInTab event={event} code={code} reason={embedded.newTab} />
      ) : signedIn || guestOrder ? (
        <form
          onSubmit={(submitted) => {
            submitted.preventDefault();
            onSubmit();
          }}
        >
          <Stack gap="md">
            {guestOrder && (
              <GuestFields
                value={guest}
                onChange={onGuestChange}
                note={
                  <FormattedMessage
                    id="picker.guest.emailNote"
                    defaultMessage="Your tickets go to this address. No account needed."
                  />
                }
              />
            )}
            <Button type="submit" size="md" disabled={submitDisabled} loading={submitting}>
              {submitLabel}
            </Button>
            {guestOrder && (
              <Text size="sm" ta="center">
                <FormattedMessage
                  id="picker.guest.haveAccount"
                  defaultMessage="Have an account? <link>Sign in</link>"
                  values={{
                    link: (chunks) =>
                      embedded ? (
                        <Anchor href={signInHref(event.slug, code)} target="_blank" rel="noopener">
                          {chunks}
                        </Anchor>
                      ) : (
                        <AnchorLink to="/sign-in" search={{ redirect: location.href }}>
                          {chunks}
                        </AnchorLink>
                      ),
                  }}
                />
              </Text>
            )}
          </Stack>
        </form>
      ) : (
        <div className={classes.choices}>
          <Button size="md" onClick={onContinueAsGuest} disabled={sessionPending || !onSale}>
            <FormattedMessage id="picker.guest.continue" defaultMessage="Continue with email" />
          </Button>
          {/* In another site's frame Admit's session may not reach it: signing in opens a tab of its own. */}
          {embedded ? (
            <Button
              component="a"
              size="md"
              variant="default"
              href={signInHref(event.slug, code)}
              target="_blank"
              rel="noopener"
              disabled={sessionPending}
            >
              <FormattedMessage id="picker.signInNewTab" defaultMessage="Sign in (opens a new tab)" />
            </Button>
          ) : (
            <ButtonLink size="md" variant="default" to="/sign-in" search={{ redirect: location.href }} disabled={sessionPending}>
              <FormattedMessage id="picker.guest.signIn" defaultMessage="Sign in" />
            </ButtonLink>
          )}
        </div>
      )}
    </>
  );
}

/** The event's page, with the code the frame had, for what the frame cannot finish. */
const eventPageHref = (slug: string, code: string | null) =>
  `/e/${encodeURIComponent(slug)}${code ? `?code=${encodeURIComponent(code)}` : ''}`;
const signInHref = (slug: string, code: string | null) => `/sign-in?redirect=${encodeURIComponent(eventPageHref(slug, code))}`;

/** Where the frame cannot take the order, it says why and opens the event's page in a new tab. */
function ContinueInTab({ event, code, reason }: { event: PublicEventRow; code: string | null; reason: 'insecure' | 'small' }) {
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {reason === 'insecure' ? (
          <FormattedMessage
            id="picker.newTab.insecure"
            defaultMessage="This website is not served over a secure connection (HTTPS), so your order continues on our page in a new tab."
          />
        ) : (
          <FormattedMessage
            id="picker.newTab.small"
            defaultMessage="On a small screen your order continues on our page in a new tab, where the payment step has room."
          />
        )}
      </Text>
      <Button component="a" size="md" href={eventPageHref(event.slug, code)} target="_blank" rel="noopener">
        <FormattedMessage id="picker.newTab.continue" defaultMessage="Continue in a new tab" />
      </Button>
    </Stack>
  );
}
