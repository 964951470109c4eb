// A usage error of either command is its one-line reason and one line saying where the help is, exit 2, nothing on
// stdout: the bot printed its whole 40-line help after the reason, which scrolled the reason out of sight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BOT, CREATE_MATCH, runBot } from '../testkit/arena.js';

const PROGRAMS = { 'sheepfold-node-bot': BOT, 'sheepfold-create-match': CREATE_MATCH };

/** `command` run with `flags`: its exit status, stdout and the lines of its stderr. */
async function run(command, flags) {
  const done = await runBot(flags, {}, PROGRAMS[command]);
  return { status: done.code, stdout: done.stdout, lines: done.stderr.split('\n') };
}

const CASES = [
  ['sheepfold-node-bot', ['--bogus'], /^Unknown option '--bogus'/],
  ['sheepfold-node-bot', ['--token', 't'], /^missing --match \(or SHEEPFOLD_MATCH\)$/],
  ['sheepfold-node-bot', ['--match', 'm', '--token', 't', '--seat', 'x'], /^--seat must be an integer, got "x"$/],
  // A negative number after a flag that takes no value is no value of it, in both (one parser for both).
  ['sheepfold-node-bot', ['--match', 'm', '--token', 't', '--tls', '-1'], /^Unknown option '-1'/],
  ['sheepfold-create-match', ['--bogus'], /^Unknown option '--bogus'/],
  ['sheepfold-create-match', ['--players', '2'], /^missing --game NAME$/],
  ['sheepfold-create-match', ['--game', 'g', '--seed', 'x'], /^--seed must be an integer, got "x"$/],
  ['sheepfold-create-match', ['--game', 'g', '--option', 'rounds'], /^--option wants KEY=VALUE, not "rounds"$/],
  ['sheepfold-create-match', ['--game', 'g', '--tls', '-1'], /^Unknown option '-1'/],
];

test('a usage error is its reason and where the help is, two lines, exit 2', async () => {
  for (const [command, flags, reason] of CASES) {
    const done = await run(command, flags);
    const what = `${command} ${flags.join(' ')}`;
    assert.equal(done.status, 2, what);
    assert.equal(done.stdout, '', what);
    assert.deepEqual(done.lines.slice(1), [`Run '${command} --help' to see its options.`, ''], `${what}: ${done.lines.join('\n')}`);
    assert.ok(done.lines[0].startsWith(`${command}: `), done.lines[0]);
    assert.match(done.lines[0].slice(command.length + 2), reason, what);
  }
});

test("sheepfold-create-match refuses an address grpc-js would fail only when dialling, as a usage error", async () => {
  // It printed grpc-js's "RangeError [ERR_SOCKET_BAD_PORT]: Port should be >= 0 and < 65536", exit 1.
  const done = await run('sheepfold-create-match', ['--game', 'g', '--server', 'ipv4:1.2.3.4:99999']);
  assert.equal(done.status, 2, done.lines.join('\n'));
  assert.deepEqual(done.lines, [
    'sheepfold-create-match: --server "ipv4:1.2.3.4:99999": 99999 is not a port: use 1 to 65535',
    "Run 'sheepfold-create-match --help' to see its options.",
    '',
  ]);
});

test('the help it points to is there: --help prints the usage on stdout, exit 0', async () => {
  for (const command of Object.keys(PROGRAMS)) {
    const done = await run(command, ['--help']);
    assert.equal(done.status, 0, command);
    assert.ok(done.stdout.startsWith(`usage: ${command} `), done.stdout.split('\n')[0]);
  }
});
