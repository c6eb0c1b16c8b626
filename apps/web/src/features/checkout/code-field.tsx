import { Button, Group, Text, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Discount } from '@admit/shared/codes';
import type { CallError } from '../../lib/callable';
import { discountWords } from '../../lib/discount-text';
import { ErrorSentence } from '../../lib/page-state';

/** What an applied code does, once the server answered. */
export interface AppliedCode {
  /** Hidden ticket types it shows. */
  unlocked: number;
  discount: Discount | null;
  minQuantity: number;
  /** Nothing of its types is left with it: it takes nothing off, unlocks nothing more. */
  usedUp: boolean;
}

/**
 * Where a buyer enters a discount or access code (or finds the one their link carried): applied,
 * it says what it does (the picker shows its types and prices); refused, it says why under the
 * field, kept to correct. Shown once opened (code-entry.tsx); `onClose` goes back to the button.
 */
export function CodeField({
  code,
  currency,
  onChange,
  error,
  applied,
  focus,
  onClose,
}: {
  code: string | null;
  currency: string;
  onChange: (code: string | null) => void;
  error: CallError | null;
  applied: AppliedCode | undefined;
  /** Whether the field takes the focus as it shows (the buyer opened it). */
  focus: boolean;
  onClose: () => void;
}) {
  const intl = useIntl();
  const [draft, setDraft] = useState(code ?? '');
  const input = useRef<HTMLInputElement>(null);
  // Focus follows the person's step: into the field they opened, or back to it when refused.
  const [focusField, setFocusField] = useState(focus);
  useEffect(() => {
    if (focusField) input.current?.focus();
  }, [focusField, error]);

  const apply = (submitted: FormEvent) => {
    submitted.preventDefault();
    const written = draft.trim().toUpperCase();
    setDraft(written);
    setFocusField(true);
    onChange(written === '' ? null : written);
  };

  if (code !== null && !error && applied !== undefined)
    return (
      <Group justify="space-between" wrap="nowrap" gap="xs" role="status">
        <Group gap={6} wrap="nowrap" align="flex-start">
          <IconKey size={16} aria-hidden style={{ flexShrink: 0, marginTop: 3 }} />
          <Text size="sm">
            {applied.usedUp ? (
              <FormattedMessage
                id="picker.code.usedUp"
                defaultMessage="Code {code} has been used up: the prices are without it."
                values={{ code: <strong>{code}</strong> }}
              />
            ) : (
              <FormattedMessage
                id="picker.code.appliedSentence"
                defaultMessage="Code {code} applied{hasDiscount, select, yes {: {discount}} other {}}.{unlocked, plural, =0 {} one { It unlocked # ticket type.} other { It unlocked # ticket types.}}{minQuantity, plural, =0 {} =1 {} other { It needs at least # of its tickets in one order.}}"
                values={{
                  code: <strong>{code}</strong>,
                  hasDiscount: applied.discount ? 'yes' : 'no',
                  discount: discountWords(intl, applied.discount, currency),
                  unlocked: applied.unlocked,
                  minQuantity: applied.minQuantity,
                }}
              />
            )}
          </Text>
        </Group>
        <Button
          variant="subtle"
          size="compact-sm"
          // Its words whole on a phone: the sentence beside it wraps instead.
          style={{ flexShrink: 0 }}
          onClick={() => {
            onClose();
            onChange(null);
          }}
        >
          <FormattedMessage id="picker.code.remove" defaultMessage="Remove code" />
        </Button>
      </Group>
    );

  return (
    <form onSubmit={apply} noValidate>
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          ref={input}
          style={{ flex: 1 }}
          label={intl.formatMessage({ id: 'picker.code.field', defaultMessage: 'Discount or access code' })}
          value={draft}
          onChange={(changed) => setDraft(changed.currentTarget.value)}
          error={code !== null && error ? <ErrorSentence error={error} /> : undefined}
          maxLength={40}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
        />
        <Button type="submit" variant="default" mt={25} loading={code !== null && !error && applied === undefined}>
          <FormattedMessage id="picker.code.apply" defaultMessage="Apply" />
        </Button>
      </Group>
    </form>
  );
}
