// A TCP relay in front of the server whose connections the test can cut, to drop a bot's stream.
import net from 'node:net';

export function startProxy(port) {
  let targetPort = port;
  const sockets = new Set();
  let cuts = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        address: `127.0.0.1:${server.address().port}`,
        /** Drops every open connection at once; new ones are still relayed. */
        cut() {
          cuts += 1;
          for (const socket of sockets) socket.destroy();
        },
        get cuts() {
          return cuts;
        },
        /** New connections go to this port from now on (a restarted server). */
        retarget(newPort) {
          targetPort = newPort;
        },
        close: () => new Promise((done) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => done());
        }),
      });
    });
  });
}
