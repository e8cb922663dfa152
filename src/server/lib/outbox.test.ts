import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpTransport } from './outbox.ts';

/**
 * A minimal SMTP listener on 127.0.0.1 that accepts every message and keeps
 * its DATA: enough for nodemailer's plain SMTP conversation.
 */
function fakeSmtpServer(received: string[]): Server {
  return createServer((socket: Socket) => {
    let inData = false;
    let data = '';
    let buffer = '';
    socket.write('220 localhost ESMTP test\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          data += buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(data);
          data = '';
          socket.write('250 OK queued\r\n');
          continue;
        }
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd < 0) return;
        const line = buffer.slice(0, lineEnd).toUpperCase();
        buffer = buffer.slice(lineEnd + 2);
        if (line.startsWith('EHLO')) socket.write('250-localhost\r\n250 8BITMIME\r\n');
        else if (line.startsWith('DATA')) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
}

const received: string[] = [];
const server = fakeSmtpServer(received);
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('SmtpTransport', () => {
  it('delivers an e-mail through the SMTP server of SMTP_URL', async () => {
    const transport = new SmtpTransport(`smtp://127.0.0.1:${port}?ignoreTLS=true`, 'Warden <no-reply@warden.example>');
    await transport.deliver({ channel: 'email', to: 'hanako@example.com', subject: 'Warden: reset your password', text: 'Open this link' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatch(/^To: hanako@example\.com$/m);
    expect(received[0]).toMatch(/^From: Warden <no-reply@warden\.example>$/m);
    expect(received[0]).toMatch(/^Subject: Warden: reset your password$/m);
    expect(received[0]).toContain('Open this link');
  });
});
