// A local SMTP server that accepts every message and keeps only a count: the receiving end of the
// production-like run, so that what is measured is Admit's side of sending (nodemailer's MIME and
// SMTP), not a mail server's. It speaks the little of SMTP nodemailer uses without TLS or auth.
import net from 'node:net';

export interface SmtpSink {
  port: number;
  /** Messages accepted so far. */
  received(): number;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  let received = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = '';
    let inData = false;
    socket.write('220 bench-sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) {
            // Keep only what could still start the end marker.
            buffer = buffer.slice(-4);
            return;
          }
          buffer = buffer.slice(end + 5);
          inData = false;
          received++;
          socket.write('250 2.0.0 kept\r\n');
          continue;
        }
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd === -1) return;
        const command = buffer.slice(0, lineEnd).slice(0, 4).toUpperCase();
        buffer = buffer.slice(lineEnd + 2);
        if (command === 'EHLO') socket.write('250-bench-sink\r\n250-8BITMIME\r\n250 SIZE 104857600\r\n');
        else if (command === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (command === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received: () => received,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
