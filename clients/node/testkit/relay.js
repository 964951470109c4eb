// A gRPC relay in front of the server that ends chosen Play calls with a status of its choice. While a
// hostile client floods a server with streams it opens and resets, gRPC's core cancels honest bots' new
// calls before the server's handler sees them (CANCELLED, sometimes RESOURCE_EXHAUSTED or INTERNAL, the
// join never answered). The relay does that on purpose to the first `refuse.length` Play calls, before
// reading anything, and can end the first stream it relays once it has passed on `cutAfterDecisions`
// decisions (a stream lost after the join), then end the next `refuseAfterCut.length` calls at once (the
// rejoins of a seat that had joined). Everything else is passed on as bytes; it relays Play only.
import { grpc, loadSheepfold } from '../src/proto.js';

const bytes = (buffer) => buffer;
const PLAY = {
  path: '/sheepfold.v1.Arena/Play',
  requestStream: true,
  responseStream: true,
  requestSerialize: bytes,
  requestDeserialize: bytes,
  responseSerialize: bytes,
  responseDeserialize: bytes,
};
const Upstream = grpc.makeGenericClientConstructor({ Play: PLAY }, 'Arena');

/** Resolves to { address, playCalls, close() } once it listens on a free loopback port. */
export function startRelay(
  upstreamAddress,
  { refuse = [], cutAfterDecisions = 0, cutCode = grpc.status.UNAVAILABLE, refuseAfterCut = [] } = {},
) {
  const decodeResponse = loadSheepfold().Arena.service.Play.responseDeserialize;
  const upstream = new Upstream(upstreamAddress, grpc.credentials.createInsecure());
  const server = new grpc.Server();
  let playCalls = 0;
  let relayed = 0;
  let cut = false;
  let refusedAfterCut = 0;
  const refuseNow = (call, code) => call.emit('error', { code, details: 'ended by the test relay at once' });

  const relay = (call, cutAt) => {
    const up = upstream.Play();
    let done = false;
    let decisions = 0;
    const finish = ({ code, details }) => {
      if (done) return;
      done = true;
      up.cancel();
      if (code === grpc.status.OK) call.end();
      else call.emit('error', { code, details });
    };
    call.on('data', (message) => !done && up.write(message));
    call.on('end', () => !done && up.end());
    call.on('cancelled', () => finish({ code: grpc.status.CANCELLED, details: 'the bot cancelled' }));
    up.on('data', (message) => {
      if (done) return;
      call.write(message);
      if (decodeResponse(message).kind === 'decision' && ++decisions === cutAt) {
        cut = true;
        finish({ code: cutCode, details: 'ended by the test relay' });
      }
    });
    up.on('error', () => {}); // its status follows
    up.on('status', finish);
  };

  server.addService({ Play: PLAY }, {
    Play(call) {
      const number = playCalls++;
      if (number < refuse.length) return refuseNow(call, refuse[number]);
      if (cut && refusedAfterCut < refuseAfterCut.length) return refuseNow(call, refuseAfterCut[refusedAfterCut++]);
      relay(call, relayed++ === 0 ? cutAfterDecisions : 0);
    },
  });
  return new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => {
      if (error) return reject(error);
      resolve({
        address: `127.0.0.1:${port}`,
        get playCalls() {
          return playCalls;
        },
        close() {
          server.forceShutdown();
          upstream.close();
        },
      });
    });
  });
}
