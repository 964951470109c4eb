// playSeat given TLS credentials against a real `sheepfold serve --tls-cert --tls-key`, with certificates made by
// openssl: a handshake that fails says why in our words and stops at once, as clients/connect.py does. It was said in
// grpc-js's words ("unable to verify the first certificate"; a certificate naming DNS:example.com read as "the host
// name does not resolve") and retried for rejoinSeconds, then "raise it to wait longer for a server that restarts".
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { grpc, main, playSeat, SeatError } from '../src/index.js';
import { CREATE_MATCH, runBot } from '../testkit/arena.js';
import { startServer } from '../testkit/server.js';

const CA_CONFIG = `[ca]
default_ca = dated
[dated]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any_name
[any_name]
commonName = supplied
[names]
subjectAltName = $ENV::NAMES
`;

/** A self-signed certificate and its key in a folder of its own, naming `names`, valid from `start` to `end`. */
function certificate(folder, names, start, end) {
  const run = (...args) => execFileSync('openssl', args, { cwd: folder, stdio: 'pipe', env: { ...process.env, NAMES: names } });
  writeFileSync(path.join(folder, 'index.txt'), '');
  writeFileSync(path.join(folder, 'serial'), '01\n');
  writeFileSync(path.join(folder, 'ca.cnf'), CA_CONFIG);
  run('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=sheepfold', '-keyout', 'key.pem', '-out', 'request.csr');
  run('ca', '-batch', '-selfsign', '-config', 'ca.cnf', '-keyfile', 'key.pem', '-in', 'request.csr', '-out', 'cert.pem',
    '-extensions', 'names', '-startdate', start, '-enddate', end);
  return { cert: path.join(folder, 'cert.pem'), key: path.join(folder, 'key.pem') };
}

const folder = mkdtempSync(path.join(tmpdir(), 'sheepfold-node-tls-'));
const servers = {};
const pems = {};
const files = {};

before(async () => {
  const made = {
    elsewhere: certificate(mkdtempSync(path.join(folder, 'e-')), 'DNS:elsewhere.example', '20200101000000Z', '20991231000000Z'),
    expired: certificate(mkdtempSync(path.join(folder, 'x-')), 'DNS:localhost,IP:127.0.0.1', '20200101000000Z', '20200201000000Z'),
    good: certificate(mkdtempSync(path.join(folder, 'g-')), 'DNS:localhost,IP:127.0.0.1', '20200101000000Z', '20991231000000Z'),
  };
  for (const [name, { cert, key }] of Object.entries(made)) {
    servers[name] = await startServer(['--tls-cert', cert, '--tls-key', key]);
    pems[name] = readFileSync(cert);
    files[name] = cert;
  }
  servers.plaintext = await startServer();
});

after(async () => {
  for (const server of Object.values(servers)) await server.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** playSeat's rejection, given a few reconnects: the failure must come before any of them is spent. */
async function refusal(address, credentials) {
  const options = { address, matchId: 'm', token: 't', decide: () => 0, credentials, maxReconnects: 3, backoffMs: 1 };
  const error = await playSeat(options).then(
    () => assert.fail('playSeat resolved'),
    (caught) => caught,
  );
  assert.ok(error instanceof SeatError, String(error));
  assert.equal(error.code, grpc.status.UNAVAILABLE, error.message);
  assert.doesNotMatch(error.message, /gave up/, 'a TLS failure is not retried');
  return error.message;
}

describe('playSeat with TLS credentials', () => {
  test('with the root certificate and the host check passed, TLS works: the answer is the server\'s own', { timeout: 30_000 }, async () => {
    // The certificate names elsewhere.example alone; the host check is left out to reach it by 127.0.0.1.
    const credentials = grpc.credentials.createSsl(pems.elsewhere, null, null, { checkServerIdentity: () => undefined });
    const options = { address: servers.elsewhere.address, matchId: 'm', token: 't', decide: () => 0, credentials, maxReconnects: 0 };
    const error = await playSeat(options).catch((caught) => caught);
    assert.equal(error.code, grpc.status.NOT_FOUND, error.message);
  });

  test('a certificate not trusted (no root certificate given for a self-signed one)', { timeout: 30_000 }, async () => {
    const message = await refusal(servers.elsewhere.address, grpc.credentials.createSsl());
    assert.match(
      message,
      /^UNAVAILABLE: cannot reach the server at 127\.0\.0\.1:\d+: the TLS handshake failed: the server's certificate is not trusted \(self[- ]signed certificate\): give its certificate \(or its authority's\) to grpc\.credentials\.createSsl\(rootCerts\)$/,
    );
  });

  test('a certificate that does not name the host', { timeout: 30_000 }, async () => {
    const message = await refusal(servers.elsewhere.address, grpc.credentials.createSsl(pems.elsewhere));
    assert.match(
      message,
      /^UNAVAILABLE: cannot reach the server at 127\.0\.0\.1:\d+: the TLS handshake failed: the server's certificate does not name the address's host \(connect by a host name the certificate holds\)$/,
    );
  });

  test('a certificate that has expired', { timeout: 30_000 }, async () => {
    const message = await refusal(servers.expired.address, grpc.credentials.createSsl(pems.expired));
    assert.match(
      message,
      /: the TLS handshake failed: the server's certificate has expired: the server must serve a renewed one \(or this machine's clock is wrong\)$/,
    );
  });

  test('TLS to a plaintext server', { timeout: 30_000 }, async () => {
    const message = await refusal(servers.plaintext.address, grpc.credentials.createSsl(pems.expired));
    assert.match(message, /: the TLS handshake failed: the server does not speak TLS \(a plaintext server\?\)$/);
  });
});

/** --tls-ca files neither command can use, made once, and what each is told of them. */
let unusable = null;
function unusableCaFiles() {
  if (unusable) return unusable;
  const empty = path.join(folder, 'empty.pem');
  writeFileSync(empty, '');
  const key = path.join(path.dirname(files.good), 'key.pem');
  const fifo = path.join(folder, 'fifo.pem');
  execFileSync('mkfifo', [fifo]);
  const big = path.join(folder, 'big.pem');
  writeFileSync(big, Buffer.alloc(1024 * 1024 + 1, 'A'));
  unusable = [
    [path.join(folder, 'missing.pem'), 'no such file or directory'],
    [folder, 'not a regular file'],
    ['/dev/null', 'not a regular file'],
    [empty, 'holds no PEM certificate'],
    [key, 'holds no PEM certificate'],
    [big, 'larger than a PEM file can be (1 MB)'],
    ['', 'an empty path: name a file'],
    [fifo, 'not a regular file'], // opened without waiting for a writer that never comes
  ];
  return unusable;
}

/** The command (`sheepfold-node-bot`) run in this process with `flags`: its exit status and what it wrote to stderr. */
async function command(...flags) {
  let stderr = '';
  const sink = { write: (text) => { stderr += text; } };
  const status = await main(['--match', 'm', '--token', 't', '--max-reconnects', '3', ...flags], {}, { stdout: { write() {} }, stderr: sink });
  return { status, stderr };
}

/** The command's own last line on stderr (its log lines are JSON). */
const said = ({ stderr }) => stderr.trim().split('\n').filter((line) => line.startsWith('sheepfold-node-bot:')).join('\n');

// The command had no TLS flag, only playSeat had credentials: a bot run as a command could not reach a TLS server.
describe('sheepfold-node-bot --tls-ca and --tls, as `sheepfold bot` has them', () => {
  test('--tls-ca FILE reaches a TLS server: the answer is the server\'s own', { timeout: 30_000 }, async () => {
    const done = await command('--server', servers.good.address, '--tls-ca', files.good);
    assert.equal(done.status, 1);
    assert.equal(said(done), "sheepfold-node-bot: NOT_FOUND: no match 'm'");
  });

  test('the program says nothing but its own lines on stderr (no warning of Node\'s about the IP address)', { timeout: 30_000 }, async () => {
    const bin = new URL('../bin/sheepfold-node-bot.js', import.meta.url).pathname;
    const argv = [bin, '--server', servers.good.address, '--match', 'm', '--token', 't', '--tls-ca', files.good];
    const stderr = await new Promise((resolve) => {
      execFile(process.execPath, argv, (error, _stdout, text) => resolve(`exit ${error?.code ?? 0}\n${text}`));
    });
    const lines = stderr.trim().split('\n');
    assert.equal(lines[0], 'exit 1');
    assert.equal(lines.at(-1), "sheepfold-node-bot: NOT_FOUND: no match 'm'");
    for (const line of lines.slice(1, -1)) assert.ok(line.startsWith('{'), `not a log line: ${line}`);
  });

  test('without them, the TLS server is said to close the connection', { timeout: 30_000 }, async () => {
    const done = await command('--server', servers.good.address);
    assert.match(said(done), /: the server closed the connection \(if it serves TLS, connect with TLS\)$/);
  });

  test('--tls checks against the system\'s authorities, and names the flag that gives another', { timeout: 30_000 }, async () => {
    const done = await command('--server', servers.good.address, '--tls');
    assert.equal(done.status, 1);
    assert.match(
      said(done),
      /^sheepfold-node-bot: UNAVAILABLE: cannot reach the server at 127\.0\.0\.1:\d+: the TLS handshake failed: the server's certificate is not trusted \(self[- ]signed certificate\): give its certificate \(or its authority's\) with --tls-ca FILE$/,
    );
    assert.doesNotMatch(done.stderr, /createSsl/, 'the command\'s user has no grpc-js credentials to give');
  });

  test('a --tls-ca file that cannot be used is a usage error, one line', { timeout: 30_000 }, async () => {
    for (const [file, why] of unusableCaFiles()) {
      const done = await command('--server', servers.good.address, '--tls-ca', file);
      assert.equal(done.status, 2, file);
      assert.equal(done.stderr.split('\n')[0], `sheepfold-node-bot: --tls-ca ${JSON.stringify(file)}: ${why}`);
    }
    const unix = await command('--server', 'unix:/tmp/arena.sock', '--tls');
    assert.equal(unix.status, 2);
    assert.match(unix.stderr, /^sheepfold-node-bot: --tls and --tls-ca are for TCP addresses; a Unix socket is never served with TLS\n/);
  });
});

/** `sheepfold-create-match --game sheep-n-sheep` run with `flags`: resolves to { code, stdout, stderr }. */
const createMatch = (...flags) => runBot(['--game', 'sheep-n-sheep', ...flags], {}, CREATE_MATCH);

// create-match.js had no TLS flag ("connects without TLS"): a match could not be made by hand on a TLS server.
describe('sheepfold-create-match --tls-ca and --tls, as the bot has them', () => {
  test('--tls-ca FILE makes a match on a TLS server, with nothing on stderr', { timeout: 30_000 }, async () => {
    const done = await createMatch('--server', servers.good.address, '--tls-ca', files.good);
    assert.equal(done.stderr, '', 'no warning of Node\'s about the IP address either');
    assert.equal(done.code, 0);
    const made = JSON.parse(done.stdout);
    assert.match(made.match_id, /\S/);
    assert.equal(made.seat_tokens.length, 2);
  });

  test('without them, the TLS server is said to close the connection', { timeout: 30_000 }, async () => {
    const done = await createMatch('--server', servers.good.address);
    assert.equal(done.code, 1);
    assert.match(done.stderr, /^sheepfold-create-match: UNAVAILABLE: .*: the server closed the connection \(if it serves TLS, connect with TLS\)\n$/);
  });

  test('--tls checks against the system\'s authorities, and names the flag that gives another', { timeout: 30_000 }, async () => {
    const done = await createMatch('--server', servers.good.address, '--tls');
    assert.equal(done.code, 1);
    assert.match(
      done.stderr,
      /^sheepfold-create-match: UNAVAILABLE: cannot reach the server at 127\.0\.0\.1:\d+: the TLS handshake failed: the server's certificate is not trusted \(self[- ]signed certificate\): give its certificate \(or its authority's\) with --tls-ca FILE\n$/,
    );
  });

  test('a --tls-ca file that cannot be used, or TLS to a Unix socket, is the bot\'s usage error', { timeout: 30_000 }, async () => {
    const help = "Run 'sheepfold-create-match --help' to see its options.\n";
    for (const [file, why] of unusableCaFiles()) {
      const done = await createMatch('--server', servers.good.address, '--tls-ca', file);
      assert.equal(done.code, 2, file);
      assert.equal(done.stderr, `sheepfold-create-match: --tls-ca ${JSON.stringify(file)}: ${why}\n${help}`);
    }
    const unix = await createMatch('--server', 'unix:/tmp/arena.sock', '--tls');
    assert.equal(unix.code, 2);
    assert.equal(unix.stderr, `sheepfold-create-match: --tls and --tls-ca are for TCP addresses; a Unix socket is never served with TLS\n${help}`);
  });
});
