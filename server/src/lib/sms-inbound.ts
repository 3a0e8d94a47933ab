/**
 * A text message that reached one of our numbers, as the SMS adapter hands it on after it has
 * checked the provider's signature on the callback (docs/sms.md). The numbers are E.164
 * (`+919000000001`).
 */
export type InboundSms = {
  /** The sender's number, as the provider reports it. */
  from: string;
  /** Our number (or short code) the message was sent to. */
  to: string;
  text: string;
  /** The provider that delivered it (`msg91`, `twilio`; the local sandbox speaks one of them). */
  provider: string;
  /** The provider's id of the message: the same id twice is the same message delivered again. */
  providerMessageId: string;
  receivedAt: Date;
};

/**
 * Something that acts on inbound messages (an answer code, …). It returns true when the message
 * was its kind (whether or not it was accepted), false to let the next handler look at it. What it
 * sends back goes through deps.outbox like any SMS.
 */
export type InboundSmsHandler = (message: InboundSms) => Promise<boolean>;
