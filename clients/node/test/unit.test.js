// The parts of the bot that need no Sheepfold server: settings, the seeded generator, message views, and fakes of it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import { actionIndex, arenaClient, checkAddress, createRng, decisionView, DEFAULT_MAX_MESSAGE_BYTES, grpc, main, parseConfig, playSeat, randomBot, resultToJson, SeatError, seatTaken, statusName, UsageError, connectionTrouble } from '../src/index.js';
import { loadSheepfold } from '../src/proto.js';
import { startProxy } from '../testkit/proxy.js';

describe('parseConfig', () => {
  const env = {
    SHEEPFOLD_SERVER: 'env-host:1',
    SHEEPFOLD_MATCH: 'env-match',
    SHEEPFOLD_TOKEN: 'env-token',
    SHEEPFOLD_SEAT: '2',
    SHEEPFOLD_SEED: '9',
  };

  test('the environment alone is enough, as the tournament runner starts command bots', () => {
    const config = parseConfig([], env);
    assert.equal(config.address, 'env-host:1');
    assert.equal(config.matchId, 'env-match');
    assert.equal(config.token, 'env-token');
    assert.equal(config.seat, 2);
    assert.equal(config.seed, 9n);
  });

  test('flags win over the environment', () => {
    const config = parseConfig(['--server', 'h:2', '--match', 'm', '--token', 't', '--seat', '0', '--seed', '18446744073709551615'], env);
    assert.deepEqual([config.address, config.matchId, config.token, config.seat, config.seed], ['h:2', 'm', 't', 0, 18446744073709551615n]);
  });

  test('defaults: local server, the token decides the seat, seed 0', () => {
    const config = parseConfig(['--match', 'm', '--token', 't'], {});
    assert.deepEqual([config.address, config.seat, config.seed, config.maxReconnects, config.rejoinSeconds, config.logLevel], ['127.0.0.1:50051', null, 0n, null, 90, 'info']);
  });

  test('--rejoin-seconds takes decimal seconds up to a day; --max-reconnects stays optional', () => {
    const config = (...flags) => parseConfig(['--match', 'm', '--token', 't', ...flags], {});
    assert.equal(config('--rejoin-seconds', '300').rejoinSeconds, 300);
    assert.equal(config('--rejoin-seconds', '0.5').rejoinSeconds, 0.5);
    assert.equal(config('--rejoin-seconds', '0').rejoinSeconds, 0);
    assert.equal(config('--rejoin-seconds', '86400').rejoinSeconds, 86_400);
    assert.equal(config('--max-reconnects', '5').maxReconnects, 5);
    for (const bad of ['-1', 'ninety', '', '1e3', '0x10', 'NaN', 'Infinity']) {
      assert.throws(() => config(`--rejoin-seconds=${bad}`), (error) => error instanceof UsageError && /^--rejoin-seconds must be a number of seconds/.test(error.message), bad);
    }
    assert.throws(() => config('--rejoin-seconds', '86401'), /--rejoin-seconds must be at most 86400, got "86401"/);
  });

  test('--max-message-bytes takes 1 MiB to 2**31 - 1, 4 MiB by default as a server sends', () => {
    const config = (...flags) => parseConfig(['--match', 'm', '--token', 't', ...flags], {});
    assert.equal(config().maxMessageBytes, 4 * 1024 * 1024);
    assert.equal(DEFAULT_MAX_MESSAGE_BYTES, 4 * 1024 * 1024);
    assert.equal(config('--max-message-bytes', '16777216').maxMessageBytes, 16 * 1024 * 1024);
    assert.equal(config('--max-message-bytes', '1048576').maxMessageBytes, 1024 * 1024);
    for (const bad of ['1048575', '65536', '0', '-1', 'lots', '', '1e7']) {
      assert.throws(
        () => config(`--max-message-bytes=${bad}`),
        (error) => error instanceof UsageError && /^--max-message-bytes must be a whole number, at least 1048576 \(1 MiB: a decision is one message\)/.test(error.message),
        bad,
      );
    }
    assert.throws(() => config('--max-message-bytes', '2147483648'), /--max-message-bytes must be at most 2147483647/);
  });

  test('a malformed value from the environment names its variable, which no flag on the command line showed', () => {
    assert.throws(() => parseConfig([], { ...env, SHEEPFOLD_SEED: 'abc' }), /^Error: \$SHEEPFOLD_SEED \(--seed\) must be an integer, got "abc"$/);
    assert.throws(() => parseConfig([], { ...env, SHEEPFOLD_SEAT: '-1' }), /^Error: \$SHEEPFOLD_SEAT \(--seat\) must be at least 0/);
    assert.throws(() => parseConfig([], { ...env, SHEEPFOLD_SERVER: 'no port' }), /^Error: \$SHEEPFOLD_SERVER \(--server\) "no port"/);
    // A flag is named as the flag.
    assert.throws(() => parseConfig(['--seed', 'abc'], env), /^Error: --seed must be an integer/);
  });

  test('an empty environment variable counts as unset', () => {
    assert.throws(() => parseConfig([], { ...env, SHEEPFOLD_TOKEN: '' }), /missing --token \(or SHEEPFOLD_TOKEN\)/);
  });

  test('missing or malformed settings are usage errors', () => {
    assert.throws(() => parseConfig([], {}), (error) => error instanceof UsageError && /--match .* and --token/.test(error.message));
    assert.throws(() => parseConfig(['--match', 'm', '--token', 't', '--seat', 'one'], {}), /--seat must be an integer/);
    assert.throws(() => parseConfig(['--match', 'm', '--token', 't', '--seat=-1'], {}), /--seat must be at least 0/);
    // An int32 on the wire: 4294967296 would wrap round to seat 0 and join a seat nobody named.
    assert.throws(() => parseConfig(['--match', 'm', '--token', 't', '--seat', '4294967296'], {}), /--seat must be at most 2147483647/);
    assert.throws(() => parseConfig([], { ...env, SHEEPFOLD_SEAT: '2147483648' }), /\$SHEEPFOLD_SEAT \(--seat\) must be at most/);
    assert.equal(parseConfig(['--match', 'm', '--token', 't', '--seat', '2147483647'], {}).seat, 2 ** 31 - 1);
    assert.throws(() => parseConfig(['--match', 'm', '--token', 't', '--log-level', 'loud'], {}), /--log-level/);
    assert.throws(() => parseConfig(['--colour', 'red'], {}), UsageError);
    // grpc-js would throw "Could not parse target name" with a stack trace.
    assert.throws(() => parseConfig(['--server', '', '--match', 'm', '--token', 't'], {}), /--server must be HOST:PORT, got ""/);
  });
});

describe('server addresses', () => {
  const config = (server) => parseConfig(['--server', server, '--match', 'm', '--token', 't'], {});

  test('a malformed address is a usage error, not a server to retry', () => {
    for (const [server, why] of [
      ['not an address:xx', /"not an address" is not a host name or address/],
      ['bad host:50051', /is not a host name or address/],
      ['127.0.0.1:99999', /99999 is not a port: use 1 to 65535/],
      ['127.0.0.1:0', /0 is not a port/],
      ['127.0.0.1', /is not HOST:PORT/],
      ['127.0.0.1:', /is not HOST:PORT/],
      [':50051', /is not HOST:PORT/],
      ['host:5o051', /"5o051" is not a port number/],
      ['::1:50051', /IPv6 address goes in brackets/],
      ['unix:', /names no address after its scheme/],
      ['dns:///bad host:1', /has a space/],
    ]) {
      assert.throws(() => config(server), (error) => error instanceof UsageError && /^--server /.test(error.message) && why.test(error.message), server);
    }
    assert.throws(() => parseConfig([], { SHEEPFOLD_SERVER: 'x y:1', SHEEPFOLD_MATCH: 'm', SHEEPFOLD_TOKEN: 't' }), UsageError);
  });

  test('well-formed addresses pass as they are', () => {
    for (const server of ['127.0.0.1:50051', 'localhost:1', 'my-host.example.org:65535', '[::1]:50051', 'unix:/tmp/a b.sock', 'unix:///run/x.sock', 'dns:///localhost:50051', 'ipv4:127.0.0.1:1']) {
      assert.equal(config(server).address, server);
      assert.equal(checkAddress(server), server);
    }
  });

  test('the command refuses a malformed address at once: exit status 2, no retries', async () => {
    const stdout = { text: '', write(chunk) { this.text += chunk; } };
    const stderr = { text: '', write(chunk) { this.text += chunk; } };
    const started = Date.now();
    assert.equal(await main(['--server', 'not an address:xx', '--match', 'm', '--token', 't'], {}, { stdout, stderr }), 2);
    assert.ok(Date.now() - started < 1_000, `took ${Date.now() - started} ms`);
    assert.match(stderr.text.split('\n')[0], /^sheepfold-node-bot: --server "not an address:xx": .* is not a host name or address$/);
    assert.doesNotMatch(stderr.text, /rejoining/);
    assert.equal(stdout.text, '');
  });

  test('playSeat refuses a malformed address before connecting', async () => {
    await assert.rejects(playSeat({ address: 'bad host:1', matchId: 'm', token: 't', decide: () => 0 }), TypeError);
  });
});

describe('seeds', () => {
  const base = ['--match', 'm', '--token', 't'];

  test('a seed past 64 bits is a usage error, not another seed in disguise', () => {
    // 2**64 used to play exactly as seed 0, 2**64 + 7 as seed 7.
    assert.throws(() => parseConfig([...base, '--seed', '18446744073709551616'], {}), (error) => error instanceof UsageError && /--seed must be at most 18446744073709551615/.test(error.message));
    assert.throws(() => parseConfig(base, { SHEEPFOLD_SEED: '99999999999999999999999999' }), /\$SHEEPFOLD_SEED \(--seed\) must be at most/);
    assert.throws(() => parseConfig([...base, '--seed=-9223372036854775809'], {}), /--seed must be at least -9223372036854775808/);
    assert.equal(parseConfig([...base, '--seed', '18446744073709551615'], {}).seed, 2n ** 64n - 1n);
    assert.equal(parseConfig([...base, '--seed=-9223372036854775808'], {}).seed, -(2n ** 63n));
  });

  test('createRng refuses a seed it would fold onto another', () => {
    assert.throws(() => createRng(2n ** 64n), RangeError);
    assert.throws(() => createRng('18446744073709551623'), RangeError);
    assert.throws(() => createRng(-(2n ** 63n) - 1n), RangeError);
    assert.throws(() => createRng(1.5), RangeError);
    assert.doesNotThrow(() => createRng(2n ** 64n - 1n));
  });
});

describe('createRng', () => {
  test('the same seed gives the same sequence; another seed another one', () => {
    const draw = (seed) => {
      const rng = createRng(seed);
      return Array.from({ length: 50 }, () => rng.int(1000));
    };
    assert.deepEqual(draw(7), draw(7));
    assert.deepEqual(draw('7'), draw(7n));
    assert.notDeepEqual(draw(7), draw(8));
  });

  test('int(n) stays in [0, n) and reaches every value', () => {
    const rng = createRng(1);
    const counts = new Array(6).fill(0);
    for (let i = 0; i < 6000; i += 1) counts[rng.int(6)] += 1;
    for (const count of counts) assert.ok(count > 800 && count < 1200, `counts ${counts}`);
    assert.throws(() => rng.int(0), RangeError);
  });

  test('randomBot picks an index of the offered actions', () => {
    const decide = randomBot(3);
    const picks = Array.from({ length: 200 }, () => decide({ actions: [{}, {}, {}] }));
    assert.deepEqual([...new Set(picks)].sort(), [0, 1, 2]);
  });
});

describe('messages', () => {
  test('a Decision decoded with the loader options unwraps into the view a bot sees', () => {
    // The same (de)serialisers the Play stream uses, from proto/ through @grpc/proto-loader.
    const play = loadSheepfold().Arena.service.Play;
    const wire = play.responseSerialize({
      decision: {
        decision_id: '18446744073709551615',
        seat: 1,
        prompt: 'choose a set',
        observation: { sheep_n_sheep: {} },
        actions: [
          { label: 'take set 0', action: { sheep_n_sheep: {} } },
          { label: 'take set 1', action: { stubborn_sheep: {} } },
        ],
        clock: { decision_seconds: 10, max_strikes: 3 },
      },
    });
    const message = play.responseDeserialize(wire);
    assert.equal(message.kind, 'decision', 'oneofs: the set member is named');
    const view = decisionView(message.decision, 'sheep-n-sheep');
    assert.equal(view.decisionId, '18446744073709551615', 'uint64 ids stay exact strings');
    assert.equal(view.seat, 1);
    // The game's own message is unwrapped from its oneof (its fields are the game's proto file's business).
    assert.equal(message.decision.observation.game, 'sheep_n_sheep');
    assert.equal(typeof view.observation, 'object');
    assert.notEqual(view.observation, null);
    assert.notEqual(view.observation, message.decision.observation);
    assert.deepEqual(view.actions.map((action) => action.label), ['take set 0', 'take set 1']);
    assert.equal(message.decision.actions[1].action.game, 'stubborn_sheep');
    assert.equal(view.actions[1].action, message.decision.actions[1].action.stubborn_sheep);
    assert.equal(view.clock.max_strikes, 3);
  });

  test('an Answer encodes the decision id and index the server reads', () => {
    const play = loadSheepfold().Arena.service.Play;
    const decoded = play.requestDeserialize(
      play.requestSerialize({ answer: { decision_id: '18446744073709551615', action_index: 4 } }),
    );
    assert.equal(decoded.kind, 'answer');
    assert.deepEqual({ ...decoded.answer }, { decision_id: '18446744073709551615', action_index: 4 });
    const join = play.requestDeserialize(play.requestSerialize({ join: { match_id: 'm', token: 't', seat: 0 } }));
    assert.equal(join.join.seat, 0, 'an explicit seat 0 is sent (proto3 optional)');
    const noSeat = play.requestDeserialize(play.requestSerialize({ join: { match_id: 'm', token: 't' } }));
    assert.equal(noSeat.join.seat, undefined, 'no seat: the token decides');
  });

  test('resultToJson parses details_json and keeps the result fields', () => {
    const json = resultToJson({
      result: { scores: [3, 10], ranks: [2, 1], winners: [1], details_json: '{"a":1}', seats: [], end_reason: 'game over' },
      seat: 0,
      game: 'g',
      matchId: 'm',
      reconnects: 1,
    });
    assert.deepEqual(json, { match_id: 'm', game: 'g', seat: 0, scores: [3, 10], ranks: [2, 1], winners: [1], end_reason: 'game over', seats: [], details: { a: 1 }, reconnects: 1 });
  });

  test('statusName names the codes PlayError carries', () => {
    assert.equal(statusName(3), 'INVALID_ARGUMENT');
    assert.equal(statusName(9), 'FAILED_PRECONDITION');
    assert.equal(statusName(99), 'CODE_99');
  });
});

describe('main', () => {
  const sink = () => {
    let text = '';
    return { write: (chunk) => (text += chunk), get text() { return text; } };
  };

  test('a usage error exits 2 with the usage on stderr and nothing on stdout', async () => {
    const stdout = sink();
    const stderr = sink();
    assert.equal(await main(['--seat', 'x'], {}, { stdout, stderr }), 2);
    assert.equal(stdout.text, '');
    assert.match(stderr.text, /missing --match/);
    assert.match(stderr.text, /^usage: sheepfold-node-bot/m);
  });

  test('a --max-reconnects too large for a number is a usage error, exit 2, not an unexpected failure', async () => {
    // 400 digits make Infinity as a Number, which playSeat refused with a stack trace.
    const stderr = sink();
    assert.equal(await main(['--match', 'm', '--token', 't', '--max-reconnects', '9'.repeat(400)], {}, { stdout: sink(), stderr }), 2);
    assert.match(stderr.text, /^sheepfold-node-bot: --max-reconnects must be at most 9007199254740991, got "9{20}/);
    assert.doesNotMatch(stderr.text, /RangeError|at playSeat/);
    assert.equal(parseConfig(['--match', 'm', '--token', 't', '--max-reconnects', String(Number.MAX_SAFE_INTEGER)], {}).maxReconnects, Number.MAX_SAFE_INTEGER);
  });

  test('a usage error quotes a long or many-line value on one short line', async () => {
    const long = '9'.repeat(100_000);
    for (const flags of [['--seat', long], ['--seed', long], ['--rejoin-seconds', long], ['--max-message-bytes', `${long}x`], ['--log-level', `lo\nud${long}`], ['--seat', `1\n2${long}`]]) {
      const stderr = sink();
      assert.equal(await main(['--match', 'm', '--token', 't', ...flags], {}, { stdout: sink(), stderr }), 2);
      const said = stderr.text.split('\n\nusage:')[0];
      assert.match(said, /^sheepfold-node-bot: [^\n]+$/, `${flags[0]}: one line`);
      assert.ok(said.length < 200, `${flags[0]}: ${said.length} characters`);
    }
  });

  test('--help prints the usage and exits 0', async () => {
    const stdout = sink();
    assert.equal(await main(['--help'], {}, { stdout, stderr: sink() }), 0);
    assert.match(stdout.text, /SHEEPFOLD_SERVER, SHEEPFOLD_MATCH, SHEEPFOLD_TOKEN/);
  });
});

describe('actionIndex', () => {
  test('whole numbers within int32 pass, negative ones too (the server refuses and asks again)', () => {
    assert.equal(actionIndex(3), 3);
    assert.equal(actionIndex(0), 0);
    assert.equal(actionIndex(-1), -1);
    assert.equal(actionIndex(7n), 7);
    assert.equal(actionIndex(2 ** 31 - 1), 2 ** 31 - 1);
  });

  test('anything else throws, rather than being sent as a move the bot never chose', () => {
    for (const [choice, shown] of [[1.5, '1.5'], ['2', '"2"'], [undefined, 'undefined'], [null, 'null'], [NaN, 'NaN'], [2 ** 31, '2147483648'], [{}, '[object Object]']]) {
      assert.throws(() => actionIndex(choice), new RegExp(`^TypeError: decide returned ${shown.replace(/[[\]]/g, '\\$&')}, not an action index \\(a whole number\\)$`));
    }
  });
});

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

/** A Play call the test drives by hand: `feed` emits messages, `fail` ends it with a status. */
class FakeCall {
  constructor() {
    this.handlers = { data: [], status: [], error: [] };
    this.written = [];
    this.writableEnded = false;
    this.destroyed = false;
  }
  on(name, handler) {
    (this.handlers[name] ??= []).push(handler);
    return this;
  }
  emit(name, value) {
    for (const handler of this.handlers[name] ?? []) handler(value);
  }
  write(message) {
    this.written.push(message);
  }
  end() {
    this.writableEnded = true;
  }
  cancel() {
    this.destroyed = true;
  }
  feed(kind, body) {
    this.emit('data', { kind, [kind]: body });
  }
  fail(code, details) {
    this.emit('error', Object.assign(new Error(details), { code, details }));
    this.emit('status', { code, details });
  }
}

const decision = (id) => ({ decision_id: String(id), seat: 0, prompt: '', actions: [{ label: 'a' }], events: [] });

// A bot that records the decisions it is asked, and thinks on decision '1'
// until `release()` is called.
function thinkingOnFirst() {
  const decided = [];
  let release;
  const thinking = new Promise((resolve) => (release = resolve));
  const decide = async (view) => {
    decided.push(view.decisionId);
    if (view.decisionId === '1') await thinking;
    return 0;
  };
  return { decided, decide, release: () => release() };
}

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
