import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { clearSession, getSession, rememberRedirect, sessionFromLogin, setSession } from '@/lib/session';
import { renderWithApp } from '@/testing/render';
import { basicOf, json, loginResponse, mockApi } from '@/testing/fetch-mock';
import LoginPage from './login-page';

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

/** The lookup's answer (docs/security.md "Referrals and names"): a masked name and an opaque handle, not the person id. */
const LATA_HANDLE = 'r1.9000000003.q8J2mW0xZk3nP5tR7vY9aA';
const lata = { success: true, data: [{ id: LATA_HANDLE, n: 'La*** Le***' }] };

const renderLogin = (route = '/login', lang = 'en') =>
  renderWithApp(<LoginPage />, {
    route,
    lang,
    namespaces: ['auth'],
    extraRoutes: [
      { path: '/reset-password', element: <div data-testid="reset-page" /> },
      { path: '/exam-list', element: <div data-testid="exam-list" /> },
      { path: '/', element: <div data-testid="home" /> },
    ],
  });

const activePanel = () => screen.findByRole('tabpanel');

describe('login tab', () => {
  test('username and password are required; Login is disabled until both are given', async () => {
    const user = userEvent.setup();
    await renderLogin();
    const panel = await activePanel();
    const button = within(panel).getByRole('button', { name: 'Login' });
    expect(button).toBeDisabled();

    const username = within(panel).getByLabelText(/Mobile or e-mail/);
    await user.click(username);
    await user.tab();
    expect(await within(panel).findByText('Username and password required')).toBeInTheDocument();

    await user.type(username, '9000000003');
    await user.type(within(panel).getByLabelText(/^Password/), 'learner1234');
    expect(button).toBeEnabled();
    expect(within(panel).queryByText('Username and password required')).not.toBeInTheDocument();
    // The forgot-password link is there; remember-me exists, hidden and checked.
    expect(within(panel).getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    expect(panel.querySelector('input[type="checkbox"]')).toBeChecked();
  });

  test('the validation message in Hindi', async () => {
    const user = userEvent.setup();
    await renderLogin('/login', 'hi');
    const panel = await activePanel();
    await user.click(within(panel).getByLabelText(/मोबाइल या ईमेल/));
    await user.tab();
    expect(await within(panel).findByText('यूज़रनेम और पासवर्ड आवश्यक हैं')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'लॉगिन' })).toBeDisabled();
  });

  test('a refused login shows Login failed and the server message in the alert list', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi(() => json({ success: false, msg: 'Invalid username or password', code: 'UNAUTHENTICATED' }, 401));
    await renderLogin();
    const panel = await activePanel();
    await user.type(within(panel).getByLabelText(/Mobile or e-mail/), '9000000003');
    await user.type(within(panel).getByLabelText(/^Password/), 'wrong');
    await user.click(within(panel).getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    const alert = within(panel).getByRole('alert');
    expect(alert).toHaveTextContent('Invalid username or password');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.path).toBe('/UserLogin/login');
    expect(calls[0]!.body).toBeUndefined();
    // A username without '@' is a mobile and gets +91.
    expect(basicOf(calls[0]!)).toBe('+919000000003:wrong');
    expect(getSession()).toBeNull();
  });

  test('a successful login stores the session (remembered) and goes to the stored redirect', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi(() => json(loginResponse()));
    rememberRedirect('/exam-list');
    const { router } = await renderLogin();
    const panel = await activePanel();
    await user.type(within(panel).getByLabelText(/Mobile or e-mail/), 'Admin@Example.com');
    await user.type(within(panel).getByLabelText(/^Password/), 'learner1234{Enter}');

    await waitFor(() => expect(router.state.location.pathname).toBe('/exam-list'));
    expect(basicOf(calls[0]!)).toBe('admin@example.com:learner1234');
    expect(getSession()?.token).toBe('token-1');
    expect(localStorage.getItem('session')).not.toBeNull();
    expect(await screen.findByText('Login successful')).toBeInTheDocument();
  });

  test('a stored login address is not a redirect target: go to Exams', async () => {
    const user = userEvent.setup();
    mockApi(() => json(loginResponse()));
    rememberRedirect('/login?error=x');
    const { router } = await renderLogin();
    const panel = await activePanel();
    await user.type(within(panel).getByLabelText(/Mobile or e-mail/), '9000000003');
    await user.type(within(panel).getByLabelText(/^Password/), 'learner1234{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/exam-list'));
  });

  test.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)'])(
    'a remembered address that leaves the site (%s) is not followed: go to Exams',
    async (target) => {
      const user = userEvent.setup();
      mockApi(() => json(loginResponse()));
      rememberRedirect(target);
      const { router } = await renderLogin();
      const panel = await activePanel();
      await user.type(within(panel).getByLabelText(/Mobile or e-mail/), '9000000003');
      await user.type(within(panel).getByLabelText(/^Password/), 'learner1234{Enter}');
      await waitFor(() => expect(router.state.location.pathname).toBe('/exam-list'));
    },
  );

  test('someone already signed in who opens /login goes on to Exams; with a message they stay', async () => {
    setSession(sessionFromLogin(loginResponse()), false);
    const first = await renderLogin();
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/exam-list'));
    first.unmount();
    const msg = 'Insufficient permission. Please login as authorized user.';
    const second = await renderLogin(`/login?error=${encodeURIComponent(msg)}`);
    expect(await screen.findByTestId('login-route-error')).toBeInTheDocument();
    expect(second.router.state.location.pathname).toBe('/login');
  });

  test('iprr = 1 warns and goes to /reset-password', async () => {
    const user = userEvent.setup();
    mockApi(() => json(loginResponse({ iprr: 1 })));
    rememberRedirect('/exam-list');
    const { router } = await renderLogin();
    const panel = await activePanel();
    await user.type(within(panel).getByLabelText(/Mobile or e-mail/), '9000000003');
    await user.type(within(panel).getByLabelText(/^Password/), 'learner1234');
    await user.click(within(panel).getByRole('button', { name: 'Login' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/reset-password'));
    expect(await screen.findByText(/Please reset it from your profile page/)).toBeInTheDocument();
    expect(getSession()?.iprr).toBe(1);
  });

  test('?error= is shown as an error', async () => {
    const msg = 'Insufficient permission. Please login as authorized user.';
    await renderLogin(`/login?error=${encodeURIComponent(msg)}`);
    expect(screen.getByTestId('login-route-error')).toHaveTextContent(msg);
    expect(screen.getByRole('tab', { name: 'Existing users' })).toHaveAttribute('aria-selected', 'true');
  });

  test('a server message in ?error= is translated (Hindi)', async () => {
    await renderLogin(`/login?error=${encodeURIComponent('Insufficient permission. Please login as authorized user.')}`, 'hi');
    expect(await screen.findByTestId('login-route-error')).toHaveTextContent('पर्याप्त अनुमति नहीं है');
  });
});

describe('signup tab', () => {
  test('?referrer=919000000003 opens the signup tab with 9000000003 looked up', async () => {
    const { calls } = mockApi(() => json(lata));
    await renderLogin('/login?referrer=919000000003');
    expect(screen.getByRole('tab', { name: 'New users' })).toHaveAttribute('aria-selected', 'true');
    const panel = await activePanel();
    expect(within(panel).getByLabelText(/Referrer's mobile number/)).toHaveValue('9000000003');
    expect(await within(panel).findByText('Referrer: La*** Le***')).toBeInTheDocument();
    expect(calls[0]!.path).toBe('/Person/getReferrer');
    expect(calls[0]!.query.get('strQuery')).toBe('9000000003');
  });

  test('validation messages of spec §5; Register is disabled while invalid', async () => {
    const user = userEvent.setup();
    mockApi(({ query }) => json(query.get('strQuery') === '9000000003' ? lata : { success: true, data: [] }));
    await renderLogin();
    await user.click(await screen.findByRole('tab', { name: 'New users' }));
    const panel = await activePanel();
    const register = within(panel).getByRole('button', { name: 'Register' });
    expect(register).toBeDisabled();

    await user.type(within(panel).getByLabelText(/Full name/), 'Ab');
    await user.type(within(panel).getByLabelText(/Mobile number/), '12345');
    await user.type(within(panel).getByLabelText(/E-mail/), 'not-an-email');
    await user.type(within(panel).getByLabelText(/^Password/), 'abc');
    await user.type(within(panel).getByLabelText(/Confirm password/), 'abd');
    await user.type(within(panel).getByLabelText(/Referrer's mobile number/), '90000');
    await user.tab();

    expect(await within(panel).findByText('Please provide your full name')).toBeInTheDocument();
    expect(within(panel).getByText('Please provide a valid 10 digit mobile number')).toBeInTheDocument();
    expect(within(panel).getByText('Please provide a valid email')).toBeInTheDocument();
    expect(within(panel).getByText('Password should have atleast 4 characters')).toBeInTheDocument();
    expect(within(panel).getByText('Password and confirm password not matching')).toBeInTheDocument();
    expect(within(panel).getByText('Enter a valid 10 digit mobile number')).toBeInTheDocument();
    expect(register).toBeDisabled();

    // An unknown referrer: 'Please select a person'.
    const lookup = within(panel).getByLabelText(/Referrer's mobile number/);
    await user.clear(lookup);
    await user.type(lookup, '9999999999');
    expect(await within(panel).findByText('Please select a person')).toBeInTheDocument();
    expect(within(panel).getByText('No one is registered with this mobile number')).toBeInTheDocument();
  });

  test('a valid form registers, signs in and goes on', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi(({ path }) =>
      path === '/Person/getReferrer' ? json(lata) : json(loginResponse({ id: 'new', name: 'Ravi Kumar', msg: 'User successfully created' }), 201),
    );
    const { router } = await renderLogin();
    await user.click(await screen.findByRole('tab', { name: 'New users' }));
    const panel = await activePanel();
    await user.type(within(panel).getByLabelText(/Full name/), 'Ravi Kumar');
    await user.type(within(panel).getByLabelText(/Mobile number/), '9123456789');
    await user.type(within(panel).getByLabelText(/^Password/), 'secret1');
    await user.type(within(panel).getByLabelText(/Confirm password/), 'secret1');
    const register = within(panel).getByRole('button', { name: 'Register' });
    expect(register).toBeDisabled();
    await user.type(within(panel).getByLabelText(/Referrer's mobile number/), '9000000003');
    await within(panel).findByText('Referrer: La*** Le***');
    // 18 or older and the terms accepted, or no Register.
    expect(register).toBeDisabled();
    expect(within(panel).getByRole('link', { name: 'Terms & Conditions' })).toHaveAttribute('href', '/tnc');
    expect(within(panel).getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/privacy');
    await user.click(within(panel).getByRole('checkbox', { name: /I am 18 years or older/ }));
    await waitFor(() => expect(register).toBeEnabled());
    await user.click(register);

    await waitFor(() => expect(router.state.location.pathname).toBe('/exam-list'));
    const post = calls.find((c) => c.path === '/UserLogin')!;
    expect(post.method).toBe('POST');
    expect(post.body).toEqual({ n: 'Ravi Kumar', m: '+919123456789', e: null, password: 'secret1', confirmPassword: 'secret1', p: LATA_HANDLE, terms: true });
    expect(post.headers.authorization).toBeUndefined();
    expect(getSession()?.name).toBe('Ravi Kumar');
    expect(await screen.findByText('User successfully created')).toBeInTheDocument();
  });

  test('"No one invited me" registers without a referrer: the server places the person (noInviter)', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi(() => json(loginResponse({ id: 'new', name: 'Ravi Kumar', msg: 'User successfully created' }), 201));
    const { router } = await renderLogin();
    await user.click(await screen.findByRole('tab', { name: 'New users' }));
    const panel = await activePanel();
    await user.type(within(panel).getByLabelText(/Full name/), 'Ravi Kumar');
    await user.type(within(panel).getByLabelText(/Mobile number/), '9123456789');
    await user.type(within(panel).getByLabelText(/^Password/), 'secret1');
    await user.type(within(panel).getByLabelText(/Confirm password/), 'secret1');
    await user.click(within(panel).getByRole('checkbox', { name: /I am 18 years or older/ }));
    const register = within(panel).getByRole('button', { name: 'Register' });
    // The referrer picker stays mandatory until "No one invited me" answers it.
    expect(register).toBeDisabled();
    await user.click(within(panel).getByRole('checkbox', { name: 'No one invited me' }));
    expect(within(panel).getByLabelText(/Referrer's mobile number/)).toBeDisabled();
    await waitFor(() => expect(register).toBeEnabled());
    await user.click(register);
    await waitFor(() => expect(router.state.location.pathname).toBe('/exam-list'));
    const post = calls.find((c) => c.path === '/UserLogin')!;
    expect(post.body).toEqual({ n: 'Ravi Kumar', m: '+919123456789', e: null, password: 'secret1', confirmPassword: 'secret1', noInviter: true, terms: true });
    expect(calls.some((c) => c.path === '/Person/getReferrer')).toBe(false);
  });

  test('a server refusal (mobile taken) is listed on the form', async () => {
    const user = userEvent.setup();
    mockApi(({ path }) =>
      path === '/Person/getReferrer' ? json(lata) : json({ success: false, msg: 'This mobile number is already registered', code: 'CONFLICT' }, 409),
    );
    await renderLogin('/login?referrer=9000000003');
    const panel = await activePanel();
    await user.type(within(panel).getByLabelText(/Full name/), 'Ravi Kumar');
    await user.type(within(panel).getByLabelText(/Mobile number/), '9000000001');
    await user.type(within(panel).getByLabelText(/E-mail/), 'ravi@example.com');
    await user.type(within(panel).getByLabelText(/^Password/), 'secret1');
    await user.type(within(panel).getByLabelText(/Confirm password/), 'secret1');
    await within(panel).findByText('Referrer: La*** Le***');
    await user.click(within(panel).getByRole('checkbox', { name: /I am 18 years or older/ }));
    await user.click(within(panel).getByRole('button', { name: 'Register' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('This mobile number is already registered');
    expect(getSession()).toBeNull();
  });

  test('a name with control, invisible or direction characters is refused on the form; Hindi joiners are not', async () => {
    const user = userEvent.setup();
    mockApi(() => json(lata));
    await renderLogin('/login?referrer=9000000003');
    const panel = await activePanel();
    const name = within(panel).getByLabelText(/Full name/);
    await user.type(name, 'Ravi\u202eKumar');
    await user.tab();
    expect(await within(panel).findByText('Remove control, invisible or text-direction characters')).toBeInTheDocument();
    await user.clear(name);
    // Hindi keeps its joiners inside a word (क्‍ष).
    await user.type(name, 'क्\u200dषमा शर्मा');
    await user.tab();
    await waitFor(() => expect(within(panel).queryByText('Remove control, invisible or text-direction characters')).not.toBeInTheDocument());
  });

  test('the refusal of such a name is shown in Hindi', async () => {
    const user = userEvent.setup();
    mockApi(() => json(lata));
    await renderLogin('/login?referrer=9000000003', 'hi');
    const panel = await activePanel();
    await user.type(within(panel).getByLabelText(/पूरा नाम/), 'रवि\u200bकुमार');
    await user.tab();
    expect(await within(panel).findByText('नियंत्रण, अदृश्य या लेखन-दिशा बदलने वाले वर्ण हटाएँ')).toBeInTheDocument();
  });

  test('signup validation in Hindi', async () => {
    const user = userEvent.setup();
    await renderLogin('/login', 'hi');
    await user.click(await screen.findByRole('tab', { name: 'नए उपयोगकर्ता' }));
    const panel = await activePanel();
    await user.type(within(panel).getByLabelText(/मोबाइल नंबर/, { selector: 'input[autocomplete="tel-national"]' }), '123');
    await user.tab();
    expect(await within(panel).findByText('कृपया 10 अंकों का मान्य मोबाइल नंबर दर्ज करें')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'रजिस्टर करें' })).toBeDisabled();
  });
});
