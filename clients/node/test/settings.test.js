// The bot's parts that need no server: settings, addresses, the seeded generator, message views, main's usage, action indexes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { actionIndex, checkAddress, createRng, decisionView, DEFAULT_MAX_MESSAGE_BYTES, grpc, main, parseConfig, playSeat, randomBot, resultToJson, statusName, UsageError } from '../src/index.js';
import { loadSheepfold } from '../src/proto.js';

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
      // grpc-js passed these on to its socket (a RangeError) or to its DNS resolver ("Failed to parse DNS address").
      ['ipv4:1.2.3.4:99999', /^--server "ipv4:1.2.3.4:99999": 99999 is not a port: use 1 to 65535$/],
      ['ipv6:[::1]:0', /: 0 is not a port: use 1 to 65535$/],
      ['dns:///localhost:70000', /: 70000 is not a port/],
      ['dns://8.8.8.8/localhost:000099999', /: 99999 is not a port/],
      ['unix-abstract:x', /^--server "unix-abstract:x": grpc-js, which this client connects with, has no unix-abstract: addresses; use unix:PATH or HOST:PORT$/],
      ['ipv4:my-host:50051', /"my-host" is not an IPv4 address \(e\.g\. ipv4:127\.0\.0\.1:50051\)$/],
      ['ipv6:127.0.0.1:50051', /"127.0.0.1" is not an IPv6 address/],
      ['dns:localhost:5o', /"localhost:5o" is not HOST:PORT \(e\.g\. dns:localhost:50051\)$/],
      ['ipv4:1.2.3.4:', /is not HOST:PORT/],
      ['ipv4:1.2.3.4:50051,5.6.7.8:99999', /names several servers; this command plays on one HOST:PORT$/],
      ['127.0.0.1:1,127.0.0.1:2', /names several servers/],
    ]) {
      assert.throws(() => config(server), (error) => error instanceof UsageError && /^--server /.test(error.message) && why.test(error.message), server);
    }
    assert.throws(() => parseConfig([], { SHEEPFOLD_SERVER: 'x y:1', SHEEPFOLD_MATCH: 'm', SHEEPFOLD_TOKEN: 't' }), UsageError);
  });

  test('well-formed addresses pass as they are', () => {
    for (const server of ['127.0.0.1:50051', 'localhost:1', 'my-host.example.org:65535', '[::1]:50051', 'unix:/tmp/a b.sock', 'unix:///run/x.sock', 'dns:///localhost:50051', 'ipv4:127.0.0.1:1', 'ipv4:127.0.0.1', 'ipv6:[::1]:65535', 'ipv6:::1', 'dns://127.0.0.1:53/localhost:50051', 'unix:/tmp/a,b.sock']) {
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

  test('a gRPC target grpc-js cannot dial is a one-line usage error, exit status 2', async () => {
    for (const [server, why] of [
      ['ipv4:1.2.3.4:99999', '"ipv4:1.2.3.4:99999": 99999 is not a port: use 1 to 65535'],
      ['unix-abstract:x', '"unix-abstract:x": grpc-js, which this client connects with, has no unix-abstract: addresses; use unix:PATH or HOST:PORT'],
    ]) {
      const stdout = { text: '', write(chunk) { this.text += chunk; } };
      const stderr = { text: '', write(chunk) { this.text += chunk; } };
      assert.equal(await main(['--server', server, '--match', 'm', '--token', 't', '--max-reconnects', '0'], {}, { stdout, stderr }), 2, stderr.text);
      assert.equal(stderr.text, `sheepfold-node-bot: --server ${why}\nRun 'sheepfold-node-bot --help' to see its options.\n`);
      assert.equal(stdout.text, '');
    }
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

  test('a usage error exits 2 with its reason and where the help is on stderr, and nothing on stdout', async () => {
    const stdout = sink();
    const stderr = sink();
    assert.equal(await main(['--seat', 'x'], {}, { stdout, stderr }), 2);
    assert.equal(stdout.text, '');
    assert.equal(stderr.text, "sheepfold-node-bot: missing --match (or SHEEPFOLD_MATCH) and --token (or SHEEPFOLD_TOKEN)\nRun 'sheepfold-node-bot --help' to see its options.\n");
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
      const [said, help, ...rest] = stderr.text.split('\n');
      assert.deepEqual([help, ...rest], ["Run 'sheepfold-node-bot --help' to see its options.", '']);
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
    for (const [choice, shown] of [[1.5, '1.5'], ['2', '"2"'], [undefined, 'undefined'], [null, 'null'], [NaN, 'NaN'], [{}, '[object Object]']]) {
      assert.throws(() => actionIndex(choice), new RegExp(`^TypeError: decide returned ${shown.replace(/[[\]]/g, '\\$&')}, not an action index \\(a whole number\\)$`));
    }
  });

  test('a whole number past int32 throws, saying the wire cannot carry it rather than that it is not whole', () => {
    for (const [choice, shown] of [[2 ** 31, '2147483648'], [-(2 ** 31) - 1, '-2147483649'], [2n ** 40n, '1099511627776']]) {
      assert.throws(() => actionIndex(choice), (error) => {
        assert.equal(error.message, `decide returned ${shown}, not an action index (past the wire's int32: -2147483648 to 2147483647)`);
        return error instanceof TypeError;
      });
    }
  });
});
