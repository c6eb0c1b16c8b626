import { embedSiteOf, maxEmbedSites, setEmbedSites } from '@admit/shared/embed';
import type { ManagedEventRow } from '@admit/shared/events';
import { Alert, Button, Card, Code, CopyButton, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { ErrorSentence } from '../../lib/error-message';
import classes from './embed-card.module.css';

/**
 * Selling on the organizer's own website (decision 0061): the two lines to paste into its pages, the
 * button form, and the sites allowed to show the checkout (any other shows a link to the event's page).
 */
export function EmbedCard({ event }: { event: ManagedEventRow }) {
  const intl = useIntl();
  const [text, setText] = useState(event.embedSites.join('\n'));
  const [invalid, setInvalid] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (sites: string[]) => callFunction(setEmbedSites, { eventId: event.id, sites }),
    onSuccess: (saved) => setText(saved.sites.join('\n')),
  });
  const snippet = `<script src="${location.origin}/embed.js" async></script>\n<admit-tickets event="${event.slug}"></admit-tickets>`;
  const buttonSnippet = `<admit-tickets event="${event.slug}" mode="button">${intl.formatMessage({ id: 'embed.snippet.buttonLabel', defaultMessage: 'Get tickets' })}</admit-tickets>`;

  function submit() {
    const lines = text
      .split(/\s+/)
      .map((line) => line.trim())
      .filter(Boolean);
    const wrong = lines.find((line) => embedSiteOf(line) === null);
    if (wrong !== undefined || lines.length > maxEmbedSites) {
      setInvalid(
        wrong !== undefined
          ? intl.formatMessage(
              {
                id: 'embed.sites.invalid',
                defaultMessage: '“{site}” is not a site’s address: write it as https://example.org, without a path.',
              },
              { site: wrong },
            )
          : intl.formatMessage(
              { id: 'embed.sites.tooMany', defaultMessage: 'At most {count, number} sites.' },
              { count: maxEmbedSites },
            ),
      );
      return;
    }
    setInvalid(null);
    save.mutate(lines);
  }

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <FormattedMessage id="embed.title" defaultMessage="Sell on your website" />
        </Title>
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="embed.body"
            defaultMessage="Paste these two lines into a page of your website: it shows this event's tickets, and buyers complete their order without leaving your page."
          />
        </Text>
        <Code block className={classes.snippet}>
          {snippet}
        </Code>
        <Group gap="xs">
          <CopyButton value={snippet}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? (
                  <FormattedMessage id="embed.copied" defaultMessage="Copied" />
                ) : (
                  <FormattedMessage id="embed.copy" defaultMessage="Copy the lines" />
                )}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="embed.button"
            defaultMessage="Or a button that opens the checkout over your page, with your own words on it:"
          />
        </Text>
        <Code block className={classes.snippet}>
          {buttonSnippet}
        </Code>
        <Textarea
          label={intl.formatMessage({ id: 'embed.sites.label', defaultMessage: 'Websites allowed to show the checkout' })}
          description={intl.formatMessage({
            id: 'embed.sites.description',
            defaultMessage: 'One address a line, such as https://example.org. Other websites show a link to this event’s page.',
          })}
          autosize
          minRows={2}
          value={text}
          onChange={(change) => setText(change.currentTarget.value)}
          error={invalid}
        />
        {save.isError && (
          <Alert color="red" role="alert">
            <ErrorSentence error={save.error} />
          </Alert>
        )}
        <Group gap="sm">
          <Button onClick={submit} loading={save.isPending}>
            <FormattedMessage id="embed.sites.save" defaultMessage="Save websites" />
          </Button>
          {save.isSuccess && (
            <Text size="sm" role="status">
              <FormattedMessage id="embed.sites.saved" defaultMessage="Saved" />
            </Text>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
