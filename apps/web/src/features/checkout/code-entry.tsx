import { Button, Loader } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { Suspense, useEffect, useRef, useState, type ComponentProps } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { preloadableLazy } from '../../lib/preloadable-lazy';

/**
 * The code's field and what an applied code does: a chunk of their own, as most buyers have no code.
 * It loads when a buyer opens the field, or before the page shows when the link carries a code (the
 * event page's route loads it then).
 */
export const CodeField = preloadableLazy(async () => (await import('./code-field')).CodeField);

type CodeEntryProps = Omit<ComponentProps<typeof CodeField>, 'focus' | 'onClose'>;

/** "Have a code?", or the code's field once the buyer opened it or the link carried a code. */
export function CodeEntry(props: CodeEntryProps) {
  const intl = useIntl();
  const [opened, setOpened] = useState(false);
  // After "Remove code" the focus comes back to the button, rather than to the page's start.
  const [removed, setRemoved] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const closed = props.code === null && !opened;
  useEffect(() => {
    if (closed && removed) button.current?.focus();
  }, [closed, removed]);
  if (closed)
    return (
      <Button
        ref={button}
        variant="subtle"
        size="compact-sm"
        leftSection={<IconKey size={16} aria-hidden />}
        style={{ alignSelf: 'flex-start' }}
        onClick={() => {
          setOpened(true);
          setRemoved(false);
        }}
      >
        <FormattedMessage id="picker.code.open" defaultMessage="Have a code?" />
      </Button>
    );
  return (
    <Suspense
      fallback={
        <Loader size="sm" role="status" aria-label={intl.formatMessage({ id: 'page.loading', defaultMessage: 'Loading' })} />
      }
    >
      {/* Opened by the buyer, the field takes the focus; a code from the link leaves it where it is. */}
      <CodeField
        {...props}
        focus={opened}
        onClose={() => {
          setOpened(false);
          setRemoved(true);
        }}
      />
    </Suspense>
  );
}
