import { useMutation } from '@tanstack/react-query';
import { MOBILE_PREFIX } from '@pm/protocol/common';
import { api } from '@/lib/api-client';

export type ContactInput = {
  name: string;
  /** Optional; empty means none. */
  email: string;
  /** 10 digits, without +91. */
  mobile: string;
  description: string;
};

export type ContactResponse = { success: true; id: string; msg: string };

/**
 * POST /api/generic/submit-contact-details (mobile sent with +91). Silent: the
 * page shows the server's message on the form itself.
 */
export function submitContact(input: ContactInput): Promise<ContactResponse> {
  return api<ContactResponse>('/generic/submit-contact-details', {
    method: 'POST',
    body: {
      name: input.name.trim(),
      email: input.email.trim() || null,
      mobile: MOBILE_PREFIX + input.mobile,
      description: input.description.trim(),
    },
    silent: true,
  });
}

export function useSubmitContact() {
  return useMutation({ mutationFn: submitContact });
}
