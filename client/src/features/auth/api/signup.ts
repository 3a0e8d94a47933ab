import type { LoginResponse } from '@pm/protocol/auth';
import { MOBILE_PREFIX } from '@pm/protocol/text-rules';
import { api } from '@/lib/api-client';

export type SignupInput = {
  name: string;
  /** 10 digits, without +91. */
  mobile: string;
  email: string;
  password: string;
  confirmPassword: string;
  /** The referrer as the person lookup names them: its opaque handle (sent as `p`); null: "No one invited me". */
  referrerId: string | null;
  /** 18 or older, and the terms accepted: the form sends only `true` (the server refuses anything else). */
  terms: boolean;
};

/** POST /api/UserLogin: answers 201 with the login response, so the new learner is signed in. */
export function signup(input: SignupInput): Promise<LoginResponse> {
  return api<LoginResponse>('/UserLogin', {
    method: 'POST',
    body: {
      n: input.name.trim(),
      m: MOBILE_PREFIX + input.mobile,
      e: input.email.trim() || null,
      password: input.password,
      confirmPassword: input.confirmPassword,
      ...(input.referrerId === null ? { noInviter: true } : { p: input.referrerId }),
      terms: input.terms,
    },
    skipAuth: true,
    silent: true,
  });
}
