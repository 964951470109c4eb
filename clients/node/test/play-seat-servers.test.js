// playSeat against servers that misbehave: mute ones, ones that go away and come back, seats taken, decision ids past 32 bits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { arenaClient, grpc, playSeat, SeatError, seatTaken, connectionTrouble } from '../src/index.js';
import { loadSheepfold } from '../src/proto.js';
import { startProxy } from '../testkit/proxy.js';
import { FakeCall } from '../testkit/fake-call.js';

describe('playSeat against a server that accepts connections but never answers', () => {
  test('each join gets a deadline: the bot retries, then gives up, instead of waiting for ever', { timeout: 20_000 }, async () => {
    // A frozen server (kill -STOP) or a port that is not gRPC: the kernel accepts, nobody speaks.
    const sockets = [];
    const mute = net.createServer((socket) => sockets.push(socket));
    await new Promise((resolve) => mute.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      await assert.rejects(
        playSeat({ address: `127.0.0.1:${mute.address().port}`, matchId: 'm', token: 't', decide: () => 0, joinTimeoutMs: 300, maxReconnects: 2, backoffMs: 1 }),
        (error) => error instanceof SeatError && error.code === grpc.status.UNAVAILABLE && /did not answer the join within 0\.3 s; gave up after 2 attempts to join again$/.test(error.message),
      );
      assert.ok(Date.now() - started >= 900, 'three joins of 300 ms each');
    } finally {
      for (const socket of sockets) socket.destroy();
      mute.close();
    }
  });
});

/** Runs `body(address)` with a server on 127.0.0.1 that accepts connections and never says a word. */
async function withMuteServer(body) {
  const sockets = [];
  const mute = net.createServer((socket) => sockets.push(socket));
  await new Promise((resolve) => mute.listen(0, '127.0.0.1', resolve));
  try {
    return await body(`127.0.0.1:${mute.address().port}`);
  } finally {
    for (const socket of sockets) socket.destroy();
    mute.close();
  }
}

describe('looks at GetMatch the bot can do without, against a server that accepts connections but never answers', () => {
  // Each once waited the 10 s every unary call gets, holding the bot; now lookMs (LOOK_MS, 5 s, by default).
  test('seatTaken gives up after lookMs and counts the seat as not taken: the rejoin then deals with the server', { timeout: 20_000 }, async () => {
    await withMuteServer(async (address) => {
      const client = arenaClient(address);
      try {
        const started = Date.now();
        assert.equal(await seatTaken(client, 'm', 0, 1, 300), false);
        const waited = Date.now() - started;
        assert.ok(waited >= 250 && waited < 3_000, `waited ${waited} ms`);
      } finally {
        client.close();
      }
    });
  });

  test('after FAILED_PRECONDITION the finished result is looked for lookMs at most; the stream\'s own error follows', { timeout: 20_000 }, async () => {
    await withMuteServer(async (address) => {
      const silent = arenaClient(address);
      const call = new FakeCall();
      const client = { Play: () => call, GetMatch: silent.GetMatch.bind(silent), close() {} };
      try {
        const started = Date.now();
        const outcome = playSeat({ client, matchId: 'm', token: 't', decide: () => 0, lookMs: 300 });
        call.feed('joined', { seat: 0, game: 'g', players: 2 });
        call.fail(grpc.status.FAILED_PRECONDITION, 'the match is over');
        await assert.rejects(outcome, (error) => error instanceof SeatError && error.code === grpc.status.FAILED_PRECONDITION && error.message.includes('the match is over'));
        const waited = Date.now() - started;
        assert.ok(waited >= 250 && waited < 3_000, `waited ${waited} ms`);
      } finally {
        silent.close();
      }
    });
  });
});

/** A client whose Play calls `onJoin(call, ms)` answers, a moment after each join (ms: since the client was made). */
function fakeServer(onJoin) {
  const started = performance.now();
  const calls = [];
  const client = {
    Play() {
      const call = new FakeCall();
      calls.push(call);
      call.write = (message) => {
        call.written.push(message);
        if (message.join) setImmediate(() => onJoin(call, performance.now() - started));
      };
      return call;
    },
    close() {},
  };
  return { client, calls };
}

/** Ends a fake Play call with its result and status OK. */
function finish(call, scores) {
  call.feed('result', { scores });
  call.emit('status', { code: grpc.status.OK });
}

/** A client whose joins fail UNAVAILABLE (as a server that is away does) until `downMs` have passed, then play to a result. */
function serverAwayFor(downMs) {
  return fakeServer((call, ms) => {
    if (ms < downMs) return call.fail(grpc.status.UNAVAILABLE, 'connection refused');
    call.feed('joined', { seat: 0, game: 'g', players: 2 });
    finish(call, [1, 2]);
  });
}

describe('playSeat rejoining a server that has gone', () => {
  const base = { matchId: 'm', token: 't', decide: () => 0, backoffMs: 1, maxBackoffMs: 5 };

  test('rejoins for rejoinSeconds (90 by default), however many attempts that takes', { timeout: 20_000 }, async () => {
    // Refused joins come back within milliseconds: a count of attempts ran out long before the server was back.
    const { client, calls } = serverAwayFor(1_500);
    const outcome = await playSeat({ ...base, client });
    assert.deepEqual(outcome.result.scores, [1, 2]);
    assert.ok(calls.length > 21, `${calls.length} joins: more than the 20 attempts it used to stop at`);
  });

  test('gives up once rejoinSeconds have passed since the first failed attempt, naming the setting', { timeout: 20_000 }, async () => {
    const { client } = serverAwayFor(Infinity);
    const started = performance.now();
    await assert.rejects(playSeat({ ...base, client, rejoinSeconds: 0.5 }), (error) => {
      assert.ok(error instanceof SeatError, String(error));
      assert.equal(error.code, grpc.status.UNAVAILABLE);
      assert.match(
        error.message,
        /^UNAVAILABLE: connection refused; gave up after \d+ attempts to join again over 0\.5 s \(rejoinSeconds, `sheepfold-node-bot --rejoin-seconds`\): raise it to wait longer for a server that restarts$/,
      );
      return true;
    });
    const took = performance.now() - started;
    assert.ok(took >= 500 && took < 3_000, `gave up after ${took} ms`);
  });

  test('maxReconnects, when given, still ends it sooner', { timeout: 20_000 }, async () => {
    const { client, calls } = serverAwayFor(Infinity);
    await assert.rejects(
      playSeat({ ...base, client, maxReconnects: 3 }),
      (error) => error instanceof SeatError && /connection refused; gave up after 3 attempts to join again$/.test(error.message),
    );
    assert.equal(calls.length, 4, 'the first join and three more');
    // One attempt is one, not "1 attempts".
    await assert.rejects(
      playSeat({ ...base, client: serverAwayFor(Infinity).client, maxReconnects: 1 }),
      (error) => error.message === 'UNAVAILABLE: connection refused; gave up after 1 attempt to join again',
    );
  });

  test('a rejoin back in play starts the clock afresh: each outage gets its own rejoinSeconds', { timeout: 20_000 }, async () => {
    // Down 300 ms, joined and played until the stream drops 50 ms later, down 300 ms again from the drop, then a
    // result: 0.5 s covers each outage, not both. The second outage is timed from the drop itself (it was timed from
    // the start, so on a loaded machine a late first join made the two one outage, longer than rejoinSeconds).
    let droppedAt = null; // ms since the client was made, once the stream in play has dropped
    let inPlay = false;
    const { client } = fakeServer((call, ms) => {
      if (ms < 300 || inPlay || (droppedAt !== null && ms < droppedAt + 300)) {
        return call.fail(grpc.status.UNAVAILABLE, 'connection refused');
      }
      call.feed('joined', { seat: 0, game: 'g', players: 2 });
      if (droppedAt !== null) return finish(call, [3, 4]);
      inPlay = true;
      call.feed('event', { move: 1 });
      const dropAt = ms + 50;
      setTimeout(() => {
        droppedAt = dropAt;
        inPlay = false;
        call.fail(grpc.status.UNAVAILABLE, 'restarting');
      }, 50);
    });
    const outcome = await playSeat({ ...base, client, rejoinSeconds: 0.5 });
    assert.deepEqual(outcome.result.scores, [3, 4]);
    assert.ok(outcome.reconnects >= 1);
  });

  test('a join answered, then dropped before any play, does not start the clock afresh', { timeout: 20_000 }, async () => {
    // A server that answers every join and drops the stream at once (a crash loop, a proxy cutting it) kept
    // the bot for ever, each answered join starting rejoinSeconds again: given up on after them, as
    // clients/sdk.py does. After 5 s this one refuses joins, so the old behaviour gave up then.
    const { client, calls } = fakeServer((call, ms) => {
      if (ms >= 5_000) return call.fail(grpc.status.UNAVAILABLE, 'connection refused');
      call.feed('joined', { seat: 0, game: 'g', players: 2 });
      setTimeout(() => call.fail(grpc.status.UNAVAILABLE, 'restarting'), 5); // once the join is taken in
    });
    const started = performance.now();
    await assert.rejects(
      playSeat({ ...base, client, rejoinSeconds: 0.5 }),
      (error) => error instanceof SeatError && /^UNAVAILABLE: restarting; gave up after \d+ attempts to join again over 0\.5 s/.test(error.message),
    );
    const took = performance.now() - started;
    assert.ok(took >= 500 && took < 3_000, `gave up after ${took} ms`);
    assert.ok(calls.length > 2, `${calls.length} joins`);
  });

  test('a decide that is not a function is refused before connecting, not at the first decision', async () => {
    for (const decide of [undefined, 3, { decide: () => 0 }]) {
      await assert.rejects(
        playSeat({ ...base, address: '127.0.0.1:1', decide, maxReconnects: 0 }),
        (error) => error instanceof TypeError && /^decide must be a function \(view\) -> action index, not /.test(error.message),
        String(decide),
      );
    }
  });

  test('a rejoinSeconds that is no length of time is refused before connecting', async () => {
    for (const rejoinSeconds of [-1, Number.NaN, '90', null]) {
      await assert.rejects(playSeat({ ...base, address: '127.0.0.1:1', rejoinSeconds }), (error) => error instanceof RangeError && /rejoinSeconds/.test(error.message), String(rejoinSeconds));
    }
  });
});

/** A client whose GetMatch answers `looks[i]` (a list of connected seats, or an error code) at its i-th call. */
function getMatchAnswering(looks) {
  const asked = [];
  return {
    asked,
    GetMatch(request, options, callback) {
      asked.push(performance.now());
      const look = looks[Math.min(asked.length, looks.length) - 1];
      if (typeof look === 'number') return setImmediate(() => callback(Object.assign(new Error('refused'), { code: look, details: 'refused' })));
      const seats = [0, 1].map((seat) => ({ seat, connected: look.includes(seat) }));
      setImmediate(() => callback(null, { match_id: request.match_id, seats }));
    },
  };
}

describe('seatTaken', () => {
  test('a seat connected on two looks apart is taken; once unconnected, or GetMatch failing, it is not', async () => {
    const held = getMatchAnswering([[0], [0]]);
    assert.equal(await seatTaken(held, 'm', 0, 50), true);
    assert.equal(held.asked.length, 2);
    assert.ok(held.asked[1] - held.asked[0] >= 45, 'the second look waits');
    // A stream the server has yet to notice is gone leaves the seat connected a little longer.
    const leaving = getMatchAnswering([[0], []]);
    assert.equal(await seatTaken(leaving, 'm', 0, 1), false);
    const free = getMatchAnswering([[1]]);
    assert.equal(await seatTaken(free, 'm', 0, 1), false);
    assert.equal(free.asked.length, 1, 'an unconnected seat needs no second look');
    assert.equal(await seatTaken(getMatchAnswering([grpc.status.UNAVAILABLE]), 'm', 0, 1), false);
    assert.equal(await seatTaken(getMatchAnswering([[0], grpc.status.NOT_FOUND]), 'm', 0, 1), false);
    assert.equal(await seatTaken({}, 'm', 0, 1), false, 'a client without GetMatch');
    assert.equal(await seatTaken(getMatchAnswering([[0], [0]]), 'm', null, 1), false, 'no seat joined');
  });
});

describe('decision ids past 32 bits', () => {
  test('playSeat answers a decoded decision with exactly the id it carried, 2^40-1 and 2^64-1 alike', async () => {
    // Each match counts its ids from a number of its own below 2^40 (a uint64 on the wire): an id
    // kept in an int32, or in a double past 2^53, would name a decision the server never sent.
    const play = loadSheepfold().Arena.service.Play;
    const ids = ['1099511627775', '4294967296', '18446744073709551615'];
    const onWire = (message) => play.responseDeserialize(play.responseSerialize(message));
    const call = new FakeCall();
    const client = { Play: () => call, close() {} };
    const seen = [];
    const outcome = playSeat({ client, matchId: 'm', token: 't', decide: (view) => seen.push(view.decisionId) && 0 });
    call.emit('data', onWire({ joined: { seat: 0, game: 'sheep_n_sheep', players: 2 } }));
    for (const id of ids) {
      call.emit('data', onWire({ decision: { decision_id: id, seat: 0, actions: [{ label: 'a' }] } }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    call.emit('data', onWire({ result: { scores: [1, 2] } }));
    call.emit('status', { code: grpc.status.OK });
    await outcome;
    assert.deepEqual(seen, ids, 'decide sees the id exactly');
    // What the server reads back: the answers as they go on the wire, decoded again.
    const answered = call.written.filter((m) => m.answer).map((m) => play.requestDeserialize(play.requestSerialize(m)).answer.decision_id);
    assert.deepEqual(answered, ids);
  });
});

/** A grpc-js server whose Play answers the join and then says nothing more; `joined` resolves once it has. */
function startJoinOnlyServer() {
  let onJoined;
  const joined = new Promise((resolve) => (onJoined = resolve));
  const server = new grpc.Server();
  server.addService(loadSheepfold().Arena.service, {
    Play(call) {
      call.once('data', () => {
        call.write({ joined: { seat: 0, game: 'sheep-showdown', players: 2 } });
        onJoined();
      });
      call.on('error', () => {});
    },
  });
  return new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => {
      if (error) return reject(error);
      resolve({ address: `127.0.0.1:${port}`, joined, close: () => server.forceShutdown() });
    });
  });
}

describe('a server that goes away, said in our words as the Python SDK says it', () => {
  // grpc-js says "Connection dropped", or "No connection established. Last error: Error: connect
  // ECONNREFUSED 127.0.0.1:1. Resolution note: ": a bot author reads which server, and what became of it.
  test('a server whose connection drops mid-match: "the game server at ADDR went away"', { timeout: 20_000 }, async () => {
    const server = await startJoinOnlyServer();
    const proxy = await startProxy(Number(server.address.split(':')[1]));
    try {
      const playing = playSeat({ address: proxy.address, matchId: 'm', token: 't', decide: () => 0, rejoinSeconds: 0 });
      const failed = assert.rejects(playing, (error) => {
        assert.ok(error instanceof SeatError, String(error));
        assert.equal(error.code, grpc.status.UNAVAILABLE);
        assert.match(error.message, new RegExp(`^UNAVAILABLE: the game server at ${proxy.address} went away; gave up after 0 attempts to join again over 0 s`));
        return true;
      });
      await server.joined;
      proxy.cut();
      await failed;
    } finally {
      await proxy.close();
      server.close();
    }
  });

  test('a server that is not there: "cannot reach the server at ADDR: connection refused"', { timeout: 20_000 }, async () => {
    const proxy = await startProxy(1);
    await proxy.close(); // nothing listens on its port any more
    await assert.rejects(
      playSeat({ address: proxy.address, matchId: 'm', token: 't', decide: () => 0, maxReconnects: 1, backoffMs: 1 }),
      (error) => {
        assert.equal(error.message, `UNAVAILABLE: cannot reach the server at ${proxy.address}: connection refused; gave up after 1 attempt to join again`);
        return true;
      },
    );
  });

  test('a port without the game service (a --health-port) says so, as sheepfold bot does, not only "Method not found!"', { timeout: 20_000 }, async () => {
    const bare = new grpc.Server(); // no Arena service, as a health-only port
    const port = await new Promise((resolve, reject) => bare.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
    try {
      await assert.rejects(playSeat({ address: `127.0.0.1:${port}`, matchId: 'm', token: 't', decide: () => 0 }), (error) => {
        assert.ok(error instanceof SeatError, String(error));
        assert.equal(error.code, grpc.status.UNIMPLEMENTED);
        assert.match(error.message, /^UNIMPLEMENTED: .+ \(no sheepfold\.v1\.Arena there: the address is not a Sheepfold game port; a --health-port answers health checks alone\)$/);
        return true;
      });
    } finally {
      bare.forceShutdown();
    }
  });

  test('a port that does not speak gRPC is given up on at once, before any join: asking again cannot help', { timeout: 20_000 }, async () => {
    // An HTTP/1 server (the web viewer's port, say): without the seat ever joined, retrying it for
    // rejoinSeconds (90 s) only delayed the same answer.
    const web = net.createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'));
    await new Promise((resolve) => web.listen(0, '127.0.0.1', resolve));
    const address = `127.0.0.1:${web.address().port}`;
    try {
      await assert.rejects(playSeat({ address, matchId: 'm', token: 't', decide: () => 0, maxReconnects: 3, backoffMs: 1 }), (error) => {
        assert.ok(error instanceof SeatError, String(error));
        assert.equal(error.message, `UNAVAILABLE: cannot reach the server at ${address}: it does not speak gRPC (it answered in something other than HTTP/2: a web server?)`);
        return true;
      });
    } finally {
      web.close();
    }
  });

  test('connectionTrouble leaves any other words as they are', () => {
    const { UNAVAILABLE, INTERNAL } = grpc.status;
    assert.equal(connectionTrouble('h:1', UNAVAILABLE, 'No connection established. Last error: Failed to connect (2026-12-06T18:31:14.688Z). Resolution note: '), 'cannot reach the server at h:1: the server closed the connection (if it serves TLS, connect with TLS)');
    assert.equal(connectionTrouble('h:1', UNAVAILABLE, 'No connection established. Last error: Error: getaddrinfo ENOTFOUND h. Resolution note: '), 'cannot reach the server at h:1: the host name does not resolve');
    // A port that answers in HTTP/1 (a web server, the web viewer): Node's http2 says only "Protocol error".
    assert.equal(connectionTrouble('h:1', UNAVAILABLE, 'No connection established. Last error: Error: Protocol error. Resolution note: '), 'cannot reach the server at h:1: it does not speak gRPC (it answered in something other than HTTP/2: a web server?)');
    assert.equal(connectionTrouble('h:1', UNAVAILABLE, 'read ECONNRESET'), 'the game server at h:1 went away');
    assert.equal(connectionTrouble(undefined, UNAVAILABLE, 'Connection dropped'), 'the game server went away');
    assert.equal(connectionTrouble('h:1', UNAVAILABLE, 'the server is shutting down'), null, "a server's own words");
    assert.equal(connectionTrouble('h:1', INTERNAL, 'Connection dropped'), null);
  });
});
