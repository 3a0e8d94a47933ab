import { Alert, Button, Container, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MOBILE_PREFIX } from '@pm/protocol/common';
import { ApiError } from '@/lib/api-client';
import { translateServerMessage } from '@/lib/server-messages';
import { useSubmitContact } from '../api/submit-contact';
import { type ContactErrorKey, contactRules, type ContactValues, mobileDigits } from '../lib/contact-rules';

type Outcome = { ok: true; msg: string } | { ok: false; msg: string } | null;

/** Contact page, titled 'Write To Us'. */
export default function ContactPage() {
  const { t } = useTranslation(['contact', 'messages', 'common']);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const mutation = useSubmitContact();

  // Errors are translation keys; shown translated, they follow a change of language.
  const errorText = (error: ReactNode) => (typeof error === 'string' && error ? t(error as ContactErrorKey) : error);
  const form = useForm<ContactValues>({
    initialValues: { name: '', email: '', mobile: '', description: '' },
    validateInputOnBlur: true,
    validate: contactRules,
    enhanceGetInputProps: ({ inputProps }) => ({ error: errorText(inputProps.error) }),
  });

  const submit = form.onSubmit((values) => {
    setOutcome(null);
    mutation.mutate(values, {
      onSuccess: (r) => {
        // The server's own words, in the chosen language.
        setOutcome({ ok: true, msg: translateServerMessage(r.msg) });
        form.reset();
      },
      onError: (e) => setOutcome({ ok: false, msg: e instanceof ApiError ? e.msg : t('common:errors.someError') }),
    });
  });

  const mobile = form.getInputProps('mobile');

  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Title order={2}>{t('contact:title')}</Title>
        <Text c="dimmed">{t('contact:intro')}</Text>

        {outcome?.ok && (
          <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} title={t('contact:sent')} role="status" data-testid="contact-success">
            {outcome.msg}
          </Alert>
        )}
        {outcome && !outcome.ok && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={t('contact:notSent')} role="alert" data-testid="contact-error">
            {outcome.msg}
          </Alert>
        )}

        <Paper withBorder p="lg" radius="md" component="form" onSubmit={submit} noValidate aria-label={t('contact:title')}>
          <Stack gap="sm">
            <TextInput
              label={t('contact:name')}
              placeholder={t('contact:namePlaceholder')}
              withAsterisk
              autoComplete="name"
              maxLength={100}
              {...form.getInputProps('name')}
            />
            <TextInput
              label={t('contact:email')}
              description={t('contact:emailHint')}
              placeholder={t('contact:emailPlaceholder')}
              type="email"
              autoComplete="email"
              {...form.getInputProps('email')}
            />
            <TextInput
              label={t('contact:mobile')}
              placeholder={t('contact:mobilePlaceholder')}
              withAsterisk
              type="tel"
              inputMode="numeric"
              autoComplete="tel-national"
              leftSection={<Text size="sm">{MOBILE_PREFIX}</Text>}
              leftSectionWidth={48}
              {...mobile}
              onChange={(e) => form.setFieldValue('mobile', mobileDigits(e.currentTarget.value))}
            />
            <Textarea
              label={t('contact:description')}
              placeholder={t('contact:descriptionPlaceholder')}
              withAsterisk
              autosize
              minRows={4}
              maxRows={12}
              maxLength={5000}
              {...form.getInputProps('description')}
            />
            {/* Submit stays disabled while the form is invalid. */}
            <Button type="submit" disabled={!form.isValid()} loading={mutation.isPending} w="fit-content">
              {t('contact:submit')}
            </Button>
          </Stack>
        </Paper>
      </Stack>
    </Container>
  );
}
