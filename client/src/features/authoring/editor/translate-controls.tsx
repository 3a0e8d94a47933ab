import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isBlankHtml } from '@pm/protocol/question';
import { translationState } from '@pm/protocol/translate';
import { ApiError } from '@/lib/api-client';
import { useTranslateQuestion, useTranslatorStatus } from '../api/translate';
import { type EditLang, type QuestionForm, TRANSLATION_LANG, translationRequest } from './question-form';

export type TranslateControlsProps = {
  form: QuestionForm;
  /** The question as last loaded or saved: whether its translation is stale or a draft. */
  saved: QuestionForm;
  lang: EditLang;
  /** Generate answered: these texts ({q, o0…}) go into the translation into `lang`. */
  onTranslated: (lang: Exclude<EditLang, 'en'>, texts: Record<string, string>) => void;
};

type Outcome = { kind: 'done'; demo: boolean } | { kind: 'error'; msg: string } | null;

/**
 * Generate (docs/configuration.md "Machine translation") beside the language
 * selector: the machine translation of the English question and options into the language shown,
 * a draft in the form until the editor saves it. It says plainly when the server's translator is
 * the local demo (which only marks the text) and when a production server has none (Generate is
 * then off). Beside it, the saved translation's state: missing, a machine draft, or stale (the
 * English changed after it was translated).
 */
export function TranslateControls({ form, saved, lang, onTranslated }: TranslateControlsProps) {
  const { t } = useTranslation(['authoring-editor', 'messages']);
  const status = useTranslatorStatus();
  const translate = useTranslateQuestion();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const mode = status.data?.data?.mode;
  const state = saved.id ? translationState(saved, TRANSLATION_LANG) : null;

  const onGenerate = async () => {
    // The target must not be English; there must be English text to translate.
    if (lang === 'en') {
      setOutcome({ kind: 'error', msg: t('messages:translateNotEnglish') });
      return;
    }
    const content = translationRequest(form);
    if (Object.values(content).every(isBlankHtml)) {
      setOutcome({ kind: 'error', msg: t('messages:nothingToTranslate') });
      return;
    }
    setOutcome(null);
    try {
      const r = await translate.mutateAsync({ lang, content });
      onTranslated(lang, r.texts);
      setOutcome({ kind: 'done', demo: r.demo });
    } catch (err) {
      setOutcome({ kind: 'error', msg: err instanceof ApiError ? err.msg : t('translate.failed') });
    }
  };

  return (
    <Stack gap="xs">
      <Group gap="sm" wrap="wrap">
        <Button
          variant="light"
          leftSection={<IconLanguage size={16} aria-hidden />}
          onClick={() => void onGenerate()}
          loading={translate.isPending}
          disabled={mode === 'off'}
        >
          {t('translate.generate')}
        </Button>
        {state && !state.present && (
          <Badge color="gray" variant="light">
            {t('translate.state.missing')}
          </Badge>
        )}
        {state?.stale && (
          <Badge color="orange" variant="filled">
            {t('translate.state.stale')}
          </Badge>
        )}
        {state?.draft && (
          <Badge color="grape" variant="light">
            {t('translate.state.draft')}
          </Badge>
        )}
      </Group>
      {mode === 'off' && (
        <Text size="sm" c="dimmed">
          {t('messages:translatorOff')}
        </Text>
      )}
      {mode === 'demo' && (
        <Alert color="yellow" variant="light" p="xs" title={t('translate.demoTitle')}>
          {t('translate.demoText', { lang: TRANSLATION_LANG })}
        </Alert>
      )}
      {state?.stale && (
        <Text size="sm" c="orange.9">
          {t('translate.staleText')}
        </Text>
      )}
      {state?.draft && !state.stale && (
        <Text size="sm" c="dimmed">
          {t('translate.draftText')}
        </Text>
      )}
      {outcome?.kind === 'done' && (
        <Alert color={outcome.demo ? 'yellow' : 'blue'} variant="light" p="xs" role="status">
          {outcome.demo ? t('translate.doneDemo') : t('translate.done')}
        </Alert>
      )}
      {outcome?.kind === 'error' && (
        <Alert color="red" variant="light" p="xs" role="alert">
          {outcome.msg}
        </Alert>
      )}
    </Stack>
  );
}
