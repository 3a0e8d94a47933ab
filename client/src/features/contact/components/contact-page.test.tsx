import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { renderWithApp } from '@/testing/render';
import ContactPage from './contact-page';

const POSTED = 'Your message has been posted to community. One of the member will contact you soon.';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

// jsdom has no FontFaceSet; Mantine's autosizing Textarea listens to it (testing/setup.ts is
// shared, so the stub lives here).
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
}

afterEach(() => {
  vi.restoreAllMocks();
});

const renderContact = (lang = 'en') => renderWithApp(<ContactPage />, { route: '/contact', lang, namespaces: ['contact', 'messages'] });

test('name, mobile and description are required, the mobile has 10 digits; Submit waits for a valid form', async () => {
  const user = userEvent.setup();
  const fetchSpy = vi.spyOn(globalThis, 'fetch');
  await renderContact();
  const submit = screen.getByRole('button', { name: 'Submit' });
  expect(submit).toBeDisabled();

  const name = screen.getByLabelText(/^Name/);
  const email = screen.getByLabelText(/^E-mail/);
  const mobile = screen.getByLabelText(/^Mobile/);
  const description = screen.getByLabelText(/^Description/);

  await user.click(name);
  await user.tab();
  expect(await screen.findByText('Name is required')).toBeInTheDocument();
  await user.click(mobile);
  await user.tab();
  expect(await screen.findByText('Mobile is required')).toBeInTheDocument();
  await user.click(description);
  await user.tab();
  expect(await screen.findByText('Description is required')).toBeInTheDocument();

  await user.type(mobile, '98765');
  await user.tab();
  expect(await screen.findByText('Please provide a valid 10 digit mobile number')).toBeInTheDocument();
  // Only digits are kept.
  await user.type(mobile, 'abc');
  expect(mobile).toHaveValue('98765');

  await user.type(email, 'not-an-email');
  await user.tab();
  expect(await screen.findByText('Please provide a valid email')).toBeInTheDocument();
  await user.clear(email);

  await user.type(name, 'Kiran Rao');
  await user.type(mobile, '43210');
  await user.type(description, 'How do I buy a plan?');
  expect(submit).toBeEnabled();
  expect(screen.queryByText('Name is required')).not.toBeInTheDocument();
  expect(screen.queryByText('Please provide a valid 10 digit mobile number')).not.toBeInTheDocument();
  // The e-mail is optional.
  expect(screen.queryByText('Please provide a valid email')).not.toBeInTheDocument();
  expect(fetchSpy).not.toHaveBeenCalled();
});

test('the messages in Hindi', async () => {
  const user = userEvent.setup();
  await renderContact('hi');
  expect(screen.getByRole('heading', { name: 'हमें लिखें' })).toBeInTheDocument();
  await user.click(screen.getByLabelText(/^मोबाइल/));
  await user.type(screen.getByLabelText(/^मोबाइल/), '123');
  await user.tab();
  expect(await screen.findByText('कृपया 10 अंकों का मान्य मोबाइल नंबर दर्ज करें')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'सबमिट करें' })).toBeDisabled();
});

test('a valid message is posted with +91, the server text is shown and the form is cleared', async () => {
  const user = userEvent.setup();
  const calls: { url: string; method?: string; body: unknown }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    calls.push({ url: String(input), method: init?.method, body: JSON.parse(String(init?.body)) });
    return json({ success: true, id: 'c-1', msg: POSTED }, 201);
  });
  await renderContact();

  await user.type(screen.getByLabelText(/^Name/), '  Kiran Rao ');
  // A pasted full number loses its +91: the field shows +91 already.
  await user.click(screen.getByLabelText(/^Mobile/));
  await user.paste('+91 98765 43210');
  expect(screen.getByLabelText(/^Mobile/)).toHaveValue('9876543210');
  await user.type(screen.getByLabelText(/^Description/), 'How do I buy a plan?');
  await user.click(screen.getByRole('button', { name: 'Submit' }));

  expect(await screen.findByTestId('contact-success')).toHaveTextContent(POSTED);
  expect(calls).toHaveLength(1);
  expect(new URL(calls[0]!.url).pathname).toBe('/api/generic/submit-contact-details');
  expect(calls[0]!.method).toBe('POST');
  expect(calls[0]!.body).toEqual({ name: 'Kiran Rao', email: null, mobile: '+919876543210', description: 'How do I buy a plan?' });
  await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveValue(''));
  expect(screen.getByLabelText(/^Mobile/)).toHaveValue('');
  expect(screen.getByLabelText(/^Description/)).toHaveValue('');
  expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
});

test('a refusal shows the server message and keeps what was typed', async () => {
  const user = userEvent.setup();
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ success: false, msg: 'Too many requests. Please try again later.', code: 'RATE_LIMITED' }, 429));
  await renderContact('hi');

  await user.type(screen.getByLabelText(/^नाम/), 'Kiran Rao');
  await user.type(screen.getByLabelText(/^मोबाइल/), '9876543210');
  await user.type(screen.getByLabelText(/^विवरण/), 'Plan?');
  await user.click(screen.getByRole('button', { name: 'सबमिट करें' }));

  const alert = await screen.findByTestId('contact-error');
  // The server's English text, translated (messages:tooManyRequests).
  expect(alert).not.toHaveTextContent('Too many requests');
  expect(alert.textContent).toMatch(/[\u0900-\u097F]/);
  expect(screen.getByLabelText(/^नाम/)).toHaveValue('Kiran Rao');
});
