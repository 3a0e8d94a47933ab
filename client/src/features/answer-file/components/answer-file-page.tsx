import { Alert, Button, Container, FileInput, Stack, Text, Title } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ANSWER_FILE_EXT, ANSWER_FILE_MSG, type AnswerFileUploadResponse, MAX_ANSWER_FILE_CHARS } from '@pm/protocol/answer-file';
import { ApiError } from '@/lib/api-client';
import { useUploadAnswerFile } from '../api/upload-answer-file';

type RefusalKey = keyof typeof ANSWER_FILE_MSG;
const refusalOf = new Map(Object.entries(ANSWER_FILE_MSG).map(([k, v]) => [v as string, k as RefusalKey]));

/** What the page says about a failed upload: a refusal of ours by its key, else the server's (translated) message. */
function failureText(err: unknown, t: ReturnType<typeof useTranslation<'answer-file'>>['t']): string {
  if (err instanceof ApiError) {
    if (err.code === 'NETWORK') return t('upload.offline');
    const key = refusalOf.get(err.msg);
    if (key) return t(`refused.${key}`);
    if (err.status === 413) return t('refused.tooLarge');
    return err.msg || t('upload.failed');
  }
  return t('upload.failed');
}

function Outcome({ result }: { result: AnswerFileUploadResponse }) {
  const { t } = useTranslation('answer-file');
  return (
    <Stack gap="xs" data-testid="answer-file-result">
      {result.attempts.map((a) => (
        <Alert key={a.id} color={a.outcome === 'stored' ? 'green' : 'blue'} data-outcome={a.outcome}>
          {a.outcome === 'already' ? t('upload.already') : a.scored ? t('upload.stored') : t('upload.storedUnscored')}
        </Alert>
      ))}
    </Stack>
  );
}

/**
 * Upload an answer file (docs/answer-file.md, /answer-file): public, for the learner on another device or
 * an invigilator. The file goes to the server exactly as saved (any change refuses it there).
 */
export default function AnswerFilePage() {
  const { t } = useTranslation('answer-file');
  const [file, setFile] = useState<File | null>(null);
  const [readError, setReadError] = useState(false);
  const upload = useUploadAnswerFile();

  const send = async () => {
    if (!file) return;
    setReadError(false);
    // Refused here without sending when it cannot be one (the server would say the same).
    if (file.size > MAX_ANSWER_FILE_CHARS) {
      upload.reset();
      setReadError(true);
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch {
      setReadError(true);
      return;
    }
    upload.mutate(text);
  };

  return (
    <Container size="sm" py="lg">
      <Stack>
        <Title order={2}>{t('title')}</Title>
        <Text>{t('upload.intro')}</Text>
        <FileInput
          label={t('upload.file')}
          placeholder={t('upload.placeholder')}
          accept={`.${ANSWER_FILE_EXT}`}
          value={file}
          onChange={(f) => {
            setFile(f);
            setReadError(false);
            upload.reset();
          }}
          clearable
          leftSection={<IconFileUpload size={16} aria-hidden />}
        />
        <div>
          <Button onClick={() => void send()} disabled={!file} loading={upload.isPending}>
            {t('upload.submit')}
          </Button>
        </div>
        {upload.isSuccess && <Outcome result={upload.data} />}
        {(upload.isError || readError) && (
          <Alert color="red" title={t('upload.refused')} role="alert" data-testid="answer-file-refused">
            {readError ? (file && file.size > MAX_ANSWER_FILE_CHARS ? t('refused.tooLarge') : t('refused.notAnswerFile')) : failureText(upload.error, t)}
          </Alert>
        )}
        {(upload.isSuccess || upload.isError) && (
          <div>
            <Button
              variant="default"
              onClick={() => {
                setFile(null);
                upload.reset();
              }}
            >
              {t('upload.another')}
            </Button>
          </div>
        )}
      </Stack>
    </Container>
  );
}
