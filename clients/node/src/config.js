// Command-line flags, falling back to the environment the tournament runner sets.
import { parseArgs } from 'node:util';
import { checkAddress } from './address.js';
import { isLevel } from './log.js';
import { SEED_MAX, SEED_MIN } from './rng.js';
import { REJOIN_SECONDS } from './play.js';
import { DEFAULT_MAX_MESSAGE_BYTES, MAX_MAX_MESSAGE_BYTES, MIN_MAX_MESSAGE_BYTES } from './proto.js';
import { TLS_HELP, TLS_OPTIONS, tlsSetting } from './tls-flags.js';
import { shown, UsageError } from './usage.js';

/** The longest --rejoin-seconds (a day, as `sheepfold bot`): a server away longer has left its matches to their clocks. */
export const MAX_REJOIN_SECONDS = 86_400;

export const USAGE = `usage: sheepfold-node-bot [--server HOST:PORT] [--match ID] [--token TOKEN]
                          [--seat N] [--seed N] [--rejoin-seconds SECONDS]
                          [--max-reconnects N] [--max-message-bytes BYTES]
                          [--tls] [--tls-ca FILE] [--log-level LEVEL]

Join one seat of a Sheepfold match and play it to the end with random legal
actions (seeded). Prints the final result as one JSON line on stdout; logs are
JSON lines on stderr. Flags fall back to the environment variables
SHEEPFOLD_SERVER, SHEEPFOLD_MATCH, SHEEPFOLD_TOKEN, SHEEPFOLD_SEAT and
SHEEPFOLD_SEED (the tournament runner sets them for command bots).

  --server HOST:PORT     the server (default 127.0.0.1:50051)
  --match ID             match id (required)
  --token TOKEN          the seat's secret token (required)
  --seat N               seat number (default: the token's seat)
  --seed N               seed of the bot's random choices, 64 bits (default 0)
  --rejoin-seconds SECONDS
                         how long to keep joining the seat again once its server
                         has gone (a restart), from the first failed attempt,
                         0 to 86400 (default 90)
  --max-reconnects N     give up sooner, after N failed rejoins in a row, 0 to
                         9007199254740991 (default: no limit but --rejoin-seconds)
  --max-message-bytes BYTES
                         largest message received, at least 1048576 (a decision
                         is one message): as large as the server's
                         --max-message-bytes when that is larger (default 4194304)
${TLS_HELP}
  --log-level LEVEL      debug, info, warning or error (default info)

Exit status: 0 after the result, 1 when the seat was lost, 2 on a usage error.`;

export function integer(name, text, { min = 0, max = null } = {}) {
  if (!/^-?\d+$/.test(String(text).trim())) throw new UsageError(`${name} must be an integer, got ${shown(text)}`);
  const value = BigInt(String(text).trim());
  if (value < BigInt(min)) throw new UsageError(`${name} must be at least ${min}, got ${shown(text)}`);
  if (max !== null && value > BigInt(max)) throw new UsageError(`${name} must be at most ${max}, got ${shown(text)}`);
  return value;
}

export function seconds(name, text, max) {
  const trimmed = String(text).trim();
  // Decimal seconds only: Number() would also take "", "0x10" and "1e3".
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(trimmed)) throw new UsageError(`${name} must be a number of seconds, got ${shown(text)}`);
  const value = Number(trimmed);
  if (value > max) throw new UsageError(`${name} must be at most ${max}, got ${shown(text)}`);
  return value;
}

/**
 * `argv` with a negative number after an option that takes a value joined to it (`--seed -1` as `--seed=-1`):
 * util.parseArgs would take `-1` for an option of its own and refuse the line in three lines of its own words
 * ("Option '--seed' argument is ambiguous"), where argparse (`sheepfold bot`, `sheepfold create`) takes it as
 * the value.
 */
function joinNegativeValues(argv, options) {
  const joined = [];
  for (let i = 0; i < argv.length; i += 1) {
    const option = /^--([^=]+)$/.exec(argv[i]);
    if (option && options[option[1]]?.type === 'string' && /^-(\d|\.\d)/.test(argv[i + 1] ?? '')) {
      joined.push(`${argv[i]}=${argv[i + 1]}`);
      i += 1;
    } else {
      joined.push(argv[i]);
    }
  }
  return joined;
}

/**
 * The values of `argv`'s flags (util.parseArgs `options`), as both commands read them: a negative number is the
 * value of the option before it, and a flag parseArgs refuses ("Unknown option '--bogus'") is a UsageError.
 */
export function parseFlags(argv, options) {
  try {
    return parseArgs({ args: joinNegativeValues(argv, options), options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error.message);
  }
}

const OPTIONS = {
  server: { type: 'string' },
  match: { type: 'string' },
  token: { type: 'string' },
  seat: { type: 'string' },
  seed: { type: 'string' },
  'max-reconnects': { type: 'string' },
  'rejoin-seconds': { type: 'string' },
  'max-message-bytes': { type: 'string' },
  'log-level': { type: 'string' },
  ...TLS_OPTIONS,
  help: { type: 'boolean', short: 'h' },
};

/** The bot's settings from argv (without node and the script) and env; throws UsageError. */
export function parseConfig(argv, env = {}) {
  const parsed = parseFlags(argv, OPTIONS);
  if (parsed.help) return { help: true };
  const pick = (flag, variable) => parsed[flag] ?? (env[variable] || undefined);
  // What a usage error calls a setting: the variable it came from, when no flag gave it (as `sheepfold bot`).
  const named = (flag, variable) => (parsed[flag] === undefined && env[variable] ? `$${variable} (--${flag})` : `--${flag}`);
  const config = {
    help: false,
    address: pick('server', 'SHEEPFOLD_SERVER') ?? '127.0.0.1:50051',
    matchId: pick('match', 'SHEEPFOLD_MATCH'),
    token: pick('token', 'SHEEPFOLD_TOKEN'),
    seat: null,
    seed: 0n,
    maxReconnects: null,
    rejoinSeconds: REJOIN_SECONDS,
    maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES,
    logLevel: parsed['log-level'] ?? 'info',
    // TLS: null for plaintext; else the root certificates to check the server's against, null for the system's.
    tls: null,
  };
  const missing = [['match', 'SHEEPFOLD_MATCH'], ['token', 'SHEEPFOLD_TOKEN']]
    .filter(([flag]) => !config[flag === 'match' ? 'matchId' : 'token'])
    .map(([flag, variable]) => `--${flag} (or ${variable})`);
  if (missing.length) throw new UsageError(`missing ${missing.join(' and ')}`);
  // grpc-js throws on an empty target (a stack trace, not a reason): say what is wrong instead.
  if (!config.address.trim()) throw new UsageError(`${named('server', 'SHEEPFOLD_SERVER')} must be HOST:PORT, got ${shown(config.address)}`);
  // A typo ("not an address:xx", port 99999) is not a server to wait for: grpc-js would fail it only
  // when dialling, and the bot would retry it as an unreachable server until it gave up.
  try {
    checkAddress(config.address);
  } catch (error) {
    throw new UsageError(`${named('server', 'SHEEPFOLD_SERVER')} ${error.message}`);
  }
  config.tls = tlsSetting(config.address, parsed);
  const seat = pick('seat', 'SHEEPFOLD_SEAT');
  // The wire carries a seat as an int32: a larger number would wrap round (4294967296 is seat 0).
  if (seat !== undefined) config.seat = Number(integer(named('seat', 'SHEEPFOLD_SEAT'), seat, { max: 2 ** 31 - 1 }));
  const seed = pick('seed', 'SHEEPFOLD_SEED');
  // 64 bits, as createRng takes: a larger seed would play as another one (2**64 as 0).
  if (seed !== undefined) config.seed = integer(named('seed', 'SHEEPFOLD_SEED'), seed, { min: SEED_MIN, max: SEED_MAX });
  if (parsed['max-reconnects'] !== undefined) {
    // Past 2**53 - 1 a Number is no longer a whole count (400 digits make Infinity, which playSeat refuses).
    config.maxReconnects = Number(integer('--max-reconnects', parsed['max-reconnects'], { max: Number.MAX_SAFE_INTEGER }));
  }
  if (parsed['rejoin-seconds'] !== undefined) config.rejoinSeconds = seconds('--rejoin-seconds', parsed['rejoin-seconds'], MAX_REJOIN_SECONDS);
  if (parsed['max-message-bytes'] !== undefined) {
    const text = parsed['max-message-bytes'];
    if (!/^\d+$/.test(text.trim()) || BigInt(text.trim()) < BigInt(MIN_MAX_MESSAGE_BYTES)) {
      throw new UsageError(
        `--max-message-bytes must be a whole number, at least ${MIN_MAX_MESSAGE_BYTES} (1 MiB: a decision is one message), got ${shown(text)}`,
      );
    }
    config.maxMessageBytes = Number(integer('--max-message-bytes', text, { max: MAX_MAX_MESSAGE_BYTES }));
  }
  if (!isLevel(config.logLevel)) throw new UsageError(`--log-level must be debug, info, warning or error, got ${shown(config.logLevel)}`);
  return config;
}
