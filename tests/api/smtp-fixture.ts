/**
 * A real SMTP server on loopback (smtp-server) that keeps every mail it receives: the verification-code
 * tests read the codes out of it. A recipient starting with `bounce@` is refused, as a full mailbox is.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mailbox {
  /** `smtp://127.0.0.1:<port>`: the studio's WEFT_SMTP_URL. */
  url: string;
  mails: { to: string; text: string }[];
  /** The 6-digit code in the newest mail to `to`. */
  codeFor(to: string): string | undefined;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const mails: Mailbox['mails'] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, cb) {
      cb(address.address.startsWith('bounce@') ? new Error('mailbox unavailable') : undefined);
    },
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        // nodemailer sends non-ASCII text (the zh message) base64-encoded: keep the decoded body.
        const [head, ...rest] = raw.split('\r\n\r\n');
        const body = rest.join('\r\n\r\n');
        const text = /content-transfer-encoding: base64/i.test(head) ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : body;
        mails.push({ to: session.envelope.rcptTo[0].address, text });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    mails,
    codeFor: (to) => /\b(\d{6})\b/.exec(mails.filter((m) => m.to === to).at(-1)?.text ?? '')?.[1],
    close: () => new Promise<void>((r) => smtp.close(() => r())),
  };
}
