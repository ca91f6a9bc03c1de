import { BLANKED_CODE } from './mail';
import type { SmsMessage, SmsSender } from './sms';

export interface TwilioOptions {
  /** The account (`AC…`): TWILIO_ACCOUNT_SID; with the auth token, the Basic credentials of every call. */
  accountSid: string;
  /** TWILIO_AUTH_TOKEN. */
  authToken: string;
  /** The sender: a Twilio number in E.164 (`+15005550006`) or a Messaging Service (`MG…`): TWILIO_FROM. */
  from: string;
  /** Another API address than https://api.twilio.com (a local fake in tests): TWILIO_API_BASE. */
  apiBase: string | undefined;
}

const DEFAULT_API_BASE = 'https://api.twilio.com';

/** Twilio refused or could not be reached; the message never carries the one-time code. */
export class SmsGatewayError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'SmsGatewayError';
  }
}

/**
 * Text messages through Twilio's Programmable Messaging REST API (docs/decisions/0159-sms-gateway-twilio.md):
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, a form body (`To`, `From` or `MessagingServiceSid`,
 * `Body`) and Basic authentication. Every message is first kept by `outbox` (the `sms_outbox` table, its code
 * blanked, so the listing stays); the hand-over to Twilio then runs without the caller waiting for it, as SMTP
 * mail does, and a failure goes to `onError` with the code taken out.
 */
export function createTwilioSmsSender(
  outbox: SmsSender,
  options: TwilioOptions & {
    onError: (error: SmsGatewayError) => void;
    fetch?: typeof fetch;
    timeoutMs?: number;
  },
): SmsSender {
  const doFetch = options.fetch ?? fetch;
  const base = (options.apiBase ?? DEFAULT_API_BASE).replace(/\/$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  const sender: [string, string] = options.from.startsWith('MG')
    ? ['MessagingServiceSid', options.from]
    : ['From', options.from];

  const deliver = async ({ to, body, code }: SmsMessage) => {
    // Whatever Twilio or the network says back is logged: the code is taken out of it first.
    const scrub = (text: string) => (code ? text.replaceAll(code, BLANKED_CODE) : text);
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams([['To', to], sender, ['Body', body]]).toString(),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new SmsGatewayError(`SMS gateway unreachable: ${scrub((error as Error).message)}`, null);
    }
    if (response.ok) return;
    // Twilio's error body: { code, message, more_info, status }.
    const text = await response.text().catch(() => '');
    let detail = text.slice(0, 500);
    try {
      const parsed = JSON.parse(text) as { code?: number; message?: string };
      detail = `${parsed.code ?? ''} ${parsed.message ?? ''}`.trim();
    } catch {
      // Not JSON (a proxy's page): the start of the text.
    }
    throw new SmsGatewayError(`SMS gateway answered ${response.status}: ${scrub(detail)}`, response.status);
  };

  return {
    async send(message) {
      await outbox.send(message);
      deliver(message).catch((error: unknown) =>
        options.onError(
          error instanceof SmsGatewayError ? error : new SmsGatewayError('SMS gateway failed', null),
        ),
      );
    },
  };
}
