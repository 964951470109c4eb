// playSeat driven by hand-made calls and small servers: refusals before connecting, large messages, unwritable output, drops and ends while decide thinks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { grpc, main, playSeat, SeatError } from '../src/index.js';
import { loadSheepfold } from '../src/proto.js';
import { FakeCall, decision, thinkingOnFirst } from '../testkit/fake-call.js';

describe('playSeat', () => {
  test('a seat the wire cannot carry is refused before connecting, not wrapped round to another seat', async () => {
    const options = { address: '127.0.0.1:1', matchId: 'm', token: 't', decide: () => 0, maxReconnects: 0 };
    for (const seat of [2 ** 32, 2 ** 31, 1.5, '1']) {
      await assert.rejects(playSeat({ ...options, seat }), (error) => error instanceof RangeError && /out of range/.test(error.message));
    }
  });

  test('a missing match id or token (SHEEPFOLD_MATCH unset) is refused before connecting, not sent as ""', async () => {
    // The README's sample reads them from the environment: unset, the server was asked for match '' ("no match ''").
    const options = { address: '127.0.0.1:1', matchId: 'm', token: 't', decide: () => 0, maxReconnects: 0 };
    for (const [name, value] of [['matchId', undefined], ['matchId', ''], ['token', undefined], ['token', 42]]) {
      await assert.rejects(playSeat({ ...options, [name]: value }), (error) => {
        assert.ok(error instanceof TypeError, `${name} ${value}: ${error}`);
        assert.equal(error.message, `${name} must be a string that is not empty, not ${value === '' ? '""' : value}`);
        return true;
      });
    }
  });

  test('a maxMessageBytes below 1 MiB or past what gRPC takes is refused before connecting', async () => {
    const options = { address: '127.0.0.1:1', matchId: 'm', token: 't', decide: () => 0, maxReconnects: 0 };
    for (const maxMessageBytes of [0, 65_536, 1024 * 1024 - 1, 2 ** 31, 1_048_576.5, '4194304']) {
      await assert.rejects(
        playSeat({ ...options, maxMessageBytes }),
        (error) => error instanceof RangeError && /^maxMessageBytes must be a whole number from 1048576 \(1 MiB/.test(error.message),
        String(maxMessageBytes),
      );
    }
  });
});

// A server allowed larger messages (`sheepfold serve --max-message-bytes 16777216`).
const LARGE_SERVER = 16 * 1024 * 1024;
const LARGE_PROMPT = 'x'.repeat(5 * 1024 * 1024); // past gRPC's default 4 MiB

/** A real gRPC server on a free loopback port that joins the seat, sends one decision past 4 MiB, then the result. */
function startLargeDecisionServer() {
  const server = new grpc.Server({ 'grpc.max_send_message_length': LARGE_SERVER });
  server.addService(loadSheepfold().Arena.service, {
    Play(call) {
      let messages = 0;
      call.on('data', () => {
        messages += 1;
        if (messages === 1) {
          call.write({ joined: { seat: 0, game: 'sheep-showdown', players: 1 } });
          call.write({ decision: { decision_id: '1', seat: 0, prompt: LARGE_PROMPT, actions: [{ label: 'a' }] } });
        } else {
          call.write({ result: { scores: [1], ranks: [1] } });
          call.end();
        }
      });
      call.on('error', () => {});
    },
  });
  return new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => {
      if (error) return reject(error);
      resolve({ address: `127.0.0.1:${port}`, close: () => server.forceShutdown() });
    });
  });
}

describe('playSeat against a server allowed messages past 4 MiB', () => {
  const play = async (extra) => {
    const server = await startLargeDecisionServer();
    const prompts = [];
    try {
      const outcome = await playSeat({
        address: server.address,
        matchId: 'm',
        token: 't',
        decide: (view) => prompts.push(view.prompt.length) && 0,
        maxReconnects: 0,
        ...extra,
      });
      return { outcome, prompts };
    } catch (error) {
      return { error, prompts };
    } finally {
      server.close();
    }
  };

  test('with maxMessageBytes raised, a decision past 4 MiB is played', { timeout: 30_000 }, async () => {
    const { outcome, error, prompts } = await play({ maxMessageBytes: LARGE_SERVER });
    assert.equal(error, undefined, String(error));
    assert.deepEqual(outcome.result.ranks, [1]);
    assert.deepEqual(prompts, [LARGE_PROMPT.length]);
  });

  test('by default the bot takes 4 MiB, as a server sends by default: such a decision loses the seat', { timeout: 30_000 }, async () => {
    const { error, prompts } = await play({});
    assert.ok(error instanceof SeatError, String(error));
    assert.equal(error.code, grpc.status.RESOURCE_EXHAUSTED);
    assert.deepEqual(prompts, []);
  });

  test('sheepfold-node-bot --max-message-bytes raises it', { timeout: 30_000 }, async () => {
    const server = await startLargeDecisionServer();
    try {
      let out = '';
      let err = '';
      const status = await main(['--server', server.address, '--match', 'm', '--token', 't', '--max-message-bytes', String(LARGE_SERVER)], {}, {
        stdout: { write: (text) => (out += text) },
        stderr: { write: (text) => (err += text) },
      });
      assert.equal(status, 0, err);
      assert.deepEqual(JSON.parse(out).ranks, [1]);
    } finally {
      server.close();
    }
  });
});

describe('sheepfold-node-bot whose stdout cannot be written (a full disk: >/dev/full)', () => {
  test('says it could not write the result and exits 1, rather than crashing on an unhandled error event', { timeout: 30_000 }, async () => {
    const server = await startLargeDecisionServer();
    try {
      // As process.stdout to /dev/full: the write fails, and the stream then emits 'error'.
      const full = new Writable({
        write(chunk, encoding, done) {
          done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
        },
      });
      let err = '';
      const status = await main(['--server', server.address, '--match', 'm', '--token', 't', '--max-message-bytes', String(LARGE_SERVER)], {}, {
        stdout: full,
        stderr: { write: (text) => (err += text) },
      });
      await new Promise((resolve) => setImmediate(resolve)); // the stream's 'error' event comes after the write's callback
      assert.equal(status, 1, err);
      assert.match(err, /^sheepfold-node-bot: cannot write the result to stdout: ENOSPC: no space left on device, write$/m);
    } finally {
      server.close();
    }
  });

  test('--help to such a stdout says so and exits 1', async () => {
    const full = new Writable({ write: (chunk, encoding, done) => done(new Error('ENOSPC: no space left on device, write')) });
    let err = '';
    assert.equal(await main(['--help'], {}, { stdout: full, stderr: { write: (text) => (err += text) } }), 1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.match(err, /^sheepfold-node-bot: cannot write the usage to stdout: ENOSPC/);
  });
});

describe('playSeat on a stream that drops while decide is thinking', () => {
  test('what the dropped stream still had queued is not decided nor shown after the rejoin', async () => {
    const calls = [];
    const client = { Play: () => calls.push(new FakeCall()) && calls.at(-1), close() {} };
    const { decided, decide, release } = thinkingOnFirst();
    const events = [];
    const outcome = playSeat({ client, matchId: 'm', token: 't', decide, onEvent: (event) => events.push(event.move), backoffMs: 1 });
    const first = calls[0];
    const tick = () => new Promise((resolve) => setImmediate(resolve)); // messages arrive apart
    first.feed('joined', { seat: 0, game: 'g', players: 2 });
    await tick();
    first.feed('decision', decision(1)); // decide thinks past its deadline...
    await tick();
    first.feed('event', { move: 2 }); // ...the server plays for it and moves on
    first.feed('decision', decision(3));
    first.fail(grpc.status.UNAVAILABLE, 'restarting'); // and then the server goes away
    while (calls.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    const second = calls[1];
    second.feed('joined', { seat: 0, game: 'g', players: 2 });
    await tick();
    second.feed('decision', decision(3));
    second.feed('event', { move: 4 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    release(); // the old decide finishes only now
    await new Promise((resolve) => setTimeout(resolve, 5));
    second.feed('result', { scores: [1, 2] });
    second.emit('status', { code: grpc.status.OK });
    const { result, reconnects } = await outcome;
    assert.deepEqual(result.scores, [1, 2]);
    assert.equal(reconnects, 1);
    // Decision 3 is decided once (on the stream that can answer it), and onEvent sees move 2
    // never, rather than after move 4: events come in order or not at all.
    assert.deepEqual(decided, ['1', '3']);
    assert.deepEqual(events, [4]);
    assert.deepEqual(first.written.filter((m) => m.answer).length, 0);
    assert.deepEqual(second.written.filter((m) => m.answer).map((m) => m.answer.decision_id), ['3']);
  });
});

describe('playSeat after the result', () => {
  test('a stream that never ends after its result is left with that result, not waited on for ever', { timeout: 10_000 }, async () => {
    // A server or proxy that sends the result and never the status: clients/sdk.py leaves after STATUS_SECONDS.
    const call = new FakeCall();
    const client = { Play: () => call, close() {} };
    const outcome = playSeat({ client, matchId: 'm', token: 't', decide: () => 0, statusTimeoutMs: 50 });
    call.feed('joined', { seat: 0, game: 'g', players: 2 });
    call.feed('result', { scores: [1, 2] });
    const { result } = await outcome;
    assert.deepEqual(result.scores, [1, 2]);
    assert.ok(call.writableEnded, 'half-closed after the result');
    assert.ok(call.destroyed, 'then cancelled, the status having never come');
  });

  test('a stream whose status follows its result is not cancelled', async () => {
    const call = new FakeCall();
    const client = { Play: () => call, close() {} };
    const outcome = playSeat({ client, matchId: 'm', token: 't', decide: () => 0, statusTimeoutMs: 50 });
    call.feed('joined', { seat: 0, game: 'g', players: 2 });
    call.feed('result', { scores: [3, 4] });
    await new Promise((resolve) => setImmediate(resolve));
    call.emit('status', { code: grpc.status.OK });
    assert.deepEqual((await outcome).result.scores, [3, 4]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(!call.destroyed);
  });
});

describe('playSeat when the match ends while decide is thinking', () => {
  test('decisions still queued behind it are not decided once the result has come; their events are still shown', async () => {
    // A slow bot: the server plays for it at its deadline and sends the next decision, then the match ends.
    const call = new FakeCall();
    const client = { Play: () => call, close() {} };
    const { decided, decide, release } = thinkingOnFirst();
    const events = [];
    const outcome = playSeat({ client, matchId: 'm', token: 't', decide, onEvent: (event) => events.push(event.move) });
    call.feed('joined', { seat: 0, game: 'g', players: 2 });
    call.feed('decision', decision(1));
    await new Promise((resolve) => setImmediate(resolve));
    call.feed('decision', { ...decision(2), events: [{ move: 1 }] });
    call.feed('result', { scores: [1, 2] });
    call.emit('status', { code: grpc.status.OK });
    assert.deepEqual((await outcome).result.scores, [1, 2]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(decided, ['1'], 'decision 2 came before the result, which ended the match');
    assert.deepEqual(events, [1]);
    assert.deepEqual(call.written.filter((m) => m.answer), [], 'nothing answered after the end');
  });
});
