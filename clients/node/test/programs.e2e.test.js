// The Node bot's programs against a real server: create-match.js, sheepfold-node-bot as a
// process and as a tournament's command bot, and the bots of the writing-a-bot guide.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { playSeat, unary } from '../src/index.js';
import { BOT, client, createMatch, HANG, MATCHES, runBot, server, useServer } from '../testkit/arena.js';
import { PYTHON, REPO_ROOT } from '../testkit/server.js';
import { startProxy } from '../testkit/proxy.js';

const CREATE_MATCH = fileURLToPath(new URL('../bin/create-match.js', import.meta.url));
const MINIMAL_BOT = fileURLToPath(new URL('../examples/minimal-bot.js', import.meta.url));
const NODE_FOLDER = fileURLToPath(new URL('..', import.meta.url));
const GUIDE = path.join(fileURLToPath(new URL('../../../docs', import.meta.url)), 'writing-a-bot.md');

useServer();

describe('the Node bot programs against a real server', () => {
  test('create-match.js sets up a match by hand that two bot processes then play', HANG, async () => {
    const made = await runBot(
      ['--server', server.address, '--game', 'sheep-showdown', '--players', '2', '--option', 'rounds=1', '--option', 'double_trouble=true', '--seed', '99'],
      {},
      CREATE_MATCH,
    );
    assert.equal(made.code, 0, made.stderr);
    const created = JSON.parse(made.stdout);
    assert.equal(created.seed, '99');
    assert.equal(created.seat_tokens.length, 2);
    const info = await unary(client, 'GetMatch', { match_id: created.match_id });
    assert.deepEqual({ ...info.options }, { rounds: '1', double_trouble: 'true' });
    const runs = await Promise.all(
      created.seat_tokens.map((token) => runBot(['--match', created.match_id, '--token', token], { SHEEPFOLD_SERVER: server.address })),
    );
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const refused = await runBot(['--server', server.address, '--game', 'no-such-game'], {}, CREATE_MATCH);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /INVALID_ARGUMENT: unknown game/);
  });

  test('create-match.js refuses numbers it would send as others, and a malformed address, before connecting (exit 2)', HANG, async () => {
    // proto-loader sent "abc" as seed 0 and 2^64 + x as x, and Number() players "abc" as 0 and 2.5 as 2.
    const refusals = [
      [['--seed', 'abc'], /^sheepfold-create-match: --seed must be an integer, got "abc"$/m],
      [['--seed', '18446744073709551616'], /^sheepfold-create-match: --seed must be at most 18446744073709551615, got "18446744073709551616"$/m],
      [['--players', 'abc'], /^sheepfold-create-match: --players must be an integer, got "abc"$/m],
      [['--players', '2.5'], /^sheepfold-create-match: --players must be an integer/m],
      [['--players', '99999999999'], /^sheepfold-create-match: --players must be at most 2147483647/m],
      [['--decision-seconds', 'xyz'], /^sheepfold-create-match: --decision-seconds must be a number of seconds, got "xyz"$/m],
      [['--server', 'not an address:xx'], /^sheepfold-create-match: --server "not an address:xx"/m],
    ];
    for (const [flags, said] of refusals) {
      const run = await runBot(['--server', server.address, '--game', 'sheep-n-sheep', ...flags], {}, CREATE_MATCH);
      assert.equal(run.code, 2, `${flags.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, said);
      assert.equal(run.stdout, '');
    }
    const made = await runBot(['--server', server.address, '--game', 'sheep-n-sheep', '--seed', '18446744073709551615'], {}, CREATE_MATCH);
    assert.equal(made.code, 0, made.stderr);
    assert.equal(JSON.parse(made.stdout).seed, '18446744073709551615');
    // A server that is not there, in our words (as `sheepfold create`), not grpc-js's.
    const proxy = await startProxy(1);
    await proxy.close();
    const away = await runBot(['--server', proxy.address, '--game', 'sheep-n-sheep'], {}, CREATE_MATCH);
    assert.equal(away.code, 1);
    assert.equal(away.stderr, `sheepfold-create-match: UNAVAILABLE: cannot reach the server at ${proxy.address}: connection refused\n`);
  });

  test('create-match.js refuses an option given twice (exit 2) and sends every option name as written', HANG, async () => {
    // The later value once won without a word (`sheepfold create` refuses it, exit 2).
    const twice = await runBot(['--server', server.address, '--game', 'sheep-showdown', '--option', 'rounds=1', '--option', 'rounds=3'], {}, CREATE_MATCH);
    assert.equal(twice.code, 2, twice.stderr);
    assert.equal(twice.stderr, "sheepfold-create-match: --option: rounds given twice ('1', then '3'): give it once\nRun 'sheepfold-create-match --help' to see its options.\n");
    assert.equal(twice.stdout, '');
    const same = await runBot(['--server', server.address, '--game', 'sheep-showdown', '--option', 'rounds=1', '--option', 'rounds=1'], {}, CREATE_MATCH);
    assert.equal(same.code, 0, same.stderr);
    // `__proto__` was set as the options object's prototype, not sent: the match was
    // made with the defaults instead of refused as an unknown option.
    for (const name of ['__proto__', 'constructor', 'toString']) {
      const run = await runBot(['--server', server.address, '--game', 'sheep-showdown', '--option', `${name}=1`], {}, CREATE_MATCH);
      assert.equal(run.code, 1, `${name}: ${run.stdout}`);
      assert.match(run.stderr, new RegExp(`INVALID_ARGUMENT: unknown option '${name}'`));
      assert.equal(run.stdout, '');
    }
  });

  test('`sheepfold create` sets up a match that two Node bot processes then play', HANG, async () => {
    const made = await runBot(
      ['-m', 'cli', 'create', '--server', server.address, '--game', 'sheep-n-sheep', '--players', '2', '--seed', '31', '--json'],
      {},
      null,
      PYTHON,
    );
    assert.equal(made.code, 0, made.stderr);
    const created = JSON.parse(made.stdout);
    assert.equal(created.seed, 31);
    assert.equal(created.seat_tokens.length, 2);
    const runs = await Promise.all(
      created.seat_tokens.map((token, seat) =>
        runBot(['--match', created.match_id, '--token', token, '--seed', String(seat)], { SHEEPFOLD_SERVER: server.address }),
      ),
    );
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const [first, second] = runs.map((run) => JSON.parse(run.stdout));
    assert.deepEqual(first.scores, second.scores);
    const info = await unary(client, 'GetMatch', { match_id: created.match_id });
    assert.equal(info.status, 'MATCH_STATUS_FINISHED');
  });

  test("the guide's two Node bots, copied as they are into a folder set up as it says, play a match of every game", HANG, async () => {
    // A bot author starts from these: the snippets once left matchId and token undefined, and the
    // folder's set-up (type module, the libraries, a copy of proto/) was nowhere.
    const guide = readFileSync(GUIDE, 'utf8');
    const block = (after) => {
      const from = guide.indexOf(after);
      assert.ok(from >= 0, `the guide no longer says ${JSON.stringify(after)}`);
      return guide.slice(guide.indexOf('```js\n', from) + 6, guide.indexOf('\n```', guide.indexOf('```js\n', from)));
    };
    const folder = mkdtempSync(path.join(tmpdir(), 'sheepfold-guide-bot-'));
    try {
      writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ type: 'module' })); // npm pkg set type=module
      symlinkSync(path.join(NODE_FOLDER, 'node_modules'), path.join(folder, 'node_modules')); // npm install
      symlinkSync(path.join(REPO_ROOT, 'proto'), path.join(folder, 'proto')); // cp -r proto .
      writeFileSync(path.join(folder, 'bot.js'), block('A whole bot, random legal actions'));
      // The playSeat one, imported from a folder of its own as the guide says.
      const sdk = block('pass a `decide` function to `playSeat`');
      assert.match(sdk, /from '\.\/src\/index\.js'/);
      writeFileSync(path.join(folder, 'sdk-bot.js'), sdk.replace("'./src/index.js'", JSON.stringify(path.join(NODE_FOLDER, 'src', 'index.js'))));
      for (const [game, options] of Object.entries(MATCHES)) {
        const created = await createMatch(game, 2, 41, options);
        const runs = await Promise.all(
          ['bot.js', 'sdk-bot.js'].map((script, seat) =>
            runBot([], { SHEEPFOLD_SERVER: server.address, SHEEPFOLD_MATCH: created.match_id, SHEEPFOLD_TOKEN: created.seat_tokens[seat] }, path.join(folder, script)),
          ),
        );
        const match = await unary(client, 'GetMatch', { match_id: created.match_id });
        for (const run of runs) assert.equal(run.code, 0, `${game}: ${run.stderr}`);
        for (const run of runs) assert.deepEqual(JSON.parse(run.stdout), match.result.scores, game);
        assert.equal(runs[0].stderr, '', `${game}: no answer of the guide's bot was refused`);
        assert.deepEqual(match.seats.map((seat) => seat.strikes), [0, 0], game);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("this folder's README strategy sample, copied as it is, plays a seat to its result", HANG, async () => {
    // It once used matchId and token without defining them: ReferenceError at its first line.
    const readme = readFileSync(path.join(NODE_FOLDER, 'README.md'), 'utf8');
    const from = readme.indexOf('```js\n', readme.indexOf('## Your own strategy'));
    assert.ok(from >= 0, 'the README has no strategy sample');
    const sample = readme.slice(from + 6, readme.indexOf('\n```', from));
    assert.match(sample, /from '\.\/src\/index\.js'/);
    const folder = mkdtempSync(path.join(tmpdir(), 'sheepfold-readme-bot-'));
    try {
      writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
      writeFileSync(path.join(folder, 'bot.js'), sample.replace("'./src/index.js'", JSON.stringify(path.join(NODE_FOLDER, 'src', 'index.js'))));
      const created = await createMatch('sheep-n-sheep', 2, 43);
      const runs = await Promise.all(
        created.seat_tokens.map((token, seat) =>
          runBot([], { SHEEPFOLD_SERVER: server.address, SHEEPFOLD_MATCH: created.match_id, SHEEPFOLD_TOKEN: token }, seat === 0 ? path.join(folder, 'bot.js') : BOT),
        ),
      );
      for (const run of runs) assert.equal(run.code, 0, run.stderr);
      const match = await unary(client, 'GetMatch', { match_id: created.match_id });
      assert.equal(match.status, 'MATCH_STATUS_FINISHED');
      assert.deepEqual(JSON.parse(runs[0].stdout), match.result.scores);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('examples/minimal-bot.js, the bare-protocol example of the guide, plays a match to its result', HANG, async () => {
    const created = await createMatch('stubborn-sheep', 2, 21);
    const runs = await Promise.all(
      created.seat_tokens.map((token, seat) =>
        runBot([], { SHEEPFOLD_SERVER: server.address, SHEEPFOLD_MATCH: created.match_id, SHEEPFOLD_TOKEN: token }, seat === 0 ? MINIMAL_BOT : BOT),
      ),
    );
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const minimal = JSON.parse(runs[0].stdout);
    const full = JSON.parse(runs[1].stdout);
    assert.deepEqual(minimal, { scores: full.scores, ranks: full.ranks });
    assert.match(runs[0].stderr, /^joined stubborn-sheep as seat 0$/m);
  });

  test('entered in a tournament as a command bot, it plays every game it is given inside the sandbox', HANG, async () => {
    // The docs/writing-a-bot.md recipe: the runner passes SHEEPFOLD_* in the environment. Command
    // bots are sandboxed by default (bubblewrap: this test fails without it, saying what to
    // install): the bot sees its own folder and proto/ read-only, and reaches the runner's
    // in-process server only through the Unix socket at SHEEPFOLD_SERVER=unix:/sheepfold/arena.sock.
    const folder = mkdtempSync(path.join(tmpdir(), 'sheepfold-node-'));
    try {
      const config = path.join(folder, 'node.toml');
      writeFileSync(
        config,
        [
          'name = "node-check"',
          'game = "sheep-showdown"',
          'players = 2',
          'games_per_pairing = 1',
          'concurrency = 2',
          'database = "node.sqlite"',
          '[options]',
          'rounds = 1',
          '[[bots]]',
          'name = "random"',
          'builtin = "random"',
          '[[bots]]',
          'name = "node"',
          `command = ${JSON.stringify(['node', 'bin/sheepfold-node-bot.js', '--log-level', 'warning'])}`,
          `cwd = ${JSON.stringify(NODE_FOLDER)}`,
          `sandbox = { read_only = [${JSON.stringify(path.join(REPO_ROOT, 'proto'))}] }`,
          '',
        ].join('\n'),
      );
      const run = await runBot(['-m', 'cli', 'tournament', 'run', config, '--no-report'], {}, null, PYTHON);
      assert.equal(run.code, 0, run.stderr);
      const report = await runBot(['-m', 'cli', 'tournament', 'report', '--db', path.join(folder, 'node.sqlite'), '--format', 'json'], {}, null, PYTHON);
      assert.equal(report.code, 0, report.stderr);
      const data = JSON.parse(report.stdout);
      const node = data.standings.find((row) => row.bot === 'node');
      assert.ok(node.games >= 2, `games: ${node.games}`);
      assert.deepEqual([node.crashes, node.timeouts, node.disqualifications], [0, 0, 0]);
      assert.deepEqual(data.unsandboxed, [], 'the node bot ran sandboxed');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('a wrong token is refused at once: exit status 1 with the reason, nothing on stdout', HANG, async () => {
    const created = await createMatch('sheep-n-sheep', 2, 5);
    const run = await runBot(['--server', server.address, '--match', created.match_id, '--token', 'not-a-token']);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /UNAUTHENTICATED: invalid seat token/);
    // The match is left waiting for its real seats; the server cancels nothing on a bad join.
    const match = await unary(client, 'GetMatch', { match_id: created.match_id });
    assert.equal(match.status, 'MATCH_STATUS_WAITING');
  });

  test('started after its match has finished: one line says so, the result on stdout, exit status 0', HANG, async () => {
    const created = await createMatch('sheep-n-sheep', 2, 12);
    const args = (seat) => ['--server', server.address, '--match', created.match_id, '--token', created.seat_tokens[seat], '--log-level', 'warning'];
    const played = await Promise.all([runBot(args(0)), runBot(args(1))]);
    for (const run of played) assert.equal(run.code, 0, run.stderr);
    // As `sheepfold bot` does for the same case: the match's result, not "seat lost".
    const late = await runBot(args(0));
    assert.equal(late.code, 0, late.stderr);
    const lines = late.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line on stderr, got:\n${late.stderr}`);
    assert.match(JSON.parse(lines[0]).event, /already over/);
    // Never joined, it does not know which seat its token is: seat null (the one asked for with --seat).
    assert.deepEqual(JSON.parse(late.stdout), { ...JSON.parse(played[0].stdout), seat: null });
    const withSeat = await runBot([...args(1), '--seat', '1']);
    assert.equal(withSeat.code, 0, withSeat.stderr);
    assert.deepEqual(JSON.parse(withSeat.stdout), JSON.parse(played[1].stdout));
  });

  test('the server unreachable: the bot retries with backoff, then gives up with exit status 1', HANG, async () => {
    const proxy = await startProxy(1); // relays to a closed port: every connection fails at once
    await proxy.close();
    const started = Date.now();
    const run = await runBot(['--server', proxy.address, '--match', 'm', '--token', 't', '--max-reconnects', '3']);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /gave up after 3 attempts to join again\n/);
    assert.equal((run.stderr.match(/connection lost, rejoining/g) ?? []).length, 3);
    // Backoff 100, 200, 400 ms (each +-25%): at least about half a second in all.
    assert.ok(Date.now() - started >= 500, `took ${Date.now() - started} ms`);
  });

  test('the server away past --rejoin-seconds: the bot gives up then, saying which setting waits longer', HANG, async () => {
    const proxy = await startProxy(1);
    await proxy.close();
    const started = Date.now();
    const run = await runBot(['--server', proxy.address, '--match', 'm', '--token', 't', '--rejoin-seconds', '1.5']);
    const took = Date.now() - started;
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /gave up after \d+ attempts to join again over 1\.5 s \(rejoinSeconds, `sheepfold-node-bot --rejoin-seconds`\): raise it to wait longer for a server that restarts\n/);
    // Given up once 1.5 s have passed since the first failed join, not after a count of attempts.
    assert.ok(took >= 1_500 && took < 15_000, `took ${took} ms`);
  });
});
