// A gRPC relay in front of the server that ends chosen Play calls with a status of its choice. While a
// hostile client floods a server with streams it opens and resets, gRPC's core cancels honest bots' new
// calls before the server's handler sees them (CANCELLED, sometimes RESOURCE_EXHAUSTED or INTERNAL, the
// join never answered). The relay does that on purpose to the first `refuse.length` Play calls, before
// reading anything, and can end the first stream it relays once it has passed on `cutAfterDecisions`
// decisions (a stream lost after the join), then end the next `refuseAfterCut.length` calls at once (the
// rejoins of a seat that had joined). With `cutOnAnswer` that stream ends when the bot answers that
// decision instead, the answer never passed on and what the server says meanwhile (ABORTED for a stream
// a newer join replaced) never told: a stream ended as its client writes, where grpc may report INTERNAL
// in place of the status sent (grpc/grpc#36066). Everything else, the unary calls too (not Watch), is passed
// on as bytes.
import { grpc, loadSheepfold } from '../src/proto.js';

const bytes = (buffer) => buffer;
const passThrough = (path, stream) => ({
  path,
  requestStream: stream,
  responseStream: stream,
  requestSerialize: bytes,
  requestDeserialize: bytes,
  responseSerialize: bytes,
  responseDeserialize: bytes,
});
// How long a stream to be cut on the bot's answer waits for it, at most.
const CUT_ANSWER_MS = 10_000;
// The deadline of a unary call passed on.
const UNARY_MS = 30_000;

/** Resolves to { address, playCalls, close() } once it listens on a free loopback port. */
export function startRelay(
  upstreamAddress,
  { refuse = [], cutAfterDecisions = 0, cutCode = grpc.status.UNAVAILABLE, cutOnAnswer = false, refuseAfterCut = [] } = {},
) {
  const arena = loadSheepfold().Arena.service;
  const decodeResponse = arena.Play.responseDeserialize;
  const decodeRequest = arena.Play.requestDeserialize;
  // Play and the unary calls (not Watch, which no bot needs).
  const unaries = Object.keys(arena).filter((name) => !arena[name].requestStream && !arena[name].responseStream);
  const methods = Object.fromEntries(
    [...unaries, 'Play'].map((name) => [name, passThrough(arena[name].path, name === 'Play')]),
  );
  const Upstream = grpc.makeGenericClientConstructor(methods, 'Arena');
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
    // The decision the stream is cut after has been passed on: it ends at the bot's answer.
    let cutting = false;
    let answerTimer = null;
    const finish = ({ code, details }) => {
      if (done) return;
      done = true;
      clearTimeout(answerTimer);
      up.cancel();
      if (code === grpc.status.OK) call.end();
      else call.emit('error', { code, details });
    };
    const cutNow = () => {
      cut = true;
      finish({ code: cutCode, details: 'ended by the test relay' });
    };
    call.on('data', (message) => {
      if (done) return;
      if (cutting && decodeRequest(message).kind === 'answer') return cutNow();
      up.write(message);
    });
    call.on('end', () => !done && up.end());
    call.on('cancelled', () => finish({ code: grpc.status.CANCELLED, details: 'the bot cancelled' }));
    up.on('data', (message) => {
      if (done || cutting) return;
      call.write(message);
      if (decodeResponse(message).kind === 'decision' && ++decisions === cutAt) {
        if (!cutOnAnswer) return cutNow();
        cutting = true;
        answerTimer = setTimeout(cutNow, CUT_ANSWER_MS);
      }
    });
    up.on('error', () => {}); // its status follows
    up.on('status', (st) => !cutting && finish(st));
  };

  const unary = (name) => (call, callback) => {
    upstream[name](call.request, { deadline: Date.now() + UNARY_MS }, (error, response) =>
      error ? callback({ code: error.code, details: error.details }) : callback(null, response),
    );
  };
  const handlers = Object.fromEntries(unaries.map((name) => [name, unary(name)]));
  server.addService(methods, {
    ...handlers,
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
