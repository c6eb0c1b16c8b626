import { List, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../lib/page-title';

/**
 * The accessibility statement: what is tested on every change, what is known not to work yet, and
 * whom to tell about a barrier. Kept in step with docs/accessibility.md.
 */
export function AccessibilityPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'accessibility.tabTitle', defaultMessage: 'Accessibility' }));
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>
        <FormattedMessage id="accessibility.title" defaultMessage="Accessibility statement" />
      </Title>
      <Text>
        <FormattedMessage
          id="accessibility.intro"
          defaultMessage="Admit aims to meet WCAG 2.2 at level AA, so that anyone can buy a ticket, show it at the door and check people in, whether they use a keyboard, a screen reader, a phone or a large text size."
        />
      </Text>
      <Title order={2} size="h3">
        <FormattedMessage id="accessibility.tested.title" defaultMessage="What is tested on every change" />
      </Title>
      <List spacing="xs">
        <List.Item>
          <FormattedMessage
            id="accessibility.tested.everyJourney"
            defaultMessage="Every journey in a real browser, and the main screens in six languages and in the dark scheme, are checked by axe-core against WCAG 2.2 AA, colour contrast and 24-pixel touch targets included, and fail on any serious or critical problem."
          />
        </List.Item>
        <List.Item>
          <FormattedMessage
            id="accessibility.tested.keyboard"
            defaultMessage="Buying and paying for a ticket, and admitting it at the door, are done with the keyboard alone."
          />
        </List.Item>
        <List.Item>
          <FormattedMessage
            id="accessibility.tested.scanner"
            defaultMessage="The scanner says each verdict once to screen readers, and keeps the focus in the field for the next scan."
          />
        </List.Item>
        <List.Item>
          <FormattedMessage
            id="accessibility.tested.languages"
            defaultMessage="The main screens are checked in six languages, Arabic right to left, with no text cut off on a phone."
          />
        </List.Item>
      </List>
      <Title order={2} size="h3">
        <FormattedMessage id="accessibility.gaps.title" defaultMessage="Known gaps" />
      </Title>
      <List spacing="xs">
        <List.Item>
          <FormattedMessage
            id="accessibility.gaps.automatic"
            defaultMessage="An automatic check finds about half of all barriers; the rest needs people. No audit by screen-reader users has been done yet."
          />
        </List.Item>
        <List.Item>
          <FormattedMessage
            id="accessibility.gaps.pdf"
            defaultMessage="The ticket PDF is not tagged for screen readers; the same tickets are readable in My tickets and in the confirmation email."
          />
        </List.Item>
        <List.Item>
          <FormattedMessage
            id="accessibility.gaps.camera"
            defaultMessage="Scanning with the camera needs sight; the scanner's field takes a code typed or sent by a scanner gun, and finds people by name."
          />
        </List.Item>
      </List>
      <Title order={2} size="h3">
        <FormattedMessage id="accessibility.contact.title" defaultMessage="Tell us about a barrier" />
      </Title>
      <Text>
        <FormattedMessage
          id="accessibility.contact.body"
          defaultMessage="If something stops you from using Admit, write to the organizer of your event (their name is on the event's page): they run their sales on this site and can reach the people who operate it. Say which page and what happened; you will get an answer and, until it is fixed, another way to get your tickets."
        />
      </Text>
    </Stack>
  );
}
