import { notifications } from '@mantine/notifications';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { IMPORT_ISSUE_CODES, type ImportPreview } from '@pm/protocol/question-import';
import en from '@/locales/en/authoring-import.json';
import hi from '@/locales/hi/authoring-import.json';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import ImportExportPage from './import-export-page';

const NS = ['authoring-import', 'authoring-bank', 'messages'];

beforeEach(() => setSession({ ...learnerSession, permissions: 'QUESTION_EDITOR', role: 'EDITOR' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

const GIFT = '::A:: One? {=a ~b}\n\n::B:: Match {=x -> y =z -> w}\n\n::C:: Two? {T}\n';
const PREVIEW: ImportPreview = {
  fileName: 'quiz.gift',
  format: 'gift',
  fileHash: 'f'.repeat(64),
  importedBefore: null,
  counts: { rows: 3, valid: 2, invalid: 1, duplicates: 0 },
  rows: [
    { n: 1, line: 1, title: 'A', qt: 'mcq1', text: 'One?', errors: [], warnings: [] },
    { n: 2, line: 3, title: 'B', qt: null, text: 'Match', errors: [{ code: 'unsupportedType', params: { type: 'matching' } }], warnings: [] },
    { n: 3, line: 5, title: 'C', qt: 'mcq1', text: 'Two?', errors: [], warnings: [{ code: 'categoryNotTag', params: { name: 'Physics' } }] },
  ],
};

function server() {
  return mockApi((c: Call) => {
    if (c.path === '/question/import/preview') return json({ success: true, data: PREVIEW });
    if (c.path === '/question/import') return json({ success: true, msg: 'Questions imported successfully', importId: 'i1', stored: 2, skipped: 1, ids: ['q1', 'q2'] }, 201);
    if (c.path === '/question/getQuestionSetList') return json({ success: true, data: [] });
    return json({ success: false, msg: 'unexpected' }, 500);
  });
}

test('every row issue code has its text in English and Hindi', () => {
  for (const code of IMPORT_ISSUE_CODES) {
    expect(en.issues, code).toHaveProperty(code);
    expect(hi.issues, code).toHaveProperty(code);
  }
});

test.each([
  ['en', 'Check the file', 'Matching questions are not supported', '"Physics" is no tag here, so it is not stored', 'Store the valid rows', '3 rows: 2 can be stored, 1 have errors, 0 are duplicates.', '2 questions stored as pending review; 1 rows left out.'],
  ['hi', 'फ़ाइल जाँचें', 'मिलान (matching) प्रश्न समर्थित नहीं हैं', '"Physics" यहाँ कोई टैग नहीं है, इसलिए सहेजा नहीं जाता', 'मान्य पंक्तियाँ सहेजें', '3 पंक्तियाँ: 2 सहेजी जा सकती हैं, 1 में त्रुटियाँ हैं, 0 दोहराई गई हैं।', '2 प्रश्न समीक्षा हेतु लंबित के रूप में सहेजे गए; 1 पंक्तियाँ छोड़ी गईं।'],
] as const)('%s: a file is checked, each row shows its errors, nothing is stored until chosen', async (lang, check, matching, notTag, storeValid, summary, stored) => {
  const api = server();
  const user = userEvent.setup();
  await renderWithApp(<ImportExportPage />, { lang, namespaces: NS });
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  await user.upload(input, new File([GIFT], 'quiz.gift', { type: 'text/plain' }));
  await user.click(await screen.findByRole('button', { name: check }));
  expect(await screen.findByTestId('import-summary')).toHaveTextContent(summary);
  const table = screen.getByRole('table');
  const row2 = within(table).getAllByRole('row').find((r) => r.getAttribute('data-row') === '2')!;
  expect(row2).toHaveAttribute('data-state', 'error');
  expect(within(row2).getByText(matching)).toBeInTheDocument();
  expect(within(table).getByText(notTag)).toBeInTheDocument();
  // The preview stored nothing: only the preview was asked for, with the file's text and its format (from the name).
  const sent = api.calls.filter((c) => c.path.startsWith('/question/import'));
  expect(sent.map((c) => c.path)).toEqual(['/question/import/preview']);
  expect(sent[0]!.body).toEqual({ fileName: 'quiz.gift', format: 'gift', content: GIFT });

  await user.click(screen.getByRole('button', { name: storeValid }));
  expect((await screen.findAllByText(stored)).length).toBeGreaterThan(0);
  const store = api.calls.find((c) => c.path === '/question/import')!;
  expect(store.body).toEqual({ fileName: 'quiz.gift', format: 'gift', content: GIFT, mode: 'valid', skipDuplicates: true });
});

test('Store nothing discards the preview and sends nothing', async () => {
  const api = server();
  const user = userEvent.setup();
  await renderWithApp(<ImportExportPage />, { lang: 'en', namespaces: NS });
  await user.upload(document.querySelector('input[type="file"]') as HTMLInputElement, new File([GIFT], 'quiz.gift'));
  await user.click(await screen.findByRole('button', { name: 'Check the file' }));
  await screen.findByTestId('import-summary');
  // With a row in error, "all or nothing" cannot be chosen.
  expect(screen.getByRole('button', { name: 'Store all rows, or nothing if any has an error' })).toBeDisabled();
  await user.click(screen.getByRole('button', { name: 'Store nothing' }));
  expect(screen.queryByTestId('import-summary')).not.toBeInTheDocument();
  expect(api.calls.filter((c) => c.path === '/question/import')).toEqual([]);
});

test('hi: a file refused whole shows the server message in Hindi, the column named', async () => {
  mockApi((c: Call) => {
    if (c.path === '/question/import/preview') return json({ success: false, code: 'BAD_REQUEST', msg: 'Unknown column in the file: colour' }, 400);
    return json({ success: true, data: [] });
  });
  const user = userEvent.setup();
  await renderWithApp(<ImportExportPage />, { lang: 'hi', namespaces: NS });
  await user.upload(document.querySelector('input[type="file"]') as HTMLInputElement, new File(['type,colour\n'], 'bad.csv'));
  await user.click(await screen.findByRole('button', { name: 'फ़ाइल जाँचें' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('फ़ाइल में अज्ञात कॉलम: colour');
});
