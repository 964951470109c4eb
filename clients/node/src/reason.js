// grpc-js's own words for a connection that failed or was lost, said in ours, as clients/connect.py's
// `reason` and `went_away` say them for the Python SDK: "the game server at 127.0.0.1:50051 went away",
// not "Connection dropped"; "cannot reach the server at 127.0.0.1:50051: connection refused", not
// "No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:50051. Resolution note: ".
import { grpc } from './proto.js';

// What the connection's last error says (grpc-js passes on Node's socket errors), in a few words.
// The TLS ones come first: a certificate's names ("DNS:example.com") would read as a DNS failure.
// How to give a certificate to trust, said to a user of playSeat; the command says its --tls-ca instead (main.js).
export const TRUST_HINT = 'to grpc.credentials.createSsl(rootCerts)';
const NOT_TRUSTED = /self[- ]signed certificate(?: in certificate chain)?|unable to verify the first certificate|unable to get (?:local )?issuer certificate|certificate signature failure/i;
const CAUSES = [
  [
    /Hostname\/IP does not match certificate's altnames|ERR_TLS_CERT_ALTNAME_INVALID/,
    "the TLS handshake failed: the server's certificate does not name the address's host (connect by a host name the certificate holds)",
  ],
  [
    /certificate has expired/i,
    "the TLS handshake failed: the server's certificate has expired: the server must serve a renewed one (or this machine's clock is wrong)",
  ],
  [
    /certificate is not yet valid/i,
    "the TLS handshake failed: the server's certificate is not yet valid: this machine's clock is behind, or the certificate's start date is ahead",
  ],
  [
    NOT_TRUSTED,
    (last) =>
      `the TLS handshake failed: the server's certificate is not trusted (${NOT_TRUSTED.exec(last)[0]}): ` +
      `give its certificate (or its authority's) ${TRUST_HINT}`,
  ],
  [/wrong version number/i, 'the TLS handshake failed: the server does not speak TLS (a plaintext server?)'],
  [/ECONNREFUSED/, 'connection refused'],
  [/ENOTFOUND|EAI_AGAIN|EAI_NONAME|Name resolution failed|DNS/i, 'the host name does not resolve'],
  [/ENOENT/, 'no socket file at that path'],
  [/EACCES|EPERM/, 'permission denied (the socket file, or the port)'],
  [/ETIMEDOUT/, 'the connection timed out'],
  [/EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL/, 'no route to the host'],
  [/ECONNRESET|EPIPE/, 'the server closed the connection'],
  // The connection closed before the server's HTTP/2 settings came: a TLS server met without TLS,
  // or a port that is not gRPC.
  // Node's http2 on an answer that is not HTTP/2 (a web server, the web viewer's port).
  [/^Protocol error/, 'it does not speak gRPC (it answered in something other than HTTP/2: a web server?)'],
  [/^Failed to connect/, 'the server closed the connection (if it serves TLS, connect with TLS)'],
];

// grpc-js's words when the connection under an open call is lost: the server's process died or closed
// its socket, the network dropped. A server's own UNAVAILABLE (shutting down, its database away) says more.
const LOST = /^Connection dropped$|ECONNRESET|EPIPE|GOAWAY|socket closed|Stream removed/i;

/**
 * Whether our words for a failure say the connection's settings are wrong (a TLS server met without TLS, TLS that
 * fails its handshake, a port that does not speak gRPC) rather than the server away, as clients/connect.py's
 * misconfigured: asking again cannot help.
 */
export function misconfigured(words) {
  return /if it serves TLS, connect with TLS|the TLS handshake failed|it does not speak gRPC/.test(String(words));
}

const at = (address) => (address ? ` at ${address}` : '');

/**
 * Our words for an UNAVAILABLE whose details are grpc-js's own about the connection (`address` is the
 * server's, or empty when unknown); null for anything else, whose details are then said as they are.
 */
export function connectionTrouble(address, code, details) {
  if (code !== grpc.status.UNAVAILABLE) return null;
  const text = String(details ?? '');
  const failed = /^(?:\w+: )?No connection established\. Last error: (.*?)(?:\. Resolution note: .*)?$/s.exec(text);
  if (failed || /^Name resolution failed/.test(text)) {
    const last = failed ? failed[1].replace(/^Error: /, '').replace(/ \(\d{4}-\d\d-\d\dT[^)]*\)$/, '') : text;
    const cause = CAUSES.find(([pattern]) => pattern.test(last));
    const words = typeof cause?.[1] === 'function' ? cause[1](last) : cause?.[1];
    return `cannot reach the server${at(address)}: ${words ?? last}`;
  }
  if (LOST.test(text)) return `the game server${at(address)} went away`;
  return null;
}


/** What an address without the game service is (a --health-port, another program's gRPC server), as clients/connect.py says it. */
export const NOT_A_GAME_PORT = 'the address is not a Sheepfold game port; a --health-port answers health checks alone';

/**
 * A failed call's details as a user reads them: grpc-js's words for the connection in ours (`connectionTrouble`),
 * UNIMPLEMENTED with what it means here (grpc-js says only "Method not found!"), anything else as it came.
 */
export function ourWords(address, code, details) {
  const trouble = connectionTrouble(address, code, details);
  if (trouble) return trouble;
  if (code === grpc.status.UNIMPLEMENTED) return `${details} (no sheepfold.v1.Arena there: ${NOT_A_GAME_PORT})`;
  return details;
}
