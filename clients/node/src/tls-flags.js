// The --tls and --tls-ca flags both commands take (sheepfold-node-bot, sheepfold-create-match), as `sheepfold bot`
// and `sheepfold create` take them: their parsing, the checks of the certificate file, and the credentials made.
import { X509Certificate } from 'node:crypto';
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync } from 'node:fs';
import { grpc } from './proto.js';
import { TRUST_HINT } from './reason.js';
import { shown, UsageError } from './usage.js';

/** The flags as util.parseArgs takes them. */
export const TLS_OPTIONS = Object.freeze({
  tls: { type: 'boolean' },
  'tls-ca': { type: 'string' },
});

/** Their lines in a command's --help. */
export const TLS_HELP = `  --tls                  connect with TLS, checking the server's certificate
                         against the system's certificate authorities (a
                         server started with --tls-cert)
  --tls-ca FILE          connect with TLS, checking the server's certificate
                         against this PEM file (its own certificate if
                         self-signed); implies --tls`;

/** The largest --tls-ca file read, as `sheepfold bot`'s: a certificate chain is a few kilobytes. */
export const MAX_PEM_BYTES = 1024 * 1024;
const CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\s*/g;
const FILE_ERRORS = { ENOENT: 'no such file or directory', EACCES: 'permission denied', ELOOP: 'too many symbolic links' };

/**
 * The certificates of a --tls-ca file, checked as `sheepfold bot` checks its own: a regular file of at most
 * MAX_PEM_BYTES holding at least one PEM certificate, every one of which parses (an empty file would load as no
 * authority at all, and a key file as a certificate grpc-js could not use). Throws UsageError.
 */
export function readCaFile(file) {
  const refused = (why) => new UsageError(`--tls-ca ${shown(file)}: ${why}`);
  if (!file) throw refused('an empty path: name a file');
  let fd;
  try {
    // Opened without waiting (a FIFO), then looked at: a device or a folder is no PEM file.
    fd = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (error) {
    throw refused(FILE_ERRORS[error.code] ?? error.code ?? error.message);
  }
  let pem;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw refused('not a regular file');
    if (stat.size > MAX_PEM_BYTES) throw refused('larger than a PEM file can be (1 MB)');
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const got = readSync(fd, buffer, read, stat.size - read, read);
      if (got === 0) break;
      read += got;
    }
    pem = buffer.subarray(0, read);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw refused(FILE_ERRORS[error.code] ?? error.code ?? error.message);
  } finally {
    closeSync(fd);
  }
  // Only the certificate blocks are read: a bundle's comments may be in any language.
  const blocks = pem.toString('latin1').match(CERTIFICATE) ?? [];
  try {
    if (!blocks.length) throw new Error('no certificate');
    for (const block of blocks) new X509Certificate(block); // eslint-disable-line no-new
  } catch {
    throw refused('holds no PEM certificate');
  }
  return Buffer.from(blocks.join(''), 'latin1');
}

/**
 * What the flags ask for, given the parsed `flags` (`tls`, `'tls-ca'`) and the server's `address`: null for
 * plaintext, else { rootCerts } (null for the system's authorities). Throws UsageError: for a file readCaFile
 * refuses, and for TLS to a Unix socket, which is never served with TLS.
 */
export function tlsSetting(address, flags) {
  if (!flags.tls && flags['tls-ca'] === undefined) return null;
  if (address.startsWith('unix')) {
    throw new UsageError('--tls and --tls-ca are for TCP addresses; a Unix socket is never served with TLS');
  }
  return { rootCerts: flags['tls-ca'] === undefined ? null : readCaFile(flags['tls-ca']) };
}

/** grpc-js credentials for tlsSetting's answer: undefined (plaintext) for null. */
export function tlsCredentials(setting) {
  return setting ? grpc.credentials.createSsl(setting.rootCerts) : undefined;
}

/** How a command's user gives a certificate to trust: its flag, not playSeat's grpc-js credentials. */
export const COMMAND_TRUST_HINT = 'with --tls-ca FILE';

/** A failure's words as a command says them: "give its certificate ... with --tls-ca FILE". */
export function commandWords(text) {
  return String(text).replace(TRUST_HINT, COMMAND_TRUST_HINT);
}

/**
 * Keeps Node's DEP0123 warning off a command's stderr: grpc-js gives Node an IP address (--server 127.0.0.1:PORT
 * --tls-ca FILE) as the TLS server name, which Node ignores with that warning of its own; the certificate is still
 * checked against that address, and the command's user can do nothing about it.
 */
export function hideIpServerNameWarning() {
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning, ...rest) => {
    const code = typeof rest[0] === 'object' ? rest[0]?.code : rest[1];
    if (code !== 'DEP0123') emitWarning.call(process, warning, ...rest);
  };
}
