// HTTP/1.1 spoken by hand, for tests of what goes over the wire byte for byte.
import { connect } from 'node:net';

/** Writes a raw request and reads the raw answer until the server ends the connection (5 s at most). */
export function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.setTimeout(5000, () => socket.destroy(new Error(`no complete answer: ${data}`)));
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}
