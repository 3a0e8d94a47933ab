import type { Context, Hono } from 'hono';
import {
  acceptTermsSchema,
  adminResetSchema,
  changePasswordSchema,
  createOnBehalfSchema,
  requestOtpSchema,
  requestResetSchema,
  resetWithCodeSchema,
  signupSchema,
  verifyOtpSchema,
} from '@pm/protocol/auth';
import { getCookie } from 'hono/cookie';
import { LANGUAGE_COOKIE } from '@pm/protocol/language-cookie';
import { MSG } from '@pm/protocol/messages';
import { emailChangeSchema, emailVerifySchema, mobileVerifySchema, ownProfileSchema } from '@pm/protocol/person';
import type { AppEnv, Deps } from '../../context';
import { badRequest } from '../../lib/errors';
import { clientIp, parseBasic, parseJson } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as auth from './auth.service';

/** An empty body is allowed where the spec sends none; anything else must be an empty object. */
async function emptyBody(c: Context<AppEnv>) {
  const text = await c.req.text();
  if (text.trim() === '' || text.trim() === '{}') return;
  throw badRequest('Unexpected request body');
}

export function authRoutes(app: Hono<AppEnv>, deps: Deps) {
  const ip = (c: Parameters<typeof clientIp>[0]) => clientIp(c, deps.config.TRUST_PROXY);
  // The language the app is in (its cookie): a code's SMS goes in it (docs/sms.md "DLT templates").
  const langOf = (c: Context<AppEnv>) => (getCookie(c, LANGUAGE_COOKIE) === 'hi' ? ('hi' as const) : ('en' as const));

  // The signed-in person's own name and e-mail (docs/api.md "Profile"). Under /Person, but the
  // identity rules (codes, the same answer for a taken address) are this module's; registered
  // before personRoutes' /Person/:id.
  route(app, deps, 'PATCH /Person/me', async (c) => c.json(await auth.updateOwnProfile(deps, principalOf(c), await parseJson(c, ownProfileSchema))));
  route(app, deps, 'POST /Person/me/email', async (c) => {
    const body = await parseJson(c, emailChangeSchema);
    return c.json(await auth.requestEmailChange(deps, principalOf(c), { e: body.e, ip: ip(c) }));
  });
  route(app, deps, 'POST /Person/me/email/verify', async (c) => {
    const body = await parseJson(c, emailVerifySchema);
    return c.json(await auth.verifyEmailChange(deps, principalOf(c), { code: body.code, ip: ip(c) }));
  });
  // Verifying one's own mobile by a code (docs/sms.md "Every code by SMS").
  route(app, deps, 'POST /Person/me/mobile/code', async (c) => {
    await emptyBody(c);
    return c.json(await auth.requestMobileCode(deps, principalOf(c), { ip: ip(c), lang: langOf(c) }));
  });
  route(app, deps, 'POST /Person/me/mobile/verify', async (c) => {
    const body = await parseJson(c, mobileVerifySchema);
    return c.json(await auth.verifyMobile(deps, principalOf(c), { code: body.code, ip: ip(c) }));
  });

  route(app, deps, 'POST /UserLogin/login', async (c) => {
    await emptyBody(c);
    const basic = parseBasic(c);
    if (!basic) throw badRequest(MSG.credentialsRequired);
    return c.json(await auth.login(deps, { username: basic.user, password: basic.pass, ip: ip(c) }));
  });
  route(app, deps, 'POST /UserLogin/createUserOnBehalf', async (c) => {
    const body = await parseJson(c, createOnBehalfSchema);
    return c.json(await auth.createOnBehalf(deps, principalOf(c), { ...body, ip: ip(c), lang: langOf(c) }), 201);
  });
  route(app, deps, 'POST /UserLogin/resetPassword', async (c) => {
    const body = await parseJson(c, requestResetSchema);
    return c.json(await auth.requestReset(deps, { username: body.username, ip: ip(c), lang: langOf(c) }));
  });
  route(app, deps, 'POST /UserLogin/updatePasswordWithResetCode', async (c) => {
    const body = await parseJson(c, resetWithCodeSchema);
    return c.json(await auth.resetWithCode(deps, { username: body.username, basic: parseBasic(c), ip: ip(c) }));
  });
  route(app, deps, 'PATCH /UserLogin/updatePasswordWithOldPassword', async (c) =>
    c.json(await auth.changePassword(deps, principalOf(c), await parseJson(c, changePasswordSchema))),
  );
  route(app, deps, 'POST /UserLogin/logout', async (c) => {
    await emptyBody(c);
    return c.json(await auth.logout(deps, principalOf(c)));
  });
  route(app, deps, 'POST /UserLogin/logoutAll', async (c) => {
    await emptyBody(c);
    return c.json(await auth.logoutAll(deps, principalOf(c)));
  });
  // The terms: what the signed-in person accepted, and accepting the current version (docs/api.md).
  route(app, deps, 'GET /UserLogin/terms', async (c) => c.json(await auth.termsState(deps, principalOf(c))));
  route(app, deps, 'POST /UserLogin/acceptTerms', async (c) =>
    c.json(await auth.acceptTerms(deps, principalOf(c), await parseJson(c, acceptTermsSchema))),
  );
  route(app, deps, 'PUT /UserLogin/resetUserPasswordByAdmin', async (c) =>
    c.json(await auth.adminReset(deps, principalOf(c), await parseJson(c, adminResetSchema))),
  );
  route(app, deps, 'POST /UserLogin', async (c) => {
    const body = await parseJson(c, signupSchema);
    return c.json(await auth.signup(deps, { ...body, ip: ip(c) }), 201);
  });
  route(app, deps, 'POST /OTP/requestOTP', async (c) => {
    const body = await parseJson(c, requestOtpSchema);
    return c.json(await auth.requestOtp(deps, { mobile: body.mobile, ip: ip(c), lang: langOf(c) }));
  });
  route(app, deps, 'POST /OTP/verifyOTPAndSignIn', async (c) => {
    await parseJson(c, verifyOtpSchema);
    return c.json(await auth.verifyOtp(deps, { basic: parseBasic(c), ip: ip(c) }));
  });
}
