import { setEventContent, type SetEventContentInput } from '@admit/shared/event-content';
import type { ManagedTicketTypeRow } from '@admit/shared/event-changes';
import type { ManagedEventRow } from '@admit/shared/events';
import { directionOf, locales, type Locale } from '@admit/shared/locales';
import { Alert, Button, Card, Fieldset, Group, Menu, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { issueMessage } from '../../lib/form';

type Translation = { title: string; description: string; venue: string };

/** The card's form: the event's translations by language, and its ticket types' names by id and language. */
interface LanguageValues {
  contentLocale: Locale;
  translations: Partial<Record<Locale, Translation>>;
  names: Record<string, Partial<Record<Locale, string>>>;
}

const valuesOf = (event: ManagedEventRow, types: ManagedTicketTypeRow[]): LanguageValues => ({
  contentLocale: event.contentLocale,
  translations: Object.fromEntries(
    locales.flatMap((locale) => {
      const translation = event.translations[locale];
      return translation ? [[locale, { ...translation }]] : [];
    }),
  ),
  names: Object.fromEntries(types.map((type) => [type.id, { ...type.nameTranslations }])),
});

/**
 * The event's main language and its translations, for its admins: the title, description and venue
 * in each language added, and a name for each ticket type (left empty, the main name is shown).
 * Saved all at once (`events.setContent`).
 */
export function EventLanguagesCard({ event, ticketTypes }: { event: ManagedEventRow; ticketTypes: ManagedTicketTypeRow[] }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const languageName = useMemo(() => {
    const names = new Intl.DisplayNames([intl.locale], { type: 'language' });
    return (locale: Locale) => names.of(locale) ?? locale;
  }, [intl.locale]);

  const input = (values: LanguageValues): SetEventContentInput => ({
    eventId: event.id,
    contentLocale: values.contentLocale,
    translations: values.translations,
    // An empty name is no translation: the ticket type keeps its main name in that language.
    ticketTypes: ticketTypes.map((type) => ({
      ticketTypeId: type.id,
      nameTranslations: Object.fromEntries(
        Object.entries(values.names[type.id] ?? {}).filter(
          ([locale, name]) => name.trim() !== '' && values.translations[locale as Locale],
        ),
      ),
    })),
  });
  /**
   * The form's path of a field the contract names (`ticketTypes.0.nameTranslations.fr` →
   * `names.<id>.fr`), or null for what no field shows (a ticket type's id).
   */
  const fieldPath = (path: readonly PropertyKey[]) => {
    if (path[0] !== 'ticketTypes') return path.map(String).join('.');
    const type = ticketTypes[Number(path[1])];
    return type && path[2] === 'nameTranslations' ? `names.${type.id}.${String(path[3])}` : null;
  };

  const saved = valuesOf(event, ticketTypes);
  const savedKey = JSON.stringify(saved);
  const form = useForm<LanguageValues>({
    initialValues: saved,
    validate: (values) => {
      const parsed = setEventContent.input.safeParse(input(values));
      const errors: Record<string, string> = {};
      for (const issue of parsed.error?.issues ?? []) {
        // What no field shows is left to the server, whose refusal is said above the buttons.
        const path = fieldPath(issue.path);
        if (path) errors[path] ??= issueMessage(issue, intl);
      }
      return errors;
    },
  });
  // What is saved changes (another admin's save, a new ticket type): the form shows it, unless it
  // holds edits not saved yet, which it keeps.
  useEffect(() => {
    if (form.isDirty()) return;
    form.setInitialValues(saved);
    form.setValues(saved);
    // saved: a new object every render, the same as long as savedKey is
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [savedKey]);
  const mutation = useMutation({
    mutationFn: (values: LanguageValues) => callFunction(setEventContent, input(values)),
    onSuccess: (_result, values) => {
      form.resetDirty(values);
      notifications.show({
        color: 'green',
        message: intl.formatMessage({ id: 'languages.saved', defaultMessage: 'Languages saved.' }),
      });
    },
    onError: (error) => {
      // Only what a field of the form shows; anything else is said above the buttons.
      const errors = Object.entries(fieldErrorsOf(error))
        .map(([path, message]) => [fieldPath(path.split('.')), message] as const)
        .filter(([path]) => path !== null);
      form.setErrors(Object.fromEntries(errors));
    },
  });

  const added = locales.filter((locale) => form.values.translations[locale]);
  const addable = locales.filter((locale) => locale !== form.values.contentLocale && !form.values.translations[locale]);
  // Keyboard users land in the title of the language they added, and back on "Add a language"
  // after removing one (its button is gone).
  const [justAdded, setJustAdded] = useState<Locale | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const add = (locale: Locale) => {
    // The venue is most often a name that stays as it is: it starts as the main one.
    form.setFieldValue('translations', {
      ...form.values.translations,
      [locale]: { title: '', description: '', venue: event.venue },
    });
    setJustAdded(locale);
  };
  const remove = (locale: Locale) => {
    form.setFieldValue(
      'translations',
      Object.fromEntries(Object.entries(form.values.translations).filter(([kept]) => kept !== locale)),
    );
    form.clearErrors();
    addButton.current?.focus();
  };
  const shownError = mutation.error && !Object.keys(form.errors).length ? errorMessage(mutation.error) : null;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="event-languages-title">
      <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4" id="event-languages-title">
            <FormattedMessage id="languages.title" defaultMessage="Languages" />
          </Title>
          <Text size="sm" c="dimmed">
            <FormattedMessage
              id="languages.intro"
              defaultMessage="Visitors read the event in their language when you add it here, and in the main language otherwise."
            />
          </Text>
          <Select
            label={intl.formatMessage({ id: 'languages.main', defaultMessage: 'Main language' })}
            description={intl.formatMessage({
              id: 'languages.mainHint',
              defaultMessage: 'The language of the title, description, venue and ticket type names you entered for the event.',
            })}
            data={locales
              .filter((locale) => !form.values.translations[locale])
              .map((locale) => ({ value: locale, label: languageName(locale) }))}
            allowDeselect={false}
            maw={360}
            {...form.getInputProps('contentLocale')}
          />
          {added.map((locale) => {
            const written = { lang: locale, dir: directionOf(locale) };
            return (
              <Fieldset key={locale} legend={languageName(locale)}>
                <Stack gap="sm">
                  <TextInput
                    label={intl.formatMessage({ id: 'languages.field.title', defaultMessage: 'Title' })}
                    required
                    autoFocus={locale === justAdded}
                    {...written}
                    {...form.getInputProps(`translations.${locale}.title`)}
                  />
                  <Textarea
                    label={intl.formatMessage({ id: 'languages.field.description', defaultMessage: 'Description' })}
                    autosize
                    minRows={2}
                    {...written}
                    {...form.getInputProps(`translations.${locale}.description`)}
                  />
                  <TextInput
                    label={intl.formatMessage({ id: 'languages.field.venue', defaultMessage: 'Venue' })}
                    required
                    {...written}
                    {...form.getInputProps(`translations.${locale}.venue`)}
                  />
                  {ticketTypes.map((type) => (
                    <TextInput
                      key={type.id}
                      label={intl.formatMessage(
                        { id: 'languages.field.ticketTypeName', defaultMessage: 'Name of the ticket type “{name}”' },
                        { name: type.name },
                      )}
                      description={intl.formatMessage({
                        id: 'languages.field.ticketTypeNameHint',
                        defaultMessage: 'Left empty, the name in the main language is shown.',
                      })}
                      {...written}
                      {...form.getInputProps(`names.${type.id}.${locale}`)}
                      value={form.values.names[type.id]?.[locale] ?? ''}
                    />
                  ))}
                  <Button
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={16} aria-hidden />}
                    onClick={() => remove(locale)}
                    style={{ alignSelf: 'flex-start' }}
                  >
                    <FormattedMessage
                      id="languages.remove"
                      defaultMessage="Remove {language}"
                      values={{ language: languageName(locale) }}
                    />
                  </Button>
                </Stack>
              </Fieldset>
            );
          })}
          {shownError && (
            <Alert color="red" role="alert">
              {shownError}
            </Alert>
          )}
          <Group justify="space-between">
            <Menu position="bottom-start" returnFocus={false}>
              <Menu.Target>
                <Button
                  ref={addButton}
                  variant="default"
                  disabled={addable.length === 0}
                  leftSection={<IconPlus size={16} aria-hidden />}
                  rightSection={<IconChevronDown size={14} aria-hidden />}
                >
                  <FormattedMessage id="languages.add" defaultMessage="Add a language" />
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {addable.map((locale) => (
                  <Menu.Item key={locale} onClick={() => add(locale)}>
                    {languageName(locale)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
            <Button type="submit" loading={mutation.isPending}>
              <FormattedMessage id="languages.save" defaultMessage="Save languages" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
