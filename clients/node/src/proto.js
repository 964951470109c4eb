// Loads the Sheepfold wire contract straight from the repository's proto/ files:
// no generated code, so a change to a .proto file is picked up on the next start.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

export const ARENA_PROTO = 'sheepfold/v1/arena.proto';

/** The repository's proto/ directory (the include root for `sheepfold/v1/...`). */
const REPO_PROTO_DIR = fileURLToPath(new URL('../../../proto', import.meta.url));
/**
 * The copy `npm pack` puts in the tarball (scripts/pack-proto.js): a package installed from it has no
 * repository around it. Preferred when present, so that a proto/ folder of the project the package is
 * installed into (three levels up from node_modules/sheepfold-node-bot/src) is never read instead.
 */
const PACKED_PROTO_DIR = fileURLToPath(new URL('../proto', import.meta.url));

/** The include root the contract is loaded from: the packed copy in an installed package, else the repository's. */
export const PROTO_DIR = existsSync(path.join(PACKED_PROTO_DIR, ARENA_PROTO)) ? PACKED_PROTO_DIR : REPO_PROTO_DIR;

// keepCase: field names as written in the .proto (decision_id, action_index).
// longs: String keeps uint64 ids (decision_id, seed) exact; the server accepts them back as strings.
// oneofs: each decoded oneof gets a virtual field naming its set member (e.g. msg.kind === 'decision').
export const LOADER_OPTIONS = Object.freeze({
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
});

/**
 * The largest message received by default: gRPC's own, and what a server sends at most by default
 * (`sheepfold serve --max-message-bytes`). A server allowed more may send a larger decision: raise
 * the bot's limit to match (`maxMessageBytes`, `--max-message-bytes`).
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** The least it may be, as the server's: a decision is one message (a Stubborn Sheep one reaches about 400 KB). */
export const MIN_MAX_MESSAGE_BYTES = 1024 * 1024;
/** The most: gRPC takes its settings as 32-bit signed integers. */
export const MAX_MAX_MESSAGE_BYTES = 2 ** 31 - 1;

/**
 * The .proto files are nowhere to be found: a package packed with npm's scripts turned off (`ignore-scripts`), so
 * its prepack hook never copied them, or src/ copied out of the repository on its own.
 */
export class ContractNotFound extends Error {
  constructor() {
    super(
      `cannot find the Sheepfold contract ${ARENA_PROTO} in ${REPO_PROTO_DIR} (the repository's proto/) nor in ` +
        `${PACKED_PROTO_DIR} (the copy a tarball carries): in a bot sandbox, let the bot read the repository's proto/ ` +
        "(`sheepfold match --read-only`, a tournament bot's `sandbox.read_only`); pack with `npm pack --ignore-scripts=false`",
    );
    this.name = 'ContractNotFound';
  }
}

let cached = null;

/** The `sheepfold.v1` package: `.Arena` is the client constructor. Throws ContractNotFound without the .proto files. */
export function loadSheepfold() {
  if (cached === null) {
    if (!existsSync(path.join(PROTO_DIR, ARENA_PROTO))) throw new ContractNotFound();
    const definition = protoLoader.loadSync(ARENA_PROTO, LOADER_OPTIONS);
    cached = grpc.loadPackageDefinition(definition).sheepfold.v1;
  }
  return cached;
}

/** Throws a RangeError unless `bytes` is a whole number from MIN_MAX_MESSAGE_BYTES to MAX_MAX_MESSAGE_BYTES. */
export function checkMessageBytes(bytes) {
  if (!(Number.isInteger(bytes) && bytes >= MIN_MAX_MESSAGE_BYTES && bytes <= MAX_MAX_MESSAGE_BYTES)) {
    throw new RangeError(
      `maxMessageBytes must be a whole number from ${MIN_MAX_MESSAGE_BYTES} (1 MiB: a decision is one message) ` +
        `to ${MAX_MAX_MESSAGE_BYTES}, not ${String(bytes).slice(0, 40)}`,
    );
  }
}

/**
 * A client of the Arena service at `address` (host:port), insecure unless credentials are given;
 * `maxMessageBytes`: the largest message it receives (default 4 MiB).
 */
export function arenaClient(address, credentials = grpc.credentials.createInsecure(), { maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES } = {}) {
  checkMessageBytes(maxMessageBytes);
  const { Arena } = loadSheepfold();
  return new Arena(address, credentials ?? grpc.credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.max_receive_message_length': maxMessageBytes,
    // Our own loop decides when to rejoin; keep the channel's reconnect backoff short.
    'grpc.initial_reconnect_backoff_ms': 100,
    'grpc.max_reconnect_backoff_ms': 2_000,
  });
}

/** Promise form of a unary call: `await unary(client, 'ListGames', {})`. */
export function unary(client, method, request, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    client[method](request, { deadline: Date.now() + timeoutMs }, (error, response) => {
      if (error) reject(error);
      else resolve(response);
    });
  });
}

export { grpc };
